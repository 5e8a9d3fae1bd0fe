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

from servers.core.state import Row, State
from servers.core.world import REFERENCE_DATE, City, World, days_ago

TODAY = REFERENCE_DATE
NOW = dt.datetime.combine(TODAY, dt.time(12, 0))  # "now" for departure and deadline checks
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
    hh, mm = map(int, flight["departure_time"].split(":"))
    return dt.datetime.combine(date, dt.time(hh, mm))


def arrival_dt(flight: Row, date: dt.date) -> dt.datetime:
    shift = UTC_OFFSET.get(flight["destination_city"], 0) - UTC_OFFSET.get(
        flight["origin_city"], 0)
    return departure_dt(flight, date) + dt.timedelta(minutes=flight["duration_minutes"],
                                                     hours=shift)


def fare(tag: str, flight: Row, date: dt.date, cabin: str) -> float:
    """Fare per passenger for one flight, date and cabin (same for everyone that day)."""
    rng = _stream(tag, "fare", flight["flight_number"], date.isoformat())
    days = (date - TODAY).days
    mult = rng.uniform(0.9, 1.2) * (1.4 if days < 7 else 1.2 if days < 21 else 1.0)
    if date.weekday() in (4, 6):  # Friday and Sunday demand
        mult *= 1.1
    return float(round(flight["base_fares"][cabin] * mult))


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
def nightly_price(hotel: Row, room_type: str, night: dt.date) -> float:
    base = next(r["nightly_rate"] for r in hotel["rooms"] if r["room_type"] == room_type)
    mult = (1.2 if night.weekday() in (4, 5) else 1.0) * (1.1 if night.month in (7, 8) else 1.0)
    return float(round(base * mult))


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
               rooms: int) -> float:
    return round(sum(nightly_price(hotel, room_type, n) for n in nights_of(check_in, check_out))
                 * rooms, 2)


# ----------------------------------------------------------------------------- generation
def _schedule(cities: tuple[City, ...], rng: random.Random) -> list[Row]:
    pairs = [(a, b) for a in cities for b in cities if a.name != b.name]
    numbers = iter(rng.sample(range(100, 1000), 2 * len(pairs)))
    flights = []
    for a, b in pairs:
        km = haversine_km(a.lat, a.lon, b.lat, b.lon)
        long_haul = km >= 3000
        for j in range(1 if long_haul else 2):
            code, airline = rng.choice(AIRLINES)
            start = rng.randrange(6 * 60, 11 * 60, 5) if j == 0 else rng.randrange(
                15 * 60, 21 * 60, 5)
            days = (list(range(7)) if rng.random() < 0.75
                    else sorted(rng.sample(range(7), rng.randint(3, 5))))
            eco = round(35 + km * 0.075)
            fares = {"economy": float(eco), "business": float(round(eco * (4.2 if long_haul
                                                                           else 3.0)))}
            if long_haul:
                fares["premium_economy"] = float(round(eco * 1.8))
            flights.append({
                "flight_number": f"{code}{next(numbers)}", "airline": airline,
                "origin": a.airport, "origin_city": a.name, "destination": b.airport,
                "destination_city": b.name, "departure_time": f"{start // 60:02d}:{start % 60:02d}",
                "duration_minutes": round((km / 830 + 0.55) * 12) * 5,
                "distance_km": round(km), "days": days,
                "aircraft": rng.choice(["B787-9", "A350-900", "B777-300ER", "A330-300"]
                                       if long_haul else ["A320neo", "A321neo", "B737-800",
                                                          "E190"]),
                "cabins": [c for c in CABINS if c in fares], "base_fares": fares})
    return flights


def _hotels(world: World, rng: random.Random) -> list[Row]:
    country = {c.name: c.country for c in world.cities}
    hotels = []
    for p in world.places:
        if p.kind != "hotel":
            continue
        stars = 5 if p.rating >= 4.5 else 4 if p.rating >= 3.9 else 3
        base = {3: 95, 4: 150, 5: 260}[stars] * CITY_PRICE.get(p.city, 1.0) * rng.uniform(0.9,
                                                                                          1.15)
        counts = {"standard": rng.randint(20, 60), "deluxe": rng.randint(8, 25),
                  "suite": rng.randint(2, 8)}
        hotels.append({
            "hotel_id": p.id, "place_id": p.id, "name": p.name, "city": p.city,
            "country": country.get(p.city, ""), "address": p.address, "lat": p.lat,
            "lon": p.lon, "stars": stars, "rating": p.rating,
            "amenities": sorted(rng.sample(AMENITIES, rng.randint(3, 7))),
            "check_in_time": rng.choice(["14:00", "15:00", "16:00"]),
            "check_out_time": rng.choice(["11:00", "12:00"]),
            "rooms": [{"room_type": t, "beds": beds, "max_guests": guests,
                       "nightly_rate": float(round(base * factor)), "total_rooms": counts[t]}
                      for t, (beds, guests, factor) in ROOM_TYPES.items()]})
    return hotels


def _pick_date(rng: random.Random, flight: Row, lo: int, hi: int) -> dt.date:
    while True:
        date = TODAY + dt.timedelta(days=rng.randint(lo, hi))
        if operates(flight, date):
            return date


def _seed_bookings(s: State, world: World, rng: random.Random, flights: list[Row]) -> None:
    user = world.user
    home = next((c.airport for c in world.cities if c.name == user.city), world.cities[0].airport)
    companions = [p.name for p in world.people[1:4]]
    tag = s.var("inventory_seed")
    plan = ["confirmed"] * 11 + ["flown"] * 8 + ["cancelled"] * 4 + ["held"] * 2 + ["expired"]
    rows = []
    for status in plan:
        pool = [f for f in flights if f["origin"] == home] if rng.random() < 0.5 else flights
        flight = rng.choice(pool)
        lo, hi = {"confirmed": (2, 75), "held": (10, 60), "expired": (15, 50),
                  "flown": (-150, -3), "cancelled": (-40, 60)}[status]
        date = _pick_date(rng, flight, lo, hi)
        cabin = rng.choice(["economy"] * 3 + flight["cabins"])
        pax = [user.name] + (rng.sample(companions, rng.randint(1, 2)) if rng.random() < 0.35
                             else [])
        future = date > TODAY
        if future and status in ("confirmed", "held") and seats_left(s, flight, date,
                                                                     cabin) < len(pax):
            cabin = "business"
            if seats_left(s, flight, date, cabin) < len(pax):
                continue
        free = free_seats(s, flight["flight_number"], date, cabin) if future else all_seats(cabin)
        seats: list[str | None] = [None] * len(pax)
        if rng.random() < 0.5 and len(free) >= len(pax):
            seats = list(rng.sample(free, len(pax)))
        # booked at least 4 days ago, so the 24-hour free cancellation never applies to these
        booked_days_before = rng.randint(4, 40) if future else rng.randint(7, 50)
        created = (TODAY if future else date) - dt.timedelta(days=booked_days_before)
        at = days_ago(world, (TODAY - created).days, rng)
        per_pax = float(round(fare(tag, flight, date, cabin) * rng.uniform(0.85, 1.0)))
        method = rng.choice(["pm_0001", "pm_0002", "pm_0003", "pm_0001", "pm_0003"])
        insured = status != "held" and rng.random() < 0.25
        bags = rng.randint(0, len(pax) * 2)
        charges = []
        if status not in ("held", "expired"):
            charges.append({"description": f"fare, {len(pax)} passenger(s)",
                            "amount": round(per_pax * len(pax), 2), "payment_method_id": method,
                            "at": at})
            allowance = (FREE_BAGS[cabin] + TIER_BONUS_BAGS[s.var("loyalty_tier")]) * len(pax)
            if bags > allowance:
                charges.append({"description": f"{bags - allowance} extra checked bag(s)",
                                "amount": BAG_FEE * (bags - allowance),
                                "payment_method_id": method, "at": at})
            if insured:
                charges.append({"description": "travel insurance",
                                "amount": INSURANCE_PER_PASSENGER * len(pax),
                                "payment_method_id": method, "at": at})
        cancelled_at = None
        if status == "cancelled":
            cancelled_at = days_ago(world, max(1, (TODAY - created).days - rng.randint(1, 3)),
                                    rng)
            paid = sum(c["amount"] for c in charges)
            refund = paid if cabin == "business" or insured else max(
                0.0, paid - CANCEL_FEE[cabin] * len(pax))
            charges.append({"description": "refund on cancellation", "amount": -round(refund, 2),
                            "payment_method_id": method, "at": cancelled_at})
        hold_until = None
        if status in ("held", "expired"):
            hold_until = ("2026-06-13T18:00" if status == "expired"
                          else f"2026-06-{15 + len(rows) % 2:02d}T{rng.randint(13, 23)}:30")
        rows.append({
            "status": status, "flight_number": flight["flight_number"],
            "date": date.isoformat(), "cabin": cabin,
            "passengers": [{"name": n, "seat": seat} for n, seat in zip(pax, seats,
                                                                         strict=True)],
            "checked_bags": 0 if status in ("held", "expired") else bags,
            "fare_per_passenger": per_pax, "insurance": insured,
            "insurance_premium": INSURANCE_PER_PASSENGER * len(pax) if insured else 0.0,
            "payment_method_id": None if status in ("held", "expired") else method,
            "charges": charges, "created_at": at, "hold_expires_at": hold_until,
            "cancelled_at": cancelled_at,
            "cancel_reason": rng.choice(["change_of_plans", "schedule_conflict", "illness"])
            if status == "cancelled" else None})
        # insert now so later picks see these seats as taken
        rows[-1]["booking_id"] = f"tmp_{len(rows)}"
        s["bookings"].load([rows[-1]])
    # renumber in booking order, oldest first, like a real confirmation sequence
    for tmp in s["bookings"].ids():
        s["bookings"].delete(tmp)  # generation time: the journal is committed after build
    rows.sort(key=lambda r: (r["created_at"], r["flight_number"]))
    for i, row in enumerate(rows):
        row["booking_id"] = f"bk_{i + 1:04d}"
    s["bookings"].load(rows)
    s.set_var("__seq_bk", len(rows))


def _seed_reservations(s: State, world: World, rng: random.Random) -> None:
    hotels = s["hotels"].rows()
    user = world.user
    trips = [b for b in s["bookings"].rows() if b["status"] == "confirmed"][:6]
    plan = [("confirmed", b) for b in trips] + [("confirmed", None)] * 4 + \
        [("completed", None)] * 9 + [("cancelled", None)] * 4
    rows = []
    for i, (status, trip) in enumerate(plan):
        if trip is not None:
            flight = s["flights"].get(trip["flight_number"])
            hotel = rng.choice([h for h in hotels if h["city"] == flight["destination_city"]])
            check_in = arrival_dt(flight, dt.date.fromisoformat(trip["date"])).date()
        else:
            hotel = rng.choice(hotels)
            lo, hi = {"confirmed": (1, 80), "completed": (-200, -5), "cancelled": (-30, 60)}[
                status]
            check_in = TODAY + dt.timedelta(days=1 if i == len(trips) else rng.randint(lo, hi))
        check_out = check_in + dt.timedelta(days=rng.randint(1, 6))
        room_type = rng.choice(["standard", "standard", "deluxe", "suite"])
        guests = rng.randint(1, 2)
        if status == "confirmed" and rooms_available(s, hotel, room_type, check_in,
                                                      check_out) < 1:
            room_type = "suite"
            if rooms_available(s, hotel, room_type, check_in, check_out) < 1:
                continue
        created = min(TODAY - dt.timedelta(days=3), check_in - dt.timedelta(days=rng.randint(
            5, 40)))
        total = stay_total(hotel, room_type, check_in, check_out, 1)
        cancelled_at, refund = None, None
        if status == "cancelled":
            cancelled_at = days_ago(world, max(1, (TODAY - created).days - 1), rng)
            refund = total
        row = {"reservation_id": f"tmp_{i}", "hotel_id": hotel["hotel_id"],
               "place_id": hotel["place_id"], "hotel_name": hotel["name"], "city": hotel["city"],
               "room_type": room_type, "rooms": 1, "guests": guests, "guest_name": user.name,
               "check_in": check_in.isoformat(), "check_out": check_out.isoformat(),
               "nights": (check_out - check_in).days, "total": total, "status": status,
               "payment_method_id": rng.choice(["pm_0001", "pm_0003", "pm_0004"]),
               "free_cancellation_until": (check_in - dt.timedelta(
                   days=HOTEL_FREE_CANCEL_DAYS)).isoformat(),
               "created_at": days_ago(world, (TODAY - created).days, rng),
               "cancelled_at": cancelled_at, "refund_amount": refund}
        rows.append(row)
        s["hotel_reservations"].load([row])
    for tmp in s["hotel_reservations"].ids():
        s["hotel_reservations"].delete(tmp)  # generation time: the journal is committed later
    rows.sort(key=lambda r: (r["created_at"], r["hotel_id"]))
    for i, row in enumerate(rows):
        row["reservation_id"] = f"hr_{i + 1:04d}"
    s["hotel_reservations"].load(rows)
    s.set_var("__seq_hr", len(rows))


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("inventory_seed", str(rng.randrange(10**9)))
    s.set_var("loyalty_tier", rng.choice(["silver", "gold", "gold", "platinum"]))
    s.set_var("loyalty_miles", rng.randint(12_000, 95_000))
    home = next((c for c in world.cities if c.name == user.city), world.cities[0])
    s.set_var("profile", {
        "traveler_id": user.id, "name": user.name, "email": user.email, "phone": user.phone,
        "date_of_birth": f"{rng.randint(1970, 2000)}-{rng.randint(1, 12):02d}-"
                         f"{rng.randint(1, 28):02d}",
        "nationality": home.country, "home_airport": home.airport,
        "passport_number_last4": f"{rng.randint(1000, 9999)}",
        "passport_expires": f"{rng.randint(2027, 2034)}-{rng.randint(1, 12):02d}-"
                            f"{rng.randint(1, 28):02d}",
        "member_number": f"HR{rng.randint(10_000_000, 99_999_999)}"})
    s.set_var("saved_passengers", [
        {"name": p.name, "relationship": rel, "date_of_birth":
         f"{rng.randint(1965, 2015)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}
        for p, rel in zip(world.people[1:4], ["partner", "colleague", "friend"], strict=True)])
    methods = s.table("payment_methods", key="payment_method_id", kind="payment method",
                      hint="use list_payment_methods to see payment method ids")
    methods.load([
        {"payment_method_id": "pm_0001", "kind": "credit_card", "label": "Visa credit card",
         "last4": f"{rng.randint(1000, 9999)}", "expires": "2028-09", "balance": None},
        {"payment_method_id": "pm_0002", "kind": "credit_card", "label": "Mastercard",
         "last4": f"{rng.randint(1000, 9999)}", "expires": "2026-04", "balance": None},
        {"payment_method_id": "pm_0003", "kind": "credit_card", "label": "American Express",
         "last4": f"{rng.randint(1000, 9999)}", "expires": "2029-11", "balance": None},
        {"payment_method_id": "pm_0004", "kind": "travel_voucher", "label": "Travel voucher",
         "last4": None, "expires": "2026-12", "balance": float(rng.randrange(150, 400, 25))}])
    s.table("airports", key="code", kind="airport",
            hint="use list_airports to see airport codes").load([
        {"code": c.airport, "name": AIRPORT_NAMES.get(c.airport, f"{c.name} International "
                                                                  "Airport"),
         "city": c.name, "country": c.country, "lat": c.lat, "lon": c.lon,
         "utc_offset_hours": UTC_OFFSET.get(c.name, 0)} for c in world.cities])
    flights = _schedule(world.cities, rng)
    s.table("flights", key="flight_number", kind="flight",
            hint="use search_flights to find flight numbers").load(flights)
    s.table("hotels", key="hotel_id", kind="hotel",
            hint="use search_hotels to find hotel ids (a hotel's id is its maps place id)"
            ).load(_hotels(world, rng))
    s.table("bookings", key="booking_id", kind="flight booking",
            hint="use list_bookings to see booking ids")
    s.table("hotel_reservations", key="reservation_id", kind="hotel reservation",
            hint="use list_hotel_reservations to see reservation ids")
    _seed_bookings(s, world, rng, flights)
    _seed_reservations(s, world, rng)
