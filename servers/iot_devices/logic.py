"""iot_devices: pure rules on device rows (capabilities, human-readable status, automation
descriptions) and the seed's timestamps. No domain here, so the seed modules and the tool
modules can all use it."""

from __future__ import annotations

import datetime as dt
import random

from servers.core import clock
from servers.core.state import Row
from servers.core.world import REFERENCE_DATE, World, days_ago
from servers.iot_devices.catalog import MODELS, POWERED, WEEKDAYS

TODAY = REFERENCE_DATE


def model_info(dev: Row) -> dict:
    return MODELS[dev["model_key"]][5]


def capabilities(dev: Row) -> list[str]:
    kind, info = dev["type"], model_info(dev)
    if kind == "light":
        return (["power", "brightness"] + (["color"] if info["color"] else [])
                + (["color_temperature"] if info["ct"] else []))
    if kind == "sensor":
        return {"climate": ["temperature", "humidity"], "motion": ["motion"],
                "contact": ["contact"], "smoke": ["smoke", "carbon_monoxide"],
                "leak": ["water_leak"], "air_quality": ["co2", "pm25", "voc"]}[info["kind"]]
    return {"thermostat": ["thermostat_mode", "target_temperature"],
            "lock": ["lock", "access_codes"], "camera": ["power", "motion_alerts"],
            "plug": ["power", "energy_monitoring"], "blinds": ["position"],
            "speaker": ["power", "volume", "playback"]}[kind]


def meters_energy(dev: Row) -> bool:
    """Mains-powered devices that switch or heat report energy; battery devices don't."""
    if MODELS[dev["model_key"]][4] or dev["type"] in ("lock", "sensor", "blinds"):
        return False
    return dev["type"] != "thermostat" or "kwh" in model_info(dev)


def bump_version(latest: str, steps: int) -> str:
    """An older firmware version string than `latest` (its last number lowered)."""
    digits_end = len(latest)
    start = digits_end
    while start > 0 and latest[start - 1].isdigit():
        start -= 1
    number = int(latest[start:])
    width = digits_end - start
    return f"{latest[:start]}{max(0, number - steps):0{width}d}"


def sensor_status(st: dict, kind: str) -> str:
    if kind == "climate":
        return f"{st['temperature_c']:.1f} °C, {st['humidity_pct']}% humidity"
    if kind == "motion":
        return "motion detected" if st["motion"] else f"no motion (last {st['last_motion_at']})"
    if kind == "contact":
        return st["contact"]
    if kind == "smoke":
        return "SMOKE DETECTED" if st["smoke"] != "clear" else f"clear, CO {st['co_ppm']} ppm"
    if kind == "leak":
        return "LEAK DETECTED" if st["leak"] else "dry"
    return (f"air quality {st['score']}/100 (CO2 {st['co2_ppm']} ppm, "
            f"PM2.5 {st['pm25_ugm3']} µg/m³)")


def status(dev: Row) -> str:
    """One line a hub app would show under the device's name."""
    if not dev["online"]:
        return f"offline since {dev['last_seen']}"
    st, kind = dev["state"], dev["type"]
    if kind == "light":
        if not st["on"]:
            return "off"
        tint = (f", {st['color']}" if st["color"] else
                f", {st['color_temperature_k']} K" if st["color_temperature_k"] else "")
        return f"on, {st['brightness']}%{tint}"
    if kind == "thermostat":
        now = f"now {st['current_temperature_c']:.1f} °C"
        if st["mode"] == "off":
            return f"off ({now})"
        return f"{st['mode']} to {st['target_temperature_c']:.1f} °C ({now}, {st['hvac']})"
    if kind == "lock":
        return ("locked" if st["locked"] else "unlocked") + (", door open"
                                                               if st["door"] == "open" else "")
    if kind == "camera":
        return "recording" if st["on"] else "off"
    if kind == "plug":
        return f"on, {st['power_w']} W ({st['appliance']})" if st["on"] else (
            f"off ({st['appliance']})")
    if kind == "blinds":
        pos = st["position"]
        return "closed" if pos == 0 else "open" if pos == 100 else f"{pos}% open"
    if kind == "speaker":
        if not st["on"]:
            return "off"
        what = f" '{st['now_playing']}'" if st["now_playing"] else ""
        return f"{st['playback']}{what if st['playback'] != 'stopped' else ''}, volume " \
               f"{st['volume']}"
    return sensor_status(st, model_info(dev)["kind"])


def hvac(mode: str, target: float, current: float) -> str:
    if mode in ("heat", "auto") and current < target - 0.5:
        return "heating"
    if mode in ("cool", "auto") and current > target + 0.5:
        return "cooling"
    return "idle"


def command_types(command: str) -> tuple[str, ...]:
    """Device types an automation command applies to."""
    return {"turn_on": POWERED, "turn_off": POWERED, "lock": ("lock",), "unlock": ("lock",),
            "open": ("blinds",), "close": ("blinds",)}[command]


def days_text(days: list[str]) -> str:
    if list(days) == list(WEEKDAYS):
        return "every day"
    if list(days) == list(WEEKDAYS[:5]):
        return "weekdays"
    if list(days) == ["sat", "sun"]:
        return "weekends"
    return ", ".join(d.capitalize() for d in days)


def describe(row: Row, sensor: str | None, target: str) -> str:
    """E.g. "Weekdays at 06:45: activate scene 'Good Morning'"."""
    when = {"time": f"at {row['time']}", "sunrise": "at sunrise", "sunset": "at sunset"}.get(
        row["trigger"], f"when '{sensor}' is triggered")
    what = (f"activate scene '{target}'" if row["scene_id"] else
            f"{row['command'].replace('_', ' ')} '{target}'")
    days = days_text(row["days"])
    return f"{days[:1].upper()}{days[1:]} {when}: {what}"


def today_at(world: World, hour: int, minute: int) -> str:
    """A stamp on the reference day before the hub's "now" (noon), in the world's zone."""
    return clock.stamp(clock.local(TODAY, dt.time(hour, minute), world.tz))


def past(world: World, rng: random.Random, lo: int, hi: int) -> str:
    """A timestamp lo..hi days ago that is before the hub's "now" (noon on the reference day)."""
    days = rng.randint(lo, hi)
    if days == 0:
        return today_at(world, rng.randint(6, 11), rng.choice([5, 20, 35, 50]))
    return days_ago(world, days, rng)
