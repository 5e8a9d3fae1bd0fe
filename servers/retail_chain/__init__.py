"""retail_chain: a brick-and-mortar store chain (store finder, per-store stock, click & collect
reservations, store-to-store transfers, loyalty points and vouchers).

The stores are the world's places of kind 'store' (store id = place id); the user is the
world's principal and a loyalty member whose home store is in their city.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Literal

from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.retail_chain.data import NOW, REWARDS, build, tier_for
from servers.retail_chain.models import (
    Hours,
    InventoryOut,
    LoyaltyAccount,
    Product,
    ProductList,
    RedeemOut,
    Reservation,
    ReservationList,
    StockAtStore,
    StoreDetail,
    StoreList,
    StoreSummary,
    VoucherList,
)

Department = Literal["books", "electronics", "grocery", "outdoor_apparel"]
ResStatus = Literal["confirmed", "ready", "in_transit", "picked_up", "cancelled", "expired"]
ACTIVE = ("confirmed", "ready", "in_transit")


DOMAIN = Domain("retail_chain", "A store chain: store finder and hours, per-store stock, click & "
                "collect reservations, store transfers, loyalty points and vouchers.", build)


# ----------------------------------------------------------------------------- helpers
def _now(s: State) -> str:
    """A fixed clock that ticks one minute per state-changing call (deterministic)."""
    n = s.var("__clock", 0) + 1
    s.set_var("__clock", n)
    return (dt.datetime.fromisoformat(NOW) + dt.timedelta(minutes=n)).isoformat(
        timespec="minutes")


def _in_days(days: int) -> str:
    return (dt.date.fromisoformat(NOW[:10]) + dt.timedelta(days=days)).isoformat()


def _hours_on(store: Row, when: str) -> Hours:
    return store["hours"][dt.date.fromisoformat(when[:10]).weekday()]


def _is_open(store: Row, when: str) -> bool:
    h = _hours_on(store, when)
    return h["opens"] is not None and h["opens"] <= when[11:16] < h["closes"]


def _hours_text(store: Row, when: str) -> str:
    h = _hours_on(store, when)
    return "closed" if h["opens"] is None else f"{h['opens']}-{h['closes']}"


def _summary(store: Row, when: str | None) -> StoreSummary:
    return {"store_id": store["store_id"], "name": store["name"], "format": store["format"],
            "city": store["city"], "address": store["address"],
            "pickup_available": store["pickup_available"],
            "hours_today": _hours_text(store, NOW), "open_now": _is_open(store, NOW),
            "open_at_requested_time": None if when is None else _is_open(store, when)}


def _city(s: State, city: str) -> str:
    """The chain's spelling of a city, or an error listing the cities with stores."""
    cities = sorted({r["city"] for r in s["stores"].rows()})
    match = next((c for c in cities if c.lower() == city.strip().lower()), None)
    if match is None:
        raise ToolError(f"no stores in city {city!r}; the chain has stores in: "
                        + ", ".join(cities))
    return match


def _when(open_at: str) -> str:
    try:
        dt.datetime.fromisoformat(open_at)
    except ValueError:
        raise ToolError(f"open_at {open_at!r} is not a valid date and time; use local time "
                        "like '2026-06-20T19:30'") from None
    return open_at


def _available(row: Row) -> int:
    return row["on_hand"] - row["reserved"]


def _stock(s: State, store_id: str, product_id: str) -> Row | None:
    return s["inventory"].find(f"{store_id}/{product_id}")


def _km(a: Row, b: Row) -> float:
    """Great-circle distance between two stores."""
    la1, lo1, la2, lo2 = map(math.radians, (a["lat"], a["lon"], b["lat"], b["lon"]))
    h = (math.sin((la2 - la1) / 2) ** 2
         + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2)
    return round(2 * 6371 * math.asin(math.sqrt(h)), 1)


def _product(s: State, row: Row) -> Product:
    n = len(s["inventory"].rows(lambda r: r["product_id"] == row["product_id"]
                                and _available(r) > 0))
    return {**row, "stores_in_stock": n}


def _reservation(s: State, row: Row) -> Reservation:
    return {**row, "store_name": s["stores"].get(row["store_id"])["name"],
            "product_name": s["products"].get(row["product_id"])["name"],
            "total": round(row["unit_price"] * row["quantity"], 2)}


def _new_reservation(s: State, store_id: str, product_id: str, quantity: int, status: str,
                     hold_days: int, source_store_id: str | None) -> Reservation:
    rid = s.next_id("res")
    n = int(rid.split("_")[1])
    row = s["reservations"].insert({
        "reservation_id": rid, "store_id": store_id, "product_id": product_id,
        "quantity": quantity, "unit_price": s["products"].get(product_id)["price"],
        "status": status, "created_at": _now(s), "hold_until": _in_days(hold_days),
        "pickup_code": f"{100000 + (n * 7919) % 900000}", "source_store_id": source_store_id})
    return _reservation(s, row)


def _account(s: State) -> Row:
    return s["loyalty_accounts"].rows()[0]


StoreId = Annotated[str, Arg("Store id, e.g. 'pl_0021' (from find_stores)")]
ProductId = Annotated[str, Arg("Product id, e.g. 'sku_1014' (from search_catalog)")]
Quantity = Annotated[int, Arg("Number of units", minimum=1, maximum=5)]
City = Annotated[str | None, Arg("City name, e.g. 'Berlin'", min_length=1)]


# ----------------------------------------------------------------------------- stores
@DOMAIN.tool(read_only=True)
def find_stores(
        s: State, city: City = None,
        format: Annotated[Department | None, Arg("Only stores of this format")] = None,
        open_at: Annotated[str | None, Arg(
            "Local date and time 'YYYY-MM-DDTHH:MM'; only stores open then",
            pattern=r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")] = None,
        product_id: Annotated[str | None, Arg(
            "Only stores with this product available now (from search_catalog)")] = None,
        pickup_only: Annotated[bool, Arg("Only stores offering click & collect")] = False,
) -> StoreList:
    """Find the chain's stores by city, format, opening time or stock of a product."""
    if product_id is not None:
        s["products"].get(product_id)
    match = _city(s, city) if city is not None else None
    when = _when(open_at) if open_at is not None else None
    found = []
    for store in s["stores"].rows():
        if ((match and store["city"] != match) or (format and store["format"] != format)
                or (pickup_only and not store["pickup_available"])
                or (when and not _is_open(store, when))):
            continue
        if product_id is not None:
            stock = _stock(s, store["store_id"], product_id)
            if stock is None or _available(stock) <= 0:
                continue
        found.append(_summary(store, when))
    return {"stores": found, "total": len(found)}


@DOMAIN.tool(read_only=True)
def get_store(s: State, store_id: StoreId) -> StoreDetail:
    """Get a store's address, phone, services and weekly opening hours."""
    store = s["stores"].get(store_id)
    keys = ("store_id", "name", "format", "city", "country", "address", "phone", "lat", "lon",
            "rating", "pickup_available", "services", "hours")
    return {**{k: store[k] for k in keys}, "hours_today": _hours_text(store, NOW),
            "open_now": _is_open(store, NOW)}


# ----------------------------------------------------------------------------- catalog
@DOMAIN.tool(read_only=True)
def search_catalog(
        s: State,
        query: Annotated[str | None, Arg(
            "Words that must all appear in the name, brand or description", min_length=1)
        ] = None,
        department: Annotated[Department | None, Arg("Only this department")] = None,
        max_price: Annotated[float | None, Arg("Highest price in USD", minimum=0)] = None,
        in_stock_only: Annotated[bool, Arg("Only products available in some store")] = False,
        limit: Annotated[int, Arg("At most this many results", minimum=1, maximum=50)] = 20,
) -> ProductList:
    """Search the chain's product catalog (prices are the same in every store)."""
    words = query.lower().split() if query else []
    found = []
    for row in s["products"].rows():
        text = f"{row['name']} {row['brand']} {row['description']} {row['department']}".lower()
        if (any(w not in text for w in words) or (department and row["department"] !=
                                                   department)
                or (max_price is not None and row["price"] > max_price)):
            continue
        product = _product(s, row)
        if not in_stock_only or product["stores_in_stock"] > 0:
            found.append(product)
    return {"products": found[:limit], "total": len(found)}


@DOMAIN.tool(read_only=True)
def check_inventory(
        s: State, product_id: ProductId,
        store_id: Annotated[str | None, Arg(
            "A store to check (the other stores in its city are listed after it, nearest "
            "first)")] = None,
        city: City = None) -> InventoryOut:
    """Check how many units of a product are available to buy or reserve, per store."""
    product = s["products"].get(product_id)
    origin = s["stores"].get(store_id) if store_id is not None else None
    match = _city(s, city) if city is not None else None
    if origin is not None:
        match = origin["city"]
    out: list[StockAtStore] = []
    for store in s["stores"].rows():
        if match and store["city"] != match:
            continue
        stock = _stock(s, store["store_id"], product_id)
        if stock is None and store["store_id"] != store_id:
            continue
        n = 0 if stock is None else max(_available(stock), 0)
        status = ("not_carried" if stock is None else "out_of_stock" if n == 0
                  else "low_stock" if n <= 3 else "in_stock")
        out.append({"store_id": store["store_id"], "store_name": store["name"],
                    "city": store["city"], "available": n, "status": status,
                    "aisle": stock["aisle"] if stock else None,
                    "distance_km": _km(origin, store) if origin is not None else None})
    if origin is not None:
        out.sort(key=lambda r: r["distance_km"] or 0.0)
    else:
        out.sort(key=lambda r: (-r["available"], r["store_id"]))
    return {"product_id": product_id, "product_name": product["name"],
            "price": product["price"], "stores": out,
            "total_available": sum(r["available"] for r in out)}


# ----------------------------------------------------------------------------- reservations
@DOMAIN.tool(read_only=False)
def reserve_for_pickup(s: State, store_id: StoreId, product_id: ProductId,
                       quantity: Quantity = 1) -> Reservation:
    """Reserve units at a store for click & collect; they are held for 3 days."""
    store = s["stores"].get(store_id)
    s["products"].get(product_id)
    if not store["pickup_available"]:
        raise ToolError(f"store {store_id} ({store['name']}) does not offer click & collect; "
                        "use find_stores with pickup_only=true to find one that does")
    stock = _stock(s, store_id, product_id)
    if stock is None:
        raise ToolError(f"store {store_id} does not carry product {product_id}; use "
                        "check_inventory to find stores that stock it")
    if _available(stock) < quantity:
        raise ToolError(f"only {max(_available(stock), 0)} unit(s) of {product_id} available "
                        f"at {store_id}; reserve fewer, or use check_inventory to find another "
                        "store (or request_store_transfer)")
    s["inventory"].update(stock["stock_id"], reserved=stock["reserved"] + quantity)
    return _new_reservation(s, store_id, product_id, quantity, "confirmed", 3, None)


@DOMAIN.tool(read_only=True)
def list_reservations(
        s: State,
        status: Annotated[ResStatus | None, Arg("Only reservations with this status")] = None,
        store_id: Annotated[str | None, Arg("Only reservations at this store")] = None,
) -> ReservationList:
    """List the user's pickup reservations, newest first."""
    if store_id is not None:
        s["stores"].get(store_id)
    rows = [r for r in s["reservations"].rows()
            if (status is None or r["status"] == status)
            and (store_id is None or r["store_id"] == store_id)]
    rows.sort(key=lambda r: r["reservation_id"], reverse=True)
    return {"reservations": [_reservation(s, r) for r in rows], "total": len(rows)}


@DOMAIN.tool(read_only=False)
def cancel_reservation(s: State, reservation_id: Annotated[str, Arg(
        "Reservation id, e.g. 'res_0018' (from list_reservations)")]) -> Reservation:
    """Cancel an active reservation or transfer; its units go back on sale."""
    res = s["reservations"].get(reservation_id)
    if res["status"] not in ACTIVE:
        raise ToolError(f"reservation {reservation_id} is {res['status']}; only confirmed, "
                        "ready or in_transit reservations can be cancelled")
    if res["status"] == "in_transit":  # the units go back to the store that sent them
        stock = _stock(s, res["source_store_id"], res["product_id"])
        s["inventory"].update(stock["stock_id"], on_hand=stock["on_hand"] + res["quantity"])
    else:
        stock = _stock(s, res["store_id"], res["product_id"])
        s["inventory"].update(stock["stock_id"], reserved=stock["reserved"] - res["quantity"])
    return _reservation(s, s["reservations"].update(reservation_id, status="cancelled"))


@DOMAIN.tool(read_only=False)
def request_store_transfer(
        s: State, product_id: ProductId,
        from_store_id: Annotated[str, Arg("Store that has the product in stock")],
        to_store_id: Annotated[str, Arg("Store where the user will pick it up")],
        quantity: Quantity = 1) -> Reservation:
    """Have units sent from one store to another (same country) for pickup there in ~5 days."""
    product = s["products"].get(product_id)
    src, dst = s["stores"].get(from_store_id), s["stores"].get(to_store_id)
    if from_store_id == to_store_id:
        raise ToolError("from_store_id and to_store_id are the same store; use "
                        "reserve_for_pickup to reserve stock at one store")
    for store in (src, dst):
        if "store_transfers" not in store["services"]:
            raise ToolError(f"store {store['store_id']} ({store['name']}) does not take part in "
                            "store transfers; pick another store from find_stores")
    if src["country"] != dst["country"]:
        raise ToolError(f"transfers stay within one country: {from_store_id} is in "
                        f"{src['country']}, {to_store_id} in {dst['country']}")
    here = _stock(s, to_store_id, product_id)
    if here is not None and _available(here) >= quantity:
        raise ToolError(f"{to_store_id} already has {_available(here)} unit(s) of "
                        f"{product['name']}; reserve them with reserve_for_pickup instead")
    stock = _stock(s, from_store_id, product_id)
    if stock is None or _available(stock) < quantity:
        n = 0 if stock is None else max(_available(stock), 0)
        raise ToolError(f"{from_store_id} has only {n} unit(s) of {product_id} available; use "
                        "check_inventory to find a store with enough stock")
    s["inventory"].update(stock["stock_id"], on_hand=stock["on_hand"] - quantity)
    return _new_reservation(s, to_store_id, product_id, quantity, "in_transit", 5,
                            from_store_id)


# ----------------------------------------------------------------------------- loyalty
@DOMAIN.tool(read_only=True)
def get_loyalty_account(s: State) -> LoyaltyAccount:
    """Show the user's loyalty membership: points balance, tier and recent activity."""
    acc = _account(s)
    tier, mult, nxt, need = tier_for(acc["points_12m"])
    recent = sorted(s["points_activity"].rows(), key=lambda r: r["activity_id"],
                    reverse=True)[:10]
    return {"member_id": acc["member_id"], "name": acc["name"], "tier": tier,
            "points": acc["points"], "points_earned_12m": acc["points_12m"],
            "points_multiplier": mult, "next_tier": nxt, "points_to_next_tier": need,
            "home_store_id": acc["home_store_id"], "member_since": acc["member_since"],
            "redemption_options": [{"points": p, "voucher_value": v}
                                   for p, v in REWARDS.items()],
            "recent_activity": [{k: a[k] for k in ("activity_id", "kind", "points", "date",
                                                   "description")} for a in recent]}


@DOMAIN.tool(read_only=False)
def redeem_points(s: State, points: Annotated[Literal[500, 1000, 2500, 5000], Arg(
        "Points to redeem: 500 -> $5, 1000 -> $10, 2500 -> $30, 5000 -> $75 voucher")]
                  ) -> RedeemOut:
    """Turn loyalty points into a store voucher valid for 90 days in any store."""
    acc = _account(s)
    if acc["points"] < points:
        raise ToolError(f"not enough points: the balance is {acc['points']}, redeeming "
                        f"{points} needs {points - acc['points']} more; pick a smaller option")
    vid, when = s.next_id("vch"), _now(s)
    n = int(vid.split("_")[1])
    voucher = s["vouchers"].insert({
        "voucher_id": vid, "code": f"MRD-{10000 + (n * 7919) % 90000}-"
        f"{'ABCDEFGHJKLMNPQRSTUVWXYZ'[n % 24]}", "value": REWARDS[points],
        "points_spent": points, "status": "active", "issued_at": when,
        "expires_at": _in_days(90)})
    s["points_activity"].insert({"activity_id": s.next_id("act"), "kind": "redeemed",
                                 "points": -points, "date": when,
                                 "description": f"Redeemed for voucher {vid}",
                                 "store_id": None})
    acc = s["loyalty_accounts"].update(acc["member_id"], points=acc["points"] - points)
    return {"voucher": voucher, "points_remaining": acc["points"]}


@DOMAIN.tool(read_only=True)
def list_vouchers(s: State, status: Annotated[
        Literal["active", "used", "expired"] | None, Arg("Only vouchers with this status")
] = None) -> VoucherList:
    """List the user's loyalty vouchers, newest first."""
    rows = [v for v in s["vouchers"].rows() if status is None or v["status"] == status]
    rows.sort(key=lambda v: v["voucher_id"], reverse=True)
    return {"vouchers": rows, "total": len(rows)}


# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("find_stores", {"city": "Berlin", "pickup_only": True}),
    ("find_stores", {"format": "books", "open_at": "2026-06-21T12:00"}),
    ("get_store", {"store_id": "pl_0021"}),
    ("search_catalog", {"query": "coffee", "in_stock_only": True}),
    ("check_inventory", {"product_id": "sku_1025", "store_id": "pl_0021"}),
    ("reserve_for_pickup", {"store_id": "pl_0021", "product_id": "sku_1026", "quantity": 2}),
    ("list_reservations", {"status": "confirmed", "store_id": "pl_0021"}),
    ("cancel_reservation", {"reservation_id": "res_0021"}),
    ("request_store_transfer", {"product_id": "sku_1018", "from_store_id": "pl_0022",
                                "to_store_id": "pl_0021", "quantity": 1}),
    ("get_loyalty_account", {}),
    ("redeem_points", {"points": 1000}),
    ("list_vouchers", {"status": "active"}),
]

