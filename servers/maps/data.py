"""maps: constants, geometry, and the seeded state (the world's places and cities with their
opening hours, plus contact details and reviews drawn per place, and the user's saved lists)."""

from __future__ import annotations

import math
import random

from servers.core import locales
from servers.core.hours import DAYS, copied, is_open  # noqa: F401 - tool modules read them
from servers.core.state import State
from servers.core.world import REFERENCE_DATE, World, days_ago

TODAY = REFERENCE_DATE
MODES = ("driving", "walking", "transit", "cycling")
# average door-to-door speeds (km/h) and how much longer than a straight line each route is
SPEED_KMH = {"driving": 32.0, "walking": 4.8, "transit": 22.0, "cycling": 15.0}
HIGHWAY_KMH = 85.0  # driving beyond the first 20 km
DETOUR = {"driving": 1.3, "walking": 1.25, "transit": 1.4, "cycling": 1.25}
MAX_STRAIGHT_KM = {"walking": 30.0, "cycling": 80.0, "transit": 40.0}
TRANSIT_WAIT_MIN = 6
# cities reachable from each other by road
LANDMASS = {"Lisbon": "europe", "Berlin": "europe", "Paris": "europe", "Madrid": "europe",
            "Amsterdam": "europe", "London": "europe", "New York": "north_america",
            "San Francisco": "north_america", "Toronto": "north_america", "Tokyo": "japan",
            "Singapore": "singapore", "Sydney": "australia"}
CITY_RADIUS_KM = 60.0  # reverse_geocode names a city within this distance

REVIEW_TEXT = {
    "restaurant": {"good": ["Excellent food and friendly staff, we'll be back.",
                            "The tasting menu was outstanding; book ahead on weekends.",
                            "Generous portions and a great wine list."],
                   "mid": ["Good food but the service was slow.",
                           "Decent meal, a bit pricey for what you get.",
                           "Nice atmosphere, average dishes."],
                   "bad": ["Waited an hour for cold food.", "Overpriced and underwhelming.",
                           "Rude staff and a wrong order."]},
    "cafe": {"good": ["Best flat white in town and lovely pastries.",
                      "Quiet spot to work, fast wifi.", "Fresh bread every morning, great staff."],
             "mid": ["Coffee is fine, seating is limited.", "Nice cakes, long queue at noon."],
             "bad": ["Burnt coffee and sticky tables.", "Slow service, nowhere to sit."]},
    "hotel": {"good": ["Spotless rooms and a very helpful front desk.",
                       "Great location, quiet at night, good breakfast."],
              "mid": ["Comfortable bed but thin walls.", "Fine for a night, rooms are small."],
              "bad": ["Noisy, dated rooms, slow check-in.", "Not as clean as the photos."]},
    "store": {"good": ["Great selection and knowledgeable staff.",
                       "Found exactly what I needed, fair prices."],
              "mid": ["Good range but crowded on Saturdays.", "Prices are a bit high."],
              "bad": ["Unhelpful staff and messy shelves.", "Item out of stock twice."]},
    "landmark": {"good": ["A must-see, plan at least two hours.",
                          "Beautiful, go early to avoid the crowds."],
                 "mid": ["Interesting but very busy.", "Worth a short visit if nearby."],
                 "bad": ["Long queues and half of it was closed.", "Overrated and overpriced."]},
}


def haversine_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6_371_000.0 * 2 * math.asin(math.sqrt(a))


def bearing(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return (math.degrees(math.atan2(x, y)) + 360) % 360


def compass(degrees: float) -> str:
    names = ["north", "northeast", "east", "southeast", "south", "southwest", "west",
             "northwest"]
    return names[round(degrees / 45) % 8]


def _digits(rng: random.Random) -> int:
    """The four draws the old random phone took, as one number: the stream stays in step."""
    return (rng.randint(1, 99) * 10**10 + rng.randint(100, 999) * 10**7
            + rng.randint(100, 999) * 10**4 + rng.randint(1000, 9999))


def _price_level(kind: str, rating: float, rng: random.Random) -> int | None:
    if kind == "landmark":
        return None
    if kind == "hotel":  # follows the star rating travel_booking shows for the same hotel
        return 4 if rating >= 4.5 else 3 if rating >= 3.9 else 2
    return rng.randint(1, 4)


def build(s: State, world: World, rng: random.Random) -> None:
    country = {c.name: c.country for c in world.cities}
    s.table("cities", key="name", kind="city", hint="use list_cities to see city names").load([
        {"name": c.name, "country": c.country, "lat": c.lat, "lon": c.lon,
         "airport": c.airport} for c in world.cities])
    places = []
    for p in world.places:
        slug = "".join(ch for ch in p.name.lower() if ch.isalnum())
        places.append({
            "place_id": p.id, "name": p.name, "kind": p.kind, "cuisine": p.cuisine,
            "city": p.city, "country": country.get(p.city, ""), "address": p.address,
            "lat": p.lat, "lon": p.lon, "rating": p.rating,
            "review_count": rng.randint(25, 2400),
            "price_level": _price_level(p.kind, p.rating, rng),
            "phone": locales.phone(p.city, _digits(rng)),
            "website": f"https://www.{slug}-{p.city.lower().replace(' ', '')}.example",
            "opening_hours": copied(world.opening_hours[p.id])})  # the same on every server
    s.table("places", key="place_id", kind="place",
            hint="use search_places or search_nearby to find place ids").load(places)
    reviewers = world.people[1:]
    reviews, n = [], 0
    for p in places:
        for _ in range(rng.randint(2, 7)):
            n += 1
            stars = max(1, min(5, round(rng.gauss(p["rating"], 0.9))))
            band = "good" if stars >= 4 else "mid" if stars == 3 else "bad"
            author = rng.choice(reviewers)
            reviews.append({"review_id": f"rev_{n:04d}", "place_id": p["place_id"],
                            "author": author.name, "author_id": author.id, "rating": stars,
                            "text": rng.choice(REVIEW_TEXT[p["kind"]][band]),
                            "created_at": days_ago(world, rng.randint(1, 400), rng)})
    s.table("reviews", key="review_id", kind="review").load(reviews)
    _seed_lists(s, world, rng, places)


def _list_specs(world: World, rng: random.Random) -> list[tuple]:
    """The user's lists: Favorites always, then a seeded few of the usual kinds (a trip list
    names a city other than home), so how many lists there are varies with the seed."""
    home = world.user.city
    trips = rng.sample([c.name for c in world.cities if c.name != home], 2)
    optional = [("Want to go", "Places to try some day", None, None),
                (f"{home} lunch spots", "Quick lunches near the office", home,
                 ("restaurant", "cafe")),
                (f"Trip to {trips[0]}", f"Ideas for the {trips[0]} trip", trips[0], None),
                ("Coffee to try", "Cafes people keep recommending", None, ("cafe",)),
                (f"{home} date night", "Dinner spots for a night out", home, ("restaurant",)),
                (f"Trip to {trips[1]}", f"Ideas for the {trips[1]} trip", trips[1], None)]
    chosen = sorted(rng.sample(range(len(optional)), rng.randint(2, len(optional))))
    return [("Favorites", "Places you starred", None, None)] + [optional[k] for k in chosen]


def _seed_lists(s: State, world: World, rng: random.Random, places: list[dict]) -> None:
    specs = _list_specs(world, rng)
    lists, saved = [], []
    for i, (name, desc, city, kinds) in enumerate(specs):
        list_id = f"lst_{i + 1:04d}"
        created = 330 - 45 * i
        lists.append({"list_id": list_id, "name": name, "description": desc,
                      "is_default": i == 0, "created_at": days_ago(world, created, rng)})
        pool = [p for p in places if (city is None or p["city"] == city)
                and (kinds is None or p["kind"] in kinds)]
        for p in rng.sample(pool, min(len(pool), rng.randint(2, 9))):
            saved.append({"list_id": list_id, "place_id": p["place_id"],
                          "note": rng.choice([None, None, "recommended by a colleague",
                                              "go on a weekday", "book ahead"]),
                          "saved_at": days_ago(world, rng.randint(1, created), rng)})
    saved.sort(key=lambda r: (r["saved_at"], r["list_id"], r["place_id"]))
    for i, row in enumerate(saved):
        row["saved_id"] = f"sv_{i + 1:04d}"
    s.table("saved_lists", key="list_id", kind="saved list",
            hint="use list_saved_lists to see list ids").load(lists)
    s.table("saved_places", key="saved_id", kind="saved place",
            hint="use get_saved_list to see saved places").load(saved)
    s.set_var("__seq_lst", len(lists))
    s.set_var("__seq_sv", len(saved))
