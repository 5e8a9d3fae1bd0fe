"""vehicle state: a fleet account's cars (the user's own and the company cars they manage),
their live status, trip history, service centers in the world's cities and appointments.

Drivers are the world's people (the user drives the first two cars); vehicles stand in their
driver's city; trips end at the world's places, so a place found on maps is a destination here.
"""

from __future__ import annotations

import datetime as dt
import math
import random

from servers.core import locales
from servers.core.state import State
from servers.core.world import REFERENCE_DATE, World, days_ago

SEATS = ("driver", "passenger", "rear_left", "rear_right")
DOORS = ("driver", "passenger", "rear_left", "rear_right", "trunk")
TIRES = ("front_left", "front_right", "rear_left", "rear_right")
FRONT, ALL = ("driver", "passenger"), SEATS
CHARGEABLE = ("electric", "plug_in_hybrid")
HAS_ENGINE = ("petrol", "diesel", "hybrid", "plug_in_hybrid")
SERVICES = ("oil_change", "tire_service", "brake_service", "battery_service",
            "general_inspection", "ev_battery_check", "software_update")
SERVICE_MINUTES = {"oil_change": 45, "tire_service": 60, "brake_service": 90,
                   "battery_service": 45, "general_inspection": 120, "ev_battery_check": 60,
                   "software_update": 30}
# Road trips only stay within one landmass: a car cannot drive Lisbon -> Tokyo.
REGION = {"Portugal": "Europe", "Spain": "Europe", "France": "Europe", "Germany": "Europe",
          "Netherlands": "Europe", "United Kingdom": "Europe", "United States": "North America",
          "Canada": "North America", "Japan": "Japan", "Singapore": "Singapore",
          "Australia": "Australia"}

# make, model, powertrain, tank litres, battery kWh, L/100 km, kWh/100 km, heated seats,
# recommended tire pressure (kPa)
MODELS = [
    ("Tesla", "Model 3", "electric", None, 60.0, None, 14.5, ALL, 290),
    ("Tesla", "Model Y", "electric", None, 75.0, None, 16.5, ALL, 290),
    ("Volkswagen", "ID.4", "electric", None, 77.0, None, 17.5, FRONT, 250),
    ("Hyundai", "Ioniq 5", "electric", None, 72.6, None, 17.0, ALL, 250),
    ("Kia", "EV6", "electric", None, 77.4, None, 17.2, FRONT, 250),
    ("Nissan", "Leaf", "electric", None, 39.0, None, 15.5, FRONT, 250),
    ("Toyota", "Corolla", "petrol", 50.0, None, 6.2, None, FRONT, 230),
    ("Honda", "Civic", "petrol", 47.0, None, 6.4, None, FRONT, 230),
    ("Volkswagen", "Golf", "petrol", 50.0, None, 5.9, None, FRONT, 240),
    ("Ford", "Focus", "petrol", 52.0, None, 6.1, None, (), 230),
    ("Mazda", "CX-5", "petrol", 56.0, None, 7.4, None, FRONT, 240),
    ("Skoda", "Octavia TDI", "diesel", 45.0, None, 4.8, None, FRONT, 250),
    ("Volvo", "XC60 B4", "diesel", 71.0, None, 6.3, None, ALL, 250),
    ("Toyota", "Prius", "hybrid", 43.0, None, 4.4, None, FRONT, 240),
    ("Toyota", "RAV4 Plug-in", "plug_in_hybrid", 55.0, 18.1, 6.0, 22.0, FRONT, 250),
    ("Mitsubishi", "Outlander PHEV", "plug_in_hybrid", 56.0, 20.0, 6.5, 23.0, FRONT, 250),
]
WMI = {"Tesla": "5YJ", "Volkswagen": "WVW", "Hyundai": "KMH", "Kia": "KNA", "Nissan": "SJN",
       "Toyota": "JTD", "Honda": "SHH", "Ford": "WF0", "Mazda": "JMZ", "Skoda": "TMB",
       "Volvo": "YV1", "Mitsubishi": "JA4"}
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"  # no I, O, Q in a VIN
COLORS = ["white", "black", "silver", "grey", "blue", "red", "green"]
DEALER_BRANDS = [("Toyota",), ("Volkswagen", "Skoda"), ("Tesla",), ("Hyundai", "Kia"),
                 ("Volvo",), ("Ford",), ("Honda", "Mazda"), ("Nissan", "Mitsubishi")]
GARAGE_NAMES = ["{a} Auto Care", "{a} Motor Works", "{a} Garage", "{a} Car Clinic"]
ADJ = ["Olive", "Lotus", "Maple", "Harbor", "Golden", "Willow", "Coral", "Juniper", "Saffron",
       "Azure", "Ember", "Velvet", "Cobalt", "Amber", "Linden", "Marble"]
STREETS = ["Industrial Way", "Ring Rd", "Depot St", "Motorway Ave", "Workshop Lane",
           "Factory Rd"]
DTC = [("P0420", "Catalyst system efficiency below threshold (bank 1)", "medium"),
       ("P0171", "System too lean (bank 1)", "medium"),
       ("P0300", "Random/multiple cylinder misfire detected", "high")]


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    r = 6371.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def road_km(straight_km: float) -> float:
    """Roads are longer than the straight line; a short hop is still at least 0.5 km."""
    return round(max(0.5, straight_km * 1.3), 1)


def drive_minutes(km: float) -> int:
    return max(2, round(km / (28 if km < 40 else 85) * 60))


def _vin(rng: random.Random, make: str, year: int) -> str:
    year_code = "ABCDEFGHJKLMNPRSTVWXY123456789"[(year - 2010) % 30]
    body = "".join(rng.choice(VIN_CHARS) for _ in range(5))
    return (WMI[make] + body + rng.choice("0123456789X") + year_code
            + rng.choice(VIN_CHARS[:23]) + "".join(rng.choice("0123456789") for _ in range(6)))


def _plate(rng: random.Random) -> str:
    letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3))
    return f"{letters}-{rng.randint(1000, 9999)}"


def build(s: State, world: World, rng: random.Random) -> None:
    s.set_var("user_id", world.user.id)
    s.set_var("cities", [{"name": c.name, "country": c.country, "lat": c.lat, "lon": c.lon}
                         for c in world.cities])
    s.table("places", key="place_id", kind="place",
            hint="use search_destinations to find place ids").load(
        [{"place_id": p.id, "name": p.name, "kind": p.kind, "city": p.city,
          "address": p.address, "lat": p.lat, "lon": p.lon} for p in world.places])
    city_of = {c.name: c for c in world.cities}
    vehicles = s.table("vehicles", key="vehicle_id", kind="vehicle",
                       hint="use list_vehicles to see vehicle ids")
    # the user drives a Tesla and a Corolla; the fleet's size varies by seed
    company = rng.randint(12, 22)
    drivers = [world.user, world.user, *world.people[1:1 + company]]
    models = [MODELS[0], MODELS[6], *(rng.choice(MODELS) for _ in range(company))]
    driving = set(rng.sample(range(2, len(drivers)), rng.randint(1, 5)))  # out on the road
    rows = []
    for i, (person, m) in enumerate(zip(drivers, models, strict=True)):
        make, model, power, tank, kwh, l100, kwh100, heated, kpa = m
        city = city_of[person.city]
        year = rng.randint(2018, 2025)
        moving = i in driving
        battery = round(rng.uniform(12, 95), 0) if kwh else None
        fuel = round(rng.uniform(6, 98), 0) if tank else None
        plugged = bool(kwh) and not moving and rng.random() < 0.5
        limit = rng.choice([80, 80, 90, 100]) if kwh else None
        tires = {t: kpa + rng.choice([-10, -5, 0, 0, 5]) for t in TIRES}
        if rng.random() < 0.25:  # a slow puncture
            tires = {**tires, rng.choice(TIRES): kpa - rng.randint(45, 70)}
        odo = rng.randint(4000, 140000)
        locked = moving or rng.random() < 0.7
        lat = round(city.lat + rng.uniform(-0.04, 0.04), 5)
        lon = round(city.lon + rng.uniform(-0.04, 0.04), 5)
        owner = "My" if person.id == world.user.id else f"{person.first_name}'s"
        nick = f"{owner} {model}"
        rows.append({
            "vehicle_id": f"veh_{i + 1:03d}", "vin": _vin(rng, make, year), "nickname": nick,
            "make": make, "model": model, "year": year, "color": rng.choice(COLORS),
            "powertrain": power, "plate": _plate(rng), "driver_id": person.id,
            "driver_name": person.name, "home_city": city.name,
            "status": "driving" if moving else "parked",
            "speed_kmh": rng.randint(25, 110) if moving else 0,
            "location": {"city": city.name, "address": f"{rng.randint(1, 240)} "
                         f"{rng.choice(STREETS)}, {city.name}", "lat": lat, "lon": lon},
            "odometer_km": odo, "fuel_pct": fuel, "battery_pct": battery, "tank_l": tank,
            "battery_kwh": kwh, "l_per_100km": l100, "kwh_per_100km": kwh100,
            "doors": {d: locked for d in DOORS},
            "windows": {w: 0 if moving or rng.random() < 0.85 else 10 for w in SEATS},
            "engine": ("not_applicable" if power == "electric"
                       else "running" if moving else "off"),
            "engine_auto_off_at": None,
            "climate": {"on": moving, "target_temp_c": rng.choice([19.0, 20.0, 21.0, 22.0]),
                        "fan_speed": rng.randint(1, 4), "mode": "auto"},
            "seat_heating": {seat: 0 for seat in SEATS}, "heated_seats": list(heated),
            "headlights": "auto", "plugged_in": plugged,
            "charging_state": ("complete" if plugged and battery >= limit else
                               "charging" if plugged and rng.random() < 0.5 else
                               "plugged_in" if plugged else "disconnected"),
            "charge_limit_pct": limit, "charger_kw": rng.choice([7.4, 11.0, 11.0, 22.0]),
            "tires": tires, "tire_kpa_recommended": kpa,
            "oil_life_pct": rng.randint(4, 100) if power != "electric" else None,
            "brake_pad_mm": round(rng.uniform(2.0, 10.0), 1),
            "battery_12v_v": round(rng.choice([12.6, 12.5, 12.4, 12.3, 11.6]), 1),
            "next_service_km": (odo // 15000 + 1) * 15000,
            "dtc_codes": ([list(rng.choice(DTC))] if power in HAS_ENGINE and rng.random() < 0.15
                          else []),
            "washer_fluid_low": rng.random() < 0.1,
            "navigation": None})
    vehicles.load(rows)

    centers = s.table("service_centers", key="center_id", kind="service center",
                      hint="use list_service_centers to see center ids")
    c_rows = []
    for k, city in enumerate(world.cities):
        brands = DEALER_BRANDS[k % len(DEALER_BRANDS)]
        phone = locales.phone(city.name, rng.randint(100, 999) * 10_000 + rng.randint(1000, 9999))
        base = {"city": city.name, "phone": phone, "hours": "Mon-Fri 08:00-18:00, Sat 09:00-14:00"}
        c_rows.append({**base, "center_id": f"svc_{len(c_rows) + 1:03d}",
                       "name": f"{brands[0]} Service {city.name}", "kind": "dealer",
                       "brands": list(brands), "services": list(SERVICES),
                       "address": f"{rng.randint(1, 240)} {rng.choice(STREETS)}, {city.name}",
                       "rating": round(rng.uniform(3.6, 4.9), 1)})
        # every city has an independent garage; some have a second one
        for _ in range(1 if rng.random() < 0.6 else 2):
            c_rows.append(_independent(rng, base, f"svc_{len(c_rows) + 1:03d}", city.name))
    centers.load(c_rows)

    trips = s.table("trips", key="trip_id", kind="trip", hint="use list_trips to see trip ids")
    places_in = {c.name: [p for p in world.places if p.city == c.name] for c in world.cities}
    t_rows, n = [], 0
    for v in rows:
        spots = places_in[v["home_city"]]
        for day in sorted(rng.sample(range(1, 40), rng.randint(2, 6)), reverse=True):
            n += 1
            a, b = rng.sample(spots, 2)
            km = road_km(haversine_km(a.lat, a.lon, b.lat, b.lon))
            minutes = drive_minutes(km) + rng.randint(0, 12)
            start = days_ago(world, day, rng)
            end = (dt.datetime.fromisoformat(start) + dt.timedelta(minutes=minutes))
            used = (f"{round(km * v['kwh_per_100km'] / 100, 1)} kWh" if v["powertrain"]
                    in ("electric",) else f"{round(km * v['l_per_100km'] / 100, 1)} L")
            t_rows.append({"trip_id": f"trp_{n:04d}", "vehicle_id": v["vehicle_id"],
                           "driver_name": v["driver_name"], "start_place_id": a.id,
                           "start_name": a.name, "end_place_id": b.id, "end_name": b.name,
                           "city": v["home_city"], "distance_km": km,
                           "duration_min": minutes, "started_at": start,
                           "ended_at": end.isoformat(timespec="minutes"),
                           "energy_used": used,
                           "avg_speed_kmh": round(km / minutes * 60, 1)})
    trips.load(t_rows)

    appts = s.table("appointments", key="appointment_id", kind="service appointment",
                    hint="use list_service_appointments to see appointment ids")
    a_rows = []
    for j, (status, offset) in enumerate(_appointment_plan(rng)):
        # tomorrow's visit is the user's car in their own city, in the morning: less than a
        # day away on every world's clock, so too close to cancel
        tomorrow = status == "scheduled" and offset == 1
        v = rows[0] if tomorrow else rows[j % len(rows)]
        options = [c for c in c_rows if c["city"] == v["home_city"]
                   and (not c["brands"] or v["make"] in c["brands"])]
        center = rng.choice(options)
        fits = [x for x in center["services"] if service_problem(v, center, x) is None]
        day = REFERENCE_DATE + dt.timedelta(days=offset)
        while day.weekday() >= 5:  # keep seeded visits on weekdays (past ones stay past)
            day += dt.timedelta(days=1 if offset > 0 else -1)
        a_rows.append({"appointment_id": f"apt_{j + 1:04d}", "vehicle_id": v["vehicle_id"],
                       "center_id": center["center_id"], "service_type": rng.choice(fits),
                       "date": day.isoformat(),
                       "time": f"{rng.randint(8, 10 if tomorrow else 15):02d}:"
                               f"{rng.choice(['00', '30'])}",
                       "status": status, "notes": "",
                       "created_at": days_ago(world, max(1, -offset + 7), rng)})
    appts.load(a_rows)
    s.set_var("__seq_apt", len(a_rows))


def _independent(rng: random.Random, base: dict, center_id: str, city: str) -> dict:
    """An independent garage: services every make; only some check EV batteries."""
    ev = rng.random() < 0.5
    return {**base, "center_id": center_id,
            "name": rng.choice(GARAGE_NAMES).format(a=rng.choice(ADJ)),
            "kind": "independent", "brands": [],  # every make
            "services": [x for x in SERVICES if x != "software_update"
                         and (ev or x != "ev_battery_check")],
            "address": f"{rng.randint(1, 240)} {rng.choice(STREETS)}, {city}",
            "rating": round(rng.uniform(3.2, 4.8), 1)}


def _appointment_plan(rng: random.Random) -> list[tuple[str, int]]:
    """(status, days from today) of the seeded appointments, oldest first: past visits, a
    cancelled one behind and some ahead, and upcoming ones, always one of them tomorrow (a
    visit too close to cancel); over a page of them at every seed."""
    done = sorted(rng.sample(range(2, 130), rng.randint(11, 16)), reverse=True)
    cancelled = [-rng.randint(10, 40), *rng.sample(range(4, 20), rng.randint(1, 3))]
    ahead = [1, *sorted(rng.sample(range(2, 46), rng.randint(7, 9)))]
    return ([("completed", -d) for d in done] + [("cancelled", d) for d in cancelled]
            + [("scheduled", d) for d in ahead])


def service_problem(v: dict, center: dict, service: str) -> str | None:
    """Why this center cannot do this service on this vehicle (None when it can)."""
    if center["brands"] and v["make"] not in center["brands"]:
        return (f"{center['name']} is a {'/'.join(center['brands'])} dealer and does not "
                f"service {v['make']} vehicles; pick an independent center or a "
                f"{v['make']} dealer from list_service_centers")
    if service not in center["services"]:
        return (f"{center['name']} does not offer {service}; it offers "
                f"{', '.join(center['services'])}")
    if service == "oil_change" and v["powertrain"] == "electric":
        return f"the {v['make']} {v['model']} is electric and has no engine oil to change"
    if service == "ev_battery_check" and v["powertrain"] not in CHARGEABLE:
        return (f"ev_battery_check is for electric and plug-in hybrid vehicles; the "
                f"{v['make']} {v['model']} is {v['powertrain']}")
    return None
