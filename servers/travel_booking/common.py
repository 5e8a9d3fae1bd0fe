"""travel_booking: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import clock, money
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.travel_booking.data import (
    CANCEL_FEE,
    FREE_BAGS,
    INSURANCE_CHARGE,
    LAST_BOOKABLE,
    TIER_BONUS_BAGS,
    TODAY,
    WEEKDAYS,
    arrival_dt,
    departure_dt,
    operates,
)
from servers.travel_booking.data import fee as fee_of
from servers.travel_booking.models import Booking, BookingSummary, PaymentMethod
from servers.travel_booking.seed import build

DOMAIN = Domain("travel_booking", "Travel agency: flights between world cities, hotels, the "
                "user's bookings, seats, baggage, insurance, loyalty and payment methods.",
                build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"bookings": ("created_at", "hold_expires_at", "cancelled_at", "charges.at"),
                        "hotel_reservations": ("created_at", "cancelled_at")}

CabinName = Literal["economy", "premium_economy", "business"]
DATE_PATTERN = r"\d{4}-\d{2}-\d{2}"
FlightNumber = Annotated[str, Arg("Flight number, e.g. 'SK214' (from search_flights)",
                                  min_length=3, max_length=8)]
BookingId = Annotated[str, Arg("Flight booking id, e.g. 'bk_gbgzny' (from list_bookings)")]
OptionalMethodId = Annotated[str | None, Arg(
    "Payment method id, e.g. 'pm_etab2s' (from list_payment_methods); default: the method that "
    "paid for the booking")]
MILES_FACTOR = {"economy": 1.0, "premium_economy": 1.5, "business": 2.0}


def date_arg(description: str) -> Arg:
    return Arg(f"{description} (YYYY-MM-DD)", pattern=DATE_PATTERN)


def fmt(when: dt.datetime) -> str:
    """An aware instant as ISO 8601 with its offset (airport times keep their airport's)."""
    return clock.stamp(when)


def now(s: State) -> str:
    """The world clock, one minute further per state-changing call."""
    return clock.tick(s)


def parse_date(value: str, what: str) -> dt.date:
    """A plain calendar date (the one date parser: clock.parse_date)."""
    return clock.parse_date(value, what)

def bookable_date(value: str, what: str) -> dt.date:
    date = parse_date(value, what)
    if date < TODAY:
        raise ToolError(f"{what} {value} is in the past; today is {TODAY.isoformat()}")
    if date > LAST_BOOKABLE:
        raise ToolError(f"{what} {value} is too far ahead; bookings open up to "
                        f"{LAST_BOOKABLE.isoformat()}")
    return date


def flight_row(s: State, flight_number: str) -> Row:
    return s["flights"].get(flight_number.strip().upper().replace(" ", ""))


def operating_flight(s: State, flight_number: str, date: dt.date) -> Row:
    """The scheduled flight, checked to operate on that date."""
    flight = flight_row(s, flight_number)
    if not operates(flight, date):
        days = ", ".join(WEEKDAYS[d] for d in flight["days"])
        raise ToolError(f"flight {flight['flight_number']} does not operate on "
                        f"{WEEKDAYS[date.weekday()]} {date.isoformat()}; it flies {days}. "
                        "Use search_flights to see flights on that date")
    return flight


def check_not_departed(s: State, flight: Row, date: dt.date) -> None:
    if departure_dt(flight, date) <= clock.now(s):
        raise ToolError(f"flight {flight['flight_number']} on {date.isoformat()} has already "
                        f"departed (at {fmt(departure_dt(flight, date))}); pick a later flight")


def check_cabin(flight: Row, cabin: str) -> None:
    if cabin not in flight["cabins"]:
        raise ToolError(f"flight {flight['flight_number']} has no {cabin} cabin; it offers "
                        f"{', '.join(flight['cabins'])}")


# ----------------------------------------------------------------------------- payments
def out(s: State, minor: int | None) -> int | float | None:
    """Minor units -> a JSON number in major units (None stays None)."""
    return None if minor is None else money.amount_out(s, minor)


def method_out(s: State, row: Row) -> PaymentMethod:
    return {**row, "balance": out(s, row["balance"]), "currency": money.currency_of(s),
            "expired": row["expires"] < TODAY.isoformat()[:7]}


def charge(s: State, method_id: str, amount: int) -> None:
    """Take `amount` from a payment method (vouchers have a balance; cards expire)."""
    method = s["payment_methods"].get(method_id)
    if method["expires"] < TODAY.isoformat()[:7]:
        raise ToolError(f"payment method {method_id} ({method['label']}) expired in "
                        f"{method['expires']}; pay with another method from "
                        "list_payment_methods")
    if method["kind"] == "travel_voucher" and amount > 0:
        if amount > method["balance"]:
            cur = money.currency_of(s)
            raise ToolError(f"travel voucher {method_id} has {money.fmt(method['balance'], cur)} "
                            f"left, not enough for {money.fmt(amount, cur)}; pay with a card "
                            "from list_payment_methods")
        s["payment_methods"].update(method_id, balance=method["balance"] - amount)


def refund_to(s: State, method_id: str, amount: int) -> None:
    """Money back to the method that paid (a voucher's balance grows; cards are credited)."""
    method = s["payment_methods"].get(method_id)
    if method["kind"] == "travel_voucher" and amount > 0:
        s["payment_methods"].update(method_id, balance=method["balance"] + amount)


def pay_method_for(s: State, booking: Row, method_id: str | None) -> str:
    if method_id is not None:
        s["payment_methods"].get(method_id)
        return method_id
    if booking["payment_method_id"] is None:
        raise ToolError(f"booking {booking['booking_id']} has no payment method yet; give "
                        "payment_method_id (see list_payment_methods)")
    return booking["payment_method_id"]


def add_charge(s: State, booking: Row, description: str, amount: int, method_id: str
               ) -> Row:
    """Record a charge (positive) or refund (negative, minor units) on the booking and move
    the money."""
    if amount > 0:
        charge(s, method_id, amount)
    elif amount < 0:
        refund_to(s, method_id, -amount)
    entry = {"description": description, "amount": amount, "payment_method_id": method_id,
             "at": now(s)}
    return s["bookings"].update(booking["booking_id"], charges=[*booking["charges"], entry])


def refund_shares(booking: Row, refund: int) -> list[tuple[str, int]]:
    """Split a cancellation refund over the methods that paid, each getting back what it paid
    (net of earlier refunds) less its part of what is kept. What is kept comes first from
    the insurance premium's payer when the premium is what is kept, else from the fare's
    payer (the fee is the fare's), then from the others in the order they paid."""
    paid: dict[str, int] = {}
    for c in booking["charges"]:
        paid[c["payment_method_id"]] = paid.get(c["payment_method_id"], 0) + c["amount"]
    paid = {m: v for m, v in paid.items() if v > 0}
    keep = sum(paid.values()) - refund
    first = ([c["payment_method_id"] for c in booking["charges"]
              if c["description"] == INSURANCE_CHARGE] if booking["insurance"]
             else [booking["payment_method_id"]])
    for m in [*first, *paid]:
        take = min(keep, paid.get(m, 0))
        if take > 0:
            paid[m], keep = paid[m] - take, keep - take
    return [(m, v) for m, v in paid.items() if v > 0]


# ----------------------------------------------------------------------------- bookings
def total_paid(booking: Row) -> int:
    return sum(c["amount"] for c in booking["charges"])


def bag_allowance(s: State, booking: Row) -> int:
    per_pax = FREE_BAGS[booking["cabin"]] + TIER_BONUS_BAGS[s.var("loyalty_tier")]
    return per_pax * len(booking["passengers"])


def is_upcoming(s: State, booking: Row) -> bool:
    flight = s["flights"].get(booking["flight_number"])
    return departure_dt(flight, dt.date.fromisoformat(booking["date"])) > clock.now(s)


def booked_within_24h(s: State, booking: Row) -> bool:
    """Was the booking made in the last 24 hours (compared as instants)?"""
    return dt.datetime.fromisoformat(booking["created_at"]) >= clock.now(s) - dt.timedelta(
        hours=24)


def refund_quote(s: State, booking: Row) -> tuple[int, int, str]:
    """(refund, fee, policy) if the booking were cancelled now; raise if it cannot be."""
    bid, status = booking["booking_id"], booking["status"]
    if status == "held":
        return 0, 0, "held booking: nothing was charged, the seats are released"
    if status != "confirmed":
        raise ToolError(f"booking {bid} is {status}; only held or confirmed bookings can be "
                        "cancelled")
    if not is_upcoming(s, booking):
        raise ToolError(f"booking {bid} is for a flight that has already departed; it can no "
                        "longer be cancelled")
    paid = total_paid(booking)
    if booked_within_24h(s, booking):
        return paid, 0, "free cancellation within 24 hours of booking: full refund"
    if booking["cabin"] == "business":
        return paid, 0, "business fares are fully refundable"
    if booking["insurance"]:
        refund = paid - booking["insurance_premium"]
        return refund, booking["insurance_premium"], ("travel insurance covers the fare; the "
                                                      "insurance premium is not refunded")
    per_pax = fee_of(s, CANCEL_FEE[booking["cabin"]])
    kept = min(paid, per_pax * len(booking["passengers"]))
    return paid - kept, kept, (f"{booking['cabin']} fares carry a cancellation fee of "
                               f"{money.fmt(per_pax, money.currency_of(s))} per passenger")


def booking_out(s: State, row: Row) -> Booking:
    flight = s["flights"].get(row["flight_number"])
    date = dt.date.fromisoformat(row["date"])
    refund, cur = None, money.currency_of(s)
    if row["status"] in ("held", "confirmed") and is_upcoming(s, row):
        refund = refund_quote(s, row)[0]
    miles = 0
    if row["status"] in ("confirmed", "flown"):
        miles = int(flight["distance_km"] * 0.621 * MILES_FACTOR[row["cabin"]])
    return {"booking_id": row["booking_id"], "status": row["status"],
            "flight_number": row["flight_number"], "airline": flight["airline"],
            "origin": flight["origin"], "destination": flight["destination"],
            "date": row["date"], "departure": fmt(departure_dt(flight, date)),
            "arrival": fmt(arrival_dt(flight, date)), "cabin": row["cabin"],
            "passengers": row["passengers"], "checked_bags": row["checked_bags"],
            "free_bag_allowance": bag_allowance(s, row),
            "fare_per_passenger": out(s, row["fare_per_passenger"]),
            "insurance": row["insurance"], "payment_method_id": row["payment_method_id"],
            "charges": [{**c, "amount": out(s, c["amount"]), "currency": cur}
                        for c in row["charges"]],
            "total_paid": out(s, total_paid(row)), "currency": cur,
            "created_at": row["created_at"],
            "hold_expires_at": row["hold_expires_at"], "cancelled_at": row["cancelled_at"],
            "refund_if_cancelled": out(s, refund), "miles_to_earn": miles}


def booking_summary(s: State, row: Row) -> BookingSummary:
    flight = s["flights"].get(row["flight_number"])
    return {"booking_id": row["booking_id"], "status": row["status"],
            "flight_number": row["flight_number"], "origin": flight["origin"],
            "destination": flight["destination"], "date": row["date"],
            "departure": fmt(departure_dt(flight, dt.date.fromisoformat(row["date"]))),
            "cabin": row["cabin"], "passenger_count": len(row["passengers"]),
            "total_paid": out(s, total_paid(row)), "currency": money.currency_of(s)}


def confirmed_upcoming(s: State, booking_id: str, action: str) -> Row:
    """A confirmed booking whose flight has not left yet (for changes and add-ons)."""
    booking = s["bookings"].get(booking_id)
    if booking["status"] == "held":
        raise ToolError(f"booking {booking_id} is only held; confirm it with confirm_booking "
                        f"before you {action}")
    if booking["status"] != "confirmed":
        raise ToolError(f"booking {booking_id} is {booking['status']}; you can only {action} "
                        "on a confirmed booking")
    if not is_upcoming(s, booking):
        raise ToolError(f"the flight of booking {booking_id} has already departed; you can no "
                        f"longer {action}")
    return booking
