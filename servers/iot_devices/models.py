"""iot_devices: the tools' output shapes (TypedDicts become the MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict


class Member(TypedDict):
    member_id: str
    person_id: str
    name: str
    email: str
    role: str
    status: str


class Home(TypedDict):
    home_id: str
    name: str
    city: str
    address: str
    currency: str
    price_per_kwh: float
    room_count: int
    device_count: int
    members: list[Member]


class HomeList(TypedDict):
    homes: list[Home]


class Room(TypedDict):
    room_id: str
    home_id: str
    home_name: str
    name: str
    floor: str
    device_count: int
    device_types: list[str]


class RoomList(TypedDict):
    rooms: list[Room]


class DeviceSummary(TypedDict):
    device_id: str
    name: str
    type: str
    home_id: str
    room_id: str
    room_name: str
    online: bool
    battery_pct: int | None
    status: str


class DeviceList(TypedDict):
    devices: list[DeviceSummary]
    total: int
    next_cursor: str | None


class Device(TypedDict):
    device_id: str
    name: str
    type: str
    home_id: str
    room_id: str
    room_name: str
    manufacturer: str
    model: str
    online: bool
    last_seen: str
    battery_pct: int | None
    firmware_version: str
    update_available: bool
    capabilities: list[str]
    state: dict
    status: str


class LockCode(TypedDict):
    code_id: str
    device_id: str
    name: str
    code_hint: str
    member_id: str | None
    member_name: str | None
    valid_until: str | None
    created_at: str


class DeviceDetail(Device):
    latest_firmware_version: str
    lock_codes: list[LockCode]


class FirmwareResult(TypedDict):
    device_id: str
    name: str
    previous_version: str
    firmware_version: str
    status: str


class DailyEnergy(TypedDict):
    date: str
    kwh: float


class DeviceEnergy(TypedDict):
    device_id: str
    name: str
    type: str
    room_name: str
    kwh: float


class EnergyReport(TypedDict):
    home_id: str
    home_name: str
    device_id: str | None
    start_date: str
    end_date: str
    days: int
    total_kwh: float
    estimated_cost: float
    currency: str
    daily: list[DailyEnergy]
    by_device: list[DeviceEnergy]


class DeletedCode(TypedDict):
    code_id: str
    device_id: str
    device_name: str
    name: str
    deleted: bool


class SceneAction(TypedDict):
    device_id: str
    device_name: str
    device_type: str
    settings: dict


class Scene(TypedDict):
    scene_id: str
    home_id: str
    name: str
    actions: list[SceneAction]
    last_activated_at: str | None
    created_at: str


class SceneList(TypedDict):
    scenes: list[Scene]


class Skipped(TypedDict):
    device_id: str
    device_name: str
    reason: str


class SceneRun(TypedDict):
    scene_id: str
    name: str
    activated_at: str
    applied: list[str]
    skipped: list[Skipped]


class Automation(TypedDict):
    automation_id: str
    home_id: str
    name: str
    enabled: bool
    trigger: str
    time: str | None
    days: list[str]
    sensor_device_id: str | None
    scene_id: str | None
    device_id: str | None
    command: str | None
    description: str
    last_triggered_at: str | None
    created_at: str


class AutomationList(TypedDict):
    automations: list[Automation]
    next_cursor: str | None


class DeletedAutomation(TypedDict):
    automation_id: str
    name: str
    deleted: bool


class GroupMember(TypedDict):
    device_id: str
    name: str
    type: str
    online: bool
    on: bool


class Group(TypedDict):
    group_id: str
    home_id: str
    name: str
    devices: list[GroupMember]
    created_at: str


class GroupList(TypedDict):
    groups: list[Group]


class GroupRun(TypedDict):
    group_id: str
    name: str
    on: bool
    changed: list[str]
    already: list[str]
    skipped: list[Skipped]
