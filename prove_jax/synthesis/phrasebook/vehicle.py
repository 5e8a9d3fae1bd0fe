"""How users ask for vehicle's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "book_service_appointment": (
        "book {vehicle_id} in for {service_type} at {center_id} on {date} at {time}"
        "[ with the note {notes}]",
        "schedule {service_type} for {vehicle_id} at {center_id} on {date} at {time}",
        "make an appointment at {center_id} on {date} at {time} to get {service_type} done"
        " on {vehicle_id}[ and tell them {notes}]",
        "get {vehicle_id} into {center_id} for {service_type}[ on {date}][ at {time}]",
    ),
    "cancel_service_appointment": (
        "cancel {appointment_id}",
        "call off {appointment_id} at the garage",
        "scrap {appointment_id}, I don't need it anymore",
        "take {appointment_id} off the calendar",
    ),
    "get_diagnostics": (
        "run a health check on {vehicle_id}",
        "show me the warnings and fault codes on {vehicle_id}",
        "check the tire pressures and oil life of {vehicle_id}",
        "tell me when {vehicle_id} is next due for service",
    ),
    "get_vehicle_status": (
        "show me the status of {vehicle_id}",
        "check whether {vehicle_id} is locked",
        "tell me where {vehicle_id} is and how much range it has left",
        "look at what {vehicle_id} is doing right now",
    ),
    "list_service_appointments": (
        "show me my service appointments",
        "list the {status} appointments[ for {vehicle_id}]",
        "check when {vehicle_id} is next booked in for service",
        "show me the service visits[ of {vehicle_id}][ (just the first {limit})]",
    ),
    "list_service_centers": (
        "find service centers in {city}[ that do {service_type}]",
        "look for a garage that can do {service_type}[ on {vehicle_id}][ in {city}]",
        "list the best-rated service centers[ in {city}]",
        "show me where I can get {vehicle_id} serviced[ in {city}]",
    ),
    "list_trips": (
        "show me the trip history[ of {vehicle_id}]",
        "list the trips {vehicle_id} has made[ since {since}]",
        "tell me where {vehicle_id} has been driven[ since {since}]",
        "show me the recent drives[ (just the first {limit})]",
    ),
    "list_vehicles": (
        "list my cars",
        "show me the {powertrain} vehicles on the account",
        "find the cars driven by {driver}",
        "show me which vehicles are in {city} and how much range they have",
    ),
    "search_destinations": (
        "search for {query}[ in {city}]",
        "find a {kind} matching {query}[ near {vehicle_id}]",
        "look for {query}[ close to {vehicle_id}]",
        "find places to go matching {query}[ in {city}][ (just the first {limit})]",
    ),
    "set_charge_limit": (
        "set the charge limit of {vehicle_id} to {limit_pct} percent",
        "cap charging on {vehicle_id} at {limit_pct} percent",
        "have {vehicle_id} stop charging once it reaches {limit_pct} percent",
        "change the charge limit of {vehicle_id}[ to {limit_pct} percent]",
    ),
    "set_climate": (
        "turn the climate {power} in {vehicle_id}",
        "get the cabin of {vehicle_id} to {temperature} degrees[ {unit}][ on {mode}]",
        "put the climate in {vehicle_id} on {mode}[ with fan speed {fan_speed}]",
        "precondition {vehicle_id}[ at {temperature} degrees]",
    ),
    "set_door_locks": (
        "{action} the doors of {vehicle_id} for me[, just {doors}]",
        "remotely {action} the doors of {vehicle_id}",
        "please {action} {vehicle_id}[ ({doors} only)]",
        "go ahead and {action} {vehicle_id}",
    ),
    "set_headlights": (
        "set the headlights on {vehicle_id} to {mode}",
        "switch the headlights of {vehicle_id} to {mode}",
        "put the lights of {vehicle_id} in {mode} mode",
        "change the headlight mode of {vehicle_id}[ to {mode}]",
    ),
    "set_navigation": (
        "navigate {vehicle_id} to {place_id}",
        "send {place_id} to the navigation in {vehicle_id}",
        "set {place_id} as the destination in {vehicle_id}",
        "route {vehicle_id} to {place_id} and check the range covers it",
    ),
    "set_seat_heating": (
        "set the {seat} seat heater in {vehicle_id} to level {level}",
        "turn the {seat} seat heating in {vehicle_id} to {level}",
        "warm up the {seat} seat of {vehicle_id}[ at level {level}]",
        "put the heater on the {seat} seat of {vehicle_id} on {level}",
    ),
    "set_windows": (
        "set the windows of {vehicle_id} to {open_pct} percent open[ ({windows})]",
        "adjust {windows} on {vehicle_id} to {open_pct} percent open",
        "put the windows of {vehicle_id} at {open_pct} percent",
        "move the windows of {vehicle_id}[ to {open_pct} percent open]",
    ),
    "start_charging": (
        "start charging {vehicle_id}",
        "charge {vehicle_id} now",
        "begin a charging session on {vehicle_id}",
        "get {vehicle_id} charging up to its limit",
    ),
    "start_engine": (
        "remote-start {vehicle_id}[ for {run_minutes} minutes]",
        "start the engine of {vehicle_id}[ and let it run {run_minutes} minutes]",
        "warm up {vehicle_id} by starting the engine",
        "fire up {vehicle_id}[ for {run_minutes} minutes]",
    ),
    "stop_charging": (
        "stop charging {vehicle_id}",
        "end the charge session on {vehicle_id}",
        "pause charging on {vehicle_id} but leave the cable in",
        "halt the charging of {vehicle_id}",
    ),
    "stop_engine": (
        "stop the engine of {vehicle_id}",
        "shut off {vehicle_id}",
        "turn off the remotely started engine in {vehicle_id}",
        "kill the engine on {vehicle_id}",
    ),
}
