"""maps: the domain object, argument types and helpers shared by the tool modules."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from servers.core import clock
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.maps.data import (
    CITY_RADIUS_KM,
    DETOUR,
    HIGHWAY_KMH,
    LANDMASS,
    MAX_STRAIGHT_KM,
    SPEED_KMH,
    TRANSIT_WAIT_MIN,
    bearing,
    build,
    compass,
    haversine_m,
    is_open,
)
from servers.maps.models import Location, PlaceSummary, SavedList

DOMAIN = Domain("maps", "Maps: search places and cities, details, reviews, opening hours, "
                "geocoding, distances, directions by mode, and saved place lists.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"saved_places": ("saved_at",), "saved_lists": ("created_at",)}

Kind = Literal["restaurant", "cafe", "hotel", "store", "landmark"]
Cuisine = Literal["italian", "japanese", "spanish", "indian", "french", "chinese", "mexican",
                  "american"]
Mode = Literal["driving", "walking", "transit", "cycling"]
PlaceId = Annotated[str, Arg("Place id, e.g. 'pl_aw7pdv' (from search_places or search_nearby)")]
LocationArg = Annotated[str, Arg(
    "A place id ('pl_aw7pdv'), an exact place name or address, a city name, or 'lat,lon' "
    "(e.g. '38.7223,-9.1393')", min_length=2, max_length=120)]
Lat = Annotated[float, Arg("Latitude in degrees", minimum=-90, maximum=90)]
Lon = Annotated[float, Arg("Longitude in degrees", minimum=-180, maximum=180)]
LATLON_RE = re.compile(r"\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*")
PLACE_ID_RE = re.compile(r"pl_[a-z0-9]+", re.IGNORECASE)  # opaque place ids


def open_now(s: State, row: Row) -> bool:
    """Is the place open at the world's now, on its own city's clock?"""
    return is_open(row["opening_hours"],
                   clock.now(s).astimezone(clock.city_zone(row["city"])))


def summary(s: State, row: Row, distance_m: float | None = None) -> PlaceSummary:
    return {"place_id": row["place_id"], "name": row["name"], "kind": row["kind"],
            "cuisine": row["cuisine"], "city": row["city"], "address": row["address"],
            "lat": row["lat"], "lon": row["lon"], "rating": row["rating"],
            "price_level": row["price_level"], "open_now": open_now(s, row),
            "distance_m": None if distance_m is None else round(distance_m, 1)}


def nearest_city(s: State, lat: float, lon: float) -> tuple[Row, float]:
    cities = sorted(s["cities"].rows(),
                    key=lambda c: (haversine_m(lat, lon, c["lat"], c["lon"]), c["name"]))
    return cities[0], haversine_m(lat, lon, cities[0]["lat"], cities[0]["lon"])


def _place_loc(p: Row) -> Location:
    return {"label": f"{p['name']}, {p['address']}", "lat": p["lat"], "lon": p["lon"],
            "place_id": p["place_id"], "city": p["city"]}


def resolve(s: State, text: str, what: str) -> Location:
    """A location from a place id, 'lat,lon', a city, or an exact place name or address."""
    t = " ".join(text.split())
    if PLACE_ID_RE.fullmatch(t):
        return _place_loc(s["places"].get(t.lower()))
    m = LATLON_RE.fullmatch(t)
    if m:
        lat, lon = float(m.group(1)), float(m.group(2))
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise ToolError(f"{what} {text!r}: latitude must be within -90..90 and longitude "
                            "within -180..180")
        city, dist = nearest_city(s, lat, lon)
        return {"label": f"{lat:.5f},{lon:.5f}", "lat": lat, "lon": lon, "place_id": None,
                "city": city["name"] if dist <= CITY_RADIUS_KM * 1000 else None}
    low = t.lower()
    city = next((c for c in s["cities"].rows() if c["name"].lower() == low), None)
    if city is not None:
        return {"label": f"{city['name']}, {city['country']}", "lat": city["lat"],
                "lon": city["lon"], "place_id": None, "city": city["name"]}
    found = [p for p in s["places"].rows()
             if low in (p["name"].lower(), p["address"].lower(),
                        f"{p['name']}, {p['city']}".lower())]
    if len(found) > 1:
        options = "; ".join(f"{p['place_id']} in {p['city']}" for p in found)
        raise ToolError(f"{what} {text!r} matches several places ({options}); give the place "
                        "id or add the city, e.g. 'Name, City'")
    if found:
        return _place_loc(found[0])
    raise ToolError(f"could not find {what} {text!r}; give a place id from search_places "
                    "(e.g. 'pl_aw7pdv'), an exact place name or address, a city name, or "
                    "'lat,lon'")


def land_of(s: State, loc: Location) -> str:
    city = loc["city"] or nearest_city(s, loc["lat"], loc["lon"])[0]["name"]
    return LANDMASS.get(city, city)


def leg(s: State, a: Location, b: Location, mode: str) -> tuple[float, int] | str:
    """(route km, minutes) for one mode, or why that mode cannot make the trip."""
    straight = haversine_m(a["lat"], a["lon"], b["lat"], b["lon"]) / 1000
    limit = MAX_STRAIGHT_KM.get(mode)
    if limit is not None and straight > limit:
        return (f"too far for {mode} ({straight:.0f} km in a straight line; {mode} routes "
                f"cover up to {limit:.0f} km)")
    if mode == "driving" and land_of(s, a) != land_of(s, b):
        return ("no road connection between these places (different landmasses); fly "
                "instead")
    km = round(straight * DETOUR[mode], 2)
    if mode == "driving":
        hours = min(km, 20) / SPEED_KMH["driving"] + max(0.0, km - 20) / HIGHWAY_KMH
        minutes = hours * 60
    else:
        minutes = km / SPEED_KMH[mode] * 60 + (TRANSIT_WAIT_MIN if mode == "transit" else 0)
    return km, max(1, round(minutes))


def street_of(loc: Location) -> str:
    if loc["place_id"] is None:
        return "the city centre" if loc["label"].split(",")[0] == loc["city"] else "the road"
    street = loc["label"].split(", ")[-2] if loc["label"].count(", ") >= 2 else loc["label"]
    return street.split(" ", 1)[1] if street[:1].isdigit() and " " in street else street


def steps_for(a: Location, b: Location, mode: str, km: float) -> list[str]:
    heading = compass(bearing(a["lat"], a["lon"], b["lat"], b["lon"]))
    verb = {"driving": "Drive", "walking": "Walk", "cycling": "Cycle", "transit": "Walk"}[mode]
    steps = [f"{verb} {heading} from {a['label']}"]
    if mode == "transit":
        line = 1 + int(abs(a["lat"] * 1000 + b["lon"] * 1000)) % 9
        stops = max(1, round(km / 1.2))
        steps += ["Walk to the nearest station (about 5 min)",
                  f"Take metro line {line} for {stops} stop(s)",
                  f"Exit and walk to {street_of(b)}"]
    elif mode == "driving" and km > 30:
        steps += [f"Join the motorway towards {b['city'] or 'your destination'}",
                  f"Continue on the motorway for {km * 0.9:.0f} km",
                  f"Take the exit and follow signs to {street_of(b)}"]
    else:
        turn = "left" if int(bearing(a["lat"], a["lon"], b["lat"], b["lon"])) % 2 else "right"
        steps += [f"Continue {heading} for {km * 0.8:.1f} km", f"Turn {turn} onto {street_of(b)}"]
    steps.append(f"Arrive at {b['label']}")
    return steps


def list_out(s: State, row: Row) -> SavedList:
    count = len(s["saved_places"].rows(lambda r: r["list_id"] == row["list_id"]))
    return {**row, "place_count": count}


def add_minutes(hhmm: str, minutes: int) -> str:
    """A time of day `minutes` after `hhmm`, with the days it runs over."""
    hh, mm = map(int, hhmm.split(":"))
    total = hh * 60 + mm + minutes
    days, total = divmod(total, 24 * 60)
    when = dt.time(total // 60, total % 60)
    return when.strftime("%H:%M") + (f" (+{days} day{'s' if days > 1 else ''})" if days else "")
