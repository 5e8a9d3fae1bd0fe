"""How users ask for maps's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "compare_travel_modes": (
        "compare driving, walking, transit and cycling from {origin} to {destination}",
        "what's the fastest way to get from {origin} to {destination}",
        "how long would it take from {origin} to {destination} by each mode of travel",
        "show me how the travel options stack up between {origin} and {destination}",
    ),
    "create_saved_list": (
        "make a new list called {name}[ for {description}]",
        "create a saved-places list named {name}[ with the description {description}]",
        "start a list[ named {name}] to save places in",
        "set up a new collection of places called {name}[ ({description})]",
    ),
    "geocode": (
        "get the coordinates of {address}",
        "where exactly is {address} on the map",
        "find the latitude and longitude for {address}[ (top {limit} matches)]",
        "look up {address} and give me its lat/lon",
    ),
    "get_directions": (
        "give me directions from {origin} to {destination}[ by {mode}]",
        "how do I get from {origin} to {destination}[ going {mode}]",
        "route me from {origin} to {destination}[ leaving at {departure_time}]",
        "plan a route from {origin} to {destination}[ travelling by {mode}]"
        "[, departing {departure_time}]",
    ),
    "get_distance": (
        "how far is {origin} from {destination} as the crow flies[ in {unit}]",
        "what's the straight-line distance between {origin} and {destination}",
        "measure the distance from {origin} to {destination}[ in {unit}] and tell me the direction",
    ),
    "get_opening_hours": (
        "when is {place_id} open",
        "check the opening hours of {place_id}[ on {date}]",
        "is {place_id} open[ at {time}][ on {date}]",
        "find out whether {place_id} will be open[ on {date}][ at {time}]",
    ),
    "get_place_details": (
        "tell me about {place_id}",
        "show me the details for {place_id}",
        "look up the address, rating and phone number of {place_id}",
    ),
    "get_place_reviews": (
        "show me reviews of {place_id}[, {sort} first]",
        "what are people saying about {place_id}",
        "read me the reviews for {place_id}[ with at least {min_rating} stars]"
        "[ (just {limit} of them)]",
    ),
    "get_saved_list": (
        "show me what's saved in {list_id}",
        "what places are on {list_id}",
        "open {list_id} and read me the places and notes",
    ),
    "list_cities": (
        "which cities are on the map[ matching {query}]",
        "list the cities you cover[ whose name contains {query}]",
        "show me the available cities[ for {query}] with their airport codes",
    ),
    "list_saved_lists": (
        "show me my saved lists",
        "what lists of places have I made",
        "list my saved-place collections with how many places each has",
    ),
    "remove_saved_place": (
        "remove {place_id} from {list_id}",
        "take {place_id} off {list_id}",
        "unsave {place_id}[ from {list_id}]",
    ),
    "reverse_geocode": (
        "what's at {lat}, {lon}",
        "find the nearest address to latitude {lat}, longitude {lon}",
        "which city are the coordinates {lat}, {lon} in",
        "tell me where {lat}, {lon} is",
    ),
    "save_place": (
        "save {place_id}[ to {list_id}]",
        "bookmark {place_id}[ in {list_id}][ with the note {note}]",
        "keep {place_id} in my saved places[, noting {note}]",
        "add {place_id} to {list_id}",
    ),
    "search_nearby": (
        "what's near {lat}, {lon}",
        "find places near {lat}, {lon}[ within {radius_m} metres]",
        "search around {lat}, {lon} for places[ of type {kind}][ serving {cuisine} food]",
        "show me what's close to {lat}, {lon}[ rated {min_rating} or better]"
        "[ (just the nearest {limit})]",
    ),
    "search_places": (
        "search for places[ matching {query}][ in {city}]",
        "find places[ serving {cuisine} food][ in {city}][ rated at least {min_rating}]",
        "look up places[ like {query}][ of type {kind}][, sorted by {sort}]",
        "show me spots[ in {city}][ matching {query}][ (first {limit})]",
    ),
}
