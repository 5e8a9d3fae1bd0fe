"""travel_booking tools: airports, flight search and status, seat maps, hold and confirm."""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Annotated, Literal

from servers.core import clock, money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.travel_booking.common import (
    DOMAIN,
    CabinName,
    FlightNumber,
    bookable_date,
    booking_out,
    charge,
    check_cabin,
    check_not_departed,
    date_arg,
    fmt,
    now,
    operating_flight,
    out,
    parse_date,
)
from servers.travel_booking.data import (
    EXTRA_LEGROOM_FEE,
    EXTRA_LEGROOM_ROWS,
    LAST_BOOKABLE,
    LAYOUT,
    MAX_PASSENGERS,
    STATUS_HISTORY_DAYS,
    TODAY,
    WEEKDAYS,
    active_bookings_on,
    arrival_dt,
    departure_dt,
    fare,
    fee,
    free_seats,
    operates,
    seats_left,
)
from servers.travel_booking.models import (
    AirportList,
    Booking,
    FlightOffer,
    FlightSearch,
    FlightStatus,
    SeatMap,
)

Place = Annotated[str, Arg("Airport code (e.g. 'LIS') or city name (e.g. 'Lisbon')",
                           min_length=2, max_length=60)]
NAME_RE = re.compile(r"[A-Za-zÀ-ÿ'\-]+( [A-Za-zÀ-ÿ'\-]+)+")


def _airport(s: State, value: str, what: str) -> Row:
    text = value.strip()
    row = s["airports"].find(text.upper())
    if row is None:
        row = next((a for a in s["airports"].rows() if a["city"].lower() == text.lower()), None)
    if row is None:
        raise ToolError(f"unknown airport or city {value!r} for {what}; use list_airports to "
                        "see the airports served")
    return row


def _offer(s: State, flight: Row, date: dt.date, cabin: str, passengers: int) -> FlightOffer:
    price = fare(s.var("inventory_seed"), flight, date, cabin)
    return {"flight_number": flight["flight_number"], "airline": flight["airline"],
            "origin": flight["origin"], "destination": flight["destination"],
            "date": date.isoformat(), "departure": fmt(departure_dt(flight, date)),
            "arrival": fmt(arrival_dt(flight, date)),
            "duration_minutes": flight["duration_minutes"], "stops": 0,
            "aircraft": flight["aircraft"], "cabin": cabin, "fare": out(s, price),
            "total_fare": out(s, price * passengers), "currency": money.currency_of(s),
            "seats_left": seats_left(s, flight, date, cabin)}


@DOMAIN.tool(read_only=True)
def list_airports(s: State, query: Annotated[str | None, Arg(
        "Part of an airport code, airport name, city or country (case-insensitive)")] = None
                  ) -> AirportList:
    """List the airports served (code, name, city, country, UTC offset)."""
    q = (query or "").strip().lower()
    rows = [a for a in s["airports"].rows()
            if not q or any(q in a[k].lower() for k in ("code", "name", "city", "country"))]
    return {"airports": sorted(rows, key=lambda a: a["code"])}


@DOMAIN.tool(read_only=True)
def search_flights(
        s: State, origin: Place, destination: Place,
        date: Annotated[str, date_arg("Departure date, from today on")],
        cabin: Annotated[CabinName, Arg("Cabin class")] = "economy",
        passengers: Annotated[int, Arg("Number of travellers", minimum=1,
                                       maximum=MAX_PASSENGERS)] = 1,
        max_price: Annotated[float | None, Arg("Only fares up to this price per passenger (USD)",
                                               minimum=1)] = None,
        sort: Annotated[Literal["departure", "price", "duration"], Arg(
            "Order of the results")] = "departure") -> FlightSearch:
    """Search direct flights between two airports on a date, with fares and seats left."""
    src, dst = _airport(s, origin, "origin"), _airport(s, destination, "destination")
    if src["code"] == dst["code"]:
        raise ToolError(f"origin and destination are both {src['code']}; pick two different "
                        "airports")
    day = bookable_date(date, "date")
    route = [f for f in s["flights"].rows()
             if f["origin"] == src["code"] and f["destination"] == dst["code"]]
    flying = [f for f in route if operates(f, day) and departure_dt(f, day) > clock.now(s)]
    notice = None
    if not flying:
        days = sorted({d for f in route for d in f["days"]})
        notice = (f"no flights left from {src['code']} to {dst['code']} on "
                  f"{WEEKDAYS[day.weekday()]} {day.isoformat()}; this route flies on "
                  f"{', '.join(WEEKDAYS[d] for d in days)}")
    elif not any(cabin in f["cabins"] for f in flying):
        notice = (f"no {cabin} cabin on {src['code']}-{dst['code']} flights; "
                  "premium economy is only sold on long-haul routes")
    offers = [_offer(s, f, day, cabin, passengers) for f in flying if cabin in f["cabins"]]
    offers = [o for o in offers if max_price is None or o["fare"] <= max_price]
    if offers and all(o["seats_left"] < passengers for o in offers):
        notice = f"every flight that day has fewer than {passengers} {cabin} seat(s) left"
    key = {"departure": lambda o: o["departure"], "price": lambda o: (o["fare"], o["departure"]),
           "duration": lambda o: (o["duration_minutes"], o["departure"])}[sort]
    offers.sort(key=key)
    return {"flights": offers, "total": len(offers), "notice": notice}


@DOMAIN.tool(read_only=True)
def get_flight_status(s: State, flight_number: FlightNumber, date: Annotated[
        str, date_arg(f"Flight date, up to {STATUS_HISTORY_DAYS} days back")]) -> FlightStatus:
    """Live status of a flight on a date: delays, departure/arrival estimates, gate."""
    day = parse_date(date, "date")
    if day < TODAY - dt.timedelta(days=STATUS_HISTORY_DAYS) or day > LAST_BOOKABLE:
        raise ToolError(f"flight status is available from "
                        f"{(TODAY - dt.timedelta(days=STATUS_HISTORY_DAYS)).isoformat()} to "
                        f"{LAST_BOOKABLE.isoformat()}; {date} is outside that range")
    flight = operating_flight(s, flight_number, day)
    rng = random.Random(f"{s.var('inventory_seed')}:status:{flight['flight_number']}:{date}")
    delay = 0 if rng.random() < 0.7 else rng.choice([10, 15, 20, 30, 45, 60, 90])
    dep, arr = departure_dt(flight, day), arrival_dt(flight, day)
    terminal, gate = rng.choice("1235"), f"{rng.choice('ABCDE')}{rng.randint(1, 40)}"
    if day > TODAY + dt.timedelta(days=1):
        delay, status = 0, "scheduled"
    elif day < TODAY:
        status = "landed"
    else:
        current = clock.now(s)
        est_dep, est_arr = dep + dt.timedelta(minutes=delay), arr + dt.timedelta(minutes=delay)
        if est_arr <= current:
            status = "landed"
        elif est_dep <= current:
            status = "departed"
        elif day > TODAY:
            status = "delayed" if delay else "on_time"
        elif est_dep - current <= dt.timedelta(minutes=40):
            status = "boarding"
        else:
            status = "delayed" if delay else "on_time"
    shift = dt.timedelta(minutes=delay)
    return {"flight_number": flight["flight_number"], "date": day.isoformat(),
            "origin": flight["origin"], "destination": flight["destination"], "status": status,
            "scheduled_departure": fmt(dep), "estimated_departure": fmt(dep + shift),
            "scheduled_arrival": fmt(arr), "estimated_arrival": fmt(arr + shift),
            "delay_minutes": delay, "terminal": terminal, "gate": gate}


def _position(seat: str) -> str:
    letter = seat[-1]
    return "window" if letter in "AF" else "aisle" if letter in "CD" else "middle"


@DOMAIN.tool(read_only=True)
def get_seat_map(
        s: State, flight_number: FlightNumber,
        date: Annotated[str, date_arg("Flight date")], cabin: Annotated[CabinName, Arg(
            "Cabin to show")],
        position: Annotated[Literal["window", "aisle", "middle"] | None, Arg(
            "Only seats in this position")] = None) -> SeatMap:
    """Show the free seats of one cabin on a flight (seat codes like '23A')."""
    day = bookable_date(date, "date")
    flight = operating_flight(s, flight_number, day)
    check_cabin(flight, cabin)
    check_not_departed(s, flight, day)
    free = [seat for seat in free_seats(s, flight["flight_number"], day, cabin)
            if position is None or _position(seat) == position]
    rows, letters = LAYOUT[cabin]
    legroom = [seat for seat in free if cabin == "economy"
               and int(seat[:-1]) in EXTRA_LEGROOM_ROWS]
    return {"flight_number": flight["flight_number"], "date": day.isoformat(), "cabin": cabin,
            "available_seats": free, "total_available": len(free),
            "extra_legroom_seats": legroom,
            "extra_legroom_fee": out(s, fee(s, EXTRA_LEGROOM_FEE) if cabin == "economy" else 0),
            "currency": money.currency_of(s),
            "layout": f"rows {rows.start}-{rows.stop - 1}, seats {letters} "
                      "(A/F window, C/D aisle)"}


def _names(s: State, names: list[str] | None) -> list[str]:
    if names is None:
        return [s.var("profile")["name"]]
    clean = [" ".join(n.split()) for n in names]
    for name in clean:
        if not NAME_RE.fullmatch(name) or len(name) > 60:
            raise ToolError(f"passenger name {name!r} must be a first and last name as on the "
                            "passport, e.g. 'Maya Silva'")
    dupes = sorted({n for n in clean if clean.count(n) > 1})
    if dupes:
        raise ToolError(f"passenger {dupes[0]!r} is listed twice; list each traveller once")
    return clean


@DOMAIN.tool(read_only=False)
def hold_flight(
        s: State, flight_number: FlightNumber,
        date: Annotated[str, date_arg("Departure date")],
        cabin: Annotated[CabinName, Arg("Cabin class")],
        passenger_names: Annotated[list[str] | None, Arg(
            "Full names of the travellers as on their passports (default: the user alone)",
            min_length=1, max_length=MAX_PASSENGERS)] = None) -> Booking:
    """Hold seats on a flight for 24 hours at today's fare; pay with confirm_booking."""
    day = bookable_date(date, "date")
    flight = operating_flight(s, flight_number, day)
    check_cabin(flight, cabin)
    check_not_departed(s, flight, day)
    names = _names(s, passenger_names)
    left = seats_left(s, flight, day, cabin)
    if left < len(names):
        raise ToolError(f"only {left} {cabin} seat(s) left on {flight['flight_number']} on "
                        f"{day.isoformat()} for {len(names)} passenger(s); try another cabin "
                        "or flight (search_flights)")
    for b in active_bookings_on(s, flight["flight_number"], day.isoformat()):
        clash = [p["name"] for p in b["passengers"] if p["name"] in names]
        if clash:
            raise ToolError(f"{clash[0]} is already on {flight['flight_number']} on "
                            f"{day.isoformat()} in booking {b['booking_id']}")
    created = now(s)
    expires = fmt(dt.datetime.fromisoformat(created) + dt.timedelta(hours=24))
    row = s["bookings"].insert({
        "booking_id": s.next_id("bk"), "status": "held",
        "flight_number": flight["flight_number"], "date": day.isoformat(), "cabin": cabin,
        "passengers": [{"name": n, "seat": None} for n in names], "checked_bags": 0,
        "fare_per_passenger": fare(s.var("inventory_seed"), flight, day, cabin),
        "insurance": False, "insurance_premium": 0, "payment_method_id": None,
        "charges": [], "created_at": created, "hold_expires_at": expires,
        "cancelled_at": None, "cancel_reason": None})
    return booking_out(s, row)


@DOMAIN.tool(read_only=False, requires=("hold_flight",))
def confirm_booking(s: State, booking_id: Annotated[str, Arg(
        "Id of a held booking, e.g. 'bk_ha2yn7' (from hold_flight or list_bookings)")],
                    payment_method_id: Annotated[str, Arg(
                        "Payment method id, e.g. 'pm_etab2s' (from list_payment_methods)")]
                    ) -> Booking:
    """Pay for a held booking and confirm it (charges the fare for every passenger)."""
    booking = s["bookings"].get(booking_id)
    s["payment_methods"].get(payment_method_id)
    if booking["status"] == "expired":
        raise ToolError(f"the hold on booking {booking_id} expired at "
                        f"{booking['hold_expires_at']}; hold the flight again with hold_flight")
    if booking["status"] != "held":
        raise ToolError(f"booking {booking_id} is {booking['status']}, not held; only held "
                        "bookings can be confirmed")
    flight = s["flights"].get(booking["flight_number"])
    check_not_departed(s, flight, dt.date.fromisoformat(booking["date"]))
    amount = booking["fare_per_passenger"] * len(booking["passengers"])
    charge(s, payment_method_id, amount)
    entry = {"description": f"fare, {len(booking['passengers'])} passenger(s)",
             "amount": amount, "payment_method_id": payment_method_id, "at": now(s)}
    row = s["bookings"].update(booking_id, status="confirmed", hold_expires_at=None,
                               payment_method_id=payment_method_id,
                               charges=[*booking["charges"], entry])
    return booking_out(s, row)

