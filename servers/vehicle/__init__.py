"""vehicle: a connected-car app for a fleet account (the user's own cars and the company cars
they manage): remote locks, engine start, climate and seat heating, windows, headlights,
charging, diagnostics with tire pressures, navigation to the world's places, trip history, and
service appointments at dealers and independent centers in the world's cities.

Tools live in controls.py, travel.py and service.py; importing them registers them on DOMAIN.
"""

from __future__ import annotations

from servers.vehicle import controls, service, travel  # noqa: F401 - registers the tools
from servers.vehicle.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("list_vehicles", {"driver": "me"}),
    ("get_vehicle_status", {"vehicle_id": "veh_001"}),
    ("set_door_locks", {"vehicle_id": "veh_001", "action": "lock"}),
    ("set_door_locks", {"vehicle_id": "veh_002", "action": "lock"}),  # remote start needs it
    ("start_engine", {"vehicle_id": "veh_002", "run_minutes": 10}),
    ("set_climate", {"vehicle_id": "veh_002", "temperature": 21.5, "fan_speed": 3,
                     "mode": "heat"}),
    ("set_seat_heating", {"vehicle_id": "veh_002", "seat": "driver", "level": 2}),
    ("set_headlights", {"vehicle_id": "veh_002", "mode": "on"}),
    ("stop_engine", {"vehicle_id": "veh_002"}),
    ("set_windows", {"vehicle_id": "veh_001", "open_pct": 10,
                     "windows": ["driver", "passenger"]}),
    ("set_charge_limit", {"vehicle_id": "veh_012", "limit_pct": 80}),
    ("start_charging", {"vehicle_id": "veh_012"}),
    ("stop_charging", {"vehicle_id": "veh_012"}),
    ("get_diagnostics", {"vehicle_id": "veh_007"}),
    ("search_destinations", {"query": "grill", "city": "Berlin", "vehicle_id": "veh_001"}),
    ("set_navigation", {"vehicle_id": "veh_001", "place_id": "pl_0015"}),
    ("list_trips", {"vehicle_id": "veh_001", "limit": 5}),
    ("list_service_centers", {"city": "Berlin", "vehicle_id": "veh_001"}),
    ("book_service_appointment", {"vehicle_id": "veh_001", "center_id": "svc_005",
                                  "service_type": "tire_service", "date": "2026-06-23",
                                  "time": "10:00", "notes": "front left tire loses air"}),
    ("list_service_appointments", {"vehicle_id": "veh_001", "status": "scheduled"}),
    ("cancel_service_appointment", {"appointment_id": "apt_0025"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
