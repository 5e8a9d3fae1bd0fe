"""vehicle: domain rules a real connected-car app enforces (seed 0 state)."""

from __future__ import annotations

from servers.core.runtime import Runtime
from servers.vehicle import DOMAIN
from tests.servers.common import (
    assert_world_varies,
    digest,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)

rt = runtime_fixture(DOMAIN)


def _mine(rt: Runtime, powertrain: str) -> str:
    """The user's own car with this powertrain (their Tesla is electric, their Corolla
    petrol)."""
    user = state(rt).var("user_id")
    return row_where(rt, "vehicles", driver_id=user, powertrain=powertrain)["vehicle_id"]


def _plugged_in(rt: Runtime, above_50: bool) -> str:
    """A plugged-in car below its charge limit whose battery is above (or below) 50%."""
    return next(v["vehicle_id"] for v in rows_where(rt, "vehicles", plugged_in=True)
                if (v["battery_pct"] > 50) == above_50 and v["battery_pct"] < v[
                    "charge_limit_pct"])


def _berlin_center(rt: Runtime, kind: str) -> str:
    return row_where(rt, "service_centers", city="Berlin", kind=kind)["center_id"]


def test_world_varies_by_seed():
    assert_world_varies("vehicle", {"vehicles": "status", "appointments": "status",
                                    "trips": None})


def test_petrol_car_cannot_charge_and_state_is_unchanged(rt):
    before = digest(rt)
    out = rt.call("start_charging", {"vehicle_id": _mine(rt, "petrol")})  # Toyota Corolla
    assert not out.ok and "petrol" in out.error and "cannot" in out.error
    assert out.kind == "execution_error"
    assert digest(rt) == before


def test_moving_vehicle_refuses_unlock_and_keeps_doors_locked(rt):
    moving = rt.call("list_vehicles", {}).payload["vehicles"]
    vid = next(v["vehicle_id"] for v in moving if v["status"] == "driving")
    out = rt.call("set_door_locks", {"vehicle_id": vid, "action": "unlock"})
    assert not out.ok and "being driven" in out.error
    status = rt.call("get_vehicle_status", {"vehicle_id": vid}).payload
    assert status["all_doors_locked"] is True


def test_remote_start_needs_locked_doors_then_climate_and_seats_follow_engine(rt):
    corolla = _mine(rt, "petrol")
    assert rt.call("set_door_locks", {"vehicle_id": corolla, "action": "unlock",
                                      "doors": ["trunk"]}).ok
    out = rt.call("start_engine", {"vehicle_id": corolla})
    assert not out.ok and "trunk" in out.error and "set_door_locks" in out.error
    climate = rt.call("set_climate", {"vehicle_id": corolla})
    assert not climate.ok and "start_engine" in climate.error
    assert rt.call("set_door_locks", {"vehicle_id": corolla, "action": "lock"}).ok
    assert rt.call("start_engine", {"vehicle_id": corolla}).payload["engine"] == "running"
    rear = rt.call("set_seat_heating", {"vehicle_id": corolla, "seat": "rear_left",
                                        "level": 1})
    assert not rear.ok and "no heater" in rear.error
    seat = rt.call("set_seat_heating", {"vehicle_id": corolla, "seat": "driver", "level": 3})
    assert seat.payload["seat_heating"]["driver"] == 3
    stopped = rt.call("stop_engine", {"vehicle_id": corolla}).payload
    assert stopped["engine"] == "off" and stopped["climate_on"] is False
    status = rt.call("get_vehicle_status", {"vehicle_id": corolla}).payload
    assert status["seat_heating"]["driver"] == 0
    assert not rt.call("stop_engine", {"vehicle_id": corolla}).ok  # already off


def test_electric_car_has_no_engine_and_temperature_range_is_checked(rt):
    tesla = _mine(rt, "electric")
    out = rt.call("start_engine", {"vehicle_id": tesla})
    assert not out.ok and "set_climate" in out.error
    hot = rt.call("set_climate", {"vehicle_id": tesla, "temperature": 35})
    assert not hot.ok and "16-28" in hot.error
    ok = rt.call("set_climate", {"vehicle_id": tesla, "temperature": 70,
                                 "unit": "fahrenheit"})
    assert ok.ok and ok.payload["climate"]["target_temp_c"] == 21.0


def test_lowering_charge_limit_below_battery_completes_the_charge(rt):
    low_car, high_car = _plugged_in(rt, above_50=False), _plugged_in(rt, above_50=True)
    for car in (low_car, high_car):  # charging, whether or not it was at reset
        rt.call("start_charging", {"vehicle_id": car})
    before = rt.call("get_vehicle_status", {"vehicle_id": low_car}).payload
    assert before["charging_state"] == "charging" and before["battery_pct"] < 50
    out = rt.call("set_charge_limit", {"vehicle_id": low_car, "limit_pct": 50})
    assert out.payload["charging_state"] == "charging"
    status = rt.call("get_vehicle_status", {"vehicle_id": high_car}).payload
    assert status["charging_state"] == "charging" and status["battery_pct"] > 50
    low = rt.call("set_charge_limit", {"vehicle_id": high_car, "limit_pct": 50})
    assert low.payload["charging_state"] == "complete" and low.payload["minutes_to_limit"] is None
    raised = rt.call("set_charge_limit", {"vehicle_id": high_car, "limit_pct": 90})
    assert raised.payload["charging_state"] == "charging" and raised.payload["minutes_to_limit"]
    again = rt.call("start_charging", {"vehicle_id": low_car})
    assert not again.ok and "already charging" in again.error


def test_navigation_checks_road_reachability(rt):
    tokyo = rt.call("search_destinations", {"query": "tokyo"}).payload["destinations"][0]
    tesla = _mine(rt, "electric")
    out = rt.call("set_navigation", {"vehicle_id": tesla, "place_id": tokyo["place_id"]})
    assert not out.ok and "not reachable by road" in out.error
    status = rt.call("get_vehicle_status", {"vehicle_id": tesla}).payload
    assert status["navigation"] is None


def test_booking_a_taken_slot_fails_and_lists_free_times(rt):
    args = {"vehicle_id": _mine(rt, "electric"), "center_id": _berlin_center(rt, "independent"),
            "service_type": "tire_service", "date": "2026-06-23", "time": "10:00"}
    first = rt.call("book_service_appointment", args)
    assert first.ok and first.payload["status"] == "scheduled"
    before = digest(rt)
    second = rt.call("book_service_appointment", {**args, "vehicle_id": _mine(rt, "petrol")})
    assert not second.ok and "free start times" in second.error and "11:00" in second.error
    assert digest(rt) == before
    dealer = rt.call("book_service_appointment",
                     {**args, "center_id": _berlin_center(rt, "dealer")})  # not a Tesla dealer
    assert not dealer.ok and "does not service Tesla" in dealer.error
    oil = rt.call("book_service_appointment", {**args, "service_type": "oil_change",
                                               "time": "14:00"})
    assert not oil.ok and "no engine oil" in oil.error
    sunday = rt.call("book_service_appointment", {**args, "date": "2026-06-21"})
    assert not sunday.ok and "Sunday" in sunday.error


def test_cancel_rules_short_notice_and_twice(rt):
    scheduled = sorted(rows_where(rt, "appointments", status="scheduled"),
                       key=lambda a: (a["date"], a["time"]))
    tomorrow, later = scheduled[0], scheduled[-1]
    assert tomorrow["date"] == "2026-06-16"
    soon = rt.call("cancel_service_appointment", {"appointment_id": tomorrow["appointment_id"]})
    assert not soon.ok and "24 hours" in soon.error
    assert rt.call("cancel_service_appointment", {"appointment_id": later["appointment_id"]}).ok
    before = digest(rt)
    twice = rt.call("cancel_service_appointment", {"appointment_id": later["appointment_id"]})
    assert not twice.ok and "cancelled" in twice.error
    assert digest(rt) == before


def test_diagnostics_flag_low_tires_and_weak_battery(rt):
    for v in rt.call("list_vehicles", {}).payload["vehicles"]:
        d = rt.call("get_diagnostics", {"vehicle_id": v["vehicle_id"]}).payload
        low = [t for t in d["tires"] if t["status"] == "low"]
        codes = [w["code"] for w in d["warnings"]]
        assert codes.count("TPMS_LOW") == len(low)
        assert ("BATTERY_12V_LOW" in codes) == (d["battery_12v_v"] < 12.0)
        assert d["health"] == ("ok" if not codes else d["health"])
