"""Domain behaviour of the iot_devices server: capabilities and ranges per device type, scenes
restore what they saved, automations and groups follow the home's rules, failures change
nothing."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

import pytest

from servers.core.ids import opaque
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.iot_devices import DOMAIN
from servers.iot_devices.catalog import MODELS
from tests.servers.common import (
    assert_world_varies,
    fails,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)

# devices of the user's main home, by name (ids are opaque and seeded)
FRONT_LOCK, GARAGE_LOCK, TV_BACKLIGHT = "Front Door Lock", "Garage Side Door", "TV Backlight"
UNDER_CABINET, THERMOSTAT, RADIATOR = "Under-cabinet Lights", "Living Room Thermostat", \
    "Bedroom Radiator"
BLACKOUT_BLIND, POND_PUMP, BLINDS = "Bedroom Blackout Blind", "Pond Pump Plug", \
    "Living Room Blinds"


rt = runtime_fixture(DOMAIN)


def home(rt: Runtime, name: str = "Home") -> str:
    return row_where(rt, "homes", name=name)["home_id"]


def dev(rt: Runtime, name: str, home_name: str = "Home") -> str:
    """The id of the device called `name` in that home."""
    return row_where(rt, "devices", name=name, home_id=home(rt, home_name))["device_id"]


def _device(rt: Runtime, device_id: str) -> dict:
    out = rt.call("get_device", {"device_id": device_id})
    assert out.ok, out.error
    return out.payload


def test_world_varies_by_seed():
    assert_world_varies("iot_devices", {"devices": "online", "members": "status",
                                        "automations": "enabled", "scenes": None})


def test_brightness_on_a_lock_names_the_device_type(rt):
    lock = dev(rt, FRONT_LOCK)
    fails(rt, "set_light", {"device_id": lock, "brightness": 40},
          lock, "is a lock", "only works on lights", "set_lock")
    fails(rt, "set_device_power", {"device_id": dev(rt, THERMOSTAT), "on": False},
          "is a thermostat", "set_thermostat")


@pytest.mark.parametrize("tool, device, args, needle", [
    ("set_light", TV_BACKLIGHT, {"brightness": 101}, "<= 100"),
    ("set_light", TV_BACKLIGHT, {"brightness": -1}, ">= 0"),
    ("set_thermostat", THERMOSTAT, {"target_temperature_c": 9.5}, ">= 10"),
    ("set_thermostat", THERMOSTAT, {"target_temperature_c": 30.5}, "<= 30"),
    ("set_thermostat", THERMOSTAT, {"target_temperature_c": 21.3}, "0.5"),
    ("set_thermostat", RADIATOR, {"mode": "cool"}, "heat, eco, off"),
    ("set_light", UNDER_CABINET, {"color_temperature_k": 5000}, "2200-4000 K"),
    ("set_light", UNDER_CABINET, {"color": "red"}, "no colour"),
])
def test_ranges_and_capabilities_per_device_type(rt, tool, device, args, needle):
    fails(rt, tool, {"device_id": dev(rt, device), **args}, needle)


def test_light_changes_apply_exactly(rt):
    light = dev(rt, UNDER_CABINET)
    out = rt.call("set_light", {"device_id": light, "color_temperature_k": 3000,
                                "brightness": 35})
    assert out.ok, out.error
    assert out.payload["state"] == {"on": True, "brightness": 35, "color": None,
                                    "color_temperature_k": 3000}
    off = rt.call("set_light", {"device_id": light, "brightness": 0}).payload
    assert off["state"]["on"] is False and off["status"] == "off"


def test_thermostat_mode_and_setpoint_drive_hvac_status(rt):
    thermostat = dev(rt, THERMOSTAT)
    out = rt.call("set_thermostat", {"device_id": thermostat, "mode": "heat",
                                     "target_temperature_c": 28})
    assert out.ok, out.error
    assert out.payload["state"]["hvac"] == "heating"  # rooms are seeded at 20.5-25.5 °C
    out = rt.call("set_thermostat", {"device_id": thermostat, "mode": "off"})
    assert out.payload["state"]["hvac"] == "idle" and out.payload["status"].startswith("off")


def test_a_lock_with_its_door_open_cannot_be_locked(rt):
    fails(rt, "set_lock", {"device_id": dev(rt, GARAGE_LOCK), "locked": True}, "door is open")
    out = rt.call("set_lock", {"device_id": dev(rt, FRONT_LOCK), "locked": False})
    assert out.ok and out.payload["state"]["locked"] is False


def test_offline_devices_refuse_commands(rt):
    fails(rt, "set_device_power", {"device_id": dev(rt, POND_PUMP), "on": True}, "offline",
          "2026-06-13")


def test_scene_restores_exactly_what_it_saved(rt):
    tv, blinds = dev(rt, TV_BACKLIGHT), dev(rt, BLINDS)
    rt.call("set_light", {"device_id": tv, "brightness": 25, "color": "teal"})
    rt.call("set_blinds", {"device_id": blinds, "position": 30})
    out = rt.call("create_scene", {"home_id": home(rt), "name": "Teal TV",
                                   "device_ids": [tv, blinds]})
    assert out.ok, out.error
    scene_id = out.payload["scene_id"]
    assert out.payload["actions"][0]["settings"] == {"on": True, "brightness": 25,
                                                     "color": "teal"}
    rt.call("set_light", {"device_id": tv, "color_temperature_k": 4000})
    rt.call("set_blinds", {"device_id": blinds, "position": 100})
    run = rt.call("activate_scene", {"scene_id": scene_id})
    assert run.ok and run.payload["applied"] == [tv, blinds]
    assert _device(rt, tv)["state"]["color"] == "teal"
    assert _device(rt, blinds)["state"]["position"] == 30
    fails(rt, "create_scene", {"home_id": home(rt), "name": "teal tv",
                               "device_ids": [tv]}, "already has a scene")
    apartment = home(rt, "Holiday Apartment")
    elsewhere = row_where(rt, "devices", home_id=apartment)["device_id"]
    fails(rt, "create_scene", {"home_id": home(rt), "name": "Mixed",
                               "device_ids": [tv, elsewhere]}, apartment)


def test_scene_skips_offline_devices_and_open_doors_but_applies_the_rest(rt):
    leaving = row_where(rt, "scenes", name="Leaving Home", home_id=home(rt))["scene_id"]
    run = rt.call("activate_scene", {"scene_id": leaving})
    assert run.ok, run.error
    skipped = {s["device_id"]: s["reason"] for s in run.payload["skipped"]}
    # at seed 0 the main home's offline devices are the garage camera and the pond pump
    assert set(skipped) == {dev(rt, "Garage Camera"), dev(rt, POND_PUMP), dev(rt, GARAGE_LOCK)}
    assert "door is open" in skipped[dev(rt, GARAGE_LOCK)]
    assert _device(rt, dev(rt, "Living Room Ceiling"))["state"]["on"] is False
    assert _device(rt, dev(rt, FRONT_LOCK))["state"]["locked"] is True


def test_automation_rules_and_delete_twice(rt):
    main, lock = home(rt), dev(rt, FRONT_LOCK)
    fails(rt, "create_automation", {"home_id": main, "name": "Open up",
                                    "trigger": "time", "time": "07:00",
                                    "device_id": lock, "command": "unlock"},
          "smoke alarm")
    fails(rt, "create_automation", {"home_id": main, "name": "Lamp",
                                    "trigger": "sunset", "device_id": lock,
                                    "command": "turn_on"}, "is a lock", "lock, unlock")
    morning = row_where(rt, "scenes", name="Good Morning", home_id=main)["scene_id"]
    fails(rt, "create_automation", {"home_id": main, "name": "No time",
                                    "trigger": "time", "scene_id": morning}, "HH:MM")
    out = rt.call("create_automation", {"home_id": main, "name": "Blinds at dusk",
                                        "trigger": "sunset", "days": ["sun", "mon"],
                                        "device_id": dev(rt, BLINDS), "command": "close"})
    assert out.ok, out.error
    auto = out.payload
    assert auto["days"] == ["mon", "sun"] and auto["enabled"] is True
    assert auto["description"] == "Mon, Sun at sunset: close 'Living Room Blinds'"
    assert rt.call("delete_automation", {"automation_id": auto["automation_id"]}).ok
    fails(rt, "delete_automation", {"automation_id": auto["automation_id"]},
          auto["automation_id"], "list_automations")


def test_group_switches_online_members_and_reports_offline_ones(rt):
    cameras = row_where(rt, "groups", name="Cameras", home_id=home(rt))["group_id"]
    out = rt.call("control_device_group", {"group_id": cameras, "on": False})
    assert out.ok, out.error
    assert [s["device_id"] for s in out.payload["skipped"]] == [dev(rt, "Garage Camera")]
    assert set(out.payload["changed"]) == {dev(rt, name) for name in (
        "Front Doorbell", "Backyard Camera", "Nursery Cam")}
    assert _device(rt, dev(rt, "Nursery Cam"))["status"] == "off"
    fails(rt, "create_device_group", {"home_id": home(rt), "name": "Doors",
                                      "device_ids": [dev(rt, TV_BACKLIGHT),
                                                     dev(rt, FRONT_LOCK)]}, "is a lock")


def test_energy_report_adds_up(rt):
    main = home(rt)
    usage = rt.call("get_energy_usage", {"home_id": main, "days": 30}).payload
    assert len(usage["daily"]) == 30 and usage["end_date"] == "2026-06-14"
    assert usage["total_kwh"] == pytest.approx(sum(d["kwh"] for d in usage["daily"]),
                                               abs=0.02)
    exact = Decimal(repr(usage["total_kwh"])) * Decimal("0.39")  # the Berlin tariff, EUR
    assert Decimal(repr(usage["estimated_cost"])) == exact.quantize(Decimal("0.01"),
                                                                    rounding=ROUND_HALF_EVEN)
    assert usage["currency"] == "EUR"
    top = usage["by_device"][0]
    one = rt.call("get_energy_usage", {"home_id": main, "days": 30,
                                       "device_id": top["device_id"]}).payload
    assert one["total_kwh"] == pytest.approx(top["kwh"], abs=0.01)
    fails(rt, "get_energy_usage", {"home_id": main, "device_id": dev(rt, FRONT_LOCK)},
          "doesn't report energy")
    fails(rt, "get_energy_usage", {"home_id": home(rt, "Holiday Apartment"),
                                   "device_id": top["device_id"]}, main)


def test_firmware_update_rules(rt):
    fails(rt, "update_firmware", {"device_id": dev(rt, BLACKOUT_BLIND)}, "11% battery")
    # a thermostat of the main home behind its model's latest firmware at seed 0
    behind = next(d for d in rows_where(rt, "devices", type="thermostat", home_id=home(rt))
                  if d["firmware_version"] != MODELS[d["model_key"]][3])
    thermostat, latest = behind["device_id"], MODELS[behind["model_key"]][3]
    assert _device(rt, thermostat)["update_available"] is True
    out = rt.call("update_firmware", {"device_id": thermostat})
    assert out.ok and out.payload["firmware_version"] == latest
    assert _device(rt, thermostat)["update_available"] is False
    fails(rt, "update_firmware", {"device_id": thermostat}, "already runs the latest")


def test_lock_codes_are_masked_unique_and_removable(rt):
    lock, main = dev(rt, FRONT_LOCK), home(rt)
    out = rt.call("add_lock_code", {"device_id": lock, "name": "Sitter", "code": "73914"})
    assert out.ok, out.error
    code = out.payload
    assert code["code_hint"] == "•••14" and "73914" not in str(code)
    fails(rt, "add_lock_code", {"device_id": lock, "name": "Other", "code": "73914"},
          "already uses that PIN")
    fails(rt, "add_lock_code", {"device_id": lock, "name": "X", "code": "1111"},
          "too easy")
    outsider = next(m for m in rows_where(rt, "members") if m["home_id"] != main)
    fails(rt, "add_lock_code", {"device_id": lock, "name": "Y", "code": "4821",
                                "member_id": outsider["member_id"]},
          f"not a member of home {main}")
    assert rt.call("delete_lock_code", {"code_id": code["code_id"]}).ok
    ids = [c["code_id"] for c in _device(rt, lock)["lock_codes"]]
    assert code["code_id"] not in ids


def test_members_are_world_people_and_devices_stay_in_their_home(rt):
    world = make_world(0)
    salt = state(rt).id_salt
    by_id = {opaque(salt, p.id): p for p in world.people}
    homes = rt.call("list_homes", {}).payload["homes"]
    for h in homes:
        for m in h["members"]:
            assert (m["name"], m["email"]) == (by_id[m["person_id"]].name,
                                               by_id[m["person_id"]].email)
        assert h["members"][0]["person_id"] == opaque(salt, world.user.id)
    tv = dev(rt, TV_BACKLIGHT)
    apartment_room = row_where(rt, "rooms", home_id=home(rt, "Holiday Apartment"))["room_id"]
    fails(rt, "update_device", {"device_id": tv, "room_id": apartment_room},
          "Holiday Apartment")
    fails(rt, "update_device", {"device_id": tv, "name": "floor lamp"},
          "already has a device named 'Floor Lamp'")
    bedroom = row_where(rt, "rooms", home_id=home(rt), name="Master Bedroom")["room_id"]
    moved = rt.call("update_device", {"device_id": tv, "room_id": bedroom})
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
