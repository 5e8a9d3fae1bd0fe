"""iot_devices: the initial state: three homes of the world's user, their rooms and devices,
household members (world people), lock codes and energy history; scenes, automations and
groups come from servers.iot_devices.seed_routines."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from servers.core import locales, money
from servers.core.state import Row, State
from servers.core.world import World, days_ago
from servers.iot_devices.catalog import (
    APPLIANCES,
    AUTOMATIONS,
    CURRENCY,
    GROUPS,
    HOMES,
    LOCK_CODE_NAMES,
    MEMBER_PLAN,
    MODELS,
    OFFLINE,
)
from servers.iot_devices.logic import (
    TODAY,
    bump_version,
    hvac,
    meters_energy,
    past,
    today_at,
)
from servers.iot_devices.seed_routines import seed_automations, seed_groups, seed_scenes

ENERGY_DAYS = 30  # daily history kept per metered device, ending yesterday
LOW_BATTERY = {(0, "Bedroom Blackout Blind"): 11, (2, "Studio Smoke Alarm"): 8}
MISSING = 0.25  # chance a household never installed an optional device
DROPPED_OFF = 0.1  # chance an optional device that is installed has gone offline
# devices every household has, whatever the seed: those the automations, groups, and the
# leak and offline stories name, and the ones a first-time user is walked through
ESSENTIAL = {(0, "Living Room Blinds"), (0, "Living Room Thermostat"),
             (0, "Garage Side Door"), (0, "Bedroom Radiator"), (1, "Bathroom Leak Sensor")}
TRACKS = ["Kind of Blue - Miles Davis", "Morning Jazz playlist", "BBC World Service",
          "Lo-fi Beats", "Abbey Road - The Beatles", "Daily News Podcast", "Rain Sounds"]


def _state(kind: str, name: str, info: dict, rng: random.Random, world: World) -> dict:
    if kind == "light":
        on = rng.random() < 0.4
        color = rng.choice(["blue", "purple", "orange", "teal"]) if (
            info["color"] and rng.random() < 0.3) else None
        ct = (rng.choice([v for v in (2200, 2700, 3000, 4000, 5000)
                          if info["ct"][0] <= v <= info["ct"][1]])
              if info["ct"] and color is None else None)
        return {"on": on, "brightness": rng.choice([20, 40, 60, 80, 100]), "color": color,
                "color_temperature_k": ct}
    if kind == "thermostat":
        modes = info["modes"]
        mode = rng.choice(["auto", "cool", "eco"]) if "cool" in modes else rng.choice(
            ["eco", "off", "heat"])
        target = float(rng.choice([19, 20, 21, 22, 23])) if "cool" in modes else float(
            rng.choice([17, 18, 19, 20]))
        current = round(rng.uniform(20.5, 25.5), 1)
        return {"mode": mode, "target_temperature_c": target, "current_temperature_c": current,
                "hvac": hvac(mode, target, current)}
    if kind == "lock":
        door_open = name == "Garage Side Door"
        return {"locked": not door_open and rng.random() < 0.85,
                "door": "open" if door_open else "closed"}
    if kind == "camera":
        return {"on": True, "motion_alerts": rng.random() < 0.8,
                "last_motion_at": past(world, rng, 0, 2)}
    if kind == "plug":
        appliance, watts, _ = APPLIANCES[name]
        on = appliance in ("Chest freezer", "Fridge", "Monitor and dock", "Pond pump")
        return {"on": on, "appliance": appliance, "load_w": watts, "power_w": watts if on else 0}
    if kind == "blinds":
        return {"position": rng.choice([0, 30, 50, 100, 100])}
    if kind == "speaker":
        playback = rng.choice(["playing", "paused", "stopped"])
        return {"on": playback != "stopped" or rng.random() < 0.5,
                "volume": rng.choice([15, 20, 25, 30, 40]), "playback": playback,
                "now_playing": rng.choice(TRACKS) if playback != "stopped" else None}
    sensor = info["kind"]
    stamp = today_at(world, 11, rng.randint(30, 59))
    if sensor == "climate":
        outdoor = "Outdoor" in name
        return {"temperature_c": round(rng.uniform(14, 19) if outdoor else rng.uniform(20, 25),
                                       1),
                "humidity_pct": rng.randint(55, 75) if "Bathroom" in name else
                rng.randint(35, 55), "last_updated": stamp}
    if sensor == "motion":
        return {"motion": False, "last_motion_at": past(world, rng, 0, 0),
                "last_updated": stamp}
    if sensor == "contact":
        return {"contact": "closed", "last_updated": stamp}
    if sensor == "smoke":
        return {"smoke": "clear", "co_ppm": 0, "last_updated": stamp}
    if sensor == "leak":
        return {"leak": False, "last_updated": stamp}
    return {"co2_ppm": rng.randint(480, 950), "pm25_ugm3": rng.randint(3, 14),
            "voc_ppb": rng.randint(90, 400), "score": rng.randint(72, 94), "last_updated": stamp}


def _daily_base(dev: Row, info: dict, name: str, rng: random.Random) -> float:
    """Typical kWh per day for a metered device."""
    kind = dev["type"]
    if kind == "light":
        return info["watts"] * rng.uniform(2, 6) / 1000
    if kind == "plug":
        _, watts, hours = APPLIANCES[name]
        return watts * hours / 1000
    if kind == "thermostat":
        return info["kwh"] * rng.uniform(0.6, 1.2)
    return info["watts"] * 24 / 1000  # speakers and wired cameras draw around the clock


def _homes(s: State, world: World, rng: random.Random) -> list[Row]:
    other = rng.choice([c for c in world.cities if c.name != world.user.city])
    user_city = next(c for c in world.cities if c.name == world.user.city)
    homes = []
    for i, (name, where, _) in enumerate(HOMES):
        city = user_city if where == "user" else other
        street = locales.street_address(city.name, rng.randint(2, 180), rng.randrange(12))
        if where == "user":  # the user's home address, as on every server
            street = world.address(world.user.id).street
        homes.append({"home_id": f"home_{i + 1:03d}", "name": name, "city": city.name,
                      "address": f"{street}, {city.name}",
                      "currency": world.currency,
                      "price_per_kwh": _tariff(city.country, world.currency)})
    s.table("homes", key="home_id", kind="home",
            hint="use list_homes to see home ids").load(homes)
    return homes


def _members(s: State, world: World, rng: random.Random, homes: list[Row]) -> None:
    pool = rng.sample(list(world.people[1:]), sum(most for plan in MEMBER_PLAN
                                                  for _, (_, most) in plan))
    rows, k = [], 0
    for home, plan in zip(homes, MEMBER_PLAN, strict=True):
        k += 1
        rows.append({"member_id": f"mem_{k:03d}", "home_id": home["home_id"],
                     "person_id": world.user.id, "name": world.user.name,
                     "email": world.user.email, "role": "owner", "status": "active"})
        for role, (least, most) in plan:
            for _ in range(rng.randint(least, most)):
                k += 1
                person = pool.pop()
                invited = role == "guest" and rng.random() < 0.5  # not yet accepted
                rows.append({"member_id": f"mem_{k:03d}", "home_id": home["home_id"],
                             "person_id": person.id, "name": person.name,
                             "email": person.email, "role": role,
                             "status": "invited" if invited else "active"})
    s.table("members", key="member_id", kind="household member",
            hint="use list_homes to see each home's members").load(rows)


def _tariff(country: str, currency: str) -> str:
    """The country's electricity price per kWh, in the world's one currency (the seeded
    local tariff taken through the fixed USD-like factors of servers.core.money), as a
    Decimal string: a unit price keeps 4 decimals, finer than the currency's minor unit."""
    local, price = CURRENCY[country]
    rate = Decimal(repr(price)) / money.SCALE[local] * money.SCALE[currency]
    return str(rate.quantize(Decimal("0.0001"), rounding=money.ROUNDING))


def build(s: State, world: World, rng: random.Random) -> None:
    money.remember_currency(s, world.currency)
    homes = _homes(s, world, rng)
    _members(s, world, rng, homes)
    rooms, devices, energy = [], [], []
    by_name: dict[tuple[int, str], Row] = {}
    essential = _essential_devices()
    for h, (_, _, layout) in enumerate(HOMES):
        home_id = homes[h]["home_id"]
        for room_name, floor, items in layout:
            room_id = f"room_{len(rooms) + 1:03d}"
            rooms.append({"room_id": room_id, "home_id": home_id, "name": room_name,
                          "floor": floor})
            for dev_name, key in items:
                optional = (h, dev_name) not in essential
                if optional and rng.random() < MISSING:
                    continue
                kind, _, _, latest, battery, info = MODELS[key]
                offline_days = OFFLINE.get((h, dev_name))
                if optional and rng.random() < DROPPED_OFF:
                    offline_days = rng.randint(1, 7)
                dev = {"device_id": f"dev_{len(devices) + 1:04d}", "home_id": home_id,
                       "room_id": room_id, "name": dev_name, "type": kind, "model_key": key,
                       "online": offline_days is None,
                       "last_seen": (today_at(world, 11, rng.randint(40, 59))
                                     if offline_days is None
                                     else days_ago(world, offline_days, rng)),
                       "battery_pct": (LOW_BATTERY.get((h, dev_name), rng.randint(25, 100))
                                       if battery else None),
                       "firmware_version": (bump_version(latest, rng.randint(1, 3))
                                            if rng.random() < 0.35 or (h, dev_name) in
                                            LOW_BATTERY else latest),
                       "state": _state(kind, dev_name, info, rng, world)}
                devices.append(dev)
                by_name[(h, dev_name)] = dev
                if meters_energy(dev):
                    base = _daily_base(dev, info, dev_name, rng)
                    series = []
                    for d in range(ENERGY_DAYS):
                        day = TODAY - dt.timedelta(days=ENERGY_DAYS - d)
                        dead = offline_days is not None and ENERGY_DAYS - d <= offline_days
                        weekend = 1.25 if day.weekday() >= 5 else 1.0
                        series.append(0.0 if dead else
                                      round(base * weekend * rng.uniform(0.6, 1.4), 3))
                    energy.append({"device_id": dev["device_id"], "daily_kwh": series})
    # A leak at the holiday apartment and an unlocked door make for realistic tasks.
    leak = by_name[(1, "Bathroom Leak Sensor")]
    leak["state"] = {**leak["state"], "leak": True}
    s.table("rooms", key="room_id", kind="room", hint="use list_rooms to see room ids").load(rooms)
    s.table("devices", key="device_id", kind="device",
            hint="use list_devices to see device ids").load(devices)
    s.table("energy", key="device_id", kind="energy meter",
            hint="energy is reported by mains-powered lights, plugs, speakers, cameras and "
                 "thermostats").load(energy)
    _lock_codes(s, world, rng, devices)
    scene_ids = seed_scenes(s, world, rng, homes, rooms, devices)
    seed_automations(s, world, rng, homes, by_name, scene_ids)
    seed_groups(s, world, rng, homes, by_name)


def _essential_devices() -> set[tuple[int, str]]:
    """(home index, device name) of the devices present at every seed."""
    named = {(h, d) for _, h, _, _, _, sensor, _, device, _, _ in AUTOMATIONS
             for d in (sensor, device) if d}
    grouped = {(h, d) for _, h, members in GROUPS for d in members}
    return ESSENTIAL | named | grouped | set(OFFLINE) | set(LOW_BATTERY)


def _lock_codes(s: State, world: World, rng: random.Random, devices: list[Row]) -> None:
    members = s["members"].rows()
    rows = []
    for dev in devices:
        if dev["type"] != "lock":
            continue
        household = [m for m in members if m["home_id"] == dev["home_id"]]
        for name in rng.sample(LOCK_CODE_NAMES, rng.randint(2, 3)):
            member = (rng.choice([m for m in household if m["role"] != "guest"] or household)
                      if name == "Family" else
                      next((m for m in household if m["role"] == "guest"), None)
                      if name in ("Cleaner", "Babysitter", "Guest June") else None)
            temporary = name in ("Guest June", "Plumber", "Handyman")
            rows.append({"code_id": f"code_{len(rows) + 1:04d}", "device_id": dev["device_id"],
                         "name": name, "code": f"{rng.randint(0, 999999):06d}"[
                             :rng.choice([4, 6])],
                         "member_id": member["member_id"] if member else None,
                         "valid_until": (TODAY + dt.timedelta(days=rng.randint(3, 20))
                                         ).isoformat() if temporary else None,
                         "created_at": days_ago(world, rng.randint(5, 200), rng)})
    s.table("lock_codes", key="code_id", kind="lock code",
            hint="use get_device on a lock to see its code ids").load(rows)
    s.set_var("__seq_code", len(rows))
