"""retail_chain state: the chain's catalog and the generator of stores, stock, reservations
and the user's loyalty account.

Stores are the world's places of kind 'store' (their place ids are the store ids, so a store
found on maps is the same store here); the store's name suffix gives its format.
"""

from __future__ import annotations

import random

from servers.core import locales, money
from servers.core.hours import DAYS as WEEK
from servers.core.hours import Hours
from servers.core.state import State
from servers.core.world import World, days_ago

DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
FORMAT_OF_SUFFIX = {"Books": "books", "Electronics": "electronics", "Market": "grocery",
                    "Outfitters": "outdoor_apparel"}
# Sunday trading laws: most stores in these countries stay closed on Sundays.
TIERS = [("bronze", 0, 1.0), ("silver", 2000, 1.25), ("gold", 5000, 1.5),
         ("platinum", 10000, 2.0)]  # name, points earned in the last 12 months, multiplier
# points -> voucher value (USD-like, scaled to the world's currency by reward_value)
REWARDS = {500: 5.0, 1000: 10.0, 2500: 30.0, 5000: 75.0}


def reward_value(points: int, cur: str) -> int:
    """A voucher's value for `points`, in minor units of `cur`."""
    return money.seed(REWARDS[points], cur)

# department -> (name, brand, price, description)
CATALOG: dict[str, list[tuple[str, str, float, str]]] = {
    "books": [
        ("The Quiet Orbit", "Mira Castell", 18.99, "Literary novel about a lighthouse keeper"),
        ("Practical Python for Data Work", "Linden Press", 44.99, "Hands-on data handbook"),
        ("The Salt Road: A History of Trade", "Idris Vale", 24.99, "Popular history"),
        ("Cooking with Fire", "Ana Ferreira", 32.0, "Grilling and open-flame cookbook"),
        ("Mindful Mornings", "Jun Sato", 16.5, "Short daily meditations"),
        ("Atlas of Small Islands", "Harbor House", 29.95, "Illustrated atlas, hardcover"),
        ("A Winter in Kyoto", "Lena Marsh", 17.99, "Travel memoir"),
        ("Focused Hours", "Colin Brandt", 21.0, "Productivity and deep work"),
        ("Kids' Encyclopedia of Space", "Curio Books", 19.99, "Ages 7-12, illustrated"),
        ("The Bread Baker's Notebook", "Pia Lund", 27.5, "Sourdough and yeast breads"),
        ("Midnight at the Harbor", "R. K. Osei", 14.99, "Mystery paperback"),
        ("Weekend Hikes Near the City", "Trailhead Guides", 22.0, "50 day hikes with maps"),
    ],
    "electronics": [
        ("Wireless Earbuds Air 2", "Sonique", 129.0, "Noise-cancelling earbuds, 30h case"),
        ("65-inch 4K Smart TV", "Vistra", 799.0, "HDR10+, 120 Hz panel"),
        ("USB-C Fast Charger 65W", "Voltix", 39.99, "GaN charger, two USB-C ports"),
        ("Portable Power Bank 20000mAh", "Voltix", 49.99, "Charges a laptop once"),
        ("UltraBook 14 Laptop", "Novatek", 1099.0, "16 GB RAM, 512 GB SSD"),
        ("Smart Home Speaker", "Sonique", 89.0, "Voice assistant, room-filling sound"),
        ("Wireless Gaming Mouse", "Keyforge", 59.99, "26k DPI sensor, 70 g"),
        ("HDMI 2.1 Cable 2m", "Voltix", 14.99, "48 Gbps, 8K ready"),
        ("Tablet 11 128GB", "Novatek", 449.0, "11-inch display, stylus support"),
        ("Over-Ear Headphones Studio", "Sonique", 249.0, "Active noise cancelling, 40h"),
        ("Mirrorless Camera Z50", "Vistra", 899.0, "24 MP, 4K video, kit lens"),
        ("Smartwatch Pulse 3", "Novatek", 229.0, "GPS, heart rate, 7-day battery"),
    ],
    "grocery": [
        ("Single-Origin Coffee Beans 1kg", "Roastery No. 9", 18.5, "Ethiopia, medium roast"),
        ("Extra Virgin Olive Oil 750ml", "Oliveto", 9.99, "Cold pressed"),
        ("Sourdough Loaf", "House Bakery", 4.2, "Baked daily in store"),
        ("Free-Range Eggs (12)", "Green Meadow", 4.49, "Large, free range"),
        ("Aged Cheddar 400g", "Hillside Dairy", 6.75, "Matured 18 months"),
        ("Dark Chocolate 85% 100g", "Cacao & Co", 2.99, "Fair trade"),
        ("Basmati Rice 2kg", "Golden Grain", 5.49, "Long grain"),
        ("Sparkling Water 6x1L", "Clearspring", 4.99, "Natural mineral water"),
        ("Green Tea 40 bags", "Leafhouse", 3.99, "Sencha"),
        ("Honey Almond Granola 750g", "Morning Co", 5.99, "Oven baked"),
        ("Fresh Orange Juice 1L", "Sunpress", 3.49, "Not from concentrate"),
        ("Organic Whole Milk 1L", "Green Meadow", 1.89, "3.8% fat"),
    ],
    "outdoor_apparel": [
        ("Merino Hiking Socks", "Northloom", 18.0, "Cushioned, size M"),
        ("Waterproof Rain Jacket", "Summitline", 149.0, "3-layer shell, size M"),
        ("Fleece Pullover", "Summitline", 69.0, "Recycled fleece, size L"),
        ("Trail Running Shoes TR-5", "Stride", 129.99, "Size 10, grippy outsole"),
        ("Insulated Winter Parka", "Northloom", 249.0, "700-fill down, size M"),
        ("Quick-Dry Hiking Shorts", "Summitline", 45.0, "Stretch nylon, size 32"),
        ("Merino Base Layer Top", "Northloom", 55.0, "Long sleeve, size M"),
        ("Daypack 25L", "Ridgeway", 79.0, "Rain cover included"),
        ("Wide-Brim Sun Hat", "Ridgeway", 29.0, "UPF 50+"),
        ("Down Sleeping Bag -5C", "Summitline", 199.0, "Compressible, 1.1 kg"),
        ("Carbon Trekking Poles", "Ridgeway", 89.0, "Pair, 100-135 cm"),
        ("Insulated Water Bottle 750ml", "Hydrahold", 32.0, "Keeps cold 24h"),
    ],
}


def tier_for(points_12m: int) -> tuple[str, float, str | None, int | None]:
    """(tier, multiplier, next tier, points needed for it) for points earned in 12 months."""
    current = TIERS[0]
    for tier in TIERS:
        if points_12m >= tier[1]:
            current = tier
    i = TIERS.index(current)
    if i + 1 < len(TIERS):
        nxt = TIERS[i + 1]
        return current[0], current[2], nxt[0], nxt[1] - points_12m
    return current[0], current[2], None, None


def _hours(weekly: Hours) -> list[dict]:
    """The world's hours of the store's place (as maps shows them), one row per day."""
    rows = []
    for day, short in zip(DAYS, WEEK, strict=True):
        spans = weekly[short]
        rows.append({"day": day, "opens": spans[0][:5] if spans else None,
                     "closes": spans[-1][6:] if spans else None})
    return rows


def stock_key(store_id: str, product_id: str) -> str:
    """An inventory row's key: both ids, joined so that sealing rewrites each of them."""
    return f"{store_id}:{product_id}"


def seeded_price(price: float, rng: random.Random) -> float:
    """The chain's shelf price of a catalogue item at this seed: the list price moved a little."""
    return round(price * rng.choice([0.9, 0.95, 1.0, 1.0, 1.05, 1.1]), 2)


def _products(world: World, rng: random.Random) -> list[dict]:
    """The range the chain carries at this seed: seven to twelve products a department."""
    rows: list[dict] = []
    for dept, items in CATALOG.items():
        for k in sorted(rng.sample(range(len(items)), rng.randint(7, len(items)))):
            name, brand, price, desc = items[k]
            rows.append({"product_id": f"sku_{1001 + len(rows)}", "name": name, "brand": brand,
                         "department": dept,
                         "price": money.seed(seeded_price(price, rng), world.currency),
                         "description": desc})
    return rows


def _reservation_statuses(rng: random.Random) -> list[str]:
    """The user's pickup reservations at this seed: mostly collected, a few still held."""
    counts = {"picked_up": rng.randint(5, 10), "cancelled": rng.randint(1, 4),
              "expired": rng.randint(1, 3), "confirmed": rng.randint(2, 4),
              "ready": rng.randint(2, 5)}
    return [status for status, n in counts.items() for _ in range(n)]


def _redemptions(rng: random.Random, earned: list[dict]) -> list[tuple[int, int, str]]:
    """(days ago, points, voucher status) of past redemptions, oldest first. Each is covered
    by the points earned before it, and at least 1000 points stay on the account."""
    total = sum(a["points"] for a in earned)
    plan, spent = [], 0
    for age in sorted(rng.sample(range(3, 340), rng.randint(3, 10)), reverse=True):
        pts = rng.choice([500, 500, 1000, 1000, 2500])
        before = sum(a["points"] for a in earned if a["age"] > age)
        if spent + pts > before or spent + pts > total - 1000:
            continue
        spent += pts
        if age > 90:  # vouchers last 90 days: an old one was used or lapsed
            status = rng.choice(["used", "used", "expired"])
        else:
            status = rng.choice(["active", "active", "used"])
        plan.append((age, pts, status))
    return plan


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    countries = {c.name: c.country for c in world.cities}
    cur = world.currency
    money.remember_currency(s, cur)
    products = s.table("products", key="product_id", kind="product",
                       hint="use search_catalog to find product ids")
    rows = _products(world, rng)
    products.load(rows)
    by_dept = {d: [r["product_id"] for r in rows if r["department"] == d] for d in CATALOG}
    all_ids = [r["product_id"] for r in rows]

    stores = s.table("stores", key="store_id", kind="store",
                     hint="use find_stores to see store ids")
    inventory = s.table("inventory", key="stock_id", kind="stock record",
                        hint="use check_inventory to see where a product is stocked")
    store_rows, stock_rows = [], []
    places = [p for p in world.places if p.kind == "store"]
    no_pickup = {p.id for p in rng.sample(places, rng.randint(2, 5))}
    for p in places:
        fmt = FORMAT_OF_SUFFIX[p.name.rsplit(" ", 1)[1]]
        services = ["in_store_returns", "loyalty_desk"]
        if p.id not in no_pickup:
            services = ["click_and_collect", "store_transfers", *services]
        store_rows.append({
            "store_id": p.id, "name": p.name, "format": fmt, "city": p.city,
            "country": countries[p.city], "address": p.address, "lat": p.lat, "lon": p.lon,
            "phone": locales.phone(p.city, rng.randint(200, 999) * 10_000
                                   + rng.randint(1000, 9999)),  # the city's own format
            "rating": p.rating, "pickup_available": p.id not in no_pickup,
            "services": services, "hours": _hours(world.opening_hours[p.id])})
        # the store's own department in depth, plus a rotating selection of the others
        others = [pid for pid in all_ids if pid not in by_dept[fmt]]
        carried = [(pid, rng.choice([0, 2, 4, 6, 8, 12, 15, 20, 25])) for pid in by_dept[fmt]]
        sampled = rng.sample(others, rng.randint(12, 20))
        carried += [(pid, rng.choice([0, 1, 2, 3, 5, 8])) for pid in sampled]
        carried.sort()
        for pid, qty in carried:
            stock_rows.append({"stock_id": stock_key(p.id, pid), "store_id": p.id,
                               "product_id": pid, "on_hand": qty, "reserved": 0,
                               "aisle": f"{rng.choice('ABCDEFGH')}{rng.randint(1, 14)}"})
    stores.load(store_rows)
    inventory.load(stock_rows)

    # past and current pickup reservations; active ones hold stock
    reservations = s.table("reservations", key="reservation_id", kind="reservation",
                           hint="use list_reservations to see reservation ids")
    home = [r for r in store_rows if r["city"] == user.city and r["pickup_available"]]
    nearby = home or [r for r in store_rows if r["pickup_available"]]
    pickup_stores = [r for r in store_rows if r["pickup_available"]]
    statuses = _reservation_statuses(rng)
    res_rows = []
    for i, status in enumerate(statuses):
        active = status in ("confirmed", "ready")
        store = rng.choice(nearby if rng.random() < 0.7 else pickup_stores)
        stocked = [r for r in stock_rows if r["store_id"] == store["store_id"]
                   and r["on_hand"] - r["reserved"] >= 2]
        stock = rng.choice(stocked)
        qty = rng.choice([1, 1, 1, 2])
        if active:
            stock["reserved"] += qty  # generation time: rows are not yet journaled
        age = rng.randint(1, 2) if active else rng.randint(4, 120)
        created = days_ago(world, age, rng)
        hold = days_ago(world, age - 3)[:10]
        res_rows.append({
            "reservation_id": f"res_{i + 1:04d}", "store_id": store["store_id"],
            "product_id": stock["product_id"], "quantity": qty,
            "unit_price": products.get(stock["product_id"])["price"], "status": status,
            "created_at": created, "hold_until": hold,
            "pickup_code": f"{rng.randint(100000, 999999)}", "source_store_id": None})
    res_rows.sort(key=lambda r: r["created_at"])
    for i, r in enumerate(res_rows):
        r["reservation_id"] = f"res_{i + 1:04d}"
    reservations.load(res_rows)
    s.set_var("__seq_res", len(res_rows))

    # loyalty: purchases earn points, redemptions turn points into vouchers
    vouchers = s.table("vouchers", key="voucher_id", kind="voucher",
                       hint="use list_vouchers to see voucher ids")
    activity = s.table("points_activity", key="activity_id", kind="points activity")
    act_rows, v_rows = [], []
    purchases = rng.randint(18, 34)
    for i in range(purchases):
        store = rng.choice(nearby if rng.random() < 0.8 else store_rows)
        spent = round(rng.uniform(12, 420), 2)
        age = 360 - i * 355 // purchases
        act_rows.append({"activity_id": f"act_{i + 1:04d}", "kind": "earned",
                         "points": int(spent * 1.25), "date": days_ago(world, age, rng),
                         "description": f"Purchase {money.fmt(money.seed(spent, cur), cur)} "
                                        f"at {store['name']}",
                         "store_id": store["store_id"], "age": age})
    redeem_plan = _redemptions(rng, act_rows)
    for row in act_rows:
        del row["age"]
    for j, (age, pts, status) in enumerate(redeem_plan):
        vid = f"vch_{j + 1:04d}"
        issued = days_ago(world, age, rng)
        act_rows.append({"activity_id": f"act_{purchases + 1 + j:04d}", "kind": "redeemed",
                         "points": -pts, "date": issued,
                         "description": f"Redeemed for voucher {vid}", "store_id": None})
        v_rows.append({"voucher_id": vid, "code": f"MRD-{rng.randint(10000, 99999)}-"
                       f"{rng.choice('ABCDEFGHJKLMNPQRSTUVWXYZ')}", "value": reward_value(pts, cur),
                       "points_spent": pts, "status": status, "issued_at": issued,
                       "expires_at": days_ago(world, age - 90)[:10]})
    act_rows.sort(key=lambda r: r["date"])
    activity.load(act_rows)
    vouchers.load(v_rows)
    s.set_var("__seq_act", len(act_rows))
    s.set_var("__seq_vch", len(v_rows))
    accounts = s.table("loyalty_accounts", key="member_id", kind="loyalty account")
    accounts.load([{"member_id": f"MRD-{rng.randint(10000000, 99999999)}", "name": user.name,
                    "email": user.email, "home_store_id": nearby[0]["store_id"],
                    "member_since": days_ago(world, rng.randint(800, 2000))[:10],
                    "points": sum(a["points"] for a in act_rows),
                    "points_12m": sum(a["points"] for a in act_rows if a["points"] > 0)}])
