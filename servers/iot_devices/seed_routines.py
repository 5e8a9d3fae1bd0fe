"""iot_devices: the seeded scenes, automations and device groups of a world's homes (drawn per
seed around the ones the stories and tests need); servers.iot_devices.seed builds the rest."""

from __future__ import annotations

import datetime as dt
import random

from servers.core import clock
from servers.core.state import Row, State
from servers.core.world import World, days_ago
from servers.iot_devices.catalog import AUTOMATIONS, GROUPS, MODELS, SCENES, WEEKDAYS
from servers.iot_devices.logic import TODAY, describe, past

OPTIONAL_SCENE = 0.25  # chance a scene no automation runs was never set up
ESSENTIAL_SCENES = {(0, "Leaving Home"), (0, "Welcome Home"), (0, "Movie Night")}
# how many of the usual automations a household may never have set up: at most so many that
# list_automations still spans more than one page
MOST_SKIPPED = 4
TOGGLED_AUTOMATION = 0.15  # chance one is switched the other way from its usual setting


def _clamp_ct(info: dict, kelvin: int) -> int | None:
    if not info.get("ct"):
        return None
    lo, hi = info["ct"]
    return min(max(kelvin, lo), hi)


def _light(info: dict, on: bool, brightness: int = 100, kelvin: int | None = None,
           color: str | None = None) -> dict:
    if not on:
        return {"on": False}
    out: dict = {"on": True, "brightness": brightness}
    if color and info["color"]:
        out["color"] = color
    elif kelvin and _clamp_ct(info, kelvin):
        out["color_temperature_k"] = _clamp_ct(info, kelvin)
    return out


def scene_settings(mood: str, dev: Row) -> dict | None:
    """What a scene of this mood sets on a device (None: the scene leaves it alone)."""
    kind, name, info = dev["type"], dev["name"], MODELS[dev["model_key"]][5]
    off = mood in ("away", "lockdown")
    if kind == "light":
        if mood == "sleep":
            nightlight = "Bedside" in name or "Night" in name
            return _light(info, nightlight, 5, 2200)
        if off:
            return {"on": False}
        level, kelvin, color = {"morning": (70, 4000, None), "arrive": (80, 3000, None),
                                "movie": (10, 2200, "blue" if "Backlight" in name else None),
                                "cozy": (40, 2700, None), "reading": (90, 3500, None),
                                "focus": (100, 5000, None)}[mood]
        return _light(info, True, level, kelvin, color)
    if kind == "plug":
        appliance = dev["state"]["appliance"]
        if appliance in ("Chest freezer", "Fridge"):
            return None
        if off:
            return {"on": False}
        wanted = {"morning": ("Coffee machine", "Kettle"), "movie": ("TV",),
                  "focus": ("Monitor and dock",), "arrive": ("Kettle",)}.get(mood, ())
        return {"on": True} if appliance in wanted else None
    if kind == "speaker":
        if off or mood == "sleep":
            return {"on": False}
        return None if mood == "focus" else {"on": True, "volume": {"movie": 35, "cozy": 25}.get(
            mood, 20)}
    if kind == "lock":
        return {"locked": True} if mood in ("away", "lockdown", "sleep") else None
    if kind == "blinds":
        return ({"position": 100} if mood in ("morning", "focus", "arrive") else
                {"position": 0} if mood in ("away", "movie", "sleep") else None)
    if kind == "thermostat":
        if off:
            return {"mode": "eco"}
        return ({"target_temperature_c": 18.0} if mood == "sleep" else
                {"target_temperature_c": 21.0} if mood in ("morning", "arrive") else None)
    if kind == "camera":
        return {"on": True} if off else None
    return None


def seed_scenes(s: State, world: World, rng: random.Random, homes: list[Row], rooms: list[Row],
            devices: list[Row]) -> dict[tuple[int, str], str]:
    rows, ids = [], {}
    automated = {(h, scene) for _, h, _, _, _, _, scene, _, _, _ in AUTOMATIONS if scene}
    for name, h, mood, room_names in SCENES:
        if (h, name) not in automated | ESSENTIAL_SCENES and rng.random() < OPTIONAL_SCENE:
            continue
        home_id = homes[h]["home_id"]
        room_ids = [r["room_id"] for r in rooms if r["home_id"] == home_id
                    and (room_names is None or r["name"] in room_names)]
        actions = []
        for dev in devices:
            if dev["room_id"] in room_ids:
                settings = scene_settings(mood, dev)
                if settings is not None:
                    actions.append({"device_id": dev["device_id"], "settings": settings})
        scene_id = f"scn_{len(rows) + 1:04d}"
        ids[(h, name)] = scene_id
        rows.append({"scene_id": scene_id, "home_id": home_id, "name": name, "actions": actions,
                     "last_activated_at": (past(world, rng, 0, 20)
                                           if rng.random() < 0.8 else None),
                     "created_at": days_ago(world, rng.randint(60, 400), rng)})
    s.table("scenes", key="scene_id", kind="scene",
            hint="use list_scenes to see scene ids").load(rows)
    s.set_var("__seq_scn", len(rows))
    return ids


def _last_run(trigger: str, time: str | None, days: tuple[str, ...],
              world: World) -> str | None:
    """When a scheduled automation last fired before the hub's "now" (noon)."""
    at = time or {"sunrise": "04:50", "sunset": "21:30"}[trigger]
    for back in range(8):
        day = TODAY - dt.timedelta(days=back)
        if WEEKDAYS[day.weekday()] in days and (back > 0 or at < "12:00"):
            return clock.stamp(clock.local(day, dt.time.fromisoformat(at), world.tz))
    return None


def seed_automations(s: State, world: World, rng: random.Random, homes: list[Row],
                 by_name: dict[tuple[int, str], Row],
                 scene_ids: dict[tuple[int, str], str]) -> None:
    rows = []
    skipped = set(rng.sample(range(len(AUTOMATIONS)), rng.randint(0, MOST_SKIPPED)))
    for k, (name, h, trigger, time, days, sensor, scene, device, command, usual) in enumerate(
            AUTOMATIONS):
        if k in skipped:
            continue
        enabled = usual != (rng.random() < TOGGLED_AUTOMATION)
        row = {"automation_id": f"aut_{len(rows) + 1:04d}", "home_id": homes[h]["home_id"],
               "name": name, "enabled": enabled, "trigger": trigger, "time": time,
               "days": list(days),
               "sensor_device_id": by_name[(h, sensor)]["device_id"] if sensor else None,
               "scene_id": scene_ids[(h, scene)] if scene else None,
               "device_id": by_name[(h, device)]["device_id"] if device else None,
               "command": command,
               "last_triggered_at": (_last_run(trigger, time, days, world) if trigger != "sensor"
                                     else past(world, rng, 0, 6)) if enabled else None,
               "created_at": days_ago(world, rng.randint(30, 300), rng)}
        row["description"] = describe(row, sensor, scene or device or "")
        rows.append(row)
    s.table("automations", key="automation_id", kind="automation",
            hint="use list_automations to see automation ids").load(rows)
    s.set_var("__seq_aut", len(rows))


def seed_groups(s: State, world: World, rng: random.Random, homes: list[Row],
            by_name: dict[tuple[int, str], Row]) -> None:
    rows = [{"group_id": f"grp_{i + 1:04d}", "home_id": homes[h]["home_id"], "name": name,
             "device_ids": [by_name[(h, d)]["device_id"] for d in members],
             "created_at": days_ago(world, rng.randint(20, 300), rng)}
            for i, (name, h, members) in enumerate(GROUPS)]
    s.table("groups", key="group_id", kind="device group",
            hint="use list_device_groups to see group ids").load(rows)
    s.set_var("__seq_grp", len(rows))
