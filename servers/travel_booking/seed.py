"""The travel_booking world at a seed: the flight schedule, hotels, and the user's bookings
and reservations (rules and prices live in data.py)."""

from __future__ import annotations

import datetime as dt
import random

from servers.core import clock, hours, money
from servers.core.state import Row, State
from servers.core.world import City, World, days_ago
from servers.travel_booking.data import (
    AIRLINES,
    AIRPORT_NAMES,
    AMENITIES,
    BAG_FEE,
    CABINS,
    CANCEL_FEE,
    CITY_PRICE,
    FREE_BAGS,
    HOTEL_FREE_CANCEL_DAYS,
    INSURANCE_CHARGE,
    INSURANCE_PER_PASSENGER,
    ROOM_TYPES,
    TIER_BONUS_BAGS,
    TODAY,
    UTC_OFFSET,
    all_seats,
    arrival_dt,
    fare,
    fee,
    free_seats,
    haversine_km,
    operates,
    rooms_available,
    seats_left,
    stay_total,
)


# ----------------------------------------------------------------------------- generation
def _schedule(cities: tuple[City, ...], rng: random.Random, cur: str) -> list[Row]:
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
                "cabins": [c for c in CABINS if c in fares],
                "base_fares": {c: money.seed(v, cur) for c, v in fares.items()}})
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
            "opening_hours": hours.copied(world.opening_hours[p.id]),  # as on maps
            "rooms": [{"room_type": t, "beds": beds, "max_guests": guests,
                       "nightly_rate": money.seed(round(base * factor), world.currency),
                       "total_rooms": counts[t]}
                      for t, (beds, guests, factor) in ROOM_TYPES.items()]})
    return hotels


def _pick_date(rng: random.Random, flight: Row, lo: int, hi: int) -> dt.date:
    while True:
        date = TODAY + dt.timedelta(days=rng.randint(lo, hi))
        if operates(flight, date):
            return date


def _booking_plan(rng: random.Random) -> list[str]:
    """The statuses of the user's flight bookings: how many of each varies with the seed (more
    than a page of bookings in all, at least one trip ahead and one held)."""
    counts = {"confirmed": rng.randint(10, 15), "flown": rng.randint(7, 12),
              "cancelled": rng.randint(3, 6), "held": rng.randint(1, 3),
              "expired": rng.randint(0, 2)}
    return [status for status, n in counts.items() for _ in range(n)]


def _reservation_plan(rng: random.Random, trips: list[Row]) -> list[tuple[str, Row | None]]:
    """(status, the flight booking it goes with) of the user's hotel stays: a stay at the end
    of a seeded few of the upcoming trips, then stays of their own. The first of those checks
    in tomorrow (past its free cancellation)."""
    trips = trips[:rng.randint(4, 6)]
    return ([("confirmed", b) for b in trips] + [("confirmed", None)] * rng.randint(3, 6)
            + [("completed", None)] * rng.randint(11, 15)
            + [("cancelled", None)] * rng.randint(3, 6))


def _seed_bookings(s: State, world: World, rng: random.Random, flights: list[Row]) -> None:
    user = world.user
    home = next((c.airport for c in world.cities if c.name == user.city), world.cities[0].airport)
    companions = [p.name for p in world.people[1:4]]
    tag = s.var("inventory_seed")
    plan = _booking_plan(rng)
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
        per_pax = money.times(fare(tag, flight, date, cabin), rng.uniform(0.85, 1.0))
        method = rng.choice(["pm_0001", "pm_0002", "pm_0003", "pm_0001", "pm_0003"])
        insured = status != "held" and rng.random() < 0.25
        bags = rng.randint(0, len(pax) * 2)
        charges = []
        if status not in ("held", "expired"):
            charges.append({"description": f"fare, {len(pax)} passenger(s)",
                            "amount": per_pax * len(pax), "payment_method_id": method,
                            "at": at})
            allowance = (FREE_BAGS[cabin] + TIER_BONUS_BAGS[s.var("loyalty_tier")]) * len(pax)
            if bags > allowance:
                charges.append({"description": f"{bags - allowance} extra checked bag(s)",
                                "amount": fee(s, BAG_FEE) * (bags - allowance),
                                "payment_method_id": method, "at": at})
            if insured:
                charges.append({"description": INSURANCE_CHARGE,
                                "amount": fee(s, INSURANCE_PER_PASSENGER) * len(pax),
                                "payment_method_id": method, "at": at})
        cancelled_at = None
        if status == "cancelled":
            cancelled_at = days_ago(world, max(1, (TODAY - created).days - rng.randint(1, 3)),
                                    rng)
            paid = sum(c["amount"] for c in charges)
            refund = paid if cabin == "business" or insured else max(
                0, paid - fee(s, CANCEL_FEE[cabin]) * len(pax))
            charges.append({"description": "refund on cancellation", "amount": -refund,
                            "payment_method_id": method, "at": cancelled_at})
        hold_until = None
        if status in ("held", "expired"):
            day, hour = ((dt.date(2026, 6, 13), 18) if status == "expired"
                         else (dt.date(2026, 6, 15 + len(rows) % 2), rng.randint(13, 23)))
            hold_until = clock.stamp(clock.local(day, dt.time(hour, 30), world.tz))
        rows.append({
            "status": status, "flight_number": flight["flight_number"],
            "date": date.isoformat(), "cabin": cabin,
            "passengers": [{"name": n, "seat": seat} for n, seat in zip(pax, seats,
                                                                         strict=True)],
            "checked_bags": 0 if status in ("held", "expired") else bags,
            "fare_per_passenger": per_pax, "insurance": insured,
            "insurance_premium": fee(s, INSURANCE_PER_PASSENGER) * len(pax) if insured else 0,
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
    plan = _reservation_plan(rng, [b for b in s["bookings"].rows()
                                   if b["status"] == "confirmed"])
    trips = [trip for _, trip in plan if trip is not None]
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
    money.remember_currency(s, world.currency)
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
         "last4": None, "expires": "2026-12",
         "balance": money.seed(rng.randrange(150, 400, 25), world.currency)}])
    s.table("airports", key="code", kind="airport",
            hint="use list_airports to see airport codes").load([
        {"code": c.airport, "name": AIRPORT_NAMES.get(c.airport, f"{c.name} International "
                                                                  "Airport"),
         "city": c.name, "country": c.country, "lat": c.lat, "lon": c.lon,
         "utc_offset_hours": UTC_OFFSET.get(c.name, 0)} for c in world.cities])
    flights = _schedule(world.cities, rng, world.currency)
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
