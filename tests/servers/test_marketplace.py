"""Domain behaviour of the marketplace server (seed 0 state; see servers/marketplace)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from servers.core import money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.marketplace import DOMAIN, views
from tests.servers import common, money_ops
from tests.servers.common import assert_world_varies, rows_where, runtime_fixture, state
from tests.servers.money_ops import SEEDS

rt = runtime_fixture("marketplace")


def ok(rt: Runtime, tool: str, **args: object) -> dict:
    """`common.ok` with the tool's arguments as keywords."""
    return common.ok(rt, tool, args)


def fails(rt: Runtime, tool: str, needle: str, **args: object) -> str:
    """`common.fails` with the tool's arguments as keywords."""
    return common.fails(rt, tool, args, needle)


def _me(rt: Runtime) -> str:
    return state(rt).var("user_id")


def _pending(rt: Runtime, listing_id: str) -> list[dict]:
    """The listing's pending offers, highest first."""
    return sorted(rows_where(rt, "offers", listing_id=listing_id, status="pending"),
                  key=lambda o: -o["amount"])


def _my_active(rt: Runtime, pending: Callable[[list[dict]], bool]) -> str:
    """One of the user's active listings whose pending offers pass `pending`."""
    return next(r["listing_id"] for r in rows_where(rt, "listings", seller_id=_me(rt),
                                                    status="active")
                if pending(_pending(rt, r["listing_id"])))


def _open_to_me(rt: Runtime) -> dict:
    """The priciest active listing of someone else the user has no offer or chat on yet."""
    touched = ({o["listing_id"] for o in rows_where(rt, "offers", buyer_id=_me(rt))}
               | {c["listing_id"] for c in rows_where(rt, "conversations", buyer_id=_me(rt))})
    return max((r for r in rows_where(rt, "listings", status="active")
                if r["seller_id"] != _me(rt) and r["listing_id"] not in touched),
               key=lambda r: r["price"])


def test_offer_rules(rt):
    mine = ok(rt, "list_my_listings", status="active")["listings"][0]["listing_id"]
    fails(rt, "make_offer", "your own", listing_id=mine, amount=10)
    sold_id = next(r["listing_id"] for r in rows_where(rt, "listings", status="sold")
                   if r["seller_id"] != _me(rt))
    sold = ok(rt, "get_listing", listing_id=sold_id)
    assert sold["status"] == "sold"
    fails(rt, "make_offer", "is sold", listing_id=sold_id, amount=10)
    target = _open_to_me(rt)["listing_id"]
    asking = ok(rt, "get_listing", listing_id=target)["price"]
    fails(rt, "make_offer", "above the asking price", listing_id=target, amount=asking + 1)
    fails(rt, "make_offer", "must be >= 0.01", listing_id=target, amount=0)
    offer = ok(rt, "make_offer", listing_id=target, amount=asking - 100)
    assert offer["status"] == "pending" and offer["direction"] == "made"
    fails(rt, "make_offer", offer["offer_id"], listing_id=target, amount=asking - 50)
    fails(rt, "respond_to_offer", "one you made", offer_id=offer["offer_id"], action="accept")


def test_accept_marks_sold_and_declines_other_pending_offers(rt):
    lid = _my_active(rt, lambda pending: len(pending) == 2)
    pending = ok(rt, "list_offers", listing_id=lid, status="pending")["offers"]
    assert len(pending) == 2 and all(o["direction"] == "received" for o in pending)
    chosen, other = pending
    out = ok(rt, "respond_to_offer", offer_id=chosen["offer_id"], action="accept")
    assert out["offer"]["status"] == "accepted" and out["listing_status"] == "sold"
    assert out["declined_offer_ids"] == [other["offer_id"]]
    listing = ok(rt, "get_listing", listing_id=lid)
    assert listing["buyer_id"] == chosen["buyer_id"]
    assert listing["sold_price"] == chosen["amount"] and listing["pending_offers"] == 0
    assert lid not in [r["listing_id"] for r in ok(rt, "search_listings",
                                                   limit=50)["listings"]]
    fails(rt, "respond_to_offer", "already declined", offer_id=other["offer_id"],
          action="accept")
    fails(rt, "update_listing", "already sold", listing_id=lid, price=10)


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
    fails(rt, "update_listing", "not yours", listing_id=_open_to_me(rt)["listing_id"],
          price=1000)
    lid = _my_active(rt, lambda pending: len(pending) == 1)
    (only,) = _pending(rt, lid)
    removed = ok(rt, "remove_listing", listing_id=lid)
    assert removed["listing"]["status"] == "removed"
    assert removed["declined_offer_ids"] == [only["offer_id"]]
    fails(rt, "remove_listing", "already removed", listing_id=lid)


def test_reviews_only_for_purchases_once_each(rt):
    bought = rows_where(rt, "listings", buyer_id=_me(rt))
    reviewed = {r["listing_id"] for r in rows_where(rt, "reviews", reviewer_id=_me(rt))}
    by_seller: dict[str, set[str]] = {}
    for r in bought:
        by_seller.setdefault(r["seller_id"], set()).add(r["listing_id"])
    stranger = next(p for p in state(rt)["sellers"].ids()
                    if p not in by_seller and p != _me(rt))
    fails(rt, "leave_review", "have not bought anything", seller_id=stranger, rating=5,
          comment="great")
    done = next(p for p, lids in by_seller.items() if lids <= reviewed)
    fails(rt, "leave_review", "already reviewed", seller_id=done, rating=4, comment="again")
    repeat = next(p for p, lids in by_seller.items() if len(lids - reviewed) == 2)
    first = ok(rt, "leave_review", seller_id=repeat, rating=4, comment="fine")
    second = ok(rt, "leave_review", seller_id=repeat, rating=5, comment="also fine")
    assert {first["listing_id"], second["listing_id"]} == by_seller[repeat] - reviewed
    fails(rt, "leave_review", "every purchase", seller_id=repeat, rating=3, comment="x")
    profile = ok(rt, "get_seller_profile", seller_id=repeat)
    assert profile["recent_reviews"][0]["review_id"] == second["review_id"]


def test_messages_thread_into_one_conversation_per_listing(rt):
    fails(rt, "send_message", "exactly one", text="hi")
    mine = _my_active(rt, lambda pending: True)
    fails(rt, "send_message", "your own", listing_id=mine, text="hi")
    target = _open_to_me(rt)["listing_id"]
    first = ok(rt, "send_message", listing_id=target, text="Still available?")
    again = ok(rt, "send_message", listing_id=target, text="Any papers?")
    assert first["new_conversation"] and not again["new_conversation"]
    assert first["conversation_id"] == again["conversation_id"]
    convs = ok(rt, "list_conversations", listing_id=target)["conversations"]
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
    # one of the user's listings has pending offers of different amounts (scaled to the
    # world's currency, read from the state); an offer may not exceed the asking price, so
    # the seller answers such offers first
    lid = _my_active(rt, lambda p: len(p) >= 2 and p[0]["amount"] - 100 >= p[1]["amount"])
    top, second = _pending(rt, lid)[:2]
    high_id, low_id, high, low = top["offer_id"], second["offer_id"], top["amount"], second[
        "amount"]
    assert low < high
    eur = lambda minor: money.fmt(minor, "EUR")
    between = money.to_major(high - 100, "EUR")
    error = fails(rt, "update_listing", f"{high_id} of {eur(high)}", listing_id=lid,
                  price=between)
    assert low_id not in error and "respond_to_offer" in error
    error = fails(rt, "update_listing", f"{high_id} of {eur(high)}, {low_id} of {eur(low)}",
                  listing_id=lid, price=money.to_major(low - 100, "EUR"))
    assert f"at least {eur(high)}" in error
    top_price = money.to_major(high, "EUR")
    assert ok(rt, "update_listing", listing_id=lid, price=top_price)["price"] == top_price
    ok(rt, "respond_to_offer", offer_id=high_id, action="decline")
    assert ok(rt, "update_listing", listing_id=lid, price=between)["price"] == between


def test_the_clock_runs_past_midnight_after_720_changes(rt):
    """The old private clock stopped at 23:59 after 719 changes (later ones shared a minute)."""
    s = rt.session(None).state
    stamps = [views.tick(s) for _ in range(24 * 60)]
    assert views.now(s) == stamps[-1]
    assert len(set(stamps)) == len(stamps)
    assert stamps[-1].startswith("2026-06-16T12:00")


# ------------------------------------------------------------------ exact money


def test_a_jpy_world_prices_in_whole_yen():
    rt = Runtime(DOMAIN, default_seed=10)
    found = ok(rt, "search_listings", limit=50)["listings"]
    assert found and all(isinstance(r["price"], int) and r["currency"] == "JPY" for r in found)
    assert max(r["price"] for r in found) > 10000  # USD-like magnitudes scaled by 150
    theirs = next(r for r in found if r["seller_id"] != state(rt).var("user_id"))
    common.fails(rt, "make_offer", {"listing_id": theirs["listing_id"], "amount": 99.5},
                 "amount 99.5 has more decimals than JPY allows (0)")


def test_offer_above_the_price_names_both_in_the_currency(rt):
    row = _open_to_me(rt)
    over = money.to_major(row["price"] + 1, "EUR")
    fails(rt, "make_offer", f"above the asking price {money.fmt(row['price'], 'EUR')}",
          listing_id=row["listing_id"], amount=over)


def test_world_varies_by_seed():
    assert_world_varies("marketplace", {"listings": "status", "offers": "status",
                                        "conversations": None, "reviews": None})


def _makers() -> dict:
    def listing(rng, s):
        return rng.choice(s["listings"].ids())

    def below(rng, s, lid):  # most offers at or below the asking price
        price = s["listings"].get(lid)["price"]
        return money.to_major(money.times(price, rng.uniform(0.5, 1.05)), money.currency_of(s))

    def offer(rng, s):
        lid = listing(rng, s)
        return {"listing_id": lid, "amount": below(rng, s, lid)}

    def update(rng, s):
        lid = listing(rng, s)
        return {"listing_id": lid, "price": below(rng, s, lid)}

    return {
        "make_offer": offer,
        "update_listing": update,
        "respond_to_offer": lambda rng, s: {"offer_id": rng.choice(s["offers"].ids()),
                                            "action": rng.choice(["accept", "decline"])},
        "create_listing": lambda rng, s: {
            "title": f"Item {rng.randint(1, 10**6)}", "description": "x",
            "category": "electronics", "condition": "good",
            "price": money_ops.amount(rng, s, 5, 500)},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_sales_reconcile_with_accepted_offers_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = state(rt), make_world(seed).currency
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 200 and failed > 20
    for tool, args, result in done:  # what was asked is what is stored, exactly
        if tool == "make_offer":
            assert s["offers"].get(result["offer_id"])["amount"] == money_ops.minor(
                args["amount"], cur)
    accepted = {o["listing_id"]: o for o in s["offers"].rows() if o["status"] == "accepted"}
    for row in s["listings"].rows():
        assert isinstance(row["price"], int)
        if row["status"] == "sold" and row["listing_id"] in accepted:
            o = accepted[row["listing_id"]]
            assert (row["sold_price"], row["buyer_id"]) == (o["amount"], o["buyer_id"])
        pending = [o["amount"] for o in s["offers"].rows()
                   if o["listing_id"] == row["listing_id"] and o["status"] == "pending"]
        assert all(a <= row["price"] for a in pending)  # never above the asking price
    me = s.var("user_id")
    sold = [r for r in s["listings"].rows() if r["seller_id"] == me and r["status"] == "sold"]
    assert sum(r["sold_price"] for r in sold) == sum(
        o["amount"] for o in accepted.values() if o["seller_id"] == me)
