"""iot_devices tools: controlling single devices (power, lights, thermostats, locks and their
access codes, blinds, speakers)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.iot_devices.catalog import POWERED
from servers.iot_devices.common import (
    DOMAIN,
    Color,
    DeviceId,
    change,
    code_out,
    device_out,
    label,
    now,
    require_online,
    require_type,
)
from servers.iot_devices.logic import TODAY
from servers.iot_devices.models import DeletedCode, Device, LockCode

MAX_CODES_PER_LOCK = 20


@DOMAIN.tool(read_only=False)
def set_device_power(s: State, device_id: DeviceId, on: Annotated[bool, Arg(
        "true to switch on, false to switch off")]) -> Device:
    """Switch a light, plug, speaker or camera on or off. Thermostats, locks, blinds and
    sensors have no power switch (use set_thermostat, set_lock or set_blinds)."""
    dev = s["devices"].get(device_id)
    require_type(dev, POWERED, "switching power on/off")
    return device_out(s, change(s, dev, {"on": on}))


@DOMAIN.tool(read_only=False)
def set_light(
        s: State, device_id: DeviceId,
        brightness: Annotated[int | None, Arg("Brightness in percent; 0 turns the light off",
                                              minimum=0, maximum=100)] = None,
        color: Annotated[Color | None, Arg("Colour name (colour bulbs only)")] = None,
        color_temperature_k: Annotated[int | None, Arg(
            "White colour temperature in kelvin (2200 warm to 6500 cool; the bulb's own range "
            "applies)", minimum=1000, maximum=10000)] = None,
) -> Device:
    """Set a light's brightness, colour or white colour temperature (setting a colour or
    temperature turns the light on). Colour and colour temperature can't be set together."""
    dev = s["devices"].get(device_id)
    require_type(dev, ("light",), "setting brightness or colour")
    if brightness is None and color is None and color_temperature_k is None:
        raise ToolError("give at least one of brightness, color or color_temperature_k")
    if color is not None and color_temperature_k is not None:
        raise ToolError("give either color or color_temperature_k, not both (a bulb shows "
                        "one or the other)")
    settings = {k: v for k, v in (("brightness", brightness), ("color", color),
                                  ("color_temperature_k", color_temperature_k)) if v is not None}
    return device_out(s, change(s, dev, settings))


@DOMAIN.tool(read_only=False)
def set_thermostat(
        s: State, device_id: DeviceId,
        mode: Annotated[Literal["heat", "cool", "auto", "eco", "off"] | None, Arg(
            "HVAC mode (radiator thermostats support heat, eco and off only)")] = None,
        target_temperature_c: Annotated[float | None, Arg(
            "Setpoint in °C", minimum=10, maximum=30)] = None,
) -> Device:
    """Change a thermostat's mode and/or target temperature (10-30 °C)."""
    dev = s["devices"].get(device_id)
    require_type(dev, ("thermostat",), "setting a mode or target temperature")
    if mode is None and target_temperature_c is None:
        raise ToolError("give a mode, a target_temperature_c, or both")
    if target_temperature_c is not None and abs(target_temperature_c * 2
                                                 - round(target_temperature_c * 2)) > 1e-9:
        raise ToolError(f"thermostats take setpoints in steps of 0.5 °C, got "
                        f"{target_temperature_c}")
    settings: dict = {}
    if mode is not None:
        settings["mode"] = mode
    if target_temperature_c is not None:
        settings["target_temperature_c"] = target_temperature_c
    return device_out(s, change(s, dev, settings))


@DOMAIN.tool(read_only=False)
def set_lock(s: State, device_id: DeviceId, locked: Annotated[bool, Arg(
        "true to lock, false to unlock")]) -> Device:
    """Lock or unlock a smart lock remotely. A lock whose door is open can't be locked."""
    dev = s["devices"].get(device_id)
    require_type(dev, ("lock",), "locking and unlocking")
    return device_out(s, change(s, dev, {"locked": locked}))


@DOMAIN.tool(read_only=False)
def add_lock_code(
        s: State, device_id: DeviceId,
        name: Annotated[str, Arg("Label for the code, e.g. 'Cleaner'", min_length=1,
                                 max_length=30)],
        code: Annotated[str, Arg("The PIN to type on the keypad: 4 to 8 digits",
                                 pattern=r"[0-9]{4,8}")],
        member_id: Annotated[str | None, Arg(
            "Household member the code belongs to (member ids from list_homes)")] = None,
        valid_until: Annotated[str | None, Arg(
            "Last day the code works, 'YYYY-MM-DD' (permanent if absent)")] = None,
) -> LockCode:
    """Add a keypad access code to a lock (permanent, or valid until a date)."""
    dev = s["devices"].get(device_id)
    member = s["members"].get(member_id) if member_id is not None else None
    require_type(dev, ("lock",), "access codes")
    codes = s["lock_codes"].rows(lambda c: c["device_id"] == device_id)
    if any(c["name"].lower() == name.strip().lower() for c in codes):
        raise ToolError(f"{label(dev)} already has a code named '{name}'; pick another name "
                        "or delete_lock_code the old one")
    if any(c["code"] == code for c in codes):
        raise ToolError(f"{label(dev)} already uses that PIN for another code; choose a "
                        "different PIN")
    if len(codes) >= MAX_CODES_PER_LOCK:
        raise ToolError(f"{label(dev)} holds at most {MAX_CODES_PER_LOCK} codes; delete one "
                        "first")
    if len(set(code)) == 1 or code in "0123456789" or code in "9876543210":
        raise ToolError(f"PIN {code} is too easy to guess (repeated or sequential digits); "
                        "choose another")
    if member is not None and member["home_id"] != dev["home_id"]:
        raise ToolError(f"member {member_id} ({member['name']}) is not a member of home "
                        f"{dev['home_id']}, where {label(dev)} is; see list_homes")
    if valid_until is not None:
        try:
            until = dt.date.fromisoformat(valid_until)
        except ValueError:
            raise ToolError(f"valid_until {valid_until!r} is not a date; use 'YYYY-MM-DD'"
                            ) from None
        if until < TODAY:
            raise ToolError(f"valid_until {valid_until} is in the past (today is "
                            f"{TODAY.isoformat()})")
    require_online(dev)
    row = s["lock_codes"].insert({
        "code_id": s.next_id("code"), "device_id": device_id, "name": name.strip(),
        "code": code, "member_id": member_id, "valid_until": valid_until, "created_at": now(s)})
    return code_out(s, row)


@DOMAIN.tool(read_only=False)
def delete_lock_code(s: State, code_id: Annotated[str, Arg(
        "Code id, e.g. 'code_wr2vzv' (from get_device on the lock)")]) -> DeletedCode:
    """Remove an access code from its lock; the PIN stops working immediately."""
    row = s["lock_codes"].get(code_id)
    dev = s["devices"].get(row["device_id"])
    if not dev["online"]:
        raise ToolError(f"{label(dev)} is offline; codes can only be removed from a connected "
                        "lock")
    s["lock_codes"].delete(code_id)
    return {"code_id": code_id, "device_id": dev["device_id"], "device_name": dev["name"],
            "name": row["name"], "deleted": True}


@DOMAIN.tool(read_only=False)
def set_blinds(s: State, device_id: DeviceId, position: Annotated[int, Arg(
        "How far open, in percent: 0 fully closed, 100 fully open", minimum=0,
        maximum=100)]) -> Device:
    """Open, close or partly open motorised blinds or shutters."""
    dev = s["devices"].get(device_id)
    require_type(dev, ("blinds",), "setting a position")
    return device_out(s, change(s, dev, {"position": position}))


@DOMAIN.tool(read_only=False)
def set_speaker(
        s: State, device_id: DeviceId,
        volume: Annotated[int | None, Arg("Volume 0-100", minimum=0, maximum=100)] = None,
        playback: Annotated[Literal["play", "pause", "stop"] | None, Arg(
            "Resume, pause or stop what is queued on the speaker")] = None,
) -> Device:
    """Change a smart speaker's volume and/or play, pause or stop its playback."""
    dev = s["devices"].get(device_id)
    require_type(dev, ("speaker",), "volume and playback")
    if volume is None and playback is None:
        raise ToolError("give a volume, a playback action, or both")
    require_online(dev)
    if not dev["state"]["on"] and playback != "play":
        raise ToolError(f"{label(dev)} is switched off; turn it on with set_device_power "
                        "(or send playback 'play') first")
    settings: dict = {}
    if volume is not None:
        settings["volume"] = volume
    if playback is not None:
        settings["playback"] = playback
    return device_out(s, change(s, dev, settings))
