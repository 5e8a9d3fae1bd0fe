"""Servers share one world: under one seed, people and places found on one server are
addressable on the others (so one task can span servers). Played over real MCP through the
manager, one episode holding a session on each server, as a rollout would."""

from __future__ import annotations

import pytest

from prove_jax.tools.manager import MCPManager, ServerSpec

pytestmark = pytest.mark.anyio
SEED = 3


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def _ok(mgr, episode, tool: str, args: dict) -> dict:
    result = await mgr.call(episode, tool, args)
    assert result.ok, f"{tool}({args}): {result.error}"
    return result.payload


async def test_a_crm_contact_is_addressable_on_email_and_team_chat():
    servers = ["crm", "email", "team_chat"]
    async with MCPManager([ServerSpec(s, "inprocess") for s in servers]) as mgr:
        ep = await mgr.open_episode(servers, SEED)
        contacts = (await _ok(mgr, ep, "crm__search_contacts", {"limit": 50}))["contacts"]
        assert len(contacts) >= 20
        for contact in contacts[::7]:
            found = await _ok(mgr, ep, "email__search_contacts", {"query": contact["name"]})
            assert [c["email"] for c in found["contacts"]] == [contact["email"]]
            members = (await _ok(mgr, ep, "search_members", {"query": contact["name"]}))
            member = next(m for m in members["members"] if m["name"] == contact["name"])
            assert member["email"] == contact["email"]
            await _ok(mgr, ep, "send_email", {"to": [contact["email"]], "subject": "Hello",
                                              "body": "Following up on our call."})
            await _ok(mgr, ep, "send_direct_message", {"member_id": member["member_id"],
                                                       "text": "Sent you an email."})


async def test_a_maps_place_is_bookable_on_travel_booking_and_food_delivery():
    servers = ["maps", "travel_booking", "food_delivery"]
    async with MCPManager([ServerSpec(s, "inprocess") for s in servers]) as mgr:
        ep = await mgr.open_episode(servers, SEED)
        hotels = (await _ok(mgr, ep, "search_places", {"kind": "hotel", "limit": 50}))["places"]
        methods = await _ok(mgr, ep, "travel_booking__list_payment_methods", {})
        card = next(m for m in methods["payment_methods"] if m["kind"] == "credit_card"
                    and not m["expired"])["payment_method_id"]
        assert len(hotels) == 24
        for place in hotels[::6]:
            found = await _ok(mgr, ep, "search_hotels", {"query": place["name"],
                                                         "city": place["city"]})
            hotel = next(h for h in found["hotels"] if h["place_id"] == place["place_id"])
            stay = {"check_in": "2026-07-10", "check_out": "2026-07-12"}
            rooms = (await _ok(mgr, ep, "get_hotel", {"hotel_id": hotel["hotel_id"], **stay}))
            free = next(r for r in rooms["rooms"] if r["available_rooms"] > 0)
            booked = await _ok(mgr, ep, "book_hotel", {
                "hotel_id": hotel["hotel_id"], "room_type": free["room_type"], **stay,
                "payment_method_id": card})
            assert place["name"] in str(booked)
        places = (await _ok(mgr, ep, "search_places", {"kind": "restaurant", "limit": 50}))
        assert places["total"] >= 40
        for place in places["places"][::9]:
            found = await _ok(mgr, ep, "search_restaurants", {"query": place["name"],
                                                              "city": place["city"]})
            restaurant = next(r for r in found["restaurants"]
                              if r["place_id"] == place["place_id"])
            assert restaurant["name"] == place["name"]
            menu = await _ok(mgr, ep, "get_menu", {"restaurant_id": restaurant["restaurant_id"]})
            item = next(i for i in menu["items"] if i["available"])
            await _ok(mgr, ep, "add_to_cart",
                      {"item_id": item["item_id"], "replace_cart": True})
