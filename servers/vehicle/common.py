"""vehicle: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

from typing import Annotated

from servers.core import clock
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.vehicle.data import SEATS, TIRES, build
from servers.vehicle.models import VehicleStatus, VehicleSummary, Warning

DOMAIN = Domain("vehicle", "A connected-car app for the user's cars and the company cars they "
                "manage: remote locks, engine start, climate, charging, diagnostics, "
                "navigation, trip history and service appointments.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"vehicles": ("engine_auto_off_at", "navigation.eta"),
                        "appointments": ("created_at",)}

VehicleId = Annotated[str, Arg("Vehicle id, e.g. 'veh_vv7t3b' (from list_vehicles)")]


def now(s: State) -> str:
    """The world clock, one minute further per state-changing call."""
    return clock.tick(s)


def peek_now(s: State) -> str:
    """The current clock reading without ticking it (for read-only tools)."""
    return clock.now_stamp(s)


def label(v: Row) -> str:
    return f"{v['vehicle_id']} ({v['year']} {v['make']} {v['model']})"


def range_km(v: Row) -> float:
    """Remaining range: battery plus tank (a plug-in hybrid has both)."""
    km = 0.0
    if v["battery_pct"] is not None:
        km += v["battery_pct"] / 100 * v["battery_kwh"] / v["kwh_per_100km"] * 100
    if v["fuel_pct"] is not None:
        km += v["fuel_pct"] / 100 * v["tank_l"] / v["l_per_100km"] * 100
    return round(km, 1)


def require_parked(v: Row, action: str) -> None:
    """Remote commands that could endanger a moving car are refused while it is driven."""
    if v["status"] == "driving":
        raise ToolError(f"{label(v)} is being driven by {v['driver_name']} "
                        f"({v['speed_kmh']} km/h); remote {action} is blocked while the vehicle "
                        "is moving. Try again once it is parked (see get_vehicle_status)")


def warnings_of(v: Row) -> list[Warning]:
    """Active warnings, derived from the live readings plus stored fault codes."""
    out: list[Warning] = []
    rec = v["tire_kpa_recommended"]
    for pos in TIRES:
        if v["tires"][pos] < rec - 30:
            out.append({"code": "TPMS_LOW", "severity": "high",
                        "message": f"{pos.replace('_', ' ')} tire low: {v['tires'][pos]} kPa "
                                   f"(recommended {rec} kPa); inflate or book tire_service"})
    for code, message, severity in v["dtc_codes"]:
        out.append({"code": code, "severity": severity,
                    "message": f"{message}; book a general_inspection"})
    if v["oil_life_pct"] is not None and v["oil_life_pct"] < 15:
        out.append({"code": "OIL_CHANGE_DUE", "severity": "medium",
                    "message": f"oil life at {v['oil_life_pct']}%; book an oil_change"})
    if v["brake_pad_mm"] < 3.0:
        out.append({"code": "BRAKE_PADS_WORN", "severity": "high",
                    "message": f"brake pads at {v['brake_pad_mm']} mm (replace below 3 mm); "
                               "book a brake_service"})
    if v["battery_12v_v"] < 12.0:
        out.append({"code": "BATTERY_12V_LOW", "severity": "medium",
                    "message": f"12V battery at {v['battery_12v_v']} V; remote start may fail; "
                               "book a battery_service"})
    if v["odometer_km"] >= v["next_service_km"] - 500:
        out.append({"code": "SERVICE_DUE", "severity": "low",
                    "message": f"scheduled service due at {v['next_service_km']} km; book a "
                               "general_inspection"})
    if range_km(v) < 50:
        out.append({"code": "LOW_RANGE", "severity": "medium",
                    "message": f"only {range_km(v)} km of range left; "
                               + ("charge soon" if v["fuel_pct"] is None else "refuel soon")})
    if v["washer_fluid_low"]:
        out.append({"code": "WASHER_FLUID_LOW", "severity": "low",
                    "message": "windshield washer fluid low; top it up"})
    return out


def summary(v: Row) -> VehicleSummary:
    return {"vehicle_id": v["vehicle_id"], "vin": v["vin"], "nickname": v["nickname"],
            "make": v["make"], "model": v["model"], "year": v["year"],
            "powertrain": v["powertrain"], "plate": v["plate"], "driver_id": v["driver_id"],
            "driver_name": v["driver_name"], "status": v["status"],
            "city": v["location"]["city"], "odometer_km": v["odometer_km"],
            "fuel_pct": v["fuel_pct"], "battery_pct": v["battery_pct"],
            "range_km": range_km(v)}


def status_out(s: State, v: Row) -> VehicleStatus:
    return {"vehicle_id": v["vehicle_id"], "nickname": v["nickname"], "make": v["make"],
            "model": v["model"], "powertrain": v["powertrain"], "status": v["status"],
            "speed_kmh": v["speed_kmh"], "location": v["location"],
            "odometer_km": v["odometer_km"], "engine": v["engine"],
            "engine_auto_off_at": v["engine_auto_off_at"], "doors_locked": v["doors"],
            "all_doors_locked": all(v["doors"].values()), "windows_open_pct": v["windows"],
            "climate": v["climate"], "seat_heating": v["seat_heating"],
            "heated_seats": v["heated_seats"], "headlights": v["headlights"],
            "fuel_pct": v["fuel_pct"], "battery_pct": v["battery_pct"],
            "range_km": range_km(v), "plugged_in": v["plugged_in"],
            "charging_state": v["charging_state"], "charge_limit_pct": v["charge_limit_pct"],
            "navigation": v["navigation"], "warning_count": len(warnings_of(v)),
            "updated_at": peek_now(s)}


def seats_off() -> dict[str, int]:
    return {seat: 0 for seat in SEATS}
