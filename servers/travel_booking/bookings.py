"""travel_booking tools: the traveller's profile and payment methods, and managing flight
bookings (list, details, cancel with refund rules, change flight, bags, seats, insurance)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import clock, money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.travel_booking.common import (
    DOMAIN,
    BookingId,
    CabinName,
    OptionalMethodId,
    add_charge,
    bag_allowance,
    bookable_date,
    booked_within_24h,
    booking_out,
    booking_summary,
    check_cabin,
    check_not_departed,
    confirmed_upcoming,
    date_arg,
    method_out,
    now,
    operating_flight,
    out,
    pay_method_for,
    refund_quote,
    refund_shares,
)
from servers.travel_booking.data import (
    BAG_FEE,
    CHANGE_FEE,
    EXTRA_LEGROOM_FEE,
    EXTRA_LEGROOM_ROWS,
    INSURANCE_CHARGE,
    INSURANCE_PER_PASSENGER,
    LAYOUT,
    MAX_BAGS_PER_PASSENGER,
    MAX_PASSENGERS,
    all_seats,
    departure_dt,
    fare,
    free_seats,
    seats_left,
)
from servers.travel_booking.data import (
    fee as fee_of,
)
from servers.travel_booking.models import (
    BaggageOut,
    Booking,
    BookingList,
    CancelOut,
    ChangeOut,
    InsuranceOut,
    PaymentMethodList,
    Profile,
    SeatOut,
)

BENEFITS = {"silver": ["priority check-in"],
            "gold": ["priority check-in", "1 extra free checked bag per passenger",
                     "free extra-legroom seats", "lounge access"],
            "platinum": ["priority check-in", "2 extra free checked bags per passenger",
                         "free extra-legroom seats", "lounge access", "no change fees"]}


@DOMAIN.tool(read_only=True)
def get_traveler_profile(s: State) -> Profile:
    """The user's traveller profile: contact, passport, home airport, loyalty tier and miles,
    and saved co-travellers."""
    profile = dict(s.var("profile"))
    member = profile.pop("member_number")
    tier = s.var("loyalty_tier")
    return {**profile, "loyalty": {"program": "Horizon Rewards", "member_number": member,
                                   "tier": tier, "miles": s.var("loyalty_miles"),
                                   "benefits": BENEFITS[tier]},
            "saved_passengers": s.var("saved_passengers")}


@DOMAIN.tool(read_only=True)
def list_payment_methods(s: State) -> PaymentMethodList:
    """List the user's saved payment methods (cards with expiry, travel voucher balance)."""
    return {"payment_methods": [method_out(s, m) for m in s["payment_methods"].rows()]}


@DOMAIN.tool(read_only=True)
def list_bookings(
        s: State,
        status: Annotated[Literal["held", "confirmed", "flown", "cancelled", "expired"] | None,
                          Arg("Only bookings with this status")] = None,
        upcoming_only: Annotated[bool, Arg("Only flights that have not departed yet")] = False,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> BookingList:
    """List the user's flight bookings in flight-date order."""
    rows = [b for b in s["bookings"].rows()
            if (status is None or b["status"] == status)
            and (not upcoming_only or b["date"] >= clock.today(s).isoformat())]
    # departures carry their airports' offsets: order and filter them as instants
    out = sorted((booking_summary(s, b) for b in rows),
                 key=lambda b: (dt.datetime.fromisoformat(b["departure"]), b["booking_id"]))
    if upcoming_only:
        out = [b for b in out if dt.datetime.fromisoformat(b["departure"]) > clock.now(s)]
    pg = paging.page(out, limit, cursor, key="booking_id")
    return {"bookings": pg.rows, "total": len(out), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_booking(s: State, booking_id: BookingId) -> Booking:
    """Full details of one flight booking: passengers and seats, bags, charges, refund
    if cancelled now."""
    return booking_out(s, s["bookings"].get(booking_id))


@DOMAIN.tool(read_only=False)
def cancel_booking(
        s: State, booking_id: BookingId,
        reason: Annotated[Literal["change_of_plans", "schedule_conflict", "illness", "other"],
                          Arg("Why the traveller cancels")]) -> CancelOut:
    """Cancel a held or confirmed flight booking. Refund rules: full within 24 hours of
    booking, for business fares, or (less the premium) with travel insurance; otherwise a
    per-passenger fee (economy 200, premium economy 100 USD-like, in the world's currency).
    Each method gets back what it paid
    (bags paid with a voucher go back to the voucher); the fee is kept from the fare's method,
    an insurance premium from the method that paid it."""
    booking = s["bookings"].get(booking_id)
    refund, fee, policy = refund_quote(s, booking)
    shares = refund_shares(booking, refund)
    for method, amount in shares:
        booking = add_charge(s, booking, "refund on cancellation", -amount, method)
    row = s["bookings"].update(booking_id, status="cancelled", cancelled_at=now(s),
                               cancel_reason=reason, hold_expires_at=None)
    cur = money.currency_of(s)
    return {"booking": booking_out(s, row), "refund_amount": out(s, refund),
            "cancellation_fee": out(s, fee), "currency": cur,
            "refunds": [{"payment_method_id": m, "amount": out(s, a), "currency": cur}
                        for m, a in shares],
            "policy": policy}


@DOMAIN.tool(read_only=False)
def change_flight(
        s: State, booking_id: BookingId,
        new_flight_number: Annotated[str, Arg(
            "Flight number on the same route, e.g. 'SK214' (from search_flights)",
            min_length=3, max_length=8)],
        new_date: Annotated[str, date_arg("New departure date")],
        cabin: Annotated[CabinName | None, Arg("New cabin (default: keep the cabin)")] = None,
        payment_method_id: OptionalMethodId = None) -> ChangeOut:
    """Move a confirmed booking to another flight or date on the same route. The fare
    difference is charged (or refunded) plus a change fee per passenger (economy 75, premium
    economy 50 USD-like, in the world's currency; none for business or platinum members);
    seat choices are cleared."""
    booking = confirmed_upcoming(s, booking_id, "change the flight")
    method = pay_method_for(s, booking, payment_method_id)
    day = bookable_date(new_date, "new_date")
    flight = operating_flight(s, new_flight_number, day)
    old = s["flights"].get(booking["flight_number"])
    if (flight["origin"], flight["destination"]) != (old["origin"], old["destination"]):
        raise ToolError(f"booking {booking_id} flies {old['origin']}-{old['destination']} but "
                        f"{flight['flight_number']} flies {flight['origin']}-"
                        f"{flight['destination']}; a change must keep the route (cancel and "
                        "book again to go elsewhere)")
    cabin = cabin or booking["cabin"]
    check_cabin(flight, cabin)
    check_not_departed(s, flight, day)
    if (flight["flight_number"], day.isoformat(), cabin) == (
            booking["flight_number"], booking["date"], booking["cabin"]):
        raise ToolError(f"booking {booking_id} is already on {flight['flight_number']} on "
                        f"{booking['date']} in {cabin}")
    pax = len(booking["passengers"])
    left = seats_left(s, flight, day, cabin)
    if left < pax:
        raise ToolError(f"only {left} {cabin} seat(s) left on {flight['flight_number']} on "
                        f"{day.isoformat()} for {pax} passenger(s); pick another flight")
    new_fare = fare(s.var("inventory_seed"), flight, day, cabin)
    difference = (new_fare - booking["fare_per_passenger"]) * pax
    waived = (s.var("loyalty_tier") == "platinum"
              or booked_within_24h(s, booking))
    fee = 0 if waived else fee_of(s, CHANGE_FEE[booking["cabin"]]) * pax
    net = difference + fee
    what = f"change to {flight['flight_number']} on {day.isoformat()} ({cabin})"
    if net > 0:
        booking = add_charge(s, booking, f"{what}: fare difference and change fee", net, method)
    elif net < 0:
        booking = add_charge(s, booking, f"{what}: fare difference refund", net,
                             booking["payment_method_id"])
    row = s["bookings"].update(
        booking_id, flight_number=flight["flight_number"], date=day.isoformat(), cabin=cabin,
        fare_per_passenger=new_fare,
        passengers=[{"name": p["name"], "seat": None} for p in booking["passengers"]])
    return {"booking": booking_out(s, row), "fare_difference": out(s, difference),
            "change_fee": out(s, fee), "amount_charged": out(s, max(net, 0)),
            "amount_refunded": out(s, max(-net, 0)), "currency": money.currency_of(s)}


@DOMAIN.tool(read_only=False)
def add_baggage(
        s: State, booking_id: BookingId,
        bags: Annotated[int, Arg("Checked bags to add to the booking", minimum=1,
                                 maximum=MAX_BAGS_PER_PASSENGER * MAX_PASSENGERS)],
        payment_method_id: OptionalMethodId = None) -> BaggageOut:
    """Add checked bags to a confirmed booking. Bags within the free allowance (cabin and
    loyalty tier) cost nothing; each extra bag costs 45 USD-like (in the world's currency)."""
    booking = confirmed_upcoming(s, booking_id, "add checked bags")
    method = pay_method_for(s, booking, payment_method_id)
    pax = len(booking["passengers"])
    total = booking["checked_bags"] + bags
    if total > MAX_BAGS_PER_PASSENGER * pax:
        raise ToolError(f"at most {MAX_BAGS_PER_PASSENGER} checked bags per passenger "
                        f"({MAX_BAGS_PER_PASSENGER * pax} for this booking); it already has "
                        f"{booking['checked_bags']}")
    allowance = bag_allowance(s, booking)
    extra = max(0, total - allowance) - max(0, booking["checked_bags"] - allowance)
    cost = fee_of(s, BAG_FEE) * extra
    if cost > 0:
        booking = add_charge(s, booking, f"{extra} extra checked bag(s)", cost, method)
    row = s["bookings"].update(booking_id, checked_bags=total)
    return {"booking": booking_out(s, row), "bags_added": bags, "free_bag_allowance": allowance,
            "amount_charged": out(s, cost), "currency": money.currency_of(s)}


@DOMAIN.tool(read_only=False)
def select_seat(
        s: State, booking_id: BookingId,
        passenger_name: Annotated[str, Arg("Name of a passenger on the booking", min_length=1)],
        seat: Annotated[str, Arg("Seat code from get_seat_map, e.g. '23A'",
                                 pattern=r"\s*\d{1,2}[A-Fa-f]\s*")],
        payment_method_id: OptionalMethodId = None) -> SeatOut:
    """Choose (or change) a passenger's seat on a confirmed booking. Extra-legroom economy
    seats cost 35 USD-like in the world's currency (free for gold and platinum members)."""
    booking = confirmed_upcoming(s, booking_id, "choose seats")
    method = pay_method_for(s, booking, payment_method_id)
    wanted = " ".join(passenger_name.split()).lower()
    names = [p["name"] for p in booking["passengers"]]
    if wanted not in [n.lower() for n in names]:
        raise ToolError(f"no passenger named {passenger_name!r} on booking {booking_id}; its "
                        f"passengers are {', '.join(names)}")
    seat = seat.strip().upper()
    cabin = booking["cabin"]
    if seat not in all_seats(cabin):
        rows, letters = LAYOUT[cabin]
        raise ToolError(f"seat {seat} is not in the {cabin} cabin (rows {rows.start}-"
                        f"{rows.stop - 1}, seats {letters}); see get_seat_map")
    day = dt.date.fromisoformat(booking["date"])
    if seat not in free_seats(s, booking["flight_number"], day, cabin):
        raise ToolError(f"seat {seat} on {booking['flight_number']} on {booking['date']} is "
                        "taken; pick a free seat from get_seat_map")
    fee = 0
    if (cabin == "economy" and int(seat[:-1]) in EXTRA_LEGROOM_ROWS
            and s.var("loyalty_tier") not in ("gold", "platinum")):
        fee = fee_of(s, EXTRA_LEGROOM_FEE)
        booking = add_charge(s, booking, f"extra-legroom seat {seat}", fee, method)
    name = names[[n.lower() for n in names].index(wanted)]
    passengers = [{"name": p["name"], "seat": seat if p["name"] == name else p["seat"]}
                  for p in booking["passengers"]]
    row = s["bookings"].update(booking_id, passengers=passengers)
    return {"booking": booking_out(s, row), "passenger_name": name, "seat": seat,
            "fee_charged": out(s, fee), "currency": money.currency_of(s)}


@DOMAIN.tool(read_only=False)
def purchase_travel_insurance(s: State, booking_id: BookingId,
                              payment_method_id: OptionalMethodId = None) -> InsuranceOut:
    """Add travel insurance (30 USD-like per passenger, in the world's currency) to a
    confirmed booking, at least 24 hours
    before departure. Insured fares are refunded in full (less the premium) on cancellation."""
    booking = confirmed_upcoming(s, booking_id, "buy travel insurance")
    method = pay_method_for(s, booking, payment_method_id)
    if booking["insurance"]:
        raise ToolError(f"booking {booking_id} already has travel insurance")
    flight = s["flights"].get(booking["flight_number"])
    if departure_dt(flight, dt.date.fromisoformat(booking["date"])) - clock.now(s) < dt.timedelta(
            hours=24):
        raise ToolError(f"booking {booking_id} departs within 24 hours; travel insurance must "
                        "be bought at least 24 hours before departure")
    premium = fee_of(s, INSURANCE_PER_PASSENGER) * len(booking["passengers"])
    booking = add_charge(s, booking, INSURANCE_CHARGE, premium, method)
    row = s["bookings"].update(booking_id, insurance=True, insurance_premium=premium)
    return {"booking": booking_out(s, row), "premium_charged": out(s, premium),
            "currency": money.currency_of(s)}
