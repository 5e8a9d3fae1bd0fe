"""shopping state: the generator of stock, reviews, the user's account (addresses, payment
methods, cart, wishlist) and order history with shipments and returns. The static catalog
tables (categories, products, review texts, coupons) live in catalog_data.

Reviewers are the world's people; the user (world.user) ships to their own city.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re

from servers.core import clock, locales, money
from servers.core.state import State
from servers.core.world import World, days_ago, rng_for
from servers.shopping.catalog_data import CATALOG, COUPONS, REVIEW_TEXT

TODAY = dt.date(2026, 6, 15)  # REFERENCE_DATE of every world
RETURN_DAYS = 30
FREE_SHIPPING_FROM_USD = 50  # USD-like; scaled to the world's currency (money.seed)
SHIPPING_FEE_USD = 5.99
MAX_PER_LINE = 10

CARRIERS = ["UPS", "DHL", "FedEx", "DPD"]
CANCEL_REASONS = ["no longer needed", "ordered by mistake", "found a better price",
                  "delivery too slow", "other"]
RETURN_REASONS = ["damaged or defective", "wrong item", "not as described", "size or fit",
                  "no longer needed"]


def order_plan(rng: random.Random) -> list[tuple[int, str]]:
    """(days ago placed, status) of the user's orders, oldest first: a seeded history of
    delivered orders with a few cancelled, then a tail still under way. Two recent deliveries
    are always inside the return window; the first order (the one WELCOME10 paid for) was
    delivered."""
    n_past = rng.randint(20, 32)
    ages = sorted(rng.sample(range(21, 180), n_past - 2) + rng.sample(range(6, 21), 2),
                  reverse=True)
    cancelled = set(rng.sample(range(1, n_past - 2), rng.randint(1, 4)))
    past = [(age, "cancelled" if i in cancelled else "delivered") for i, age in enumerate(ages)]
    under_way = ([(rng.randint(2, 5), "shipped") for _ in range(rng.randint(2, 5))]
                 + [(rng.randint(1, 2), "processing") for _ in range(rng.randint(1, 3))]
                 + [(rng.randint(0, 1), "pending") for _ in range(rng.randint(1, 3))])
    return past + sorted(under_way, key=lambda plan: -plan[0])  # stable: statuses stay in order


def seeded_price(base: float, rng: random.Random) -> float:
    """The store's price of a catalogue item at this seed: the list price moved a little,
    still ending in .99 where it did."""
    factor = rng.choice([0.9, 0.95, 1.0, 1.0, 1.05, 1.1, 1.15])
    if factor == 1.0 or base < 10:
        return base
    return round(base * factor) - (0.01 if round(base * 100) % 100 == 99 else 0)


def tracking_number(rng: random.Random, carrier: str) -> str:
    if carrier == "UPS":
        return "1Z" + "".join(rng.choice("0123456789ABCDEFGHJKLMNPRSTVWXY") for _ in range(16))
    digits = {"DHL": 10, "FedEx": 12, "DPD": 14}[carrier]
    return "".join(rng.choice("0123456789") for _ in range(digits))


def order_totals(subtotal: int, discount: int, free_shipping: bool, cur: str
                 ) -> tuple[int, int]:
    """(shipping fee, total) in minor units of `cur` for a subtotal and discount."""
    after = subtotal - discount
    free = free_shipping or after >= money.seed(FREE_SHIPPING_FROM_USD, cur)
    fee = 0 if free else money.seed(SHIPPING_FEE_USD, cur)
    return fee, after + fee


def _coupon(row: tuple, cur: str) -> dict:
    """A seeded coupon in the world's currency: fixed values, spends and caps scaled, and
    the '$N' in its description restated in the currency."""
    c = dict(zip(("code", "description", "kind", "value", "min_spend", "category",
                  "expires_at", "max_discount", "single_use", "used"), row, strict=True))
    scaled = {k: money.seed(c[k], cur) for k in ("min_spend", "max_discount")
              if c[k] is not None}
    if c["kind"] == "fixed":
        scaled["value"] = money.seed(c["value"], cur)
    text = re.sub(r"\$(\d+)", lambda m: money.fmt(money.seed(m.group(1), cur), cur),
                  c["description"])
    return {**c, **scaled, "description": text}


def _plus(stamp: str, hours: float) -> str:
    when = dt.datetime.fromisoformat(stamp) + dt.timedelta(hours=hours)
    return when.isoformat(timespec="minutes")


def _events(world: World, rng: random.Random, placed: str, status: str,
            delivered_at: str | None, out_day: str, city: str) -> list[dict]:
    """Carrier scan events from label to (maybe) delivery, oldest first."""
    hub = rng.choice([c.name for c in world.cities if c.name != city])
    steps = [(_plus(placed, 3), "Fulfillment Center, Amsterdam",
              "Label created, shipment information sent to carrier"),
             (_plus(placed, 20), "Fulfillment Center, Amsterdam", "Picked up by carrier"),
             (_plus(placed, 34), f"Sort Hub, {hub}", "In transit: arrived at sort facility")]
    if status in ("out_for_delivery", "delivered"):
        steps.append((clock.stamp(clock.local(dt.date.fromisoformat(out_day), dt.time(8, 10),
                                              world.tz)),
                      f"Local Depot, {city}", "Out for delivery"))
    if delivered_at is not None:
        steps.append((delivered_at, city, "Delivered, left at front door"))
    return [{"time": when, "location": loc, "description": text} for when, loc, text in steps]


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    cur = world.currency
    money.remember_currency(s, cur)

    # catalog: products, their variants (purchasable items) and reviews
    products = s.table("products", key="product_id", kind="product",
                       hint="use search_products to find product ids")
    variants = s.table("variants", key="item_id", kind="item",
                       hint="use get_product to see the item ids of a product's variants")
    p_rows, v_rows, n_p, n_v = [], [], 0, 0
    for category, items in CATALOG.items():
        # the store stocks four to six of a category's products, in catalogue order
        stocked = sorted(rng.sample(range(len(items)), rng.randint(4, len(items))))
        for name, brand, base, axes, step, desc in (items[k] for k in stocked):
            base = seeded_price(base, rng)
            n_p += 1
            pid = f"prd_{n_p:04d}"
            p_rows.append({"product_id": pid, "name": name, "brand": brand,
                           "category": category, "description": desc, "options": axes,
                           "listed_at": days_ago(world, rng.randint(40, 700))[:10]})
            first = next(iter(axes))
            for combo in itertools.product(*axes.values()):
                n_v += 1
                options = dict(zip(axes, combo, strict=True))
                v_rows.append({"item_id": f"itm_{n_v:04d}", "product_id": pid,
                               "options": options,
                               "price": money.seed(
                                   round(base + axes[first].index(options[first]) * step, 2),
                                   cur),
                               "stock": rng.choice([0, 2, 3, 5, 8, 12, 15, 24, 40])})
    products.load(p_rows)
    variants.load(v_rows)
    reviews = s.table("reviews", key="review_id", kind="review",
                      hint="use get_product_reviews to see review ids")
    r_rows = []
    for p in p_rows:
        for person in rng.sample(world.people[1:], rng.randint(2, 5)):
            rating = rng.choices([5, 4, 3, 2, 1], weights=[45, 30, 12, 8, 5])[0]
            title, body = rng.choice(REVIEW_TEXT[rating])
            r_rows.append({"review_id": "", "product_id": p["product_id"],
                           "author_id": person.id, "author_name": person.name,
                           "rating": rating, "title": title, "body": body,
                           "created_at": days_ago(world, rng.randint(3, 400), rng),
                           "verified_purchase": rng.random() < 0.85,
                           "helpful_votes": rng.choice([0, 0, 1, 2, 3, 5, 8, 13, 21])})

    # the user's account
    s.set_var("user", {"user_id": user.id, "name": user.name, "email": user.email})
    addresses = s.table("addresses", key="address_id", kind="address",
                        hint="use list_addresses to see address ids")
    company = world.company(user.company_id)
    other = rng.choice([c for c in world.cities if c.name != user.city])
    home = world.address(user.id)  # the user's one home address, on every server
    local = rng_for(world.seed, "shopping", "addresses")
    addresses.load([
        {"address_id": "addr_0001", "label": "Home", "recipient_name": user.name,
         "line1": home.street, "line2": None, "city": home.city,
         "postal_code": home.postal_code, "country": home.country,
         "phone": user.phone, "is_default": True},
        {"address_id": "addr_0002", "label": "Work", "recipient_name": f"{user.name} c/o "
         f"{company.name}", "line1": locales.random_street_address(company.city, local),
         "line2": "Reception, 3rd floor", "city": company.city,
         "postal_code": locales.postal_code(company.city, local),
         "country": world.city(company.city).country,
         "phone": user.phone, "is_default": False},
        {"address_id": "addr_0003", "label": "Parents", "recipient_name": f"{user.last_name} "
         "family", "line1": locales.random_street_address(other.name, local), "line2": None,
         "city": other.name, "postal_code": locales.postal_code(other.name, local),
         "country": other.country, "phone": None, "is_default": False}])
    s.set_var("__seq_addr", 3)
    methods = s.table("payment_methods", key="payment_method_id", kind="payment method",
                      hint="use list_payment_methods to see payment method ids")
    methods.load([
        {"payment_method_id": "pm_0001", "kind": "card", "label": "Visa",
         "last4": f"{rng.randint(1000, 9999)}", "expires": "2028-09", "balance": None,
         "is_default": True},
        {"payment_method_id": "pm_0002", "kind": "card", "label": "Mastercard",
         "last4": f"{rng.randint(1000, 9999)}", "expires": "2026-03", "balance": None,
         "is_default": False},
        {"payment_method_id": "pm_0003", "kind": "paypal", "label": f"PayPal ({user.email})",
         "last4": None, "expires": None, "balance": None, "is_default": False},
        {"payment_method_id": "pm_0004", "kind": "gift_card", "label": "Gift card",
         "last4": f"{rng.randint(1000, 9999)}", "expires": None,
         "balance": money.seed(rng.choice([25, 40, 60, 75]), cur), "is_default": False}])
    coupons = s.table("coupons", key="code", kind="coupon",
                      hint="coupon codes come from promotions the user received")
    coupons.load([_coupon(c, cur) for c in COUPONS])
    s.set_var("coupon_code", None)

    # order history; delivered orders feed the user's reviews and returns
    orders = s.table("orders", key="order_id", kind="order",
                     hint="use list_orders to see order ids")
    shipments = s.table("shipments", key="shipment_id", kind="shipment",
                        hint="use get_order to see an order's shipment")
    home = addresses.get("addr_0001")
    o_rows, sh_rows = [], []
    plan = order_plan(rng)
    for i, (age, status) in enumerate(plan):
        oid = f"ord_{i + 1:04d}"
        items = []
        # recent deliveries hold several items, so a partial return is possible at every seed
        recent_delivery = status == "delivered" and age < 21
        for v in rng.sample(v_rows, rng.choice([2, 3] if recent_delivery else [1, 1, 2, 2, 3])):
            p = products.get(v["product_id"])
            items.append({"item_id": v["item_id"], "product_id": p["product_id"],
                          "name": p["name"], "options": v["options"],
                          "quantity": rng.choice([1, 1, 1, 2]), "unit_price": v["price"]})
        subtotal = sum(it["unit_price"] * it["quantity"] for it in items)
        code, discount = ("WELCOME10", min(money.percent(subtotal, 10), money.seed(50, cur))
                          ) if i == 0 else (None, 0)
        fee, total = order_totals(subtotal, discount, False, cur)
        placed = days_ago(world, age, rng) if age else \
            clock.stamp(clock.local(TODAY, dt.time(8 + i % 3, i), world.tz))
        if o_rows and placed <= o_rows[-1]["placed_at"]:  # ids follow the order of placing
            placed = _plus(o_rows[-1]["placed_at"], 0.75)
        delivered_at = None
        if status == "delivered":
            day = TODAY - dt.timedelta(days=age - rng.randint(2, 4))
            delivered_at = clock.stamp(clock.local(
                day, dt.time(rng.randint(10, 18), rng.choice([5, 20, 40])), world.tz))
        address = home if rng.random() < 0.75 else addresses.get("addr_0002")
        row = {"order_id": oid, "status": status, "placed_at": placed, "items": items,
               "subtotal": subtotal, "discount": discount, "coupon_code": code,
               "shipping_fee": fee, "total": total, "address": address,
               "payment_method_id": rng.choice(["pm_0001", "pm_0001", "pm_0003"]),
               "shipment_id": None, "delivered_at": delivered_at,
               "cancelled_at": _plus(placed, 2) if status == "cancelled" else None,
               "cancel_reason": rng.choice(CANCEL_REASONS) if status == "cancelled" else None}
        if status in ("shipped", "delivered"):
            carrier = rng.choice(CARRIERS)
            sh_status = ("delivered" if status == "delivered" else "out_for_delivery"
                         if age <= 2 else "in_transit")
            eta = (delivered_at[:10] if delivered_at
                   else (TODAY + dt.timedelta(days=0 if age <= 2 else age % 3 + 1)).isoformat())
            sid = f"shp_{len(sh_rows) + 1:04d}"
            sh_rows.append({
                "shipment_id": sid, "order_id": oid, "carrier": carrier,
                "tracking_number": tracking_number(rng, carrier), "status": sh_status,
                "estimated_delivery": eta, "delivered_at": delivered_at,
                "events": _events(world, rng, placed, sh_status, delivered_at, eta,
                                  address["city"])})
            row["shipment_id"] = sid
        o_rows.append(row)
    orders.load(o_rows)
    shipments.load(sh_rows)
    s.set_var("__seq_ord", len(o_rows))

    # past returns and the user's own reviews of things they received
    returns = s.table("returns", key="return_id", kind="return",
                      hint="use get_order to see an order's return ids")
    delivered = [(o, age) for o, (age, _) in zip(o_rows, plan, strict=True)
                 if o["status"] == "delivered"]
    # older deliveries only: the return and the review came some days after the parcel
    settled = [(o, age) for o, age in delivered[1:] if age >= 12]
    picked = rng.sample(settled, rng.randint(1, 3) + rng.randint(1, 3))
    returned, reviewed = picked[:len(picked) // 2], picked[len(picked) // 2:]
    ret_rows = []
    for j, (order, age) in enumerate(sorted(returned, key=lambda pair: pair[0]["order_id"])):
        item = order["items"][0]
        ret_rows.append({"return_id": f"ret_{j + 1:04d}", "order_id": order["order_id"],
                         "items": [{"item_id": item["item_id"], "name": item["name"],
                                    "quantity": item["quantity"],
                                    "refund": item["unit_price"] * item["quantity"]}],
                         "reason": rng.choice(RETURN_REASONS),
                         "status": rng.choice(["refunded", "refunded", "received"]),
                         "refund_amount": item["unit_price"] * item["quantity"],
                         "refund_to": order["payment_method_id"],
                         "created_at": days_ago(world, age - 6, rng),
                         "rma_code": f"RMA-{rng.randint(100000, 999999)}"})
    returns.load(ret_rows)
    s.set_var("__seq_ret", len(ret_rows))
    mine: set[str] = set()
    for order, age in [delivered[0], *reviewed]:  # the user's own reviews
        product_id = order["items"][0]["product_id"]
        if product_id in mine:
            continue
        mine.add(product_id)
        rating = rng.choice([4, 5])
        title, body = rng.choice(REVIEW_TEXT[rating])
        r_rows.append({"review_id": "", "product_id": product_id,
                       "author_id": user.id, "author_name": user.name, "rating": rating,
                       "title": title, "body": body,
                       "created_at": days_ago(world, age - 10, rng),
                       "verified_purchase": True, "helpful_votes": rng.choice([0, 1, 2])})
    r_rows.sort(key=lambda r: (r["created_at"], r["product_id"], r["author_id"]))
    for k, r in enumerate(r_rows):
        r["review_id"] = f"rev_{k + 1:04d}"
    reviews.load(r_rows)
    s.set_var("__seq_rev", len(r_rows))

    # a cart in progress and a wishlist
    cart = s.table("cart", key="item_id", kind="cart line",
                   hint="use view_cart to see the items in the cart")
    in_stock = [v for v in v_rows if v["stock"] >= 3]
    cart.load([{"item_id": v["item_id"], "quantity": 1,
                "added_at": days_ago(world, rng.randint(1, 5), rng)}
               for v in sorted(rng.sample(in_stock, rng.randint(1, 4)),
                               key=lambda v: v["item_id"])])
    wishlist = s.table("wishlist", key="product_id", kind="wishlist entry",
                       hint="use view_wishlist to see saved products")
    wishlist.load([{"product_id": p["product_id"],
                    "added_at": days_ago(world, rng.randint(2, 90), rng)}
                   for p in sorted(rng.sample(p_rows, rng.randint(3, 8)),
                                   key=lambda p: p["product_id"])])
