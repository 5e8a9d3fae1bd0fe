"""Domain behaviour of the iot_devices server: capabilities and ranges per device type, scenes
restore what they saved, automations and groups follow the home's rules, failures change
nothing."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

import pytest

from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.iot_devices import DOMAIN
from tests.servers.common import fails, runtime_fixture

FRONT_LOCK, GARAGE_LOCK, TV_BACKLIGHT, UNDER_CABINET = "dev_0018", "dev_0027", "dev_0003", \
    "dev_0010"
THERMOSTAT, RADIATOR, BLACKOUT_BLIND, POND_PUMP = "dev_0006", "dev_0038", "dev_0037", "dev_0033"


rt = runtime_fixture(DOMAIN)


def _device(rt: Runtime, device_id: str) -> dict:
    out = rt.call("get_device", {"device_id": device_id})
    assert out.ok, out.error
    return out.payload


def test_brightness_on_a_lock_names_the_device_type(rt):
    fails(rt, "set_light", {"device_id": FRONT_LOCK, "brightness": 40},
           FRONT_LOCK, "is a lock", "only works on lights", "set_lock")
    fails(rt, "set_device_power", {"device_id": THERMOSTAT, "on": False},
           "is a thermostat", "set_thermostat")


@pytest.mark.parametrize("tool, args, needle", [
    ("set_light", {"device_id": TV_BACKLIGHT, "brightness": 101}, "<= 100"),
    ("set_light", {"device_id": TV_BACKLIGHT, "brightness": -1}, ">= 0"),
    ("set_thermostat", {"device_id": THERMOSTAT, "target_temperature_c": 9.5}, ">= 10"),
    ("set_thermostat", {"device_id": THERMOSTAT, "target_temperature_c": 30.5}, "<= 30"),
    ("set_thermostat", {"device_id": THERMOSTAT, "target_temperature_c": 21.3}, "0.5"),
    ("set_thermostat", {"device_id": RADIATOR, "mode": "cool"}, "heat, eco, off"),
    ("set_light", {"device_id": UNDER_CABINET, "color_temperature_k": 5000}, "2200-4000 K"),
    ("set_light", {"device_id": UNDER_CABINET, "color": "red"}, "no colour"),
])
def test_ranges_and_capabilities_per_device_type(rt, tool, args, needle):
    fails(rt, tool, args, needle)


def test_light_changes_apply_exactly(rt):
    out = rt.call("set_light", {"device_id": UNDER_CABINET, "color_temperature_k": 3000,
                                "brightness": 35})
    assert out.ok, out.error
    assert out.payload["state"] == {"on": True, "brightness": 35, "color": None,
                                    "color_temperature_k": 3000}
    off = rt.call("set_light", {"device_id": UNDER_CABINET, "brightness": 0}).payload
    assert off["state"]["on"] is False and off["status"] == "off"


def test_thermostat_mode_and_setpoint_drive_hvac_status(rt):
    out = rt.call("set_thermostat", {"device_id": THERMOSTAT, "mode": "heat",
                                     "target_temperature_c": 28})
    assert out.ok, out.error
    assert out.payload["state"]["hvac"] == "heating"  # the room is at 23.9 °C
    out = rt.call("set_thermostat", {"device_id": THERMOSTAT, "mode": "off"})
    assert out.payload["state"]["hvac"] == "idle" and out.payload["status"].startswith("off")


def test_a_lock_with_its_door_open_cannot_be_locked(rt):
    fails(rt, "set_lock", {"device_id": GARAGE_LOCK, "locked": True}, "door is open")
    out = rt.call("set_lock", {"device_id": FRONT_LOCK, "locked": False})
    assert out.ok and out.payload["state"]["locked"] is False


def test_offline_devices_refuse_commands(rt):
    fails(rt, "set_device_power", {"device_id": POND_PUMP, "on": True}, "offline",
           "2026-06-13")


def test_scene_restores_exactly_what_it_saved(rt):
    rt.call("set_light", {"device_id": TV_BACKLIGHT, "brightness": 25, "color": "teal"})
    rt.call("set_blinds", {"device_id": "dev_0005", "position": 30})
    out = rt.call("create_scene", {"home_id": "home_001", "name": "Teal TV",
                                   "device_ids": [TV_BACKLIGHT, "dev_0005"]})
    assert out.ok, out.error
    scene_id = out.payload["scene_id"]
    assert out.payload["actions"][0]["settings"] == {"on": True, "brightness": 25,
                                                     "color": "teal"}
    rt.call("set_light", {"device_id": TV_BACKLIGHT, "color_temperature_k": 4000})
    rt.call("set_blinds", {"device_id": "dev_0005", "position": 100})
    run = rt.call("activate_scene", {"scene_id": scene_id})
    assert run.ok and run.payload["applied"] == [TV_BACKLIGHT, "dev_0005"]
    assert _device(rt, TV_BACKLIGHT)["state"]["color"] == "teal"
    assert _device(rt, "dev_0005")["state"]["position"] == 30
    fails(rt, "create_scene", {"home_id": "home_001", "name": "teal tv",
                                "device_ids": [TV_BACKLIGHT]}, "already has a scene")
    fails(rt, "create_scene", {"home_id": "home_001", "name": "Mixed",
                                "device_ids": [TV_BACKLIGHT, "dev_0049"]}, "home_002")


def test_scene_skips_offline_devices_and_open_doors_but_applies_the_rest(rt):
    run = rt.call("activate_scene", {"scene_id": "scn_0002"})  # Leaving Home
    assert run.ok, run.error
    skipped = {s["device_id"]: s["reason"] for s in run.payload["skipped"]}
    assert set(skipped) == {"dev_0028", POND_PUMP, GARAGE_LOCK}
    assert "door is open" in skipped[GARAGE_LOCK]
    assert _device(rt, "dev_0001")["state"]["on"] is False
    assert _device(rt, FRONT_LOCK)["state"]["locked"] is True


def test_automation_rules_and_delete_twice(rt):
    fails(rt, "create_automation", {"home_id": "home_001", "name": "Open up",
                                     "trigger": "time", "time": "07:00",
                                     "device_id": FRONT_LOCK, "command": "unlock"},
           "smoke alarm")
    fails(rt, "create_automation", {"home_id": "home_001", "name": "Lamp",
                                     "trigger": "sunset", "device_id": FRONT_LOCK,
                                     "command": "turn_on"}, "is a lock", "lock, unlock")
    fails(rt, "create_automation", {"home_id": "home_001", "name": "No time",
                                     "trigger": "time", "scene_id": "scn_0001"}, "HH:MM")
    out = rt.call("create_automation", {"home_id": "home_001", "name": "Blinds at dusk",
                                        "trigger": "sunset", "days": ["sun", "mon"],
                                        "device_id": "dev_0005", "command": "close"})
    assert out.ok, out.error
    auto = out.payload
    assert auto["days"] == ["mon", "sun"] and auto["enabled"] is True
    assert auto["description"] == "Mon, Sun at sunset: close 'Living Room Blinds'"
    assert rt.call("delete_automation", {"automation_id": auto["automation_id"]}).ok
    fails(rt, "delete_automation", {"automation_id": auto["automation_id"]},
           auto["automation_id"], "list_automations")


def test_group_switches_online_members_and_reports_offline_ones(rt):
    out = rt.call("control_device_group", {"group_id": "grp_0007", "on": False})  # Cameras
    assert out.ok, out.error
    assert [s["device_id"] for s in out.payload["skipped"]] == ["dev_0028"]
    assert set(out.payload["changed"]) == {"dev_0019", "dev_0031", "dev_0042"}
    assert _device(rt, "dev_0042")["status"] == "off"
    fails(rt, "create_device_group", {"home_id": "home_001", "name": "Doors",
                                       "device_ids": [TV_BACKLIGHT, FRONT_LOCK]}, "is a lock")


def test_energy_report_adds_up(rt):
    home = rt.call("get_energy_usage", {"home_id": "home_001", "days": 30}).payload
    assert len(home["daily"]) == 30 and home["end_date"] == "2026-06-14"
    assert home["total_kwh"] == pytest.approx(sum(d["kwh"] for d in home["daily"]), abs=0.02)
    exact = Decimal(repr(home["total_kwh"])) * Decimal("0.39")  # the Berlin tariff, EUR
    assert Decimal(repr(home["estimated_cost"])) == exact.quantize(Decimal("0.01"),
                                                                   rounding=ROUND_HALF_EVEN)
    assert home["currency"] == "EUR"
    top = home["by_device"][0]
    one = rt.call("get_energy_usage", {"home_id": "home_001", "days": 30,
                                       "device_id": top["device_id"]}).payload
    assert one["total_kwh"] == pytest.approx(top["kwh"], abs=0.01)
    fails(rt, "get_energy_usage", {"home_id": "home_001", "device_id": FRONT_LOCK},
           "doesn't report energy")
    fails(rt, "get_energy_usage", {"home_id": "home_002", "device_id": top["device_id"]},
           "home_001")


def test_firmware_update_rules(rt):
    fails(rt, "update_firmware", {"device_id": BLACKOUT_BLIND}, "11% battery")
    assert _device(rt, THERMOSTAT)["update_available"] is True
    out = rt.call("update_firmware", {"device_id": THERMOSTAT})
    assert out.ok and out.payload["firmware_version"] == "5.4.2"
    assert _device(rt, THERMOSTAT)["update_available"] is False
    fails(rt, "update_firmware", {"device_id": THERMOSTAT}, "already runs the latest")


def test_lock_codes_are_masked_unique_and_removable(rt):
    out = rt.call("add_lock_code", {"device_id": FRONT_LOCK, "name": "Sitter", "code": "73914"})
    assert out.ok, out.error
    code = out.payload
    assert code["code_hint"] == "•••14" and "73914" not in str(code)
    fails(rt, "add_lock_code", {"device_id": FRONT_LOCK, "name": "Other", "code": "73914"},
           "already uses that PIN")
    fails(rt, "add_lock_code", {"device_id": FRONT_LOCK, "name": "X", "code": "1111"},
           "too easy")
    fails(rt, "add_lock_code", {"device_id": FRONT_LOCK, "name": "Y", "code": "4821",
                                 "member_id": "mem_007"}, "not a member of home home_001")
    assert rt.call("delete_lock_code", {"code_id": code["code_id"]}).ok
    ids = [c["code_id"] for c in _device(rt, FRONT_LOCK)["lock_codes"]]
    assert code["code_id"] not in ids


def test_members_are_world_people_and_devices_stay_in_their_home(rt):
    world = make_world(0)
    by_id = {p.id: p for p in world.people}
    homes = rt.call("list_homes", {}).payload["homes"]
    for home in homes:
        for m in home["members"]:
            assert (m["name"], m["email"]) == (by_id[m["person_id"]].name,
                                               by_id[m["person_id"]].email)
        assert home["members"][0]["person_id"] == world.user.id
    fails(rt, "update_device", {"device_id": TV_BACKLIGHT, "room_id": "room_015"},
           "Holiday Apartment")
    fails(rt, "update_device", {"device_id": TV_BACKLIGHT, "name": "floor lamp"},
           "already has a device named 'Floor Lamp'")
    moved = rt.call("update_device", {"device_id": TV_BACKLIGHT, "room_id": "room_008"})
    assert moved.ok and moved.payload["room_name"] == "Master Bedroom"


def test_every_home_uses_the_world_currency_with_a_scaled_tariff():
    from servers.core.runtime import Runtime
    from servers.iot_devices import DOMAIN

    for seed, cur in ((0, "EUR"), (10, "JPY")):
        homes = Runtime(DOMAIN, default_seed=seed).call("list_homes", {}).payload["homes"]
        assert {h["currency"] for h in homes} == {cur}
    jpy = Runtime(DOMAIN, default_seed=10)
    tokyo = next(h for h in jpy.call("list_homes", {}).payload["homes"] if h["city"] == "Tokyo")
    assert tokyo["price_per_kwh"] == 31.0  # the local tariff, unchanged at home
    usage = jpy.call("get_energy_usage", {"home_id": tokyo["home_id"], "days": 7}).payload
    assert isinstance(usage["estimated_cost"], int)
    exact = Decimal(repr(usage["total_kwh"])) * 31
    assert usage["estimated_cost"] == int(exact.to_integral_value(ROUND_HALF_EVEN))
