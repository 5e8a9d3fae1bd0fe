"""maps domain rules: places are the world's places, nearby search and distances follow the
haversine formula, mode speeds and reach, opening hours, geocoding, saved lists."""

from __future__ import annotations

import math

from servers.core import ids
from servers.core.clock import city_zone
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.maps import DOMAIN
from tests.servers.common import assert_world_varies, fails, ok, row_where, runtime_fixture

rt = runtime_fixture(DOMAIN)
GRILL, HOTEL = ("The Golden Grill", "Lisbon"), ("Hotel Ember", "Lisbon")


def _pid(rt: Runtime, name_city: tuple[str, str]) -> str:
    """The id of the place of that name in that city (ids are opaque and seeded)."""
    name, city = name_city
    return row_where(rt, "places", name=name, city=city)["place_id"]


def _km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = (math.sin((p2 - p1) / 2) ** 2
         + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
    return 2 * 6371.0 * math.asin(math.sqrt(a))


def test_places_are_the_worlds_places():
    for seed in (0, 5):
        rt = Runtime(DOMAIN, default_seed=seed)
        world = make_world(seed)
        found = ok(rt, "search_places", {"limit": 50, "sort": "name"})
        assert found["total"] == len(world.places)
        for p in world.places:  # a world place shows under its sealed id on maps
            d = ok(rt, "get_place_details", {"place_id": ids.opaque(seed, p.id)})
            assert (d["name"], d["kind"], d["city"], d["address"], d["lat"], d["lon"],
                    d["cuisine"], d["rating"]) == (p.name, p.kind, p.city, p.address, p.lat,
                                                   p.lon, p.cuisine, p.rating)
        hotel = next(p for p in world.places if p.kind == "hotel")
        by_name = ok(rt, "search_places", {"query": hotel.name, "city": hotel.city})
        assert ids.opaque(seed, hotel.id) in [x["place_id"] for x in by_name["places"]]


def test_nearby_is_sorted_within_radius_and_filters(rt):
    out = ok(rt, "search_nearby", {"lat": 38.7223, "lon": -9.1393, "radius_m": 6000,
                                    "limit": 50})
    dists = [p["distance_m"] for p in out["places"]]
    assert dists and dists == sorted(dists) and max(dists) <= 6000
    for p in out["places"]:
        assert abs(p["distance_m"] / 1000 - _km(38.7223, -9.1393, p["lat"], p["lon"])) < 0.01
    state = rt.session(None).state
    inside = [p for p in state["places"].rows()
              if _km(38.7223, -9.1393, p["lat"], p["lon"]) <= 6.0]
    assert out["total"] == len(inside)
    cafes = ok(rt, "search_nearby", {"lat": 38.7223, "lon": -9.1393, "radius_m": 6000,
                                      "kind": "cafe"})["places"]
    assert all(p["kind"] == "cafe" for p in cafes)
    assert len(cafes) == sum(p["kind"] == "cafe" for p in inside)


def test_distance_is_symmetric_haversine_with_units(rt):
    grill = _pid(rt, GRILL)
    km = ok(rt, "get_distance", {"origin": grill, "destination": "Berlin"})
    back = ok(rt, "get_distance", {"origin": "Berlin", "destination": grill})
    assert km["distance"] == back["distance"]
    a, b = km["origin"], km["destination"]
    assert abs(km["distance"] - _km(a["lat"], a["lon"], b["lat"], b["lon"])) < 0.01
    miles = ok(rt, "get_distance", {"origin": grill, "destination": "Berlin",
                                     "unit": "mi"})
    assert abs(miles["distance"] * 1.609344 - km["distance"]) < 0.05
    assert km["direction"] == "northeast"
    fails(rt, "get_distance", {"origin": grill, "destination": grill}, "same point")
    fails(rt, "get_distance", {"origin": "Hotel Ember", "destination": "Berlin"},
           "matches several places")
    fails(rt, "get_distance", {"origin": "Atlantis", "destination": "Berlin"},
           "could not find origin")


def test_modes_have_their_speeds_and_reach(rt):
    grill, hotel = _pid(rt, GRILL), _pid(rt, HOTEL)
    cmp_ = ok(rt, "compare_travel_modes", {"origin": grill, "destination": hotel})
    opts = {o["mode"]: o for o in cmp_["options"]}
    assert all(o["available"] for o in opts.values())
    assert (opts["walking"]["duration_minutes"] > opts["cycling"]["duration_minutes"]
            > opts["driving"]["duration_minutes"])
    assert cmp_["fastest_mode"] == min(opts.values(), key=lambda o: o["duration_minutes"])[
        "mode"]
    walk = ok(rt, "get_directions", {"origin": grill, "destination": hotel,
                                      "mode": "walking", "departure_time": "23:30"})
    assert walk["duration_minutes"] == opts["walking"]["duration_minutes"]
    assert walk["arrival_time"].endswith("(+1 day)") and walk["steps"][-1].startswith(
        "Arrive at Hotel Ember")
    far = ok(rt, "compare_travel_modes", {"origin": "Lisbon", "destination": "Madrid"})
    usable = [o["mode"] for o in far["options"] if o["available"]]
    assert usable == ["driving"] and far["fastest_mode"] == "driving"
    fails(rt, "get_directions", {"origin": "Lisbon", "destination": "Tokyo"},
           "no road connection")
    fails(rt, "get_directions", {"origin": "Lisbon", "destination": "Madrid",
                                  "mode": "walking"}, "too far for walking")


def test_opening_hours_agree_with_open_now(rt):
    # the reference date 2026-06-15 is a Monday; "now" is 12:00 in the user's home city
    # (seed 0: Berlin), and a place's hours are read on its own city's clock
    world = make_world(0)
    for built in ("pl_0001", "pl_0005", "pl_0007", "pl_0012"):
        city = next(p.city for p in world.places if p.id == built)
        place_id = ids.opaque(world.seed, built)
        local = world.now.astimezone(city_zone(city)).strftime("%H:%M")
        hours = ok(rt, "get_opening_hours", {"place_id": place_id, "time": local})
        assert hours["date"] == "2026-06-15" and hours["hours_on_date"] == hours["weekly"]["mon"]
        assert hours["open_at_time"] == hours["open_now"]
        assert ok(rt, "get_place_details", {"place_id": place_id})["open_now"] == \
            hours["open_now"]
    hotel = ok(rt, "get_opening_hours", {"place_id": _pid(rt, HOTEL), "date": "2026-06-21",
                                          "time": "03:00"})
    assert hotel["open_at_time"] is True
    open_now = ok(rt, "search_places", {"city": "Lisbon", "open_now": True})["places"]
    assert open_now and all(p["open_now"] for p in open_now)


def test_geocode_and_reverse_geocode_round_trip(rt):
    places = rt.session(None).state["places"].rows()
    for p in (places[0], places[49], places[99]):
        place_id = p["place_id"]
        found = ok(rt, "geocode", {"address": p["address"]})["results"]
        assert found[0]["place_id"] == place_id and found[0]["match_type"] == "address"
        back = ok(rt, "reverse_geocode", {"lat": p["lat"], "lon": p["lon"]})
        assert back["nearest_place_id"] == place_id and back["city"] == p["city"]
        assert back["distance_m"] == 0.0
    ocean = ok(rt, "reverse_geocode", {"lat": 0.0, "lon": -30.0})
    assert ocean["city"] is None and ocean["nearest_place_id"] is None
    assert ok(rt, "geocode", {"address": "no such street 999"})["total"] == 0


def test_saved_lists_add_remove_and_reject_duplicates(rt):
    place = rt.session(None).state["places"].rows()[99]["place_id"]
    lst = ok(rt, "create_saved_list", {"name": "Tokyo food"})
    fails(rt, "create_saved_list", {"name": "  tokyo   FOOD "}, "already exists")
    entry = ok(rt, "save_place", {"place_id": place, "list_id": lst["list_id"],
                                   "note": "try the lunch set"})
    assert entry["place"]["place_id"] == place
    assert lst["list_id"] in ok(rt, "get_place_details", {"place_id": place})[
        "saved_in_lists"]
    fails(rt, "save_place", {"place_id": place, "list_id": lst["list_id"]},
           "already saved")
    fav = ok(rt, "save_place", {"place_id": place})  # default list
    lists = {x["list_id"]: x for x in ok(rt, "list_saved_lists", {})["lists"]}
    assert lists[fav["list_id"]]["is_default"] and lists[lst["list_id"]]["place_count"] == 1
    out = ok(rt, "remove_saved_place", {"place_id": place, "list_id": lst["list_id"]})
    assert out["list"]["place_count"] == 0
    assert ok(rt, "get_saved_list", {"list_id": lst["list_id"]})["places"] == []
    fails(rt, "remove_saved_place", {"place_id": place, "list_id": lst["list_id"]},
           "is not in")
    assert ok(rt, "get_place_details", {"place_id": place})["saved_in_lists"] == [
        fav["list_id"]]


def test_world_varies_by_seed():
    # places are the world's (shared, fixed); reviews and the user's lists are drawn per seed
    assert_world_varies("maps", {"reviews": None, "saved_lists": None, "saved_places": None})
