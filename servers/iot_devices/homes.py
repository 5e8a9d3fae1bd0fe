"""iot_devices tools: homes, rooms, the device inventory, renaming/moving devices, energy usage
and firmware updates."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated

from servers.core import money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.iot_devices.catalog import MODELS
from servers.iot_devices.common import (
    DOMAIN,
    DeviceId,
    DeviceType,
    HomeId,
    code_out,
    device_out,
    device_summary,
    label,
    member_out,
    now,
    require_online,
    room_name,
)
from servers.iot_devices.logic import TODAY, meters_energy
from servers.iot_devices.models import (
    DeviceDetail,
    DeviceList,
    EnergyReport,
    FirmwareResult,
    HomeList,
    RoomList,
)
from servers.iot_devices.seed import ENERGY_DAYS

MIN_UPDATE_BATTERY = 20  # percent; a battery device below this could brick mid-update


@DOMAIN.tool(read_only=True)
def list_homes(s: State) -> HomeList:
    """List the user's homes with address, electricity tariff, room and device counts, and
    household members (with their roles)."""
    out = []
    for home in s["homes"].rows():
        hid = home["home_id"]
        out.append({**home, "price_per_kwh": float(home["price_per_kwh"]),
                    "room_count": sum(r["home_id"] == hid for r in s["rooms"].rows()),
                    "device_count": sum(d["home_id"] == hid for d in s["devices"].rows()),
                    "members": [member_out(s, m) for m in s["members"].rows()
                                if m["home_id"] == hid]})
    return {"homes": out}


@DOMAIN.tool(read_only=True)
def list_rooms(s: State, home_id: Annotated[str | None, Arg(
        "Only rooms of this home (from list_homes); all homes if absent")] = None) -> RoomList:
    """List rooms with their floor, number of devices and the device types in each."""
    if home_id is not None:
        s["homes"].get(home_id)
    out = []
    for room in s["rooms"].rows(lambda r: home_id is None or r["home_id"] == home_id):
        devs = [d for d in s["devices"].rows() if d["room_id"] == room["room_id"]]
        out.append({**room, "home_name": s["homes"].get(room["home_id"])["name"],
                    "device_count": len(devs),
                    "device_types": sorted({d["type"] for d in devs})})
    return {"rooms": out}


@DOMAIN.tool(read_only=True)
def list_devices(
        s: State,
        home_id: Annotated[str | None, Arg("Only devices in this home (from list_homes)")] = None,
        room_id: Annotated[str | None, Arg("Only devices in this room (from list_rooms)")] = None,
        device_type: Annotated[DeviceType | None, Arg("Only devices of this type")] = None,
        online: Annotated[bool | None, Arg(
            "true: only reachable devices; false: only offline ones")] = None,
        query: Annotated[str | None, Arg("Part of the device name (case-insensitive)",
                                         min_length=1)] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> DeviceList:
    """List devices with their room, connectivity, battery and a one-line status (e.g. 'on,
    80%', 'locked', 'heat to 21.0 °C'). Use get_device for full state and capabilities."""
    if home_id is not None:
        s["homes"].get(home_id)
    if room_id is not None:
        s["rooms"].get(room_id)
    q = query.lower() if query else None
    rows = [d for d in s["devices"].rows()
            if (home_id is None or d["home_id"] == home_id)
            and (room_id is None or d["room_id"] == room_id)
            and (device_type is None or d["type"] == device_type)
            and (online is None or d["online"] == online)
            and (q is None or q in d["name"].lower())]
    pg = paging.page(rows, limit, cursor, key="device_id")
    return {"devices": [device_summary(s, d) for d in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_device(s: State, device_id: DeviceId) -> DeviceDetail:
    """Get one device: model, firmware (and whether an update is available), capabilities,
    full state and, for locks, the access codes set on it (codes are shown masked)."""
    dev = s["devices"].get(device_id)
    codes = sorted(s["lock_codes"].rows(lambda c: c["device_id"] == device_id),
                   key=lambda c: c["code_id"])
    return {**device_out(s, dev), "latest_firmware_version": MODELS[dev["model_key"]][3],
            "lock_codes": [code_out(s, c) for c in codes]}


@DOMAIN.tool(read_only=False)
def update_device(
        s: State, device_id: DeviceId,
        name: Annotated[str | None, Arg("New name, unique within the home", min_length=1,
                                        max_length=40)] = None,
        room_id: Annotated[str | None, Arg(
            "Move the device to this room of the same home (from list_rooms)")] = None,
) -> DeviceDetail:
    """Rename a device and/or move it to another room of the same home."""
    dev = s["devices"].get(device_id)
    room = s["rooms"].get(room_id) if room_id is not None else None
    if name is None and room is None:
        raise ToolError("give a new name, a room_id, or both")
    changes: dict = {}
    if name is not None:
        name = name.strip()
        if not name:
            raise ToolError("name must not be blank")
        clash = s["devices"].rows(lambda d: d["home_id"] == dev["home_id"]
                                  and d["device_id"] != device_id
                                  and d["name"].lower() == name.lower())
        if clash:
            raise ToolError(f"the home already has a device named '{clash[0]['name']}' "
                            f"({clash[0]['device_id']}); pick another name")
        changes["name"] = name
    if room is not None:
        if room["home_id"] != dev["home_id"]:
            home = s["homes"].get(room["home_id"])["name"]
            raise ToolError(f"room {room_id} is in {home}; {label(dev)} can only move to rooms "
                            f"of its own home {dev['home_id']} (see list_rooms with that home_id)")
        changes["room_id"] = room_id
    s["devices"].update(device_id, **changes)
    return get_device(s, device_id)


@DOMAIN.tool(read_only=True)
def get_energy_usage(
        s: State, home_id: HomeId,
        days: Annotated[int, Arg("How many days back from yesterday", minimum=1,
                                 maximum=ENERGY_DAYS)] = 7,
        device_id: Annotated[str | None, Arg(
            "Only this device (it must report energy: mains-powered lights, plugs, "
            "speakers, cameras, thermostats)")] = None,
) -> EnergyReport:
    """Electricity used per day in a home (or by one device), the estimated cost at the
    home's tariff, and the devices that used the most."""
    home = s["homes"].get(home_id)
    if device_id is not None:
        dev = s["devices"].get(device_id)
        if dev["home_id"] != home_id:
            raise ToolError(f"{label(dev)} is in home {dev['home_id']}, not {home_id}")
        if not meters_energy(dev):
            raise ToolError(f"{label(dev)} is a battery-powered or non-metered "
                            f"{dev['type']} and doesn't report energy; lights, plugs, "
                            "speakers, wired cameras and HVAC thermostats do")
    devices = [d for d in s["devices"].rows(lambda d: d["home_id"] == home_id)
               if (device_id is None or d["device_id"] == device_id)
               and d["device_id"] in s["energy"]]
    daily = [0.0] * days
    by_device = []
    for dev in devices:
        series = s["energy"].get(dev["device_id"])["daily_kwh"][-days:]
        daily = [a + b for a, b in zip(daily, series, strict=True)]
        by_device.append({"device_id": dev["device_id"], "name": dev["name"],
                          "type": dev["type"], "room_name": room_name(s, dev),
                          "kwh": round(sum(series), 2)})
    by_device.sort(key=lambda r: (-r["kwh"], r["device_id"]))
    total = round(sum(daily), 2)
    start = TODAY - dt.timedelta(days=days)
    return {"home_id": home_id, "home_name": home["name"], "device_id": device_id,
            "start_date": start.isoformat(),
            "end_date": (TODAY - dt.timedelta(days=1)).isoformat(), "days": days,
            "total_kwh": total, "estimated_cost": _cost(s, total, home["price_per_kwh"]),
            "currency": home["currency"],
            "daily": [{"date": (start + dt.timedelta(days=i)).isoformat(), "kwh": round(v, 3)}
                      for i, v in enumerate(daily)],
            "by_device": by_device[:10]}


def _cost(s: State, kwh: float, rate: str) -> int | float:
    """kWh times the tariff, rounded to the currency's minor unit (half to even)."""
    exact = Decimal(repr(kwh)) * Decimal(rate)
    return money.amount_out(s, money.times(10 ** money.digits(money.currency_of(s)), exact))


@DOMAIN.tool(read_only=False)
def update_firmware(s: State, device_id: DeviceId) -> FirmwareResult:
    """Install the latest firmware on a device (see update_available in get_device). The
    device must be online, and battery devices need at least 20% charge."""
    dev = s["devices"].get(device_id)
    latest = MODELS[dev["model_key"]][3]
    if dev["firmware_version"] == latest:
        raise ToolError(f"{label(dev)} already runs the latest firmware ({latest}); nothing "
                        "to update")
    require_online(dev)
    if dev["battery_pct"] is not None and dev["battery_pct"] < MIN_UPDATE_BATTERY:
        raise ToolError(f"{label(dev)} has {dev['battery_pct']}% battery; firmware updates "
                        f"need at least {MIN_UPDATE_BATTERY}%. Replace or charge the batteries "
                        "first")
    s["devices"].update(device_id, firmware_version=latest, last_seen=now(s))
    return {"device_id": device_id, "name": dev["name"], "previous_version":
            dev["firmware_version"], "firmware_version": latest, "status": "updated"}
