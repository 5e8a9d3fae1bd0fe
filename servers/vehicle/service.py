"""vehicle tools: diagnostics, service centers in the world's cities, service appointments."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import clock, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.vehicle.common import DOMAIN, VehicleId, label, now, warnings_of
from servers.vehicle.data import SERVICE_MINUTES, TIRES, service_problem
from servers.vehicle.models import (
    Appointment,
    AppointmentList,
    CenterList,
    Diagnostics,
    Tire,
)
from servers.vehicle.travel import check_city

ServiceType = Literal["oil_change", "tire_service", "brake_service", "battery_service",
                      "general_inspection", "ev_battery_check", "software_update"]
BOOK_AHEAD_DAYS = 90
CANCEL_NOTICE_HOURS = 24


@DOMAIN.tool(read_only=True)
def get_diagnostics(s: State, vehicle_id: VehicleId) -> Diagnostics:
    """Vehicle health report: tire pressures, active warnings and fault codes, oil life, brake
    pads, 12V battery and distance to the next scheduled service."""
    v = s["vehicles"].get(vehicle_id)
    rec = v["tire_kpa_recommended"]
    tires: list[Tire] = []
    for pos in TIRES:
        kpa = v["tires"][pos]
        tires.append({"position": pos, "pressure_kpa": kpa,
                      "pressure_psi": round(kpa / 6.895, 1), "recommended_kpa": rec,
                      "status": "low" if kpa < rec - 30 else "high" if kpa > rec + 30 else "ok"})
    warns = warnings_of(v)
    severities = {w["severity"] for w in warns}
    health = "critical" if "high" in severities else "attention" if warns else "ok"
    return {"vehicle_id": vehicle_id, "health": health, "odometer_km": v["odometer_km"],
            "next_service_km": v["next_service_km"],
            "km_to_service": v["next_service_km"] - v["odometer_km"],
            "oil_life_pct": v["oil_life_pct"], "brake_pad_mm": v["brake_pad_mm"],
            "battery_12v_v": v["battery_12v_v"], "tires": tires, "warnings": warns}


@DOMAIN.tool(read_only=True)
def list_service_centers(
        s: State,
        city: Annotated[str | None, Arg("Only centers in this city")] = None,
        service_type: Annotated[ServiceType | None, Arg(
            "Only centers offering this service")] = None,
        vehicle_id: Annotated[str | None, Arg(
            "Only centers that can service this vehicle (make and service type)")] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> CenterList:
    """Find dealers and independent service centers, best rated first."""
    v = s["vehicles"].get(vehicle_id) if vehicle_id is not None else None
    town = check_city(s, city) if city is not None else None
    rows = []
    for c in s["service_centers"].rows():
        if town is not None and c["city"] != town:
            continue
        if service_type is not None and service_type not in c["services"]:
            continue
        if v is not None and service_problem(v, c, service_type or "general_inspection"):
            continue
        rows.append(c)
    rows.sort(key=lambda c: (-c["rating"], c["center_id"]))
    pg = paging.page(rows, limit, cursor, key="center_id")
    return {"centers": pg.rows, "total": len(rows), "next_cursor": pg.next_cursor}


def _appointment(s: State, row: Row) -> Appointment:
    v = s["vehicles"].get(row["vehicle_id"])
    c = s["service_centers"].get(row["center_id"])
    return {**row, "vehicle_name": v["nickname"], "center_name": c["name"], "city": c["city"],
            "duration_min": SERVICE_MINUTES[row["service_type"]]}


@DOMAIN.tool(read_only=True)
def list_service_appointments(
        s: State,
        vehicle_id: Annotated[str | None, Arg("Only this vehicle's appointments")] = None,
        status: Annotated[Literal["scheduled", "completed", "cancelled"] | None, Arg(
            "Only appointments with this status")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> AppointmentList:
    """List service appointments (past and upcoming), soonest date first."""
    if vehicle_id is not None:
        s["vehicles"].get(vehicle_id)
    rows = [a for a in s["appointments"].rows()
            if (vehicle_id is None or a["vehicle_id"] == vehicle_id)
            and (status is None or a["status"] == status)]
    rows.sort(key=lambda a: (a["date"], a["time"], a["appointment_id"]))
    pg = paging.page(rows, limit, cursor, key="appointment_id")
    return {"appointments": [_appointment(s, a) for a in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


def _free_starts(s: State, center_id: str, day: dt.date, duration: int) -> list[str]:
    """Half-hour start times at which a visit of `duration` fits the day (one service bay)."""
    opening = (8 * 60, 18 * 60) if day.weekday() < 5 else (9 * 60, 14 * 60)
    busy = [(_minutes(a["time"]), _minutes(a["time"]) + SERVICE_MINUTES[a["service_type"]])
            for a in s["appointments"].rows()
            if a["center_id"] == center_id and a["date"] == day.isoformat()
            and a["status"] == "scheduled"]
    out = []
    for start in range(opening[0], opening[1] - duration + 1, 30):
        if all(start + duration <= b0 or start >= b1 for b0, b1 in busy):
            out.append(f"{start // 60:02d}:{start % 60:02d}")
    return out


@DOMAIN.tool(read_only=False)
def book_service_appointment(
        s: State, vehicle_id: VehicleId,
        center_id: Annotated[str, Arg("Service center id, e.g. 'svc_z6hxzz' (from "
                                      "list_service_centers)")],
        service_type: Annotated[ServiceType, Arg("What to have done")],
        date: Annotated[str, Arg("Day of the visit (YYYY-MM-DD), from tomorrow up to 90 days "
                                 "ahead; centers close on Sundays",
                                 pattern=r"\d{4}-\d{2}-\d{2}")],
        time: Annotated[str, Arg("Start time (HH:MM, on the hour or half hour); Mon-Fri "
                                 "08:00-18:00, Sat 09:00-14:00", pattern=r"\d{2}:\d{2}")],
        notes: Annotated[str, Arg("Notes for the workshop", max_length=300)] = ""
) -> Appointment:
    """Book a service visit for a vehicle at a dealer or independent center."""
    v = s["vehicles"].get(vehicle_id)
    center = s["service_centers"].get(center_id)
    problem = service_problem(v, center, service_type)
    if problem:
        raise ToolError(problem)
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date {date!r} is not a valid calendar date (YYYY-MM-DD)") from None
    today = clock.today(s)
    if not today < day <= today + dt.timedelta(days=BOOK_AHEAD_DAYS):
        raise ToolError(f"date {date} is not bookable; pick a day from "
                        f"{today + dt.timedelta(days=1)} to "
                        f"{today + dt.timedelta(days=BOOK_AHEAD_DAYS)}")
    if day.weekday() == 6:
        raise ToolError(f"{center['name']} is closed on Sundays; {date} is a Sunday")
    duration = SERVICE_MINUTES[service_type]
    free = _free_starts(s, center_id, day, duration)
    if time not in free:
        options = ", ".join(free) or "none (try another day)"
        raise ToolError(f"{time} on {date} is not available at {center['name']} for a "
                        f"{duration}-minute {service_type}; free start times: {options}")
    clash = s["appointments"].rows(lambda a: a["vehicle_id"] == vehicle_id
                                   and a["date"] == date and a["status"] == "scheduled")
    if clash:
        raise ToolError(f"{label(v)} already has appointment {clash[0]['appointment_id']} on "
                        f"{date}; cancel it or pick another day")
    row = s["appointments"].insert({
        "appointment_id": s.next_id("apt"), "vehicle_id": vehicle_id, "center_id": center_id,
        "service_type": service_type, "date": date, "time": time, "status": "scheduled",
        "notes": notes, "created_at": now(s)})
    return _appointment(s, row)


@DOMAIN.tool(read_only=False)
def cancel_service_appointment(
        s: State, appointment_id: Annotated[str, Arg(
            "Appointment id, e.g. 'apt_u5wdzb' (from list_service_appointments)")]
) -> Appointment:
    """Cancel a scheduled service appointment (at least 24 hours before it starts)."""
    row = s["appointments"].get(appointment_id)
    if row["status"] != "scheduled":
        raise ToolError(f"appointment {appointment_id} is {row['status']}; only scheduled "
                        "appointments can be cancelled")
    center = s["service_centers"].get(row["center_id"])
    # the appointment is on the center's clock; compare instants, not wall times
    start = clock.local(dt.date.fromisoformat(row["date"]), dt.time.fromisoformat(row["time"]),
                        clock.city_zone(center["city"]))
    if start - clock.now(s) < dt.timedelta(hours=CANCEL_NOTICE_HOURS):
        raise ToolError(f"appointment {appointment_id} starts {row['date']} {row['time']}, "
                        f"less than {CANCEL_NOTICE_HOURS} hours from now; it can no longer be "
                        f"cancelled in the app, call {center['name']} at {center['phone']}")
    now(s)
    return _appointment(s, s["appointments"].update(appointment_id, status="cancelled"))
