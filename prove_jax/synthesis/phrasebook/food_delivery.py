"""How users ask for food_delivery's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_address": (
        "save a new delivery address called {label} at {street}, {postal_code} {city}"
        "[ with the note {instructions} for the courier]",
        "add {street} in {city} ({postal_code}) to my addresses as {label}"
        "[ and tell couriers {instructions}]",
        "store my {label} address: {street}, {city}, postal code {postal_code}",
        "register an address named {label}[ at {street}][ in {city}][ with postcode {postal_code}]",
    ),
    "add_to_cart": (
        "add[ {quantity} of] {item_id} to my cart",
        "put {item_id} in my basket[ with {options}]",
        "get {item_id} into the cart[, made {options}][, {quantity} portions]",
        "throw {item_id} in with the rest of my order[ ({quantity} of them)]",
    ),
    "apply_promo_code": (
        "apply the promo code {code}",
        "use the code {code} on my cart",
        "add my discount code {code} to the order",
        "redeem {code} on what's in my basket",
    ),
    "cancel_order": (
        "cancel {order_id}[ because {reason}]",
        "call off {order_id}[, the reason being {reason}]",
        "stop {order_id} before they start cooking[ because {reason}]",
        "cancel {order_id} and give {reason} as the reason",
    ),
    "checkout": (
        "place my order, delivered to {address_id} and paid with {payment_method_id}"
        "[ with a tip of {tip}]",
        "check out and send it to {address_id}, paying with {payment_method_id}[, tip {tip}]",
        "order what's in my cart to {address_id} using {payment_method_id}"
        "[ and add the note {instructions}]",
        "go ahead and buy the cart[ for delivery to {address_id}][ on {payment_method_id}]"
        "[, tipping {tip}]",
    ),
    "get_menu": (
        "show me the menu of {restaurant_id}[, just the {category}]",
        "what can I order from {restaurant_id}",
        "let me see what {restaurant_id} has[ in the {category} section]",
        "pull up the menu for {restaurant_id}",
    ),
    "get_order": (
        "show me the receipt for {order_id}",
        "what was in {order_id} and what did it cost",
        "pull up the details of {order_id}",
    ),
    "list_orders": (
        "show me my past orders[ from {restaurant_id}]",
        "list my orders[ with the status {status}]",
        "what have I ordered recently[ from {restaurant_id}][ (just the last {limit})]",
        "go through my order history[ for ones that are {status}]",
    ),
    "list_payment_methods": (
        "show me my payment methods",
        "what cards and payment options do I have saved",
        "list the ways I can pay",
    ),
    "list_saved_addresses": (
        "show me my saved addresses",
        "which delivery addresses do I have on file",
        "list the addresses I've saved for delivery",
    ),
    "rate_order": (
        "rate {order_id} {rating} stars[ and say {comment}]",
        "give {order_id} {rating} out of 5[ with the review {comment}]",
        "leave a {rating}-star rating on {order_id}[, commenting {comment}]",
        "review {order_id}[: {rating} stars][, {comment}]",
    ),
    "remove_from_cart": (
        "remove {line_id} from my cart",
        "take {line_id} out of the cart",
        "drop {line_id} from my basket",
    ),
    "reorder": (
        "place {order_id} again",
        "put everything from {order_id} back in my cart",
        "repeat {order_id}",
        "get me the same as {order_id} one more time",
    ),
    "search_restaurants": (
        "find restaurants[ in {city}][ serving {cuisine} food]",
        "look for places that deliver[ {query}][ in {city}]",
        "search for restaurants[ matching {query}][ rated at least {min_rating}][ in {city}]",
        "see what I can get delivered[ in {city}][, sorted by {sort}][ (just the top {limit})]",
    ),
    "track_order": (
        "where is {order_id}",
        "track {order_id}",
        "how long until {order_id} gets here",
        "check on {order_id} and tell me when it arrives",
    ),
    "update_cart_item": (
        "change {line_id} to {quantity} portions",
        "make it {quantity} of {line_id} in my cart",
        "set the quantity of {line_id}[ to {quantity}]",
        "update {line_id} in the cart so there are {quantity}",
    ),
    "view_cart": (
        "show me my cart",
        "what's in my basket right now",
        "how much is my cart coming to",
    ),
}
