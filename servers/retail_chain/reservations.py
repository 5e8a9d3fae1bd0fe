"""Click & collect tools: reserve, list and cancel pickups; store-to-store transfers."""

from __future__ import annotations

from typing import Annotated

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.retail_chain.common import (
    ACTIVE,
    DOMAIN,
    ProductId,
    Quantity,
    ResStatus,
    StoreId,
    as_reservation,
    available,
    new_reservation,
    stock_at,
)
from servers.retail_chain.models import Reservation, ReservationList


@DOMAIN.tool(read_only=False)
def reserve_for_pickup(s: State, store_id: StoreId, product_id: ProductId,
                       quantity: Quantity = 1) -> Reservation:
    """Reserve units at a store for click & collect; they are held for 3 days."""
    store = s["stores"].get(store_id)
    s["products"].get(product_id)
    if not store["pickup_available"]:
        raise ToolError(f"store {store_id} ({store['name']}) does not offer click & collect; "
                        "use find_stores with pickup_only=true to find one that does")
    stock = stock_at(s, store_id, product_id)
    if stock is None:
        raise ToolError(f"store {store_id} does not carry product {product_id}; use "
                        "check_inventory to find stores that stock it")
    if available(stock) < quantity:
        raise ToolError(f"only {max(available(stock), 0)} unit(s) of {product_id} available "
                        f"at {store_id}; reserve fewer, or use check_inventory to find another "
                        "store (or request_store_transfer)")
    s["inventory"].update(stock["stock_id"], reserved=stock["reserved"] + quantity)
    return new_reservation(s, store_id, product_id, quantity, "confirmed", 3, None)


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
    rows = sorted(rows, key=lambda r: r["created_at"])[::-1]  # ids are opaque: by creation
    return {"reservations": [as_reservation(s, r) for r in rows], "total": len(rows)}


@DOMAIN.tool(read_only=False)
def cancel_reservation(s: State, reservation_id: Annotated[str, Arg(
        "Reservation id, e.g. 'res_skb4gq' (from list_reservations)")]) -> Reservation:
    """Cancel an active reservation or transfer; its units go back on sale."""
    res = s["reservations"].get(reservation_id)
    if res["status"] not in ACTIVE:
        raise ToolError(f"reservation {reservation_id} is {res['status']}; only confirmed, "
                        "ready or in_transit reservations can be cancelled")
    if res["status"] == "in_transit":  # the units go back to the store that sent them
        stock = stock_at(s, res["source_store_id"], res["product_id"])
        s["inventory"].update(stock["stock_id"], on_hand=stock["on_hand"] + res["quantity"])
    else:
        stock = stock_at(s, res["store_id"], res["product_id"])
        s["inventory"].update(stock["stock_id"], reserved=stock["reserved"] - res["quantity"])
    return as_reservation(s, s["reservations"].update(reservation_id, status="cancelled"))


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
    here = stock_at(s, to_store_id, product_id)
    if here is not None and available(here) >= quantity:
        raise ToolError(f"{to_store_id} already has {available(here)} unit(s) of "
                        f"{product['name']}; reserve them with reserve_for_pickup instead")
    stock = stock_at(s, from_store_id, product_id)
    if stock is None or available(stock) < quantity:
        n = 0 if stock is None else max(available(stock), 0)
        raise ToolError(f"{from_store_id} has only {n} unit(s) of {product_id} available; use "
                        "check_inventory to find a store with enough stock")
    s["inventory"].update(stock["stock_id"], on_hand=stock["on_hand"] - quantity)
    return new_reservation(s, to_store_id, product_id, quantity, "in_transit", 5,
                            from_store_id)
