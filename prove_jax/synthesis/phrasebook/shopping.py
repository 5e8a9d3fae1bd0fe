"""How users ask for shopping's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_address": (
        "save a new shipping address called {label} for {recipient_name} at {line1}"
        "[, {line2}], {postal_code} {city}, {country}[ with the phone number {phone}]",
        "add an address labelled {label}: {recipient_name}, {line1}, {city} {postal_code}, "
        "{country}[ {set_default?and make it my default|without making it my default}]",
        "store {line1} in {city}, {postal_code}, {country} as my {label} address, "
        "with {recipient_name} as the recipient[ and {phone} for the courier]",
    ),
    "add_to_cart": (
        "add {item_id} to my cart",
        "put {quantity} of {item_id} in my basket",
        "throw {item_id} into the cart[, {quantity} units]",
        "grab {item_id} for me and add it to the cart[ (quantity {quantity})]",
    ),
    "add_to_wishlist": (
        "add {product_id} to my wishlist",
        "save {product_id} for later on my wish list",
        "put {product_id} on my wishlist so I don't forget it",
    ),
    "apply_coupon": (
        "apply the coupon code {code} to my cart",
        "use the discount code {code}",
        "redeem the promo {code} on what's in my basket",
    ),
    "cancel_order": (
        "cancel {order_id} with the reason {reason}",
        "stop {order_id} from going out, I'm cancelling it because {reason}",
        "call off {order_id} before it ships because {reason}",
    ),
    "checkout": (
        "place the order for everything in my cart, shipping to {address_id} "
        "and paying with {payment_method_id}",
        "check out my cart using {payment_method_id} and send it to {address_id}",
        "buy what's in the basket: deliver to {address_id}, charge {payment_method_id}",
    ),
    "clear_cart": (
        "empty my cart",
        "clear everything out of my shopping basket",
        "remove all the items from my cart and start over",
    ),
    "get_order": (
        "show me the details of {order_id}",
        "look up {order_id} and tell me what's in it",
        "tell me what I paid for {order_id} and whether I can still return it",
    ),
    "get_product": (
        "show me the details of {product_id}",
        "tell me what variants and prices {product_id} comes in",
        "look up {product_id} and tell me if it's in stock",
    ),
    "get_product_reviews": (
        "show me the reviews for {product_id}[ sorted by {sort}]",
        "let me know what people say about {product_id}[, only {min_rating} stars and up]",
        "read me the customer reviews of {product_id}[ (just the first {limit})]",
        "check the average rating of {product_id}",
    ),
    "list_addresses": (
        "show me my saved addresses",
        "list the shipping addresses on my account",
        "remind me which delivery addresses I have saved",
    ),
    "list_orders": (
        "show me my orders[ that are {status}]",
        "list my recent orders[ with status {status}]",
        "pull up what I've ordered lately[ (just the first {limit})]",
    ),
    "list_payment_methods": (
        "show me my payment methods",
        "list the cards and other ways to pay I have saved",
        "tell me what payment options I have on file",
    ),
    "remove_from_cart": (
        "remove {item_id} from my cart",
        "take {item_id} out of my basket",
        "drop {item_id} from the cart, I changed my mind",
    ),
    "remove_from_wishlist": (
        "remove {product_id} from my wishlist",
        "take {product_id} off my wish list",
        "delete {product_id} from my wishlist, I'm no longer interested",
    ),
    "request_return": (
        "return {item_ids} from {order_id} because of {reason}",
        "send back {item_ids} of {order_id} because {reason}",
        "start a return for {item_ids} in {order_id} because {reason}",
    ),
    "search_products": (
        "search for {query}[ in {category}][ under {max_price}]",
        "find me {query}[ between {min_price} and {max_price}][ sorted by {sort}]",
        "look for products in {category}[ rated at least {min_rating}]"
        "[, {in_stock_only?only what's in stock|in stock or not}]",
        "browse the catalog[ for {query}][ in {category}][ priced up to {max_price}]"
        "[ (just the first {limit})]",
    ),
    "track_shipment": (
        "track {order_id}",
        "find out where {order_id} is right now",
        "check the delivery status of {order_id}",
        "tell me if {order_id} has shipped yet and give me the tracking number",
    ),
    "update_cart_item": (
        "change {item_id} in my cart to {quantity} units",
        "set the quantity of {item_id} to {quantity}",
        "make it {quantity} of {item_id} in my cart instead",
    ),
    "update_order": (
        "change {order_id} so there are {quantity} of {item_id}",
        "ship {order_id} to {address_id} instead",
        "update {order_id}[: set {item_id} to {quantity} units][ and send it to {address_id}]",
        "modify {order_id} before it goes out[, with {quantity} of {item_id}]"
        "[, delivering to {address_id}]",
    ),
    "view_cart": (
        "show me my cart",
        "tell me what's in my shopping basket and what the total is",
        "let me see my cart with the discount and shipping",
    ),
    "view_wishlist": (
        "show me my wishlist",
        "go through what I've saved on my wish list",
        "list the products on my wishlist",
    ),
    "write_review": (
        "review {product_id} with {rating} stars, titled {title}, saying {body}",
        "leave a {rating}-star review on {product_id} with the headline {title} and the text "
        "{body}",
        "give {product_id} {rating} out of 5 stars; headline {title}, review text {body}",
        "write a {rating}-star review of {product_id}[ titled {title}][ saying {body}]",
    ),
}
