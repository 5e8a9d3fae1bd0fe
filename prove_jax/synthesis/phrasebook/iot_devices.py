"""How users ask for iot_devices's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "activate_scene": (
        "activate {scene_id}",
        "switch on {scene_id} for me",
        "set everything up the way {scene_id} has it",
        "run {scene_id} now and tell me if any device got skipped",
    ),
    "add_lock_code": (
        "add a keypad code {code} to {device_id} labelled {name}[ that works until {valid_until}]",
        "give {device_id} a new PIN {code} called {name}[ for {member_id}]",
        "set up an access code named {name} on {device_id} with the PIN {code}"
        "[, valid through {valid_until}]",
        "let someone in with {code} on {device_id}: call the code {name}"
        "[ and assign it to {member_id}]",
    ),
    "control_device_group": (
        "switch everything in {group_id} {on?on|off}",
        "turn all the devices in {group_id} {on?on|off}",
        "{on?power up|power down} the whole of {group_id}",
    ),
    "create_automation": (
        "set up an automation in {home_id} called {name} that starts on {trigger}"
        "[ at {time}][ on {days}][ and activates {scene_id}]",
        "create a new routine named {name} for {home_id} triggered by {trigger}"
        "[ from {sensor_device_id}][ that sends {command} to {device_id}]",
        "automate {home_id} with a rule {name}: when the {trigger} trigger fires"
        "[, run {scene_id}][, do {command} on {device_id}]",
        "make {home_id} do something automatically on {trigger}[ at {time}]"
        ", and name the automation {name}",
    ),
    "create_device_group": (
        "group {device_ids} together in {home_id} as {name}",
        "create a device group called {name} in {home_id} with {device_ids}",
        "make {device_ids} a group named {name} so I can switch them together in {home_id}",
    ),
    "create_scene": (
        "save the current settings of {device_ids} in {home_id} as a scene called {name}",
        "create a scene named {name} for {home_id} from how {device_ids} are set right now",
        "keep the settings of {device_ids} as the scene {name} in {home_id}",
    ),
    "delete_automation": (
        "delete {automation_id}",
        "get rid of {automation_id} for good",
        "remove {automation_id} completely, I don't want it paused, I want it gone",
    ),
    "delete_lock_code": (
        "delete {code_id}",
        "remove {code_id} from its lock so the PIN stops working",
        "revoke {code_id} right away",
    ),
    "get_device": (
        "show me the details of {device_id}",
        "check {device_id} and tell me its state and firmware",
        "tell me the full status of {device_id}",
        "look up {device_id}, including any access codes on it",
    ),
    "get_energy_usage": (
        "tell me how much electricity {home_id} used[ over the last {days} days]",
        "show me the energy usage and cost of {home_id}[ for {device_id}]"
        "[ over the last {days} days]",
        "check the power consumption in {home_id}[ just for {device_id}]"
        "[ over the past {days} days]",
        "tell me which devices used the most energy in {home_id}",
    ),
    "list_automations": (
        "show me my automations[ in {home_id}]",
        "list the routines I have set up[ for {home_id}]"
        "[ {enabled?that are turned on|that are turned off}]",
        "tell me which automations I have[ in {home_id}] and when they last ran",
        "go through my automations[ {enabled?that are on|that are off}][ (just the first {limit})]",
    ),
    "list_device_groups": (
        "show me my device groups[ in {home_id}]",
        "list the groups of devices I have[ for {home_id}] and whether they're on",
        "tell me which device groups are set up[ in {home_id}]",
    ),
    "list_devices": (
        "show me my devices[ in {home_id}][ in {room_id}][ of type {device_type}]",
        "list all my {device_type} devices[ in {home_id}]",
        "find devices with {query} in the name[ in {room_id}]",
        "check which of my devices are {online?online|offline}[ in {home_id}]"
        "[ (just the first {limit})]",
    ),
    "list_homes": (
        "show me my homes",
        "list the homes on my account with their members",
        "tell me what homes I have set up",
    ),
    "list_rooms": (
        "show me the rooms[ in {home_id}]",
        "list the rooms I have[ in {home_id}] and what devices are in each",
        "tell me which rooms there are[ in {home_id}]",
    ),
    "list_scenes": (
        "show me my scenes[ in {home_id}]",
        "list the scenes I've saved[ for {home_id}] and what each one does",
        "remind me what scenes I have[ in {home_id}]",
    ),
    "set_automation_enabled": (
        "{enabled?turn on|turn off} {automation_id}",
        "{enabled?resume|pause} {automation_id}",
        "{enabled?re-enable|disable} {automation_id} without deleting it",
    ),
    "set_blinds": (
        "set {device_id} to {position} percent open",
        "open {device_id} to {position}%",
        "move {device_id} to position {position}",
        "adjust {device_id} so they're {position} percent open",
    ),
    "set_device_power": (
        "{on?switch on|switch off} {device_id}",
        "{on?turn on|turn off} {device_id}",
        "{on?power up|power down} {device_id}",
        "make sure {device_id} is {on?on|off}",
    ),
    "set_light": (
        "set {device_id} to {brightness} percent brightness",
        "change {device_id} to {color}[ at {brightness}% brightness]",
        "set {device_id} to a white of {color_temperature_k} kelvin[ at {brightness}% brightness]",
        "adjust {device_id}[ to {brightness} percent][ in {color}]"
        "[ with a colour temperature of {color_temperature_k}K]",
    ),
    "set_lock": (
        "{locked?lock|unlock} {device_id}",
        "make sure {device_id} is {locked?locked|unlocked}",
        "{locked?secure|open up} {device_id}",
    ),
    "set_speaker": (
        "set the volume of {device_id} to {volume}",
        "set the music on {device_id} to {playback}[ and the volume to {volume}]",
        "change {device_id}[ to volume {volume}][ and {playback} playback]",
        "set {device_id} to {playback}[ at volume {volume}]",
    ),
    "set_thermostat": (
        "set {device_id} to {target_temperature_c} degrees[ in {mode} mode]",
        "switch {device_id} to {mode} mode[ with a target of {target_temperature_c} °C]",
        "change {device_id}[ to {mode}][ and aim for {target_temperature_c} °C]",
        "make {device_id} heat or cool to {target_temperature_c} °C",
    ),
    "update_device": (
        "rename {device_id} to {name}",
        "move {device_id} to {room_id}[ and call it {name}]",
        "update {device_id}[ with the new name {name}][ and put it in {room_id}]",
    ),
    "update_firmware": (
        "update the firmware on {device_id}",
        "install the latest firmware for {device_id}",
        "bring {device_id} up to date with its newest software",
    ),
}
