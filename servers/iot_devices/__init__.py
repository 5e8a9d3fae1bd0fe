"""iot_devices: a smart-home hub for the world's user: three homes (rooms, household members
who are world people), lights, thermostats, locks with access codes, cameras, plugs, blinds,
speakers and sensors; scenes, automations, device groups, energy history, firmware updates.

Modules: catalog (static data), logic (pure rules), seed (initial state), models (outputs),
common (domain and shared helpers), homes, control, routines (the tools).
"""

from __future__ import annotations

import importlib

from servers.iot_devices.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("homes", "control", "routines"):
    importlib.import_module(f"servers.iot_devices.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0).
EXAMPLES: list[tuple[str, dict]] = [
    ("list_homes", {}),
    ("list_rooms", {"home_id": "home_002"}),
    ("list_devices", {"home_id": "home_001", "room_id": "room_001", "device_type": "light",
                      "online": True, "query": "lamp", "limit": 10}),
    ("get_device", {"device_id": "dev_0018"}),
    ("update_device", {"device_id": "dev_0002", "name": "Reading Lamp", "room_id": "room_003"}),
    ("set_device_power", {"device_id": "dev_0008", "on": True}),
    ("set_light", {"device_id": "dev_0003", "brightness": 60, "color": "purple"}),
    ("set_thermostat", {"device_id": "dev_0006", "mode": "cool", "target_temperature_c": 22.5}),
    ("set_lock", {"device_id": "dev_0018", "locked": False}),
    ("add_lock_code", {"device_id": "dev_0018", "name": "House sitter", "code": "4821",
                       "member_id": "mem_003", "valid_until": "2026-07-31"}),
    ("delete_lock_code", {"code_id": "code_0001"}),
    ("set_blinds", {"device_id": "dev_0005", "position": 0}),
    ("set_speaker", {"device_id": "dev_0013", "volume": 35, "playback": "pause"}),
    ("get_energy_usage", {"home_id": "home_001", "days": 7, "device_id": "dev_0024"}),
    ("update_firmware", {"device_id": "dev_0036"}),
    ("list_scenes", {"home_id": "home_001"}),
    ("create_scene", {"home_id": "home_001", "name": "Late Movie",
                      "device_ids": ["dev_0003", "dev_0005", "dev_0008"]}),
    ("activate_scene", {"scene_id": "scn_0004"}),
    ("list_automations", {"home_id": "home_001", "enabled": True}),
    ("create_automation", {"home_id": "home_001", "name": "Heater off at night",
                           "trigger": "time", "time": "22:00",
                           "days": ["mon", "tue", "wed", "thu", "fri"],
                           "device_id": "dev_0024", "command": "turn_off"}),
    ("create_automation", {"home_id": "home_001", "name": "Door opened: welcome",
                           "trigger": "sensor", "sensor_device_id": "dev_0021",
                           "scene_id": "scn_0003"}),
    ("set_automation_enabled", {"automation_id": "aut_0016", "enabled": True}),
    ("delete_automation", {"automation_id": "aut_0017"}),
    ("list_device_groups", {"home_id": "home_001"}),
    ("create_device_group", {"home_id": "home_001", "name": "Kitchen Lights",
                             "device_ids": ["dev_0009", "dev_0010"]}),
    ("control_device_group", {"group_id": "grp_0002", "on": False}),
]
