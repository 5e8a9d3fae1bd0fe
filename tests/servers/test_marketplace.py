"""Domain behaviour of the marketplace server (seed 0 state; see servers/marketplace)."""

from __future__ import annotations

from servers.core.runtime import Runtime
from servers.marketplace import views
from tests.servers import common
from tests.servers.common import runtime_fixture

rt = runtime_fixture("marketplace")


def ok(rt: Runtime, tool: str, **args: object) -> dict:
    """`common.ok` with the tool's arguments as keywords."""
    return common.ok(rt, tool, args)


def fails(rt: Runtime, tool: str, needle: str, **args: object) -> str:
    """`common.fails` with the tool's arguments as keywords."""
    return common.fails(rt, tool, args, needle)


def test_offer_rules(rt):
    mine = ok(rt, "list_my_listings", status="active")["listings"][0]["listing_id"]
    fails(rt, "make_offer", "your own", listing_id=mine, amount=10)
    sold = ok(rt, "get_listing", listing_id="lst_0012")
    assert sold["status"] == "sold"
    fails(rt, "make_offer", "is sold", listing_id="lst_0012", amount=10)
    asking = ok(rt, "get_listing", listing_id="lst_0033")["price"]
    fails(rt, "make_offer", "above the asking price", listing_id="lst_0033",
          amount=asking + 1)
    fails(rt, "make_offer", "must be >= 0.01", listing_id="lst_0033", amount=0)
    offer = ok(rt, "make_offer", listing_id="lst_0033", amount=asking - 100)
    assert offer["status"] == "pending" and offer["direction"] == "made"
    fails(rt, "make_offer", offer["offer_id"], listing_id="lst_0033", amount=asking - 50)
    fails(rt, "respond_to_offer", "one you made", offer_id=offer["offer_id"], action="accept")


def test_accept_marks_sold_and_declines_other_pending_offers(rt):
    pending = ok(rt, "list_offers", listing_id="lst_0018", status="pending")["offers"]
    assert len(pending) == 2 and all(o["direction"] == "received" for o in pending)
    chosen, other = pending
    out = ok(rt, "respond_to_offer", offer_id=chosen["offer_id"], action="accept")
    assert out["offer"]["status"] == "accepted" and out["listing_status"] == "sold"
    assert out["declined_offer_ids"] == [other["offer_id"]]
    listing = ok(rt, "get_listing", listing_id="lst_0018")
    assert listing["buyer_id"] == chosen["buyer_id"]
    assert listing["sold_price"] == chosen["amount"] and listing["pending_offers"] == 0
    assert "lst_0018" not in [r["listing_id"] for r in ok(rt, "search_listings",
                                                           limit=50)["listings"]]
    fails(rt, "respond_to_offer", "already declined", offer_id=other["offer_id"],
          action="accept")
    fails(rt, "update_listing", "already sold", listing_id="lst_0018", price=10)


def test_create_update_remove_own_listing(rt):
    new = ok(rt, "create_listing", title="Bosch cordless drill", description="18V drill",
             category="home", condition="good", price=60, city="lisbon")
    assert new["city"] == "Lisbon" and new["is_mine"] and new["status"] == "active"
    fails(rt, "create_listing", "already have an active listing", title="bosch cordless "
          "drill", description="again", category="home", condition="good", price=50)
    fails(rt, "create_listing", "unknown city", title="Desk lamp", description="lamp",
          category="home", condition="good", price=15, city="Atlantis")
    updated = ok(rt, "update_listing", listing_id=new["listing_id"], price=55)
    assert updated["price"] == 55 and updated["title"] == "Bosch cordless drill"
    fails(rt, "update_listing", "nothing to update", listing_id=new["listing_id"])
    fails(rt, "update_listing", "not yours", listing_id="lst_0033", price=1000)
    removed = ok(rt, "remove_listing", listing_id="lst_0025")
    assert removed["listing"]["status"] == "removed"
    assert removed["declined_offer_ids"] == ["off_0012"]
    fails(rt, "remove_listing", "already removed", listing_id="lst_0025")


def test_reviews_only_for_purchases_once_each(rt):
    fails(rt, "leave_review", "have not bought anything", seller_id="p_007", rating=5,
          comment="great")
    fails(rt, "leave_review", "already reviewed", seller_id="p_020", rating=4,
          comment="again")
    first = ok(rt, "leave_review", seller_id="p_022", rating=4, comment="fine")
    second = ok(rt, "leave_review", seller_id="p_022", rating=5, comment="also fine")
    assert {first["listing_id"], second["listing_id"]} == {"lst_0014", "lst_0015"}
    fails(rt, "leave_review", "every purchase", seller_id="p_022", rating=3, comment="x")
    profile = ok(rt, "get_seller_profile", seller_id="p_022")
    assert profile["recent_reviews"][0]["review_id"] == second["review_id"]


def test_messages_thread_into_one_conversation_per_listing(rt):
    fails(rt, "send_message", "exactly one", text="hi")
    fails(rt, "send_message", "your own", listing_id="lst_0018", text="hi")
    first = ok(rt, "send_message", listing_id="lst_0033", text="Still available?")
    again = ok(rt, "send_message", listing_id="lst_0033", text="Any papers?")
    assert first["new_conversation"] and not again["new_conversation"]
    assert first["conversation_id"] == again["conversation_id"]
    convs = ok(rt, "list_conversations", listing_id="lst_0033")["conversations"]
    assert len(convs) == 1 and convs[0]["my_role"] == "buyer"
    assert [m["text"] for m in convs[0]["messages"]] == ["Still available?", "Any papers?"]
    unread = ok(rt, "list_conversations", unread_only=True)["conversations"]
    target = unread[0]["conversation_id"]
    ok(rt, "send_message", conversation_id=target, text="Thanks!")
    left = ok(rt, "list_conversations", unread_only=True)["conversations"]
    assert target not in [c["conversation_id"] for c in left]


def test_search_filters(rt):
    found = ok(rt, "search_listings", category="electronics", max_price=300,
               sort="price_low")["listings"]
    assert found and all(r["category"] == "electronics" and r["price"] <= 300 for r in found)
    assert [r["price"] for r in found] == sorted(r["price"] for r in found)
    assert ok(rt, "search_listings", limit=50)["total"] >= 20
    fails(rt, "search_listings", "unknown city", city="Gotham")


def test_price_cannot_drop_below_a_pending_offer(rt):
    # lst_0018 asks 125.00 with pending offers off_0008 (82.00) and off_0009 (111.00); an
    # offer may not exceed the asking price, so the seller answers such offers first
    error = fails(rt, "update_listing", "off_0009 of 111.00", listing_id="lst_0018", price=100)
    assert "off_0008" not in error and "respond_to_offer" in error
    error = fails(rt, "update_listing", "off_0009 of 111.00, off_0008 of 82.00",
                  listing_id="lst_0018", price=80)
    assert "at least 111.00" in error
    assert ok(rt, "update_listing", listing_id="lst_0018", price=111)["price"] == 111
    ok(rt, "respond_to_offer", offer_id="off_0009", action="decline")
    assert ok(rt, "update_listing", listing_id="lst_0018", price=100)["price"] == 100


def test_the_clock_runs_past_midnight_after_720_changes(rt):
    """The old private clock stopped at 23:59 after 719 changes (later ones shared a minute)."""
    s = rt.session(None).state
    stamps = [views.tick(s) for _ in range(24 * 60)]
    assert views.now(s) == stamps[-1]
    assert len(set(stamps)) == len(stamps)
    assert stamps[-1].startswith("2026-06-16T12:00")
