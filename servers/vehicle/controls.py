"""vehicle tools: the garage list and remote controls (locks, engine, climate, seats, windows,
lights, charging). Every command checks the preconditions a real car enforces."""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Literal

from servers.core import clock
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.vehicle.common import (
    DOMAIN,
    VehicleId,
    label,
    now,
    range_km,
    require_parked,
    seats_off,
    status_out,
    summary,
)
from servers.vehicle.data import CHARGEABLE, DOORS, HAS_ENGINE, SEATS
from servers.vehicle.models import (
    ChargeStatus,
    ClimateResult,
    EngineResult,
    LightsResult,
    LockResult,
    VehicleList,
    VehicleStatus,
    WindowResult,
)

Powertrain = Literal["electric", "petrol", "diesel", "hybrid", "plug_in_hybrid"]
Door = Literal["driver", "passenger", "rear_left", "rear_right", "trunk"]
Seat = Literal["driver", "passenger", "rear_left", "rear_right"]
MIN_START_FUEL_PCT = 5
MIN_PRECONDITION_BATTERY_PCT = 10
TEMP_RANGE = {"celsius": (16.0, 28.0), "fahrenheit": (61.0, 82.0)}


def _vehicle(s: State, vehicle_id: str) -> Row:
    return s["vehicles"].get(vehicle_id)


@DOMAIN.tool(read_only=True)
def list_vehicles(
        s: State,
        powertrain: Annotated[Powertrain | None, Arg("Only vehicles with this powertrain")] = None,
        driver: Annotated[str | None, Arg(
            "Only vehicles whose assigned driver's name contains this (case-insensitive); "
            "'me' for the user's own cars", min_length=1)] = None,
        city: Annotated[str | None, Arg("Only vehicles currently in this city", min_length=1
                                        )] = None) -> VehicleList:
    """List the vehicles on the account (the user's own cars and the company cars they manage)
    with VIN, model, driver, location, odometer, fuel/battery level and range."""
    rows = s["vehicles"].rows()
    if powertrain is not None:
        rows = [v for v in rows if v["powertrain"] == powertrain]
    if driver is not None:
        q = driver.lower()
        rows = [v for v in rows if (v["driver_id"] == s.var("user_id") if q == "me"
                                    else q in v["driver_name"].lower())]
    if city is not None:
        rows = [v for v in rows if v["location"]["city"].lower() == city.lower()]
    return {"vehicles": [summary(v) for v in rows], "total": len(rows)}


@DOMAIN.tool(read_only=True)
def get_vehicle_status(s: State, vehicle_id: VehicleId) -> VehicleStatus:
    """Live status of one vehicle: location, door locks, engine, windows, climate, seat
    heating, headlights, fuel/battery and range, charging, active navigation, warnings."""
    return status_out(s, _vehicle(s, vehicle_id))


@DOMAIN.tool(read_only=False)
def set_door_locks(
        s: State, vehicle_id: VehicleId,
        action: Annotated[Literal["lock", "unlock"], Arg("Lock or unlock")],
        doors: Annotated[list[Door] | None, Arg(
            "Which doors (default: all doors and the trunk)", min_length=1)] = None
) -> LockResult:
    """Lock or unlock the vehicle's doors remotely (not while it is being driven)."""
    v = _vehicle(s, vehicle_id)
    require_parked(v, f"{action}ing")
    target = list(DOORS) if doors is None else doors
    want = action == "lock"
    new = {d: (want if d in target else v["doors"][d]) for d in DOORS}
    notice = None
    if all(v["doors"][d] == want for d in target):
        notice = f"the selected doors were already {action}ed"
    open_windows = [w for w in SEATS if v["windows"][w] > 0]
    if want and open_windows:
        notice = (f"locked, but windows are still open ({', '.join(open_windows)}); close "
                  "them with set_windows")
    s["vehicles"].update(vehicle_id, doors=new)
    now(s)
    return {"vehicle_id": vehicle_id, "action": action, "doors_locked": new,
            "all_doors_locked": all(new.values()), "notice": notice}


def _engine_out(v: Row) -> EngineResult:
    return {"vehicle_id": v["vehicle_id"], "engine": v["engine"],
            "engine_auto_off_at": v["engine_auto_off_at"], "fuel_pct": v["fuel_pct"],
            "climate_on": v["climate"]["on"]}


@DOMAIN.tool(read_only=False)
def start_engine(
        s: State, vehicle_id: VehicleId,
        run_minutes: Annotated[int, Arg("Remote start runs the engine this long, then stops it",
                                        minimum=5, maximum=30)] = 15) -> EngineResult:
    """Remote-start the engine (warms or cools the cabin with the last climate settings).
    The vehicle must be parked with all doors locked and enough fuel; not for electric cars."""
    v = _vehicle(s, vehicle_id)
    if v["powertrain"] not in HAS_ENGINE:
        raise ToolError(f"{label(v)} is electric and has no engine to start; use set_climate "
                        "to precondition the cabin instead")
    require_parked(v, "engine start")
    if v["engine"] == "running":
        raise ToolError(f"the engine of {label(v)} is already running (auto-off at "
                        f"{v['engine_auto_off_at']}); use stop_engine to stop it")
    unlocked = [d for d in DOORS if not v["doors"][d]]
    if unlocked:
        raise ToolError(f"remote start needs every door locked; unlocked: {', '.join(unlocked)}"
                        f". Lock them with set_door_locks first")
    if v["charging_state"] == "charging":
        raise ToolError(f"{label(v)} is charging; stop_charging before starting the engine")
    if v["fuel_pct"] < MIN_START_FUEL_PCT:
        raise ToolError(f"fuel at {v['fuel_pct']:.0f}% is below the {MIN_START_FUEL_PCT}% "
                        "remote-start minimum; refuel first")
    if v["battery_12v_v"] < 12.0:
        raise ToolError(f"the 12V battery ({v['battery_12v_v']} V) is too weak to crank the "
                        "engine; book a battery_service with book_service_appointment")
    # a real instant, so a run past midnight moves to the next day (the old string math wrapped)
    off_at = clock.stamp(dt.datetime.fromisoformat(now(s)) + dt.timedelta(minutes=run_minutes))
    v = s["vehicles"].update(vehicle_id, engine="running", engine_auto_off_at=off_at,
                             climate={**v["climate"], "on": True})
    return _engine_out(v)


@DOMAIN.tool(read_only=False)
def stop_engine(s: State, vehicle_id: VehicleId) -> EngineResult:
    """Stop a remotely started engine (climate and seat heating switch off with it)."""
    v = _vehicle(s, vehicle_id)
    if v["powertrain"] not in HAS_ENGINE:
        raise ToolError(f"{label(v)} is electric and has no engine; use set_climate with "
                        "power 'off' to stop cabin conditioning")
    require_parked(v, "engine stop")
    if v["engine"] != "running":
        raise ToolError(f"the engine of {label(v)} is not running")
    v = s["vehicles"].update(
        vehicle_id, engine="off", engine_auto_off_at=None,
        climate={**v["climate"], "on": False}, seat_heating=seats_off(),
        headlights="auto" if v["headlights"] == "on" else v["headlights"])
    now(s)
    return _engine_out(v)


def _climate_out(v: Row) -> ClimateResult:
    return {"vehicle_id": v["vehicle_id"], "engine": v["engine"], "climate": v["climate"],
            "seat_heating": v["seat_heating"], "heated_seats": v["heated_seats"]}


@DOMAIN.tool(read_only=False)
def set_climate(
        s: State, vehicle_id: VehicleId,
        power: Annotated[Literal["on", "off"], Arg("Turn cabin climate on or off")] = "on",
        temperature: Annotated[float | None, Arg(
            "Target cabin temperature: 16-28 in celsius or 61-82 in fahrenheit")] = None,
        unit: Annotated[Literal["celsius", "fahrenheit"], Arg(
            "Unit of temperature")] = "celsius",
        fan_speed: Annotated[int | None, Arg("Fan speed", minimum=1, maximum=7)] = None,
        mode: Annotated[Literal["auto", "heat", "cool", "defrost"] | None, Arg(
            "Climate mode")] = None) -> ClimateResult:
    """Set cabin climate. Combustion and hybrid cars need the engine running (start_engine);
    electric and plug-in hybrid cars run it from the battery (at least 10% or plugged in)."""
    v = _vehicle(s, vehicle_id)
    require_parked(v, "climate control")
    climate = dict(v["climate"])
    if temperature is not None:
        low, high = TEMP_RANGE[unit]
        if not low <= temperature <= high:
            raise ToolError(f"temperature {temperature} {unit} is outside the supported range "
                            f"{low:g}-{high:g} {unit}")
        celsius = temperature if unit == "celsius" else (temperature - 32) * 5 / 9
        climate["target_temp_c"] = round(celsius * 2) / 2  # the car steps in half degrees
    if fan_speed is not None:
        climate["fan_speed"] = fan_speed
    if mode is not None:
        climate["mode"] = mode
    seats = v["seat_heating"]
    if power == "on" and not climate["on"]:
        if v["powertrain"] in CHARGEABLE:
            if v["battery_pct"] < MIN_PRECONDITION_BATTERY_PCT and not v["plugged_in"]:
                raise ToolError(f"battery at {v['battery_pct']:.0f}% is too low to run climate "
                                "unplugged (needs 10%); plug in and start_charging first")
        elif v["engine"] != "running":
            raise ToolError(f"{label(v)} runs climate from its engine; start_engine first, "
                            "then set_climate")
    climate["on"] = power == "on"
    if power == "off":
        seats = seats_off()
    v = s["vehicles"].update(vehicle_id, climate=climate, seat_heating=seats)
    now(s)
    return _climate_out(v)


@DOMAIN.tool(read_only=False)
def set_seat_heating(
        s: State, vehicle_id: VehicleId,
        seat: Annotated[Seat, Arg("Which seat")],
        level: Annotated[int, Arg("Heat level: 0 off, 3 highest", minimum=0, maximum=3)]
) -> ClimateResult:
    """Set one seat's heater level. Only seats the model has heaters in; needs climate on."""
    v = _vehicle(s, vehicle_id)
    require_parked(v, "seat heating")
    if seat not in v["heated_seats"]:
        have = ", ".join(v["heated_seats"]) or "none"
        raise ToolError(f"the {v['make']} {v['model']} has no heater in the {seat} seat "
                        f"(heated seats: {have})")
    if level > 0 and not v["climate"]["on"]:
        raise ToolError(f"seat heating runs with cabin climate; turn climate on with "
                        f"set_climate for {vehicle_id} first")
    v = s["vehicles"].update(vehicle_id, seat_heating={**v["seat_heating"], seat: level})
    now(s)
    return _climate_out(v)


@DOMAIN.tool(read_only=False)
def set_windows(
        s: State, vehicle_id: VehicleId,
        open_pct: Annotated[int, Arg("How far open: 0 closed, 100 fully open", minimum=0,
                                     maximum=100)],
        windows: Annotated[list[Seat] | None, Arg(
            "Which windows (default: all four)", min_length=1)] = None) -> WindowResult:
    """Open, vent or close windows remotely (not while the vehicle is being driven)."""
    v = _vehicle(s, vehicle_id)
    require_parked(v, "window control")
    target = list(SEATS) if windows is None else windows
    new = {w: (open_pct if w in target else v["windows"][w]) for w in SEATS}
    s["vehicles"].update(vehicle_id, windows=new)
    now(s)
    return {"vehicle_id": vehicle_id, "windows_open_pct": new}


@DOMAIN.tool(read_only=False)
def set_headlights(
        s: State, vehicle_id: VehicleId,
        mode: Annotated[Literal["on", "off", "auto"], Arg("Headlight mode")]) -> LightsResult:
    """Set the headlights. 'on' with the engine off is only allowed on electric and plug-in
    hybrid cars (it would drain a combustion car's 12V battery)."""
    v = _vehicle(s, vehicle_id)
    require_parked(v, "headlight control")
    if mode == "on" and v["engine"] != "running" and v["powertrain"] not in CHARGEABLE:
        raise ToolError(f"headlights can stay on only while the engine runs on {label(v)}; "
                        "start_engine first or choose 'auto'")
    v = s["vehicles"].update(vehicle_id, headlights=mode)
    now(s)
    return {"vehicle_id": vehicle_id, "headlights": mode, "engine": v["engine"]}


def _chargeable(s: State, vehicle_id: str) -> Row:
    v = _vehicle(s, vehicle_id)
    if v["powertrain"] not in CHARGEABLE:
        raise ToolError(f"{label(v)} is a {v['powertrain'].replace('_', ' ')} car and cannot "
                        "be plugged in or charged; only electric and plug-in hybrid vehicles "
                        "charge (list_vehicles with powertrain='electric')")
    return v


def _charge_out(v: Row) -> ChargeStatus:
    minutes = None
    if v["charging_state"] == "charging":
        kwh = (v["charge_limit_pct"] - v["battery_pct"]) / 100 * v["battery_kwh"]
        minutes = math.ceil(kwh / v["charger_kw"] * 60)
    return {"vehicle_id": v["vehicle_id"], "battery_pct": v["battery_pct"],
            "charge_limit_pct": v["charge_limit_pct"], "plugged_in": v["plugged_in"],
            "charging_state": v["charging_state"], "charger_kw": v["charger_kw"],
            "minutes_to_limit": minutes, "range_km": range_km(v)}


@DOMAIN.tool(read_only=False)
def start_charging(s: State, vehicle_id: VehicleId) -> ChargeStatus:
    """Start charging a parked, plugged-in electric or plug-in hybrid vehicle up to its charge
    limit."""
    v = _chargeable(s, vehicle_id)
    require_parked(v, "charging")
    if not v["plugged_in"]:
        raise ToolError(f"{label(v)} is not plugged in; connect the charging cable at a "
                        "charger, then call start_charging again")
    if v["charging_state"] == "charging":
        raise ToolError(f"{label(v)} is already charging")
    if v["engine"] == "running":
        raise ToolError(f"the engine of {label(v)} is running; stop_engine before charging")
    if v["battery_pct"] >= v["charge_limit_pct"]:
        raise ToolError(f"battery at {v['battery_pct']:.0f}% already reaches the "
                        f"{v['charge_limit_pct']}% charge limit; raise it with set_charge_limit")
    v = s["vehicles"].update(vehicle_id, charging_state="charging")
    now(s)
    return _charge_out(v)


@DOMAIN.tool(read_only=False)
def stop_charging(s: State, vehicle_id: VehicleId) -> ChargeStatus:
    """Stop an ongoing charge session (the cable stays connected)."""
    v = _chargeable(s, vehicle_id)
    if v["charging_state"] != "charging":
        raise ToolError(f"{label(v)} is not charging (charging state: {v['charging_state']})")
    v = s["vehicles"].update(vehicle_id, charging_state="plugged_in")
    now(s)
    return _charge_out(v)


@DOMAIN.tool(read_only=False)
def set_charge_limit(
        s: State, vehicle_id: VehicleId,
        limit_pct: Annotated[int, Arg("Charge limit in percent of battery capacity",
                                      minimum=50, maximum=100)]) -> ChargeStatus:
    """Set the battery charge limit; a running charge stops once the battery reaches it."""
    v = _chargeable(s, vehicle_id)
    state = v["charging_state"]
    if state == "charging" and v["battery_pct"] >= limit_pct:
        state = "complete"
    elif state == "complete" and v["battery_pct"] < limit_pct:
        state = "charging"  # a plugged-in car resumes charging up to the raised limit
    v = s["vehicles"].update(vehicle_id, charge_limit_pct=limit_pct, charging_state=state)
    now(s)
    return _charge_out(v)
