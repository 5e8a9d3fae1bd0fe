"""How users ask for retail_chain's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "cancel_reservation": (
        "cancel {reservation_id}",
        "release {reservation_id}, I won't be picking it up",
        "call off {reservation_id} so the items go back on sale",
    ),
    "check_inventory": (
        "check how many of {product_id} are in stock[ at {store_id}]",
        "find out if {product_id} is available[ in {city}]",
        "see which stores have {product_id}[ near {store_id}][ in {city}]",
        "find out the stock of {product_id}[ around {city}]",
    ),
    "find_stores": (
        "find stores[ in {city}][ of the {format} format]",
        "tell me which shops[ in {city}] have {product_id} right now",
        "show me stores[ in {city}] that are open at {open_at}",
        "look for branches[ in {city}]"
        "[ {pickup_only?that offer click and collect|}]"
        "[ (just the first {limit})]",
    ),
    "get_loyalty_account": (
        "show me my loyalty account",
        "tell me how many points I have and what tier I'm on",
        "check my rewards membership and recent activity",
    ),
    "get_store": (
        "show me the details of {store_id}",
        "tell me the opening hours of {store_id}",
        "look up the address and phone number of {store_id}",
    ),
    "list_reservations": (
        "show me my pickup reservations[ that are {status}]",
        "list what I've reserved[ at {store_id}]",
        "check which of my click and collect reservations are {status}[ at {store_id}]",
    ),
    "list_vouchers": (
        "show me my vouchers[ that are {status}]",
        "list my loyalty vouchers[ with status {status}]",
        "tell me which store vouchers I have",
    ),
    "redeem_points": (
        "redeem {points} points for a voucher",
        "turn {points} of my loyalty points into a store voucher",
        "cash in {points} points",
    ),
    "request_store_transfer": (
        "have {product_id} sent from {from_store_id} to {to_store_id}",
        "transfer {quantity} of {product_id} from {from_store_id} to {to_store_id} "
        "so I can pick them up there",
        "get {product_id} moved to {to_store_id} from {from_store_id}[, {quantity} units]",
    ),
    "reserve_for_pickup": (
        "reserve {product_id} for pickup at {store_id}",
        "hold {quantity} of {product_id} for me at {store_id}",
        "set aside {product_id} at {store_id} so I can collect it[ ({quantity} units)]",
    ),
    "search_catalog": (
        "search the catalog for {query}[ in {department}][ under {max_price}]",
        "find {query}[, {in_stock_only?only what's in stock|in stock or not}]",
        "show me products[ matching {query}][ from the {department} department]"
        "[ (just the first {limit})]",
        "browse the {department} department[ for anything up to {max_price}]",
    ),
}
