"""iot_devices tools: scenes (saved device settings), automations (time, sun and sensor
triggers) and device groups."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.iot_devices.catalog import POWERED, WEEKDAYS
from servers.iot_devices.common import (
    DOMAIN,
    HomeId,
    article,
    in_home,
    label,
    now,
    snapshot,
    try_change,
)
from servers.iot_devices.logic import command_types, describe, model_info
from servers.iot_devices.models import (
    Automation,
    AutomationList,
    DeletedAutomation,
    Group,
    GroupList,
    GroupRun,
    Scene,
    SceneList,
    SceneRun,
)

Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
Name = Annotated[str, Arg("Name, unique within the home", min_length=1, max_length=40)]
MAX_MEMBERS = 30
EVENT_SENSORS = ("motion", "contact", "leak", "smoke")


def _unique_name(s: State, table: str, home_id: str, name: str, what: str) -> str:
    name = name.strip()
    if not name:
        raise ToolError("name must not be blank")
    clash = s[table].rows(lambda r: r["home_id"] == home_id
                          and r["name"].lower() == name.lower())
    if clash:
        raise ToolError(f"home {home_id} already has {what} named '{clash[0]['name']}' "
                        f"({clash[0][s[table].key]}); pick another name")
    return name


def _devices(s: State, home_id: str, device_ids: list[str]) -> list[Row]:
    """Look every id up first (unknown ids fail by name), then check duplicates and home."""
    devices = [s["devices"].get(d) for d in device_ids]
    dupes = sorted({d for d in device_ids if device_ids.count(d) > 1})
    if dupes:
        raise ToolError(f"device ids listed more than once: {', '.join(dupes)}")
    for dev in devices:
        in_home(s, dev, home_id, label(dev))
    return devices


# ----------------------------------------------------------------------------- scenes
def _scene_out(s: State, row: Row) -> Scene:
    actions = []
    for act in row["actions"]:
        dev = s["devices"].get(act["device_id"])
        actions.append({"device_id": dev["device_id"], "device_name": dev["name"],
                        "device_type": dev["type"], "settings": act["settings"]})
    return {**row, "actions": actions}


@DOMAIN.tool(read_only=True)
def list_scenes(s: State, home_id: Annotated[str | None, Arg(
        "Only scenes of this home (from list_homes)")] = None) -> SceneList:
    """List scenes with the settings each one applies to each device."""
    if home_id is not None:
        s["homes"].get(home_id)
    rows = s["scenes"].rows(lambda r: home_id is None or r["home_id"] == home_id)
    return {"scenes": [_scene_out(s, r) for r in rows]}


@DOMAIN.tool(read_only=False)
def create_scene(s: State, home_id: HomeId, name: Name, device_ids: Annotated[list[str], Arg(
        "Devices whose current settings the scene saves (ids from list_devices)",
        min_length=1, max_length=MAX_MEMBERS)]) -> Scene:
    """Save the current settings of some devices (lights, plugs, speakers, cameras,
    thermostats, locks, blinds) as a scene that activate_scene restores later."""
    s["homes"].get(home_id)
    devices = _devices(s, home_id, device_ids)
    name = _unique_name(s, "scenes", home_id, name, "a scene")
    for dev in devices:
        if dev["type"] == "sensor":
            raise ToolError(f"{label(dev)} is a sensor; sensors only report readings, so a "
                            "scene can't set them. Leave it out")
        if not dev["online"]:
            raise ToolError(f"{label(dev)} is offline, so its current settings can't be "
                            "captured; leave it out or bring it back online")
    row = s["scenes"].insert({
        "scene_id": s.next_id("scn"), "home_id": home_id, "name": name,
        "actions": [{"device_id": d["device_id"], "settings": snapshot(d)} for d in devices],
        "last_activated_at": None, "created_at": now(s)})
    return _scene_out(s, row)


@DOMAIN.tool(read_only=False)
def activate_scene(s: State, scene_id: Annotated[str, Arg(
        "Scene id, e.g. 'scn_dg73vx' (from list_scenes)")]) -> SceneRun:
    """Apply a scene's saved settings to its devices. Offline devices (and locks whose door
    is open) are skipped and reported; the rest still change."""
    scene = s["scenes"].get(scene_id)
    applied, skipped = [], []
    for act in scene["actions"]:
        dev = s["devices"].get(act["device_id"])
        problem = try_change(s, dev, act["settings"])
        if problem:
            skipped.append(problem)
        else:
            applied.append(dev["device_id"])
    if not applied:
        raise ToolError(f"no device of scene {scene_id} ({scene['name']}) could be changed: "
                        + "; ".join(p["reason"] for p in skipped))
    when = now(s)
    s["scenes"].update(scene_id, last_activated_at=when)
    return {"scene_id": scene_id, "name": scene["name"], "activated_at": when,
            "applied": applied, "skipped": skipped}


# ----------------------------------------------------------------------------- automations
def _automation_out(row: Row) -> Automation:
    return dict(row)  # type: ignore[return-value]


@DOMAIN.tool(read_only=True)
def list_automations(
        s: State,
        home_id: Annotated[str | None, Arg("Only automations of this home")] = None,
        enabled: Annotated[bool | None, Arg("true: only enabled; false: only disabled")] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> AutomationList:
    """List automations: their trigger (time, sunrise, sunset or a sensor), days, action
    (a scene or a device command), whether enabled, and when they last ran."""
    if home_id is not None:
        s["homes"].get(home_id)
    rows = s["automations"].rows(lambda r: (home_id is None or r["home_id"] == home_id)
                                 and (enabled is None or r["enabled"] == enabled))
    pg = paging.page(rows, limit, cursor, key="automation_id")
    return {"automations": [_automation_out(r) for r in pg.rows], "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def create_automation(
        s: State, home_id: HomeId, name: Name,
        trigger: Annotated[Literal["time", "sunrise", "sunset", "sensor"], Arg(
            "What starts it: a time of day, sunrise, sunset, or a sensor event (motion, door "
            "opened, leak, smoke)")],
        time: Annotated[str | None, Arg("Time of day 'HH:MM' (trigger 'time' only)",
                                        pattern=r"([01][0-9]|2[0-3]):[0-5][0-9]")] = None,
        days: Annotated[list[Weekday] | None, Arg("Days it runs on (every day if absent)",
                                                  min_length=1, max_length=7)] = None,
        sensor_device_id: Annotated[str | None, Arg(
            "Sensor whose event triggers it (trigger 'sensor' only)")] = None,
        scene_id: Annotated[str | None, Arg("Scene to activate (or give device_id and "
                                            "command instead)")] = None,
        device_id: Annotated[str | None, Arg("Device to command (with command)")] = None,
        command: Annotated[Literal["turn_on", "turn_off", "lock", "unlock", "open", "close"]
                           | None, Arg("What to do to device_id")] = None,
) -> Automation:
    """Create an enabled automation that activates a scene or sends one command to a
    device when a time, sunrise/sunset or sensor event happens."""
    s["homes"].get(home_id)
    sensor = s["devices"].get(sensor_device_id) if sensor_device_id is not None else None
    scene = s["scenes"].get(scene_id) if scene_id is not None else None
    dev = s["devices"].get(device_id) if device_id is not None else None
    name = _unique_name(s, "automations", home_id, name, "an automation")
    if (trigger == "time") != (time is not None):
        raise ToolError("trigger 'time' needs time 'HH:MM'" if trigger == "time" else
                        f"time is only used with trigger 'time', not '{trigger}'; drop it")
    if (trigger == "sensor") != (sensor is not None):
        raise ToolError("trigger 'sensor' needs sensor_device_id" if trigger == "sensor" else
                        f"sensor_device_id is only used with trigger 'sensor', not '{trigger}'")
    if sensor is not None:
        in_home(s, sensor, home_id, label(sensor))
        kind = model_info(sensor).get("kind") if sensor["type"] == "sensor" else None
        if kind not in EVENT_SENSORS:
            what = f"{kind} sensor" if kind else sensor["type"]
            raise ToolError(f"{label(sensor)} is {article(what)}; sensor triggers need a "
                            "motion, door/window contact, leak or smoke sensor")
    if (scene is None) == (dev is None):
        raise ToolError("give exactly one action: scene_id, or device_id with command")
    if scene is not None:
        if command is not None:
            raise ToolError("command goes with device_id, not with scene_id")
        in_home(s, scene, home_id, f"scene {scene_id} ({scene['name']})")
        target = scene["name"]
    else:
        assert dev is not None
        in_home(s, dev, home_id, label(dev))
        if command is None:
            raise ToolError(f"say what to do to {label(dev)}: give command")
        if dev["type"] not in command_types(command):
            valid = [c for c in ("turn_on", "turn_off", "lock", "unlock", "open", "close")
                     if dev["type"] in command_types(c)]
            raise ToolError(f"{label(dev)} is {article(dev['type'])}; command '{command}' "
                            + (f"doesn't apply to it (valid: {', '.join(valid)})" if valid
                               else "can't be sent to it (it takes no commands)"))
        if command == "unlock" and (sensor is None or model_info(sensor)["kind"] != "smoke"):
            raise ToolError("for security, automations may only unlock a door when a smoke "
                            "alarm triggers them; unlock it yourself with set_lock")
        target = dev["name"]
    ordered = [d for d in WEEKDAYS if days is None or d in days]
    row = {"automation_id": s.next_id("aut"), "home_id": home_id, "name": name,
           "enabled": True, "trigger": trigger, "time": time, "days": ordered,
           "sensor_device_id": sensor_device_id, "scene_id": scene_id, "device_id": device_id,
           "command": command, "last_triggered_at": None, "created_at": now(s)}
    row["description"] = describe(row, sensor["name"] if sensor else None, target)
    return _automation_out(s["automations"].insert(row))


@DOMAIN.tool(read_only=False)
def set_automation_enabled(
        s: State,
        automation_id: Annotated[str, Arg("Automation id, e.g. 'aut_tuadwh' (from "
                                          "list_automations)")],
        enabled: Annotated[bool, Arg("true to enable (resume), false to disable (pause)")],
) -> Automation:
    """Enable or pause an automation without deleting it."""
    s["automations"].get(automation_id)
    return _automation_out(s["automations"].update(automation_id, enabled=enabled))


@DOMAIN.tool(read_only=False)
def delete_automation(s: State, automation_id: Annotated[str, Arg(
        "Automation id (from list_automations)")]) -> DeletedAutomation:
    """Delete an automation for good (to pause it instead, use set_automation_enabled)."""
    row = s["automations"].delete(automation_id)
    return {"automation_id": automation_id, "name": row["name"], "deleted": True}


# ----------------------------------------------------------------------------- groups
def _group_out(s: State, row: Row) -> Group:
    members = []
    for device_id in row["device_ids"]:
        dev = s["devices"].get(device_id)
        members.append({"device_id": device_id, "name": dev["name"], "type": dev["type"],
                        "online": dev["online"], "on": dev["state"]["on"]})
    return {"group_id": row["group_id"], "home_id": row["home_id"], "name": row["name"],
            "devices": members, "created_at": row["created_at"]}


@DOMAIN.tool(read_only=True)
def list_device_groups(s: State, home_id: Annotated[str | None, Arg(
        "Only groups of this home (from list_homes)")] = None) -> GroupList:
    """List device groups with their member devices and whether each is on."""
    if home_id is not None:
        s["homes"].get(home_id)
    rows = s["groups"].rows(lambda r: home_id is None or r["home_id"] == home_id)
    return {"groups": [_group_out(s, r) for r in rows]}


@DOMAIN.tool(read_only=False)
def create_device_group(s: State, home_id: HomeId, name: Name, device_ids: Annotated[
        list[str], Arg("Devices with an on/off switch (lights, plugs, speakers, cameras) "
                       "from list_devices", min_length=2, max_length=MAX_MEMBERS)]) -> Group:
    """Group devices of one home so control_device_group switches them together."""
    s["homes"].get(home_id)
    devices = _devices(s, home_id, device_ids)
    name = _unique_name(s, "groups", home_id, name, "a group")
    for dev in devices:
        if dev["type"] not in POWERED:
            raise ToolError(f"{label(dev)} is {article(dev['type'])}; groups hold devices "
                            "with an on/off switch (lights, plugs, speakers, cameras)")
    row = s["groups"].insert({"group_id": s.next_id("grp"), "home_id": home_id, "name": name,
                              "device_ids": list(device_ids), "created_at": now(s)})
    return _group_out(s, row)


@DOMAIN.tool(read_only=False)
def control_device_group(
        s: State,
        group_id: Annotated[str, Arg("Group id, e.g. 'grp_mgmr9p' (from list_device_groups)")],
        on: Annotated[bool, Arg("true to switch every member on, false to switch them off")],
) -> GroupRun:
    """Switch every device of a group on or off. Offline members are skipped and reported."""
    group = s["groups"].get(group_id)
    changed, already, skipped = [], [], []
    for device_id in group["device_ids"]:
        dev = s["devices"].get(device_id)
        if dev["online"] and dev["state"]["on"] == on:
            already.append(device_id)
            continue
        problem = try_change(s, dev, {"on": on})
        if problem:
            skipped.append(problem)
        else:
            changed.append(device_id)
    if not changed and not already:
        raise ToolError(f"no device of group {group_id} ({group['name']}) could be switched: "
                        + "; ".join(p["reason"] for p in skipped))
    return {"group_id": group_id, "name": group["name"], "on": on, "changed": changed,
            "already": already, "skipped": skipped}
