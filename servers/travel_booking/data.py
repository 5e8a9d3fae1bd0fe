"""travel_booking: constants, the pure pricing/inventory model, and the seeded state.

Flights are a weekly schedule between the world's city airports; fares and the seats other
customers already hold on a given date are drawn from a stream seeded by (inventory seed,
flight, date, cabin), so they need no table and are stable across processes. The session's own
bookings and reservations are subtracted on top. Hotels are exactly the world's places of kind
"hotel", keyed by their place id, so a place found on maps can be booked here.
"""

from __future__ import annotations

import datetime as dt
import math
import random

from servers.core import clock, money
from servers.core.state import Row, State
from servers.core.world import REFERENCE_DATE

TODAY = REFERENCE_DATE
LAST_BOOKABLE = TODAY + dt.timedelta(days=330)
STATUS_HISTORY_DAYS = 30  # get_flight_status looks back this far

CABINS = ("economy", "premium_economy", "business")
# cabin -> (seat rows, seat letters); extra-legroom rows cost a fee in economy
LAYOUT = {"business": (range(1, 6), "ACDF"), "premium_economy": (range(10, 14), "ABCDEF"),
          "economy": (range(20, 40), "ABCDEF")}
EXTRA_LEGROOM_ROWS = (20, 30)
EXTRA_LEGROOM_FEE = 35.0
FREE_BAGS = {"economy": 1, "premium_economy": 2, "business": 2}
TIER_BONUS_BAGS = {"member": 0, "silver": 0, "gold": 1, "platinum": 2}
BAG_FEE = 45.0
MAX_BAGS_PER_PASSENGER = 4
CANCEL_FEE = {"economy": 200.0, "premium_economy": 100.0, "business": 0.0}
CHANGE_FEE = {"economy": 75.0, "premium_economy": 50.0, "business": 0.0}
INSURANCE_PER_PASSENGER = 30.0
INSURANCE_CHARGE = "travel insurance"  # a premium's charge description (refunds find it)
MAX_PASSENGERS = 9
HOTEL_FREE_CANCEL_DAYS = 2
MAX_NIGHTS = 30
MAX_ROOMS = 4

AIRLINES = [("SK", "Skyline Air"), ("AT", "Atlas Airways"), ("MR", "Meridian Airlines"),
            ("BH", "Blue Harbor Air"), ("NV", "Nova Jet")]
AIRPORT_NAMES = {"LIS": "Humberto Delgado Airport", "BER": "Berlin Brandenburg Airport",
                 "CDG": "Charles de Gaulle Airport", "MAD": "Madrid-Barajas Airport",
                 "AMS": "Amsterdam Airport Schiphol", "LHR": "Heathrow Airport",
                 "JFK": "John F. Kennedy International Airport",
                 "SFO": "San Francisco International Airport", "HND": "Haneda Airport",
                 "SIN": "Singapore Changi Airport", "YYZ": "Toronto Pearson International Airport",
                 "SYD": "Sydney Kingsford Smith Airport"}
# summer UTC offsets (hours), for local arrival times
UTC_OFFSET = {"Lisbon": 1, "Berlin": 2, "Paris": 2, "Madrid": 2, "Amsterdam": 2, "London": 1,
              "New York": -4, "San Francisco": -7, "Tokyo": 9, "Singapore": 8, "Toronto": -4,
              "Sydney": 10}
CITY_PRICE = {"Lisbon": 0.85, "Berlin": 0.95, "Paris": 1.25, "Madrid": 0.9, "Amsterdam": 1.2,
              "London": 1.35, "New York": 1.4, "San Francisco": 1.3, "Tokyo": 1.15,
              "Singapore": 1.2, "Toronto": 1.05, "Sydney": 1.1}
# room type -> (beds, max guests per room, price factor)
ROOM_TYPES = {"standard": ("1 queen bed", 2, 1.0), "deluxe": ("1 king bed", 2, 1.45),
              "suite": ("1 king bed and a sofa bed", 4, 2.3)}
AMENITIES = ["free wifi", "breakfast", "gym", "pool", "spa", "parking", "airport shuttle",
             "restaurant", "bar", "pet friendly", "24h front desk"]
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(math.sqrt(a))


def _stream(tag: str, *parts: str) -> random.Random:
    return random.Random(":".join([tag, *parts]))


# ----------------------------------------------------------------------------- flights
def operates(flight: Row, date: dt.date) -> bool:
    return date.weekday() in flight["days"]


def departure_dt(flight: Row, date: dt.date) -> dt.datetime:
    """The departure instant, on the origin airport's clock (aware)."""
    hh, mm = map(int, flight["departure_time"].split(":"))
    return clock.local(date, dt.time(hh, mm), clock.city_zone(flight["origin_city"]))


def arrival_dt(flight: Row, date: dt.date) -> dt.datetime:
    """The arrival instant, on the destination airport's clock (aware)."""
    return (departure_dt(flight, date) + dt.timedelta(minutes=flight["duration_minutes"])
            ).astimezone(clock.city_zone(flight["destination_city"]))


def fee(s: State, usd: float) -> int:
    """A fixed fee (the USD-like constants above) in minor units of the world's currency."""
    return money.limit(s, usd)


def fare(tag: str, flight: Row, date: dt.date, cabin: str) -> int:
    """Fare per passenger for one flight, date and cabin (same for everyone that day)."""
    rng = _stream(tag, "fare", flight["flight_number"], date.isoformat())
    days = (date - TODAY).days
    mult = rng.uniform(0.9, 1.2) * (1.4 if days < 7 else 1.2 if days < 21 else 1.0)
    if date.weekday() in (4, 6):  # Friday and Sunday demand
        mult *= 1.1
    return money.times(flight["base_fares"][cabin], mult)  # minor units, half to even


def all_seats(cabin: str) -> list[str]:
    rows, letters = LAYOUT[cabin]
    return [f"{r}{c}" for r in rows for c in letters]


def others_taken(tag: str, flight_number: str, date: dt.date, cabin: str) -> list[str]:
    """Seats other customers hold on that flight (fuller near departure; some sold out)."""
    rng = _stream(tag, "seats", flight_number, date.isoformat(), cabin)
    seats = all_seats(cabin)
    days = (date - TODAY).days
    if days < 30 and rng.random() < 0.05:
        return seats
    frac = rng.uniform(0.25, 0.9) * (1.0 if days < 30 else 0.8 if days < 90 else 0.6)
    return rng.sample(seats, int(len(seats) * frac))


def active_bookings_on(s: State, flight_number: str, date: str, cabin: str | None = None
                       ) -> list[Row]:
    return s["bookings"].rows(lambda b: b["flight_number"] == flight_number
                              and b["date"] == date and b["status"] in ("held", "confirmed")
                              and (cabin is None or b["cabin"] == cabin))


def seats_left(s: State, flight: Row, date: dt.date, cabin: str) -> int:
    tag = s.var("inventory_seed")
    taken = len(others_taken(tag, flight["flight_number"], date, cabin))
    ours = sum(len(b["passengers"]) for b in active_bookings_on(
        s, flight["flight_number"], date.isoformat(), cabin))
    return max(0, len(all_seats(cabin)) - taken - ours)


def free_seats(s: State, flight_number: str, date: dt.date, cabin: str) -> list[str]:
    taken = set(others_taken(s.var("inventory_seed"), flight_number, date, cabin))
    for b in active_bookings_on(s, flight_number, date.isoformat(), cabin):
        taken.update(p["seat"] for p in b["passengers"] if p["seat"])
    return [seat for seat in all_seats(cabin) if seat not in taken]


# ----------------------------------------------------------------------------- hotels
def nightly_price(hotel: Row, room_type: str, night: dt.date) -> int:
    base = next(r["nightly_rate"] for r in hotel["rooms"] if r["room_type"] == room_type)
    mult = (1.2 if night.weekday() in (4, 5) else 1.0) * (1.1 if night.month in (7, 8) else 1.0)
    return money.times(base, mult)  # minor units, half to even


def nights_of(check_in: dt.date, check_out: dt.date) -> list[dt.date]:
    return [check_in + dt.timedelta(days=i) for i in range((check_out - check_in).days)]


def rooms_available(s: State, hotel: Row, room_type: str, check_in: dt.date,
                    check_out: dt.date) -> int:
    """Rooms of that type free on every night of the stay."""
    total = next(r["total_rooms"] for r in hotel["rooms"] if r["room_type"] == room_type)
    tag = s.var("inventory_seed")
    ours = s["hotel_reservations"].rows(
        lambda r: r["hotel_id"] == hotel["hotel_id"] and r["room_type"] == room_type
        and r["status"] == "confirmed")
    best = total
    for night in nights_of(check_in, check_out):
        rng = _stream(tag, "rooms", hotel["hotel_id"], room_type, night.isoformat())
        full = (night - TODAY).days < 45 and rng.random() < 0.05
        others = total if full else int(total * rng.uniform(0.2, 0.9))
        mine = sum(r["rooms"] for r in ours if r["check_in"] <= night.isoformat() < r["check_out"])
        best = min(best, total - others - mine)
    return max(0, best)


def stay_total(hotel: Row, room_type: str, check_in: dt.date, check_out: dt.date,
               rooms: int) -> int:
    return sum(nightly_price(hotel, room_type, n) for n in nights_of(check_in, check_out)) * rooms
