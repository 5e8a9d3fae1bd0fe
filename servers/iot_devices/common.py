"""iot_devices: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from servers.core import clock
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.iot_devices.catalog import COLORS, MODELS, POWERED, THERMOSTAT_RANGE
from servers.iot_devices.logic import capabilities, hvac, model_info, status
from servers.iot_devices.models import Device, DeviceSummary, LockCode, Member, Skipped
from servers.iot_devices.seed import build

DOMAIN = Domain("iot_devices", "A smart-home hub: homes and rooms, lights, thermostats, locks, "
                "cameras, plugs, blinds, speakers and sensors; scenes, automations, device "
                "groups, energy usage and firmware updates.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"devices": ("last_seen",), "lock_codes": ("created_at",),
                        "scenes": ("created_at", "last_activated_at"),
                        "automations": ("created_at",), "groups": ("created_at",)}

DeviceType = Literal["light", "thermostat", "lock", "camera", "plug", "blinds", "speaker",
                     "sensor"]
Color = Literal["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink", "white"]
HomeId = Annotated[str, Arg("Home id, e.g. 'home_mr9frs' (from list_homes)")]
DeviceId = Annotated[str, Arg("Device id, e.g. 'dev_uh8z5n' (from list_devices)")]
assert len(COLORS) == len(Color.__args__)  # one list of colour names

# Where to go instead, when a tool is called on a device of the wrong type.
TOOL_FOR = {"light": "set_light or set_device_power", "thermostat": "set_thermostat",
            "lock": "set_lock", "camera": "set_device_power", "plug": "set_device_power",
            "blinds": "set_blinds", "speaker": "set_speaker or set_device_power",
            "sensor": "get_device (sensors are read-only)"}


def now(s: State) -> str:
    """The world clock (the hub's), one minute further per state-changing call."""
    return clock.tick(s)


def label(dev: Row) -> str:
    return f"device {dev['device_id']} ({dev['name']})"


def article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def require_type(dev: Row, kinds: tuple[str, ...], what: str) -> None:
    """Fail with the device's actual type and the tool that does control it."""
    if dev["type"] not in kinds:
        names = [k if k.endswith("s") else k + "s" for k in kinds]
        allowed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        raise ToolError(f"{label(dev)} is {article(dev['type'])}; {what} only works on "
                        f"{allowed}. To control {article(dev['type'])}, use "
                        f"{TOOL_FOR[dev['type']]}")


def require_online(dev: Row) -> None:
    if not dev["online"]:
        raise ToolError(f"{label(dev)} is offline (last seen {dev['last_seen']}); commands "
                        "can't reach it. Check its power, batteries or Wi-Fi and try again")


def in_home(s: State, row: Row, home_id: str, what: str) -> None:
    if row["home_id"] != home_id:
        home = s["homes"].get(row["home_id"])["name"]
        raise ToolError(f"{what} belongs to home {row['home_id']} ({home}), not {home_id}; "
                        "everything in one scene, automation or group must be in the same home")


def room_name(s: State, dev: Row) -> str:
    return s["rooms"].get(dev["room_id"])["name"]


def device_summary(s: State, dev: Row) -> DeviceSummary:
    return {"device_id": dev["device_id"], "name": dev["name"], "type": dev["type"],
            "home_id": dev["home_id"], "room_id": dev["room_id"],
            "room_name": room_name(s, dev), "online": dev["online"],
            "battery_pct": dev["battery_pct"], "status": status(dev)}


def device_out(s: State, dev: Row) -> Device:
    _, maker, model, latest, _, _ = MODELS[dev["model_key"]]
    shown = {k: v for k, v in dev["state"].items() if k != "load_w"}
    return {**device_summary(s, dev), "manufacturer": maker, "model": model,
            "last_seen": dev["last_seen"], "firmware_version": dev["firmware_version"],
            "update_available": dev["firmware_version"] != latest,
            "capabilities": capabilities(dev), "state": shown}


def member_out(s: State, row: Row) -> Member:
    return {k: row[k] for k in ("member_id", "person_id", "name", "email", "role", "status")}


def code_out(s: State, row: Row) -> LockCode:
    member = s["members"].get(row["member_id"]) if row["member_id"] else None
    return {"code_id": row["code_id"], "device_id": row["device_id"], "name": row["name"],
            "code_hint": "•" * (len(row["code"]) - 2) + row["code"][-2:],
            "member_id": row["member_id"],
            "member_name": member["name"] if member else None,
            "valid_until": row["valid_until"], "created_at": row["created_at"]}


# ----------------------------------------------------------------------------- changing devices
def _light(dev: Row, st: dict, settings: dict[str, Any]) -> dict:
    info = model_info(dev)
    brightness = settings.get("brightness")
    color, kelvin = settings.get("color"), settings.get("color_temperature_k")
    model = MODELS[dev["model_key"]][2]
    if color is not None and not info["color"]:
        raise ToolError(f"{label(dev)} is a {model}, which has no colour; it supports "
                        + ("colour temperature only (color_temperature_k)" if info["ct"]
                           else "brightness only"))
    if kelvin is not None:
        if not info["ct"]:
            raise ToolError(f"{label(dev)} is a {model}, which has no colour temperature; it "
                            "supports brightness only")
        lo, hi = info["ct"]
        if not lo <= kelvin <= hi:
            raise ToolError(f"{label(dev)} is a {model}, which supports colour temperatures "
                            f"{lo}-{hi} K; got {kelvin} K")
    new = {**st}
    if color is not None:
        new.update(color=color, color_temperature_k=None)
    if kelvin is not None:
        new.update(color_temperature_k=kelvin, color=None)
    if brightness is not None:
        new.update(brightness=brightness, on=brightness > 0)
    if "on" in settings:
        new["on"] = settings["on"]
    elif color is not None or kelvin is not None:
        new["on"] = True  # changing the colour of a light that is off turns it on
    if new["on"] and new["brightness"] == 0:
        new["brightness"] = 100
    return new


def _speaker(dev: Row, st: dict, settings: dict[str, Any]) -> dict:
    new = {**st}
    if "volume" in settings:
        new["volume"] = settings["volume"]
    playback = settings.get("playback")
    if playback == "play":
        if st["now_playing"] is None:
            raise ToolError(f"{label(dev)} has nothing queued to play; start music from the "
                            "speaker's app or voice assistant first")
        new.update(playback="playing", on=True)
    elif playback is not None:
        new["playback"] = {"pause": "paused", "stop": "stopped"}[playback]
    if "on" in settings:
        new["on"] = settings["on"]
        if not settings["on"]:
            new["playback"] = "stopped"
    return new


def change(s: State, dev: Row, settings: dict[str, Any]) -> Row:
    """Validate and apply settings to a device (one update, so a failure changes nothing)."""
    require_online(dev)
    st, kind = dev["state"], dev["type"]
    if kind == "light":
        new = _light(dev, st, settings)
    elif kind == "speaker":
        new = _speaker(dev, st, settings)
    elif kind in ("plug", "camera"):
        new = {**st, "on": settings["on"]}
        if kind == "plug":
            new["power_w"] = st["load_w"] if settings["on"] else 0
    elif kind == "thermostat":
        modes = model_info(dev)["modes"]
        mode = settings.get("mode", st["mode"])
        if mode not in modes:
            raise ToolError(f"{label(dev)} is a {MODELS[dev['model_key']][2]}, which supports "
                            f"modes {', '.join(modes)}; '{mode}' isn't one of them")
        target = float(settings.get("target_temperature_c", st["target_temperature_c"]))
        lo, hi = THERMOSTAT_RANGE
        if not lo <= target <= hi:
            raise ToolError(f"thermostat setpoints must be between {lo:g} and {hi:g} °C, got "
                            f"{target:g}")
        new = {**st, "mode": mode, "target_temperature_c": target,
               "hvac": "idle" if mode == "off" else hvac(mode, target,
                                                         st["current_temperature_c"])}
    elif kind == "lock":
        if settings["locked"] and st["door"] == "open":
            raise ToolError(f"{label(dev)} reports its door is open; close the door before "
                            "locking (the bolt would hit the frame)")
        new = {**st, "locked": settings["locked"]}
    elif kind == "blinds":
        new = {**st, "position": settings["position"]}
    else:
        raise ToolError(f"{label(dev)} is a sensor; sensors only report readings and can't be "
                        "controlled")
    return s["devices"].update(dev["device_id"], state=new, last_seen=now(s))


def try_change(s: State, dev: Row, settings: dict[str, Any]) -> Skipped | None:
    """change(), but a device that refuses is reported instead of failing the whole call."""
    try:
        change(s, dev, settings)
    except ToolError as err:
        return {"device_id": dev["device_id"], "device_name": dev["name"], "reason": str(err)}
    return None


def snapshot(dev: Row) -> dict[str, Any]:
    """The settings a scene captures from a device's current state."""
    st, kind = dev["state"], dev["type"]
    if kind == "light":
        out = {"on": st["on"], "brightness": st["brightness"]}
        if st["color"]:
            out["color"] = st["color"]
        elif st["color_temperature_k"]:
            out["color_temperature_k"] = st["color_temperature_k"]
        return out
    if kind == "speaker":
        return {"on": st["on"], "volume": st["volume"]}
    if kind == "thermostat":
        return {"mode": st["mode"], "target_temperature_c": st["target_temperature_c"]}
    if kind == "lock":
        return {"locked": st["locked"]}
    if kind == "blinds":
        return {"position": st["position"]}
    return {"on": st["on"]}


assert set(POWERED) <= set(TOOL_FOR)
