"""maps tools: geocoding, reverse geocoding, distances, directions and mode comparison."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.maps.common import (
    DOMAIN,
    Lat,
    LocationArg,
    Lon,
    Mode,
    add_minutes,
    leg,
    nearest_city,
    resolve,
    steps_for,
)
from servers.maps.data import CITY_RADIUS_KM, MODES, bearing, compass, haversine_m
from servers.maps.models import (
    Distance,
    GeocodeList,
    GeocodeResult,
    Location,
    ModeComparison,
    ReverseGeocode,
    Route,
)


def _endpoints(s: State, origin: str, destination: str) -> tuple[Location, Location]:
    a, b = resolve(s, origin, "origin"), resolve(s, destination, "destination")
    if haversine_m(a["lat"], a["lon"], b["lat"], b["lon"]) < 1:
        raise ToolError(f"origin {origin!r} and destination {destination!r} are the same "
                        "point; give two different locations")
    return a, b


@DOMAIN.tool(read_only=True)
def geocode(s: State, address: Annotated[str, Arg(
        "An address ('146 King St, Lisbon'), a place name, or a city", min_length=2,
        max_length=120)], limit: Annotated[int, Arg("At most this many matches", minimum=1,
                                                    maximum=20)] = 5) -> GeocodeList:
    """Turn an address, place name or city into coordinates (best matches first)."""
    words = address.lower().replace(",", " ").split()
    found: list[tuple[int, GeocodeResult]] = []
    for c in s["cities"].rows():
        if " ".join(words) in (c["name"].lower(), f"{c['name']} {c['country']}".lower()):
            found.append((0, {"formatted_address": f"{c['name']}, {c['country']}",
                              "lat": c["lat"], "lon": c["lon"], "city": c["name"],
                              "country": c["country"], "place_id": None,
                              "match_type": "city"}))
    for p in s["places"].rows():
        addr = p["address"].lower().replace(",", " ")
        text = f"{p['name'].lower()} {addr}"
        if not all(w in text for w in words):
            continue
        exact = " ".join(words) == " ".join(addr.split())
        rank = 1 if exact else 2 if all(w in addr for w in words) else 3
        found.append((rank, {"formatted_address": f"{p['address']}, {p['country']}",
                             "lat": p["lat"], "lon": p["lon"], "city": p["city"],
                             "country": p["country"], "place_id": p["place_id"],
                             "match_type": "address" if rank < 3 else "place"}))
    found.sort(key=lambda rf: (rf[0], rf[1]["formatted_address"], rf[1]["place_id"] or ""))
    return {"results": [r for _, r in found[:limit]], "total": len(found)}


@DOMAIN.tool(read_only=True)
def reverse_geocode(s: State, lat: Lat, lon: Lon) -> ReverseGeocode:
    """The city and nearest known address for a coordinate."""
    city, dist = nearest_city(s, lat, lon)
    if dist > CITY_RADIUS_KM * 1000:
        return {"lat": lat, "lon": lon, "city": None, "country": None, "nearest_place_id": None,
                "nearest_address": None, "distance_m": None}
    places = sorted(s["places"].rows(lambda p: p["city"] == city["name"]),
                    key=lambda p: (haversine_m(lat, lon, p["lat"], p["lon"]), p["place_id"]))
    near = places[0] if places else None
    return {"lat": lat, "lon": lon, "city": city["name"], "country": city["country"],
            "nearest_place_id": near["place_id"] if near else None,
            "nearest_address": near["address"] if near else None,
            "distance_m": round(haversine_m(lat, lon, near["lat"], near["lon"]), 1)
            if near else None}


@DOMAIN.tool(read_only=True)
def get_distance(s: State, origin: LocationArg, destination: LocationArg,
                 unit: Annotated[Literal["km", "mi"], Arg("Distance unit")] = "km"
                 ) -> Distance:
    """Straight-line (great-circle) distance and compass direction between two locations."""
    a, b = _endpoints(s, origin, destination)
    metres = haversine_m(a["lat"], a["lon"], b["lat"], b["lon"])
    deg = bearing(a["lat"], a["lon"], b["lat"], b["lon"])
    value = metres / 1000 if unit == "km" else metres / 1609.344
    return {"origin": a, "destination": b, "distance": round(value, 2), "unit": unit,
            "bearing_degrees": round(deg, 1), "direction": compass(deg)}


@DOMAIN.tool(read_only=True)
def get_directions(
        s: State, origin: LocationArg, destination: LocationArg,
        mode: Annotated[Mode, Arg("How to travel")] = "driving",
        departure_time: Annotated[str | None, Arg(
            "Local departure time today (HH:MM, 24h) to get an arrival time",
            pattern=r"([01]\d|2[0-3]):[0-5]\d")] = None) -> Route:
    """Route between two locations for one travel mode: distance, duration and steps."""
    a, b = _endpoints(s, origin, destination)
    result = leg(s, a, b, mode)
    if isinstance(result, str):
        raise ToolError(f"no {mode} route from {a['label']} to {b['label']}: {result}; "
                        "compare_travel_modes shows the modes that work")
    km, minutes = result
    return {"origin": a, "destination": b, "mode": mode, "distance_km": km,
            "duration_minutes": minutes, "departure_time": departure_time,
            "arrival_time": add_minutes(departure_time, minutes) if departure_time else None,
            "summary": f"{km:.1f} km, about {minutes} min by {mode}",
            "steps": steps_for(a, b, mode, km)}


@DOMAIN.tool(read_only=True)
def compare_travel_modes(s: State, origin: LocationArg, destination: LocationArg
                         ) -> ModeComparison:
    """Travel distance and time for every mode (driving, walking, transit, cycling) between
    two locations, with the fastest one."""
    a, b = _endpoints(s, origin, destination)
    options = []
    for mode in MODES:
        result = leg(s, a, b, mode)
        if isinstance(result, str):
            options.append({"mode": mode, "available": False, "distance_km": None,
                            "duration_minutes": None, "reason": result})
        else:
            options.append({"mode": mode, "available": True, "distance_km": result[0],
                            "duration_minutes": result[1], "reason": None})
    usable = [o for o in options if o["available"]]
    fastest = min(usable, key=lambda o: (o["duration_minutes"], o["mode"]))["mode"] \
        if usable else None
    return {"origin": a, "destination": b,
            "straight_line_km": round(haversine_m(a["lat"], a["lon"], b["lat"], b["lon"])
                                      / 1000, 2),
            "options": options, "fastest_mode": fastest}
