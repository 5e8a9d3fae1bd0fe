"""vehicle: output shapes of the tools (TypedDicts become MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict


class VehicleSummary(TypedDict):
    vehicle_id: str
    vin: str
    nickname: str
    make: str
    model: str
    year: int
    powertrain: str
    plate: str
    driver_id: str
    driver_name: str
    status: str
    city: str
    odometer_km: int
    fuel_pct: float | None
    battery_pct: float | None
    range_km: float


class VehicleList(TypedDict):
    vehicles: list[VehicleSummary]
    total: int


class Doors(TypedDict):
    driver: bool
    passenger: bool
    rear_left: bool
    rear_right: bool
    trunk: bool


class Seats(TypedDict):
    driver: int
    passenger: int
    rear_left: int
    rear_right: int


class Climate(TypedDict):
    on: bool
    target_temp_c: float
    fan_speed: int
    mode: str


class Location(TypedDict):
    city: str
    address: str
    lat: float
    lon: float


class Navigation(TypedDict):
    place_id: str
    name: str
    address: str
    city: str
    distance_km: float
    duration_min: int
    eta: str


class VehicleStatus(TypedDict):
    vehicle_id: str
    nickname: str
    make: str
    model: str
    powertrain: str
    status: str
    speed_kmh: int
    location: Location
    odometer_km: int
    engine: str
    engine_auto_off_at: str | None
    doors_locked: Doors
    all_doors_locked: bool
    windows_open_pct: Seats
    climate: Climate
    seat_heating: Seats
    heated_seats: list[str]
    headlights: str
    fuel_pct: float | None
    battery_pct: float | None
    range_km: float
    plugged_in: bool
    charging_state: str
    charge_limit_pct: int | None
    navigation: Navigation | None
    warning_count: int
    updated_at: str


class LockResult(TypedDict):
    vehicle_id: str
    action: str
    doors_locked: Doors
    all_doors_locked: bool
    notice: str | None


class EngineResult(TypedDict):
    vehicle_id: str
    engine: str
    engine_auto_off_at: str | None
    fuel_pct: float | None
    climate_on: bool


class ClimateResult(TypedDict):
    vehicle_id: str
    engine: str
    climate: Climate
    seat_heating: Seats
    heated_seats: list[str]


class WindowResult(TypedDict):
    vehicle_id: str
    windows_open_pct: Seats


class LightsResult(TypedDict):
    vehicle_id: str
    headlights: str
    engine: str


class ChargeStatus(TypedDict):
    vehicle_id: str
    battery_pct: float
    charge_limit_pct: int
    plugged_in: bool
    charging_state: str
    charger_kw: float
    minutes_to_limit: int | None
    range_km: float


class Tire(TypedDict):
    position: str
    pressure_kpa: int
    pressure_psi: float
    recommended_kpa: int
    status: str


class Warning(TypedDict):
    code: str
    severity: str
    message: str


class Diagnostics(TypedDict):
    vehicle_id: str
    health: str
    odometer_km: int
    next_service_km: int
    km_to_service: int
    oil_life_pct: int | None
    brake_pad_mm: float
    battery_12v_v: float
    tires: list[Tire]
    warnings: list[Warning]


class Destination(TypedDict):
    place_id: str
    name: str
    kind: str
    city: str
    address: str
    lat: float
    lon: float
    distance_km: float | None


class DestinationList(TypedDict):
    destinations: list[Destination]
    total: int
    next_cursor: str | None


class Route(TypedDict):
    vehicle_id: str
    destination: Navigation
    range_km: float
    range_sufficient: bool
    energy_at_arrival_pct: float | None
    notice: str | None


class Trip(TypedDict):
    trip_id: str
    vehicle_id: str
    driver_name: str
    start_place_id: str
    start_name: str
    end_place_id: str
    end_name: str
    city: str
    distance_km: float
    duration_min: int
    started_at: str
    ended_at: str
    energy_used: str
    avg_speed_kmh: float


class TripList(TypedDict):
    trips: list[Trip]
    total: int
    total_distance_km: float
    next_cursor: str | None


class ServiceCenter(TypedDict):
    center_id: str
    name: str
    kind: str
    city: str
    address: str
    brands: list[str]
    services: list[str]
    rating: float
    phone: str
    hours: str


class CenterList(TypedDict):
    centers: list[ServiceCenter]
    total: int
    next_cursor: str | None


class Appointment(TypedDict):
    appointment_id: str
    vehicle_id: str
    vehicle_name: str
    center_id: str
    center_name: str
    city: str
    service_type: str
    date: str
    time: str
    duration_min: int
    status: str
    notes: str
    created_at: str


class AppointmentList(TypedDict):
    appointments: list[Appointment]
    total: int
    next_cursor: str | None
