"""food_delivery state: restaurants (exactly the world's restaurant and cafe places, same names,
cities, place ids, cuisines and opening hours), their menus, the user's saved addresses,
payment methods, promo codes, cart and order history.

The user is world.user; they live in their own city and have a second address in another.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from zoneinfo import ZoneInfo

from servers.core import clock, hours, locales, money
from servers.core.state import State
from servers.core.world import REFERENCE_DATE, World
from servers.food_delivery.menus import MENUS, PROMOS

CITY_PRICE = {"Lisbon": 0.85, "Berlin": 1.0, "Paris": 1.1, "Madrid": 0.9, "Amsterdam": 1.1,
              "London": 1.25, "New York": 1.25, "San Francisco": 1.3, "Tokyo": 1.1,
              "Singapore": 1.1, "Toronto": 1.05, "Sydney": 1.15}
REVIEWS = {5: ["Arrived hot and fast, perfect.", "Delicious as always!",
               "Best in the neighbourhood."],
           4: ["Tasty, a bit late.", "Good food, packaging could be better."],
           3: ["Okay, but lukewarm on arrival.", "Portion smaller than expected."],
           2: ["Missing the sauce I ordered.", "Cold and soggy."]}
# how long ago (minutes) an order still on its way was placed: past the steps it has reached
# (preparing 3 minutes in, on the way 22 minutes in) and short of the next one
ACTIVE_MINUTES = {"placed": (0, 2), "preparing": (4, 20), "on_the_way": (23, 38)}
CANCEL_REASONS = ["ordered by mistake", "took too long", "changed my mind"]
# service fee: a percentage of the subtotal (rounded half to even) within USD-like bounds
SERVICE_FEE_PERCENT, SERVICE_FEE_MIN_USD, SERVICE_FEE_MAX_USD = 5, 0.99, 4.99


def service_fee(subtotal: int, cur: str) -> int:
    """The service fee in minor units of `cur` for a subtotal in minor units."""
    low, high = money.seed(SERVICE_FEE_MIN_USD, cur), money.seed(SERVICE_FEE_MAX_USD, cur)
    return min(high, max(low, money.percent(subtotal, SERVICE_FEE_PERCENT)))


def _groups(groups: list[dict], cur: str) -> list[dict]:
    """Option groups with each choice's surcharge in minor units of `cur`."""
    return [{**g, "choices": [{**c, "price": money.seed(c["price"], cur)}
                              for c in g["choices"]]} for g in groups]


def _promo(row: tuple, cur: str) -> dict:
    """A seeded promo in the world's currency: fixed values, minimum subtotals and caps
    scaled, and the '$N' in its description restated in the currency."""
    c, d, k, v, m, mx, cu, e, su, u = row
    text = re.sub(r"\$(\d+)", lambda g: money.fmt(money.seed(g.group(1), cur), cur), d)
    return {"code": c, "description": text, "kind": k,
            "value": money.seed(v, cur) if k == "fixed" else v,
            "min_subtotal": money.seed(m, cur),
            "max_discount": None if mx is None else money.seed(mx, cur), "cuisine": cu,
            "expires": e, "single_use": su, "used": u}


def _stamp(when: dt.datetime, tz: ZoneInfo) -> str:
    return clock.stamp(when, tz)


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user", {"user_id": user.id, "name": user.name, "phone": user.phone})
    s.set_var("cities", [c.name for c in world.cities])
    cur = world.currency
    money.remember_currency(s, cur)
    restaurants = s.table("restaurants", key="restaurant_id", kind="restaurant",
                          hint="use search_restaurants to find restaurant ids")
    items = s.table("menu_items", key="item_id", kind="menu item",
                    hint="use get_menu to see a restaurant's item ids")
    r_rows, i_rows = [], []
    for place in world.places:
        if place.kind not in ("restaurant", "cafe"):
            continue
        rid = f"rst_{len(r_rows) + 1:03d}"
        cuisine = place.cuisine or "cafe"
        mult = CITY_PRICE[place.city] * rng.uniform(0.9, 1.15)
        menu = MENUS[cuisine]
        dropped = set(rng.sample(range(len(menu)), rng.randint(0, 2)))
        prices = []
        for k, (name, category, base, desc, veg, groups) in enumerate(menu):
            if k in dropped:
                continue
            price = round(base * mult * 2) / 2
            prices.append(price)
            i_rows.append({"item_id": f"itm_{len(i_rows) + 1:04d}", "restaurant_id": rid,
                           "name": name, "category": category, "description": desc,
                           "price": money.seed(price, cur), "vegetarian": veg,
                           "available": rng.random() > 0.06,
                           "option_groups": _groups(groups, cur)})
        avg = sum(prices) / len(prices)
        r_rows.append({
            "restaurant_id": rid, "place_id": place.id, "name": place.name,
            "kind": place.kind, "cuisine": cuisine, "city": place.city,
            "address": place.address, "lat": place.lat, "lon": place.lon,
            "rating": place.rating, "review_count": rng.randint(40, 2400),
            "price_level": "$" if avg < 7 else "$$" if avg < 13 else "$$$",
            "delivery_fee": money.seed(rng.choice([0.99, 1.49, 1.99, 2.49, 2.99, 3.49, 4.99]),
                                       cur),
            "min_order": money.seed(8 if place.kind == "cafe" else rng.choice([10, 12, 15]),
                                    cur),
            "delivery_min": rng.randint(20, 45),
            "opening_hours": hours.copied(world.opening_hours[place.id]),  # as on maps
            "accepts_cash": rng.random() < 0.6})
    restaurants.load(r_rows)
    items.load(i_rows)

    other = rng.choice([c for c in world.cities if c.name != user.city]).name
    company = world.company(user.company_id)
    addresses = s.table("addresses", key="address_id", kind="saved address",
                        hint="use list_saved_addresses to see address ids")
    home = world.address(user.id)  # the user's one home address, on every server
    addresses.load([
        {"address_id": "addr_0001", "label": "Home", "street": home.street,
         "city": home.city, "postal_code": home.postal_code, "instructions": "Ring twice",
         "is_default": True},
        {"address_id": "addr_0002", "label": "Work", "street":
         f"{locales.random_street_address(user.city, rng)} ({company.name})", "city": user.city,
         "postal_code": locales.postal_code(user.city, rng),
         "instructions": "Leave at reception", "is_default": False},
        {"address_id": "addr_0003", "label": "Parents", "street":
         locales.random_street_address(other, rng), "city": other,
         "postal_code": locales.postal_code(other, rng), "instructions": "",
         "is_default": False}])
    s.set_var("__seq_addr", 3)

    methods = s.table("payment_methods", key="payment_method_id", kind="payment method",
                      hint="use list_payment_methods to see payment method ids")
    methods.load([
        {"payment_method_id": "pm_0001", "kind": "card", "label": "Visa",
         "last4": f"{rng.randint(1000, 9999)}", "expires": "2028-09", "is_default": True},
        {"payment_method_id": "pm_0002", "kind": "card", "label": "Mastercard",
         "last4": f"{rng.randint(1000, 9999)}", "expires": "2026-03", "is_default": False},
        {"payment_method_id": "pm_0003", "kind": "paypal", "label": "PayPal",
         "last4": "", "expires": None, "is_default": False},
        {"payment_method_id": "pm_0004", "kind": "cash", "label": "Cash on delivery",
         "last4": "", "expires": None, "is_default": False}])

    promos = s.table("promos", key="code", kind="promo code",
                     hint="promo codes come from the user or from marketing emails")
    promos.load([_promo(p, cur) for p in PROMOS])
    s.table("cart", key="line_id", kind="cart line", hint="use view_cart to see line ids")
    s.set_var("cart_restaurant_id", None)
    s.set_var("promo_code", None)

    _orders(s, world, rng, r_rows, i_rows, other)


def _orders(s: State, world: World, rng: random.Random, r_rows: list[dict],
            i_rows: list[dict], other: str) -> None:
    user, cur = world.user, world.currency
    home = [r for r in r_rows if r["city"] == user.city]
    away = [r for r in r_rows if r["city"] == other]
    now, tz = world.now, world.tz
    open_home = [r for r in home if is_open(r, now)]
    menu = {}
    for it in i_rows:
        menu.setdefault(it["restaurant_id"], []).append(it)
    plan = _order_plan(rng)
    rate_share = rng.uniform(0.3, 0.7)  # how keen this user is on rating
    couriers = [f"{p.first_name} {p.last_name[0]}." for p in world.people[20:40]]
    rows = []
    for n, (day, status) in enumerate(plan, start=1):
        if day == 0:
            rest = open_home[n % len(open_home)]
            placed = now - dt.timedelta(minutes=rng.randint(*ACTIVE_MINUTES[status]))
        else:
            rest = rng.choice(away if rng.random() < 0.2 else home)
            placed = _open_time(rest, REFERENCE_DATE - dt.timedelta(days=day), rng)
        address = "addr_0003" if rest["city"] == other else rng.choice(["addr_0001",
                                                                         "addr_0002"])
        lines = []
        for it in rng.sample([i for i in menu[rest["restaurant_id"]] if i["available"]],
                             rng.randint(1, 3)):
            options = [g["choices"][rng.randrange(len(g["choices"]))]["name"]
                       for g in it["option_groups"] if g["required"]]
            unit = it["price"] + sum(c["price"] for g in it["option_groups"]
                                     for c in g["choices"] if c["name"] in options)
            qty = rng.choice([1, 1, 1, 2])
            lines.append({"item_id": it["item_id"], "name": it["name"], "options": options,
                          "unit_price": unit, "quantity": qty,
                          "line_total": unit * qty})
        subtotal = sum(ln["line_total"] for ln in lines)
        fee, svc = rest["delivery_fee"], service_fee(subtotal, cur)
        tip = money.seed(rng.choice([0, 1, 2, 3]), cur)
        total = subtotal + fee + svc + tip
        steps = [("placed", 0), ("preparing", 3), ("on_the_way", 22), ("delivered", 40)]
        if status == "cancelled":
            steps = [("placed", 0), ("cancelled", 2)]
        reached = [st for st, _ in steps]
        keep = reached[:reached.index(status) + 1]
        history = [{"status": st, "at": _stamp(placed + dt.timedelta(minutes=m), tz)}
                   for st, m in steps if st in keep]
        rated = status == "delivered" and rng.random() < rate_share
        rating = rng.choice([5, 5, 4, 4, 3, 2]) if rated else None
        rows.append((placed, {
            "restaurant_id": rest["restaurant_id"],
            "restaurant_name": rest["name"], "city": rest["city"], "lines": lines,
            "subtotal": subtotal, "promo_code": None, "discount": 0, "delivery_fee": fee,
            "service_fee": svc, "tip": tip, "total": total, "address_id": address,
            "payment_method_id": rng.choice(["pm_0001", "pm_0001", "pm_0003"]),
            "status": status, "placed_at": _stamp(placed, tz),
            "estimated_delivery_at": _stamp(placed + dt.timedelta(
                minutes=rest["delivery_min"] + 10), tz),
            "courier_name": (rng.choice(couriers) if status in ("on_the_way", "delivered")
                             else None),
            "history": history, "rating": rating,
            "review": rng.choice(REVIEWS[rating]) if rating else None,
            "instructions": "",
            "cancel_reason": rng.choice(CANCEL_REASONS) if status == "cancelled" else None,
            "refund_amount": total if status == "cancelled" else 0}))
    # numbered in the order they were placed, like a real order sequence
    rows.sort(key=lambda placed_row: placed_row[0])
    rows = [{"order_id": f"ord_{n:04d}", **row} for n, (_, row) in enumerate(rows, start=1)]
    s.table("orders", key="order_id", kind="order",
            hint="use list_orders to see order ids").load(rows)
    s.set_var("__seq_ord", len(rows))


def _order_plan(rng: random.Random) -> list[tuple[int, str]]:
    """(days ago, status) of the user's orders, oldest first: a seeded number of past orders
    over the last three months, a few of them cancelled, then the orders still on their way
    today (at least one placed, which can still be cancelled, and one being prepared)."""
    days = sorted((rng.randint(1, 95) for _ in range(rng.randint(22, 38))), reverse=True)
    cancelled = set(rng.sample(range(len(days)), rng.randint(1, 5)))
    plan = [(d, "cancelled" if k in cancelled else "delivered") for k, d in enumerate(days)]
    active = (["on_the_way"] * rng.randint(0, 2) + ["preparing"] * rng.randint(1, 2)
              + ["placed"] * rng.randint(1, 2))
    return plan + [(0, status) for status in active]


def _open_time(r: dict, day: dt.date, rng: random.Random) -> dt.datetime:
    """A time the restaurant was open on `day` (or the last day before it was open), on its
    own city's clock, at least half an hour before it closed."""
    while not hours.spans_on(r["opening_hours"], day):
        day -= dt.timedelta(days=1)
    span = rng.choice(hours.spans_on(r["opening_hours"], day))
    minute = rng.randrange(hours.minutes(span[:5]), hours.minutes(span[6:]) - 30, 15)
    return clock.local(day, dt.time(minute // 60, minute % 60), clock.city_zone(r["city"]))


def local_time(r: dict, when: dt.datetime) -> dt.datetime:
    """The instant `when` on the restaurant's own clock (its hours are local to its city)."""
    return when.astimezone(clock.city_zone(r["city"]))


def is_open(r: dict, when: dt.datetime) -> bool:
    return hours.is_open(r["opening_hours"], local_time(r, when))


def hours_today(r: dict, when: dt.datetime) -> str:
    """The restaurant's hours on the local day of `when` ('closed today' on a closed day)."""
    spans = hours.spans_on(r["opening_hours"], local_time(r, when).date())
    return f"open {', '.join(spans)}" if spans else "closed today"
