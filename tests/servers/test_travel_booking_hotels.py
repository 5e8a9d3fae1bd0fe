"""travel_booking hotels: availability, rooms and the cancellation policy, and hotels are the
world's hotel places (a hotel found on maps books here by its place id)."""

from __future__ import annotations

from servers.core import ids
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.travel_booking import DOMAIN
from tests.servers.common import fails, ok, row_where, runtime_fixture
from tests.servers.travel_rows import cents, pm

rt = runtime_fixture(DOMAIN)


def _madrid_inn(rt: Runtime) -> str:
    """The id of The Juniper Inn, a Madrid hotel (its maps place id, opaque and seeded)."""
    return row_where(rt, "hotels", name="The Juniper Inn", city="Madrid")["hotel_id"]


def _full_room(rt: Runtime, stay: dict) -> tuple[str, str]:
    """A hotel and room type with no room free on some night of `stay` (sold out)."""
    for hotel in rt.session(None).state["hotels"].rows():
        rooms = ok(rt, "get_hotel", {"hotel_id": hotel["hotel_id"], **stay})["rooms"]
        full = next((r["room_type"] for r in rooms if r["available_rooms"] == 0), None)
        if full is not None:
            return hotel["hotel_id"], full
    raise AssertionError(f"no hotel room type is sold out for {stay}")


def test_hotel_booking_uses_inventory_and_cancellation_policy(rt):
    stay = {"check_in": "2026-07-10", "check_out": "2026-07-13"}
    inn, visa = _madrid_inn(rt), pm(rt, "Visa credit card")
    rooms = {r["room_type"]: r for r in ok(rt, "get_hotel", {"hotel_id": inn,
                                                              **stay})["rooms"]}
    free = rooms["standard"]["available_rooms"]
    fails(rt, "book_hotel", {"hotel_id": inn, "room_type": "standard", **stay,
                              "guests": 5, "payment_method_id": visa}, "sleeps at most 2")
    full, room_type = _full_room(rt, stay)
    fails(rt, "book_hotel", {"hotel_id": full, "room_type": room_type, **stay,
                              "payment_method_id": visa}, f"only 0 {room_type} room(s)")
    res = ok(rt, "book_hotel", {"hotel_id": inn, "room_type": "standard", **stay,
                                 "guests": 3, "rooms": 2,
                                 "payment_method_id": pm(rt, "American Express")})
    assert cents(res["total"]) == cents(rooms["standard"]["stay_total"]) * 2 and res["nights"] == 3
    after = {r["room_type"]: r for r in ok(rt, "get_hotel", {"hotel_id": inn,
                                                              **stay})["rooms"]}
    assert after["standard"]["available_rooms"] == free - 2
    out = ok(rt, "cancel_hotel_reservation", {"reservation_id": res["reservation_id"]})
    assert out["refund_amount"] == res["total"] and out["cancellation_fee"] == 0.0
    fails(rt, "cancel_hotel_reservation", {"reservation_id": res["reservation_id"]},
           "is cancelled")
    # check-in tomorrow: past the free-cancellation deadline, the first night is kept
    tomorrow = row_where(rt, "hotel_reservations", status="confirmed", check_in="2026-06-16")
    late = ok(rt, "cancel_hotel_reservation", {"reservation_id": tomorrow["reservation_id"]})
    assert late["cancellation_fee"] > 0
    assert cents(late["refund_amount"]) == cents(late["reservation"]["total"]) - cents(
        late["cancellation_fee"])
    fails(rt, "get_hotel", {"hotel_id": inn, "check_in": "2026-07-13",
                             "check_out": "2026-07-10"}, "must be after check_in")


def test_hotels_are_the_worlds_hotel_places():
    for seed in (0, 3):
        rt = Runtime(DOMAIN, default_seed=seed)
        world = make_world(seed)
        hotels = [p for p in world.places if p.kind == "hotel"]
        assert len(hotels) >= 20
        assert ok(rt, "search_hotels", {})["total"] == len(hotels)
        for p in hotels:
            place_id = ids.opaque(seed, p.id)  # the world place's sealed id, as on maps
            h = ok(rt, "get_hotel", {"hotel_id": place_id})
            assert (h["place_id"], h["name"], h["city"], h["address"]) == (
                place_id, p.name, p.city, p.address)
            by_name = ok(rt, "search_hotels", {"query": p.name, "city": p.city})["hotels"]
            assert place_id in [x["hotel_id"] for x in by_name]
            by_id = ok(rt, "search_hotels", {"query": place_id})["hotels"]
            assert [x["place_id"] for x in by_id] == [place_id]
        codes = {a["code"] for a in ok(rt, "list_airports", {})["airports"]}
        assert codes == {c.airport for c in world.cities}


def test_a_hotel_found_on_maps_books_here_by_its_place_id():
    from servers.maps import DOMAIN as MAPS

    maps, travel = Runtime(MAPS, default_seed=4), Runtime(DOMAIN, default_seed=4)
    found = ok(maps, "search_places", {"kind": "hotel", "city": "Tokyo"})["places"]
    assert found
    place = found[0]
    hits = ok(travel, "search_hotels", {"query": place["name"], "city": "Tokyo"})["hotels"]
    assert [h["place_id"] for h in hits] == [place["place_id"]]
    res = ok(travel, "book_hotel", {"hotel_id": place["place_id"], "room_type": "suite",
                                     "check_in": "2026-09-01", "check_out": "2026-09-03",
                                     "guests": 2,
                                     "payment_method_id": pm(travel, "Visa credit card")})
    assert (res["place_id"], res["hotel_name"], res["city"]) == (
        place["place_id"], place["name"], place["city"])
    cafe = ok(maps, "search_places", {"kind": "cafe", "city": "Tokyo"})["places"][0]
    fails(travel, "get_hotel", {"hotel_id": cafe["place_id"]}, "a hotel's id is its maps place id")
