"""vehicle tools: destinations (the world's places), navigation with a range check, trips."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.vehicle.common import DOMAIN, VehicleId, label, now, range_km
from servers.vehicle.data import REGION, drive_minutes, haversine_km, road_km
from servers.vehicle.models import DestinationList, Navigation, Route, TripList

PlaceKind = Literal["restaurant", "cafe", "hotel", "store", "landmark"]


def check_city(s: State, city: str) -> str:
    """The city's canonical name, or an error listing the cities the app covers."""
    for c in s.var("cities"):
        if c["name"].lower() == city.strip().lower():
            return c["name"]
    names = ", ".join(c["name"] for c in s.var("cities"))
    raise ToolError(f"unknown city {city!r}; covered cities: {names}")


def _distance(v: Row, place: Row) -> float:
    loc = v["location"]
    return road_km(haversine_km(loc["lat"], loc["lon"], place["lat"], place["lon"]))


@DOMAIN.tool(read_only=True)
def search_destinations(
        s: State,
        query: Annotated[str, Arg("Words from a place's name, kind, street or city, e.g. "
                                  "'sushi' or 'museum'", min_length=1)],
        city: Annotated[str | None, Arg("Only places in this city")] = None,
        kind: Annotated[PlaceKind | None, Arg("Only places of this kind")] = None,
        vehicle_id: Annotated[str | None, Arg(
            "Vehicle id: sort by road distance from this vehicle")] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> DestinationList:
    """Search navigation destinations (restaurants, cafes, hotels, stores, landmarks)."""
    v = s["vehicles"].get(vehicle_id) if vehicle_id is not None else None
    town = check_city(s, city) if city is not None else None
    words = query.lower().split()
    found = []
    for p in s["places"].rows():
        text = f"{p['name']} {p['kind']} {p['address']} {p['city']}".lower()
        if ((town is None or p["city"] == town) and (kind is None or p["kind"] == kind)
                and all(w in text for w in words)):
            found.append({**p, "distance_km": _distance(v, p) if v else None})
    found.sort(key=lambda p: (p["distance_km"], p["place_id"]) if v
               else (p["city"], p["name"], p["place_id"]))
    pg = paging.page(found, limit, cursor, key="place_id")
    return {"destinations": pg.rows, "total": len(found), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def set_navigation(
        s: State, vehicle_id: VehicleId,
        place_id: Annotated[str, Arg("Destination place id, e.g. 'pl_zfwqx7' (from "
                                     "search_destinations or the maps app)")]) -> Route:
    """Send a destination to the vehicle's navigation: road distance, drive time, ETA and
    whether the remaining range covers the trip."""
    v = s["vehicles"].get(vehicle_id)
    place = s["places"].get(place_id)
    country = {c["name"]: c["country"] for c in s.var("cities")}
    here, there = REGION[country[v["location"]["city"]]], REGION[country[place["city"]]]
    if here != there:
        raise ToolError(f"{place['name']} in {place['city']} is not reachable by road from "
                        f"{v['location']['city']} ({here} -> {there}); pick a destination in "
                        f"the same region")
    km = _distance(v, place)
    minutes = drive_minutes(km)
    stamp = now(s)
    eta = (dt.datetime.fromisoformat(stamp) + dt.timedelta(minutes=minutes))
    nav: Navigation = {"place_id": place_id, "name": place["name"],
                       "address": place["address"], "city": place["city"],
                       "distance_km": km, "duration_min": minutes,
                       "eta": eta.isoformat(timespec="minutes")}
    s["vehicles"].update(vehicle_id, navigation=nav)
    rng_km = range_km(v)
    enough = rng_km >= km
    arrival = None
    if enough and v["powertrain"] != "plug_in_hybrid":
        pct = v["battery_pct"] if v["powertrain"] == "electric" else v["fuel_pct"]
        arrival = round(pct * (rng_km - km) / rng_km, 1)
    notice = None
    if not enough:
        stop = "charging" if v["powertrain"] == "electric" else "fuel"
        notice = (f"{label(v)} has {rng_km} km of range for a {km} km trip; plan a {stop} "
                  "stop on the way")
    return {"vehicle_id": vehicle_id, "destination": nav, "range_km": rng_km,
            "range_sufficient": enough, "energy_at_arrival_pct": arrival, "notice": notice}


@DOMAIN.tool(read_only=True)
def list_trips(
        s: State,
        vehicle_id: Annotated[str | None, Arg("Only trips of this vehicle")] = None,
        since: Annotated[str | None, Arg("Only trips started on or after this date "
                                         "(YYYY-MM-DD)", pattern=r"\d{4}-\d{2}-\d{2}")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> TripList:
    """Trip history: where each vehicle drove, distance, duration and energy used."""
    if vehicle_id is not None:
        s["vehicles"].get(vehicle_id)
    rows = [t for t in s["trips"].rows()
            if (vehicle_id is None or t["vehicle_id"] == vehicle_id)
            and (since is None or t["started_at"][:10] >= since)]
    rows.sort(key=lambda t: (t["started_at"], t["trip_id"]), reverse=True)
    pg = paging.page(rows, limit, cursor, key="trip_id")
    return {"trips": pg.rows, "total": len(rows), "next_cursor": pg.next_cursor,
            "total_distance_km": round(sum((t["distance_km"] for t in rows), 0.0), 1)}
