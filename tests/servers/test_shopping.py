"""shopping domain rules: stock, coupons, checkout, cancellation, returns, reviews."""

from __future__ import annotations

from servers.core.runtime import Runtime
from servers.shopping import DOMAIN
from tests.servers.common import fails, ok, runtime_fixture

rt = runtime_fixture(DOMAIN)


def _stock(rt: Runtime, item_id: str) -> int:
    return rt.session(None).state["variants"].get(item_id)["stock"]


def test_checkout_moves_stock_into_an_order_and_cancel_puts_it_back(rt):
    assert rt.call("clear_cart", {}).ok
    assert rt.call("add_to_cart", {"item_id": "itm_0151", "quantity": 3}).ok
    cart = rt.call("view_cart", {}).payload
    assert cart["subtotal"] == 179.97 and cart["total"] == 179.97  # free shipping over $50
    before = _stock(rt, "itm_0151")
    order = rt.call("checkout", {"address_id": "addr_0002", "payment_method_id": "pm_0001"})
    assert order.ok and order.payload["status"] == "pending"
    assert order.payload["total"] == cart["total"]
    assert order.payload["shipping_address"]["address_id"] == "addr_0002"
    assert _stock(rt, "itm_0151") == before - 3
    assert rt.call("view_cart", {}).payload["lines"] == []
    oid = order.payload["order_id"]
    assert rt.call("list_orders", {"status": "pending"}).payload["orders"][0]["order_id"] == oid
    cancelled = rt.call("cancel_order", {"order_id": oid, "reason": "found a better price"})
    assert cancelled.ok and cancelled.payload["refund_amount"] == cart["total"]
    assert _stock(rt, "itm_0151") == before
    fails(rt, "cancel_order", {"order_id": oid, "reason": "other"}, "already cancelled")
    fails(rt, "checkout", {"address_id": "addr_0001", "payment_method_id": "pm_0001"},
           "cart is empty")


def test_cart_respects_stock(rt):
    stock = _stock(rt, "itm_0150")  # 3 paperbacks at seed 0
    fails(rt, "add_to_cart", {"item_id": "itm_0150", "quantity": stock + 1},
           f"only {stock} unit(s)")
    fails(rt, "add_to_cart", {"item_id": "itm_0007"}, "out of stock")
    assert rt.call("add_to_cart", {"item_id": "itm_0150", "quantity": stock}).ok
    fails(rt, "add_to_cart", {"item_id": "itm_0150"}, f"only {stock} unit(s)")
    fails(rt, "update_cart_item", {"item_id": "itm_0001", "quantity": 1}, "not in the cart")


def test_coupon_rules(rt):
    fails(rt, "apply_coupon", {"code": "SPRING25"}, "expired on 2026-05-31")
    fails(rt, "apply_coupon", {"code": "WELCOME10"}, "already used")
    fails(rt, "apply_coupon", {"code": "TECH50"}, "only to electronics")
    fails(rt, "apply_coupon", {"code": "NOPE99"}, "no coupon")
    cart = rt.call("apply_coupon", {"code": "save20"}).payload  # cart is $248 at seed 0
    assert cart["coupon_code"] == "SAVE20" and cart["discount"] == 20.0
    assert cart["total"] == round(cart["subtotal"] - 20.0, 2)
    # dropping below the $150 minimum removes the coupon and says why
    out = rt.call("remove_from_cart", {"item_id": "itm_0064"}).payload
    assert out["coupon_code"] is None and out["discount"] == 0.0
    assert "removed" in out["notice"]


def test_cancelling_an_order_gives_its_single_use_coupon_back(rt):
    # VIP30 is single-use, 30% off over $300; the seed cart is $248 (food_delivery gives
    # promo codes back the same way)
    ok(rt, "add_to_cart", {"item_id": "itm_0151", "quantity": 2})
    ok(rt, "apply_coupon", {"code": "VIP30"})
    order = ok(rt, "checkout", {"address_id": "addr_0001", "payment_method_id": "pm_0001"})
    assert order["coupon_code"] == "VIP30" and order["discount"] > 0
    ok(rt, "add_to_cart", {"item_id": "itm_0151", "quantity": 6})  # $359.94, over the minimum
    fails(rt, "apply_coupon", {"code": "VIP30"}, "already used")
    oid = order["order_id"]
    ok(rt, "cancel_order", {"order_id": oid, "reason": "other"})
    assert ok(rt, "apply_coupon", {"code": "VIP30"})["coupon_code"] == "VIP30"


def test_payment_method_rules(rt):
    fails(rt, "checkout", {"address_id": "addr_0001", "payment_method_id": "pm_0002"},
           "expired")
    fails(rt, "checkout", {"address_id": "addr_0001", "payment_method_id": "pm_0004"},
           "gift card balance")
    rt.call("clear_cart", {})
    assert rt.call("add_to_cart", {"item_id": "itm_0176"}).ok  # $19.99 + $5.99 shipping
    balance = rt.session(None).state["payment_methods"].get("pm_0004")["balance"]
    order = rt.call("checkout", {"address_id": "addr_0001", "payment_method_id": "pm_0004"})
    assert order.ok and order.payload["total"] == 25.98
    state = rt.session(None).state
    assert state["payment_methods"].get("pm_0004")["balance"] == round(balance - 25.98, 2)
    rt.call("cancel_order", {"order_id": order.payload["order_id"], "reason": "other"})
    assert state["payment_methods"].get("pm_0004")["balance"] == balance


def test_return_rules(rt):
    fails(rt, "request_return", {"order_id": "ord_0005", "item_ids": ["itm_0041"],
                                  "reason": "size or fit"}, "return window")
    fails(rt, "request_return", {"order_id": "ord_0022", "item_ids": ["itm_0068"],
                                  "reason": "wrong item"}, "only delivered orders")
    fails(rt, "request_return", {"order_id": "ord_0021", "item_ids": ["itm_0001"],
                                  "reason": "wrong item"}, "not in order ord_0021")
    out = rt.call("request_return", {"order_id": "ord_0020", "item_ids": ["itm_0010"],
                                     "reason": "damaged or defective"})
    assert out.ok and out.payload["refund_amount"] == 249.99
    order = rt.call("get_order", {"order_id": "ord_0020"}).payload
    assert out.payload["return_id"] in order["return_ids"]
    assert [it["returned"] for it in order["items"]] == [False, True, False]
    fails(rt, "request_return", {"order_id": "ord_0020", "item_ids": ["itm_0010"],
                                  "reason": "wrong item"}, "already returned")
    fails(rt, "cancel_order", {"order_id": "ord_0020", "reason": "other"},
           "use request_return")


def test_reviews_need_a_delivered_purchase_and_count_in_the_rating(rt):
    fails(rt, "write_review", {"product_id": "prd_0001", "rating": 5, "title": "x",
                                "body": "y"}, "no delivered order")
    fails(rt, "write_review", {"product_id": "prd_0015", "rating": 5, "title": "x",
                                "body": "y"}, "already reviewed")
    before = rt.call("get_product_reviews", {"product_id": "prd_0019"}).payload
    assert rt.call("write_review", {"product_id": "prd_0019", "rating": 1, "title": "Bad",
                                    "body": "Fell apart."}).ok
    after = rt.call("get_product_reviews", {"product_id": "prd_0019", "sort": "lowest"}).payload
    assert after["review_count"] == before["review_count"] + 1
    assert after["reviews"][0]["title"] == "Bad" and after["average_rating"] < before[
        "average_rating"]


def test_tracking_and_wishlist(rt):
    fails(rt, "track_shipment", {"order_id": "ord_0031"}, "no shipment")
    tracking = rt.call("track_shipment", {"order_id": "ord_0021"}).payload
    assert tracking["status"] == "delivered" and tracking["events"][-1]["description"].startswith(
        "Delivered")
    fails(rt, "add_to_wishlist", {"product_id": "prd_0013"}, "already in the wishlist")
    fails(rt, "remove_from_wishlist", {"product_id": "prd_0001"}, "not in the wishlist")
    assert rt.call("add_to_wishlist", {"product_id": "prd_0001"}).payload["total"] == 6
