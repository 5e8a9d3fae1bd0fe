"""How users ask for travel_booking's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "add_baggage": (
        "add {bags} checked bags to {booking_id}[ and pay with {payment_method_id}]",
        "put {bags} extra bags on {booking_id}[, charging {payment_method_id}]",
        "include {bags} checked bags in {booking_id}[ paid with {payment_method_id}]",
        "let me check in {bags} more bags on {booking_id}",
        "add checked bags to {booking_id}",  # how many left to ask
    ),
    "book_hotel": (
        "book a {room_type} room at {hotel_id} from {check_in} to {check_out}"
        "[ for {guests} guests][ and pay with {payment_method_id}]",
        "reserve a {room_type} room at {hotel_id}, checking in {check_in} and out {check_out}"
        "[, charged to {payment_method_id}][, under the name {guest_name}]",
        "get me[ {rooms}] {room_type} rooms at {hotel_id} from {check_in} until {check_out}"
        "[, paying with {payment_method_id}]",
        "book a stay at {hotel_id} in a {room_type} room, {check_in} through {check_out},"
        " on {payment_method_id}[ for {guests} people]",
        "book a room at {hotel_id} from {check_in} to {check_out}, paid with"
        " {payment_method_id}[ for {guests} guests]",
    ),
    "cancel_booking": (
        "cancel {booking_id}[ because of {reason}]",
        "cancel {booking_id} with {reason} as the reason",
        "call off {booking_id}[ due to {reason}]",
        "scrap {booking_id}[ (reason: {reason})]",
    ),
    "cancel_hotel_reservation": (
        "cancel {reservation_id}",
        "call off {reservation_id} before check-in",
        "back out of {reservation_id}",
        "drop {reservation_id}, I won't be staying",
    ),
    "change_flight": (
        "move {booking_id} to flight {new_flight_number} on {new_date}[ in {cabin}]",
        "switch {booking_id} to {new_flight_number} on {new_date}"
        "[ and pay any difference with {payment_method_id}]",
        "rebook {booking_id} onto flight {new_flight_number} departing {new_date}"
        "[, in {cabin}]",
        "change {booking_id} to the {new_date} departure of {new_flight_number}"
        "[ charging {payment_method_id}]",
    ),
    "confirm_booking": (
        "confirm {booking_id}[ and pay with {payment_method_id}]",
        "pay for {booking_id}[ using {payment_method_id}]",
        "charge {payment_method_id} for {booking_id}",
        "finalize {booking_id}[, charging it to {payment_method_id}]",
    ),
    "get_booking": (
        "show me {booking_id}",
        "pull up the details of {booking_id}",
        "check the passengers, seats and bags on {booking_id}",
        "tell me what I'd get back if I cancelled {booking_id} now",
    ),
    "get_flight_status": (
        "check the status of flight {flight_number} on {date}",
        "tell me if flight {flight_number} on {date} is delayed",
        "find the gate for flight {flight_number}[ on {date}]",
        "look up when flight {flight_number} is due to land on {date}",
    ),
    "get_hotel": (
        "show me {hotel_id}[ for {check_in} to {check_out}]",
        "tell me about {hotel_id} and its room types",
        "check what rooms {hotel_id} has free from {check_in} to {check_out}",
        "get the stay total at {hotel_id}[ for {rooms} rooms] from {check_in} to {check_out}",
    ),
    "get_seat_map": (
        "show me the free {cabin} seats on flight {flight_number} on {date}",
        "find me a[ {position}] seat in {cabin} on flight {flight_number} on {date}",
        "pull up the {cabin} seat map for flight {flight_number} on {date}"
        "[, {position} seats only]",
        "check which {cabin} seats are still open on flight {flight_number}[ on {date}]",
    ),
    "get_traveler_profile": (
        "show me my traveller profile",
        "tell me my loyalty tier and how many miles I have",
        "check which passport details and home airport you have for me",
        "list my saved co-travellers",
    ),
    "hold_flight": (
        "hold {cabin} seats on flight {flight_number} on {date}[ for {passenger_names}]",
        "put a hold on flight {flight_number} for {date} in {cabin}[ for {passenger_names}]",
        "reserve {cabin} on flight {flight_number} on {date} without paying yet",
        "lock in today's fare on flight {flight_number} on {date}[ in {cabin}]"
        "[ for {passenger_names}]",
    ),
    "list_airports": (
        "list the airports you fly to",
        "find airports matching {query}",
        "look up the airport code for {query}",
        "show me which airports there are in {query}",
    ),
    "list_bookings": (
        "show me my flight bookings",
        "list my {status} bookings",
        "find my[ {status}] flights[ (just the first {limit})]",
        "check what flights I have booked",
    ),
    "list_hotel_reservations": (
        "show me my hotel reservations[ in {city}]",
        "list my {status} hotel stays",
        "find my hotel booking in {city}",
        "check which hotels I've booked[ with status {status}][ (just the first {limit})]",
    ),
    "list_payment_methods": (
        "show me my saved payment methods",
        "list the cards I have on file",
        "check my travel voucher balance",
        "tell me which cards I can pay with and when they expire",
    ),
    "purchase_travel_insurance": (
        "add travel insurance to {booking_id}[ paid with {payment_method_id}]",
        "insure {booking_id}[ using {payment_method_id}]",
        "buy insurance for {booking_id}[ on {payment_method_id}]",
        "get cancellation cover for {booking_id}",
    ),
    "search_flights": (
        "find flights from {origin} to {destination} on {date}[ in {cabin}]",
        "search flights from {origin} to {destination} on {date}[ for {passengers} people]"
        "[ under {max_price}]",
        "show me what flies {origin} to {destination} on {date}[ sorted by {sort}]",
        "check direct flights between {origin} and {destination} for {date}"
        "[ for {passengers} travellers]",
    ),
    "search_hotels": (
        "find hotels in {city}[ from {check_in} to {check_out}]",
        "search for a hotel matching {query}[ in {city}]",
        "look for a place to stay[ in {city}][ from {check_in} to {check_out}]",
        "look for hotels in {city} with at least {min_stars} stars"
        "[ under {max_nightly_rate} a night]",
        "show me places to stay in {city}[ for {guests} guests][ sorted by {sort}]"
        "[ (just the first {limit})]",
    ),
    "select_seat": (
        "put {passenger_name} in seat {seat} on {booking_id}",
        "give {passenger_name} seat {seat} on {booking_id}"
        "[ and charge any fee to {payment_method_id}]",
        "switch the seat for {passenger_name} on {booking_id} to {seat}",
        "select seat {seat} for {passenger_name} on {booking_id}"
        "[, paying with {payment_method_id}]",
    ),
}
