"""iot_devices: static data: device models, the layout of the user's homes, and the scenes,
automations and groups a household would have set up. No domain or state here."""

from __future__ import annotations

DEVICE_TYPES = ("light", "thermostat", "lock", "camera", "plug", "blinds", "speaker", "sensor")
POWERED = ("light", "plug", "speaker", "camera")  # types with an on/off switch
THERMOSTAT_RANGE = (10.0, 30.0)
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
COLORS = ("red", "orange", "yellow", "green", "teal", "blue", "purple", "pink", "white")

# key: (type, manufacturer, model, latest firmware, battery powered, extra capability data)
MODELS: dict[str, tuple[str, str, str, str, bool, dict]] = {
    "hue_color": ("light", "Philips Hue", "White and Color Ambiance A19", "1.116.3", False,
                  {"color": True, "ct": (2000, 6500), "watts": 9.5}),
    "hue_strip": ("light", "Philips Hue", "Lightstrip Plus", "1.116.3", False,
                  {"color": True, "ct": (2000, 6500), "watts": 20.0}),
    "ikea_ws": ("light", "IKEA", "TRADFRI White Spectrum E27", "2.3.095", False,
                {"color": False, "ct": (2200, 4000), "watts": 8.6}),
    "lutron_dimmer": ("light", "Lutron", "Caseta Smart Dimmer", "3.2.1", False,
                      {"color": False, "ct": None, "watts": 40.0}),
    "nest_thermo": ("thermostat", "Google Nest", "Learning Thermostat (4th gen)", "5.4.2", False,
                    {"modes": ("heat", "cool", "auto", "eco", "off"), "kwh": 9.0}),
    "ecobee": ("thermostat", "ecobee", "Smart Thermostat Premium", "4.8.7.132", False,
               {"modes": ("heat", "cool", "auto", "eco", "off"), "kwh": 7.0}),
    "tado_trv": ("thermostat", "tado", "Smart Radiator Thermostat X", "2.1.4", True,
                 {"modes": ("heat", "eco", "off")}),
    "august": ("lock", "August", "Wi-Fi Smart Lock (4th gen)", "2.9.1", True, {}),
    "yale": ("lock", "Yale", "Assure Lock 2 Touch", "1.6.0", True, {}),
    "nuki": ("lock", "Nuki", "Smart Lock Pro (4th gen)", "4.3.8", True, {}),
    "ring": ("camera", "Ring", "Video Doorbell Pro 2", "1.4.27", False, {"watts": 4.5}),
    "arlo": ("camera", "Arlo", "Pro 5S 2K", "1.2.19", True, {}),
    "nest_cam": ("camera", "Google Nest", "Cam (indoor, wired)", "3.71", False,
                 {"watts": 3.8}),
    "kasa": ("plug", "TP-Link Kasa", "Smart Plug Mini EP25", "1.0.12", False, {}),
    "eve": ("plug", "Eve", "Energy (Matter)", "3.5.0", False, {}),
    "meross": ("plug", "Meross", "Smart Plug MSS315", "9.3.26", False, {}),
    "fyrtur": ("blinds", "IKEA", "FYRTUR Blackout Roller Blind", "24.4.5", True, {}),
    "somfy": ("blinds", "Somfy", "Sonesse 30 WireFree", "5.12", True, {}),
    "serena": ("blinds", "Lutron", "Serena Smart Shades", "3.2.1", True, {}),
    "sonos": ("speaker", "Sonos", "One (Gen 2)", "16.3", False, {"watts": 3.5}),
    "echo": ("speaker", "Amazon", "Echo (4th Gen)", "8289", False, {"watts": 2.8}),
    "nest_audio": ("speaker", "Google", "Nest Audio", "1.56.3", False, {"watts": 3.0}),
    "aqara_th": ("sensor", "Aqara", "Temperature and Humidity Sensor T1", "0.0.0_0025", True,
                 {"kind": "climate"}),
    "hue_motion": ("sensor", "Philips Hue", "Motion Sensor", "2.53.6", True, {"kind": "motion"}),
    "aqara_door": ("sensor", "Aqara", "Door and Window Sensor P2", "1.0.1", True,
                   {"kind": "contact"}),
    "xsense_smoke": ("sensor", "X-Sense", "XS01-M Smoke Alarm", "1.2.0", True, {"kind": "smoke"}),
    "aqara_leak": ("sensor", "Aqara", "Water Leak Sensor T1", "0.0.0_0023", True,
                   {"kind": "leak"}),
    "awair": ("sensor", "Awair", "Element", "2.6.4", False, {"kind": "air_quality"}),
}

# Plug name -> (appliance, watts when on, typical hours on per day)
APPLIANCES = {
    "TV Plug": ("TV", 110, 4), "Coffee Machine Plug": ("Coffee machine", 1200, 0.5),
    "Dishwasher Plug": ("Dishwasher", 1400, 1.2), "Monitor Plug": ("Monitor and dock", 65, 8),
    "Space Heater Plug": ("Space heater", 1500, 1.5), "Freezer Plug": ("Chest freezer", 90, 10),
    "Pond Pump Plug": ("Pond pump", 45, 12), "Towel Warmer Plug": ("Towel warmer", 300, 2),
    "Fridge Plug": ("Fridge", 120, 9), "Kettle Plug": ("Kettle", 2000, 0.2),
}

# home key -> (name, city slot, rooms: [(room, floor, [(device name, model key), ...])])
HOMES = [
    ("Home", "user", [
        ("Living Room", "Ground floor", [
            ("Living Room Ceiling", "hue_color"), ("Floor Lamp", "hue_color"),
            ("TV Backlight", "hue_strip"), ("Living Room Sonos", "sonos"),
            ("Living Room Blinds", "somfy"), ("Living Room Thermostat", "nest_thermo"),
            ("Living Room Motion", "hue_motion"), ("TV Plug", "kasa")]),
        ("Kitchen", "Ground floor", [
            ("Kitchen Pendants", "lutron_dimmer"), ("Under-cabinet Lights", "ikea_ws"),
            ("Coffee Machine Plug", "kasa"), ("Dishwasher Plug", "meross"),
            ("Kitchen Echo", "echo"), ("Kitchen Leak Sensor", "aqara_leak"),
            ("Kitchen Smoke Alarm", "xsense_smoke")]),
        ("Dining Room", "Ground floor", [
            ("Dining Chandelier", "lutron_dimmer"), ("Dining Room Shades", "serena")]),
        ("Hallway", "Ground floor", [
            ("Front Door Lock", "august"), ("Front Doorbell", "ring"),
            ("Hallway Light", "ikea_ws"), ("Front Door Contact", "aqara_door")]),
        ("Office", "Ground floor", [
            ("Desk Lamp", "hue_color"), ("Monitor Plug", "eve"), ("Space Heater Plug", "meross"),
            ("Office Climate", "aqara_th"), ("Office Blind", "fyrtur")]),
        ("Garage", "Ground floor", [
            ("Garage Side Door", "yale"), ("Garage Camera", "arlo"), ("Freezer Plug", "kasa"),
            ("Garage Light", "lutron_dimmer")]),
        ("Garden", "Outside", [
            ("Backyard Camera", "arlo"), ("Garden String Lights", "ikea_ws"),
            ("Pond Pump Plug", "eve"), ("Outdoor Temperature", "aqara_th")]),
        ("Master Bedroom", "First floor", [
            ("Bedside Lamp Left", "hue_color"), ("Bedside Lamp Right", "hue_color"),
            ("Bedroom Blackout Blind", "fyrtur"), ("Bedroom Radiator", "tado_trv"),
            ("Bedroom Nest Audio", "nest_audio"), ("Bedroom Air Quality", "awair")]),
        ("Kids Room", "First floor", [
            ("Kids Night Light", "hue_color"), ("Nursery Cam", "nest_cam"),
            ("Kids Room Climate", "aqara_th"), ("Kids Room Radiator", "tado_trv")]),
        ("Bathroom", "First floor", [
            ("Bathroom Mirror Light", "ikea_ws"), ("Towel Warmer Plug", "meross"),
            ("Bathroom Humidity", "aqara_th"), ("Bathroom Leak Sensor", "aqara_leak")]),
    ]),
    ("Holiday Apartment", "other", [
        ("Living Room", "Third floor", [
            ("Lounge Lamp", "hue_color"), ("Lounge Sonos", "sonos"),
            ("Apartment Thermostat", "ecobee"), ("Lounge Shutters", "somfy"),
            ("Apartment Door Lock", "nuki")]),
        ("Kitchen", "Third floor", [
            ("Kitchen Spots", "lutron_dimmer"), ("Fridge Plug", "kasa"),
            ("Kitchen Leak Sensor", "aqara_leak")]),
        ("Bedroom", "Third floor", [
            ("Bedroom Lamp", "ikea_ws"), ("Bedroom Shutters", "somfy"),
            ("Bedroom Climate", "aqara_th")]),
        ("Guest Bedroom", "Third floor", [
            ("Guest Lamp", "lutron_dimmer"), ("Guest Radiator", "tado_trv")]),
        ("Bathroom", "Third floor", [("Bathroom Leak Sensor", "aqara_leak")]),
        ("Terrace", "Outside", [
            ("Terrace Camera", "arlo"), ("Terrace Lanterns", "ikea_ws")]),
    ]),
    ("Rental Studio", "user", [
        ("Main Room", "Ground floor", [
            ("Studio Ceiling Light", "hue_color"), ("Studio Thermostat", "nest_thermo"),
            ("Studio Echo", "echo"), ("Studio Smoke Alarm", "xsense_smoke")]),
        ("Kitchenette", "Ground floor", [
            ("Kettle Plug", "meross"), ("Kitchenette Leak Sensor", "aqara_leak")]),
        ("Bathroom", "Ground floor", [("Studio Bathroom Light", "lutron_dimmer")]),
        ("Entrance", "Ground floor", [
            ("Studio Door Lock", "yale"), ("Studio Doorbell", "ring"),
            ("Studio Door Contact", "aqara_door")]),
    ]),
]

# Devices that are offline at reset: name in home 0..2 -> days since last seen.
OFFLINE = {(0, "Garage Camera"): 4, (0, "Pond Pump Plug"): 2, (1, "Terrace Camera"): 6,
           (1, "Guest Radiator"): 3, (2, "Studio Echo"): 5}

# scene name, home index, mood, rooms (None: the whole home)
SCENES = [
    ("Good Morning", 0, "morning", ("Kitchen", "Living Room", "Master Bedroom")),
    ("Leaving Home", 0, "away", None),
    ("Welcome Home", 0, "arrive", ("Hallway", "Living Room", "Kitchen")),
    ("Movie Night", 0, "movie", ("Living Room",)),
    ("Dinner Party", 0, "cozy", ("Dining Room", "Kitchen", "Living Room")),
    ("Bedtime", 0, "sleep", None),
    ("Reading", 0, "reading", ("Living Room",)),
    ("Focus Time", 0, "focus", ("Office",)),
    ("Kids Bedtime", 0, "sleep", ("Kids Room",)),
    ("Weekend Brunch", 0, "morning", ("Kitchen", "Dining Room")),
    ("Garden Evening", 0, "cozy", ("Garden",)),
    ("Night Lockdown", 0, "lockdown", None),
    ("Arrival", 1, "arrive", None),
    ("Departure", 1, "away", None),
    ("Sunset Terrace", 1, "cozy", ("Terrace", "Living Room")),
    ("Cozy Evening", 1, "cozy", ("Living Room", "Kitchen")),
    ("Sleep", 1, "sleep", ("Bedroom", "Living Room")),
    ("Guest Check-in", 2, "arrive", None),
    ("Guest Check-out", 2, "away", None),
    ("Eco Mode", 2, "lockdown", None),
]

# name, home index, trigger, time, days, sensor device name, scene name, device name, command,
# enabled
ALL_DAYS = WEEKDAYS
WORKDAYS = WEEKDAYS[:5]
AUTOMATIONS = [
    ("Morning routine", 0, "time", "06:45", WORKDAYS, None, "Good Morning", None, None, True),
    ("Weekend mornings", 0, "time", "08:30", ("sat", "sun"), None, "Weekend Brunch", None, None,
     True),
    ("Coffee ready", 0, "time", "06:30", WORKDAYS, None, None, "Coffee Machine Plug", "turn_on",
     True),
    ("Coffee machine off", 0, "time", "09:00", ALL_DAYS, None, None, "Coffee Machine Plug",
     "turn_off", True),
    ("Garden lights at sunset", 0, "sunset", None, ALL_DAYS, None, None, "Garden String Lights",
     "turn_on", True),
    ("Garden lights off", 0, "time", "23:30", ALL_DAYS, None, None, "Garden String Lights",
     "turn_off", True),
    ("Lock up at night", 0, "time", "23:00", ALL_DAYS, None, None, "Front Door Lock", "lock",
     True),
    ("Hallway light on motion", 0, "sensor", None, ALL_DAYS, "Living Room Motion", None,
     "Hallway Light", "turn_on", True),
    ("Leak: stop dishwasher", 0, "sensor", None, ALL_DAYS, "Kitchen Leak Sensor", None,
     "Dishwasher Plug", "turn_off", True),
    ("Bedtime", 0, "time", "22:30", ALL_DAYS, None, "Bedtime", None, None, True),
    ("Blinds up at sunrise", 0, "sunrise", None, WORKDAYS, None, None, "Bedroom Blackout Blind",
     "open", False),
    ("Kids bedtime", 0, "time", "19:30", ALL_DAYS, None, "Kids Bedtime", None, None, True),
    ("Pond pump on", 0, "time", "08:00", ALL_DAYS, None, None, "Pond Pump Plug", "turn_on", True),
    ("Pond pump off", 0, "time", "20:00", ALL_DAYS, None, None, "Pond Pump Plug", "turn_off",
     True),
    ("Warm towels", 0, "time", "06:15", WORKDAYS, None, None, "Towel Warmer Plug", "turn_on",
     True),
    ("Space heater safety off", 0, "time", "18:00", ALL_DAYS, None, None, "Space Heater Plug",
     "turn_off", True),
    ("Door opened: hallway light", 0, "sensor", None, ALL_DAYS, "Front Door Contact", None,
     "Hallway Light", "turn_on", False),
    ("Smoke: unlock front door", 0, "sensor", None, ALL_DAYS, "Kitchen Smoke Alarm", None,
     "Front Door Lock", "unlock", True),
    ("Shutters down at sunset", 1, "sunset", None, ALL_DAYS, None, None, "Lounge Shutters",
     "close", True),
    ("Arrival prep", 1, "time", "16:00", ("fri",), None, "Arrival", None, None, False),
    ("Terrace lanterns", 1, "sunset", None, ALL_DAYS, None, None, "Terrace Lanterns", "turn_on",
     True),
    ("Lock apartment at night", 1, "time", "23:30", ALL_DAYS, None, None, "Apartment Door Lock",
     "lock", True),
    ("Checkout reset", 2, "time", "11:00", ("sat",), None, "Guest Check-out", None, None, True),
    ("Eco overnight", 2, "time", "01:00", ALL_DAYS, None, "Eco Mode", None, None, False),
    ("Door opened: studio light", 2, "sensor", None, ALL_DAYS, "Studio Door Contact", None,
     "Studio Ceiling Light", "turn_on", True),
]

# group name, home index, member device names
GROUPS = [
    ("Downstairs Lights", 0, ("Living Room Ceiling", "Floor Lamp", "Kitchen Pendants",
                              "Under-cabinet Lights", "Dining Chandelier", "Hallway Light")),
    ("Upstairs Lights", 0, ("Bedside Lamp Left", "Bedside Lamp Right", "Kids Night Light",
                            "Bathroom Mirror Light")),
    ("Living Room Lamps", 0, ("Floor Lamp", "TV Backlight")),
    ("Bedside Lamps", 0, ("Bedside Lamp Left", "Bedside Lamp Right")),
    ("Office Power", 0, ("Desk Lamp", "Monitor Plug", "Space Heater Plug")),
    ("Whole-home Audio", 0, ("Living Room Sonos", "Kitchen Echo", "Bedroom Nest Audio")),
    ("Cameras", 0, ("Front Doorbell", "Garage Camera", "Backyard Camera", "Nursery Cam")),
    ("Outdoor", 0, ("Garden String Lights", "Pond Pump Plug")),
    ("Apartment Lights", 1, ("Lounge Lamp", "Kitchen Spots", "Bedroom Lamp", "Guest Lamp",
                             "Terrace Lanterns")),
    ("Studio Essentials", 2, ("Studio Ceiling Light", "Studio Bathroom Light", "Kettle Plug")),
]

# member roles per home: (role, (fewest, most) world people in it)
MEMBER_PLAN = [(("admin", (1, 1)), ("member", (1, 3)), ("guest", (0, 2))),
               (("admin", (1, 1)), ("guest", (0, 2))),
               (("guest", (1, 3)),)]

LOCK_CODE_NAMES = ["Family", "Cleaner", "Dog walker", "Babysitter", "Guest June", "Plumber",
                   "Neighbour", "Handyman"]

CURRENCY = {"Portugal": ("EUR", 0.24), "Germany": ("EUR", 0.39), "France": ("EUR", 0.25),
            "Spain": ("EUR", 0.21), "Netherlands": ("EUR", 0.33), "United Kingdom": ("GBP", 0.25),
            "United States": ("USD", 0.23), "Japan": ("JPY", 31.0), "Singapore": ("SGD", 0.30),
            "Canada": ("CAD", 0.16), "Australia": ("AUD", 0.34)}
