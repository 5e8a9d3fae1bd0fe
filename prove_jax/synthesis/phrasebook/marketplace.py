"""How users ask for marketplace's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "create_listing": (
        "list {title} for sale at {price} in {category}, condition {condition}, "
        "described as {description}[, for pickup in {city}]",
        "put up an ad titled {title} for {price} in {category}, saying {description}; "
        "it's in {condition} condition",
        "sell my {title}[ in {city}] for {price}; it's {condition}, goes under {category}, "
        "and the description is {description}",
    ),
    "get_listing": (
        "show me the details of {listing_id}",
        "pull up {listing_id} and tell me its price and condition",
        "tell me the description and status of {listing_id}",
    ),
    "get_seller_profile": (
        "show me the profile of {seller_id}",
        "check how well rated {seller_id} is",
        "look up {seller_id} and their recent reviews",
    ),
    "leave_review": (
        "review {seller_id} with {rating} stars and the comment {comment}",
        "give {seller_id} a {rating}-star rating[ for {listing_id}], saying {comment}",
        "leave feedback for {seller_id}: {rating} out of 5, {comment}",
    ),
    "list_conversations": (
        "show me my chats[ about {listing_id}]",
        "list my conversations with buyers and sellers"
        "[, {unread_only?only the unread ones|read or not}]",
        "check my messages[ about {listing_id}][ (just the first {limit})]",
    ),
    "list_my_listings": (
        "show me the items I'm selling[ that are {status}]",
        "list my listings[ with status {status}]",
        "go through what I've put up for sale and any offers on it",
    ),
    "list_offers": (
        "show me {direction} offers[ that are {status}]",
        "list my offers[ on {listing_id}][ with status {status}]",
        "check which offers there are[ on {listing_id}][, the {direction} ones]"
        "[ (just the first {limit})]",
    ),
    "make_offer": (
        "offer {amount} for {listing_id}[ with the note {message}]",
        "make an offer of {amount} on {listing_id}",
        "bid {amount} on {listing_id}[ and tell the seller {message}]",
        "ask the seller of {listing_id} if they'd take {amount}",
        "make an offer[ of {amount}] on {listing_id}[ saying {message}]",
    ),
    "remove_listing": (
        "take down {listing_id}",
        "remove {listing_id} from the marketplace",
        "delete {listing_id}, it's no longer for sale",
    ),
    "respond_to_offer": (
        "go ahead and {action} {offer_id}",
        "deal with {offer_id}: {action} it",
        "respond to {offer_id}, I want to {action} it",
        "my answer to {offer_id} is to {action} it",
        "respond to {offer_id}",  # accept or decline left to ask
    ),
    "search_listings": (
        "search for {query}[ in {city}][ under {max_price}]",
        "find {category} listings[ in {condition} condition][ sorted by {sort}]",
        "look for items for sale[ matching {query}][ in {category}][ up to {max_price}]",
        "show me listings[ of {query}][ around {city}][ (just the first {limit})]",
    ),
    "send_message": (
        "message the seller of {listing_id} saying {text}",
        "reply in {conversation_id} with {text}",
        "send {text}[ to the seller of {listing_id}][ in {conversation_id}]",
        "write {text}[ about {listing_id}]",
    ),
    "update_listing": (
        "change the price of {listing_id} to {price}",
        "rename {listing_id} to {title}",
        "update {listing_id}[ with the title {title}][, setting the description to {description}]",
        "edit {listing_id}[: new price {price}][, new title {title}]",
    ),
}
