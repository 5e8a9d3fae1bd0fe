"""Entities that several servers hold agree at session start (issue #20): a place's opening
hours and open_now on maps, food_delivery, travel_booking and retail_chain; each video meeting
on the calendar with the same title, times and people; phones and addresses that fit a
person's city; cuisines that fit a restaurant's name. Read through each server's own tools,
at three seeds.

The expectations (calling codes, postal code shapes, name -> cuisine) are written out here, not
read from the generator, so the test checks the data rather than repeating it."""

from __future__ import annotations

import re

import pytest

from servers.calendar import DOMAIN as CALENDAR
from servers.core.runtime import Runtime
from servers.crm import DOMAIN as CRM
from servers.food_delivery import DOMAIN as FOOD
from servers.maps import DOMAIN as MAPS
from servers.retail_chain import DOMAIN as RETAIL
from servers.shopping import DOMAIN as SHOPPING
from servers.travel_booking import DOMAIN as TRAVEL
from servers.video_meeting import DOMAIN as VIDEO
from tests.servers.common import ok, ok_all

SEEDS = (0, 11, 12)
CALLING = {"Portugal": "+351", "Germany": "+49", "France": "+33", "Spain": "+34",
           "Netherlands": "+31", "United Kingdom": "+44", "United States": "+1",
           "Japan": "+81", "Singapore": "+65", "Canada": "+1", "Australia": "+61"}
AREA_CODES = {"New York": {"212", "332", "347", "646", "718", "917", "929"},
              "San Francisco": {"415", "628"}, "Toronto": {"416", "437", "647"}}
POSTAL = {"Lisbon": r"1\d{3}-\d{3}", "Berlin": r"1[0-4]\d{3}", "Paris": r"750[0-2]\d",
          "Madrid": r"280\d{2}", "Amsterdam": r"10\d{2} [A-Z]{2}",
          "London": r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", "New York": r"1[01]\d{3}",
          "San Francisco": r"941\d{2}", "Tokyo": r"1\d{2}-\d{4}", "Singapore": r"\d{6}",
          "Toronto": r"M\d[A-Z] \d[A-Z]\d", "Sydney": r"2\d{3}"}
# a word in a restaurant's name -> the cuisines it promises (other names: any cuisine)
NAME_CUISINES = {"Sushi": {"japanese"}, "Trattoria": {"italian"}, "Tapas": {"spanish"},
                 "Curry": {"indian"}, "Bistro": {"french"}, "Noodle": {"chinese", "japanese"},
                 "Casa": {"mexican", "spanish"}}


@pytest.fixture(params=SEEDS)
def seed(request) -> int:
    return request.param


def _places(maps: Runtime) -> list[dict]:
    out = []
    for city in ok(maps, "list_cities", {})["cities"]:
        for kind in ("restaurant", "cafe", "hotel", "store", "landmark"):
            found = ok(maps, "search_places", {"city": city["name"], "kind": kind,
                                               "limit": 50})
            assert found["total"] == len(found["places"])
            out += found["places"]
    return out


def test_places_have_the_same_hours_and_open_now_everywhere(seed):
    maps, food, travel = (Runtime(d, default_seed=seed) for d in (MAPS, FOOD, TRAVEL))
    places = {p["place_id"]: p for p in _places(maps)}
    restaurants = [r for city in ok(maps, "list_cities", {})["cities"]
                   for r in ok_all(food, "search_restaurants", {"city": city["name"]},
                                   "restaurants")]
    hotels = [ok(travel, "get_hotel", {"hotel_id": h["hotel_id"]})
              for h in ok_all(travel, "search_hotels", {}, "hotels")]
    assert len(restaurants) > 50 and len(hotels) > 20
    for other in [*restaurants, *hotels]:
        hours = ok(maps, "get_opening_hours", {"place_id": other["place_id"]})
        assert other["open_now"] == places[other["place_id"]]["open_now"] == hours["open_now"], \
            other["name"]
        assert other["opening_hours"] == hours["weekly"], other["name"]
    for r in restaurants:
        assert r["cuisine"] == places[r["place_id"]]["cuisine"] or r["kind"] == "cafe"
    # retail_chain's stores are maps' store places (store_id = place id), one span a day
    retail = Runtime(RETAIL, default_seed=seed)
    stores = ok_all(retail, "find_stores", {}, "stores")
    assert len(stores) > 10
    for summary in stores:
        store = ok(retail, "get_store", {"store_id": summary["store_id"]})
        hours = ok(maps, "get_opening_hours", {"place_id": store["store_id"]})
        assert store["open_now"] == hours["open_now"], store["name"]
        assert [[f"{h['opens']}-{h['closes']}"] if h["opens"] else [] for h in store["hours"]
                ] == list(hours["weekly"].values()), store["name"]
    # the clocks are the place's own: at the world's noon somewhere is closed, somewhere open
    assert {r["open_now"] for r in restaurants} == {True, False}


def test_restaurant_cuisines_fit_their_names(seed):
    maps = Runtime(MAPS, default_seed=seed)
    restaurants = [p for p in _places(maps) if p["kind"] == "restaurant"]
    promised = 0
    for r in restaurants:
        allowed = set().union(*(c for w, c in NAME_CUISINES.items() if w in r["name"].split()))
        promised += bool(allowed)
        assert not allowed or r["cuisine"] in allowed, (r["name"], r["cuisine"])
    assert promised > len(restaurants) // 2


def test_every_video_meeting_is_a_calendar_event(seed):
    video, cal = Runtime(VIDEO, default_seed=seed), Runtime(CALENDAR, default_seed=seed)
    listed = ok(video, "list_meetings", {"status": "all", "limit": 100})
    assert 0 < listed["total"] <= 100
    user_id = next(m["host_id"] for m in listed["meetings"] if m["is_host"])
    seen = 0
    for summary in listed["meetings"]:
        if summary["status"] == "cancelled":
            continue  # called off: not on the calendar
        m = ok(video, "get_meeting", {"meeting_id": summary["meeting_id"]})
        day = m["start"][:10]
        events = ok_all(cal, "list_events", {"start_date": day, "end_date": day}, "events")
        same = [e for e in events if e["title"] == m["topic"]
                and e["start"] == m["start"] and e["end"] == m["end"]]
        assert len(same) == 1, f"{m['meeting_id']} {m['topic']!r} at {m['start']}: {events}"
        event = same[0]
        # the calendar lists everyone invited but its organizer (the host) and its owner
        assert event["organizer"] == m["host_email"]
        assert sorted(event["attendees"]) == sorted(
            p["email"] for p in m["participants"] if p["person_id"] not in (m["host_id"],
                                                                              user_id))
        seen += 1
    assert seen > 30
    # the recurring team sync is one of them, at the same time on both
    assert any(m["topic"] == "Weekly team sync" for m in listed["meetings"])


def _phone_fits(phone: str, city: str, country: str) -> bool:
    code = CALLING[country]
    if not phone.startswith(code + " ") or phone.startswith("+1-555"):
        return False
    digits = re.sub(r"\D", "", phone[len(code):])
    if code == "+1":
        return len(digits) == 10 and digits[:3] in AREA_CODES[city]
    return 8 <= len(digits) <= 11


def test_phones_and_addresses_fit_each_persons_city(seed):
    maps, crm = Runtime(MAPS, default_seed=seed), Runtime(CRM, default_seed=seed)
    country = {c["name"]: c["country"] for c in ok(maps, "list_cities", {})["cities"]}
    contacts = ok(crm, "search_contacts", {"limit": 100})["contacts"]
    assert len(contacts) > 50
    assert {c["city"] for c in contacts} - {"London", "Berlin", "Paris"}  # not one region
    for c in contacts:
        assert _phone_fits(c["phone"], c["city"], country[c["city"]]), (c["city"], c["phone"])
    food, shop = Runtime(FOOD, default_seed=seed), Runtime(SHOPPING, default_seed=seed)
    saved = ok(food, "list_saved_addresses", {})["addresses"]
    shipped = ok(shop, "list_addresses", {})["addresses"]
    for a in [*saved, *shipped]:
        assert re.fullmatch(POSTAL[a["city"]], a["postal_code"]), (a["city"], a["postal_code"])
    home, ship_home = (next(a for a in rows if a["label"] == "Home") for rows in (saved, shipped))
    assert (home["street"], home["postal_code"], home["city"]) == (
        ship_home["line1"], ship_home["postal_code"], ship_home["city"])
    assert ship_home["country"] == country[ship_home["city"]]
    assert _phone_fits(ship_home["phone"], ship_home["city"], country[ship_home["city"]])
    # a city's street names are its own (no 'Main St' in Tokyo and in Berlin)
    streets: dict[str, set[str]] = {}
    for p in _places(maps):
        street = re.sub(r"[\d-]+,?", "", p["address"].rsplit(", ", 1)[0]).strip(" ,")
        streets.setdefault(street, set()).add(p["city"])
    assert all(len(cities) == 1 for cities in streets.values()), streets
