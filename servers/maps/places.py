"""maps tools: finding places (text, filters, nearby), details, reviews, hours, cities."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.maps.common import (
    DOMAIN,
    Cuisine,
    Kind,
    Lat,
    Lon,
    PlaceId,
    summary,
)
from servers.maps.common import open_now as place_open_now
from servers.maps.data import DAYS, TODAY, haversine_m, is_open
from servers.maps.models import CityList, OpeningHours, PlaceDetails, PlaceList, ReviewList

MinRating = Annotated[float | None, Arg("Only places rated at least this (1-5)", minimum=1,
                                        maximum=5)]
OpenNow = Annotated[bool, Arg("Only places open right now (local time)")]


def _city(s: State, city: str | None) -> str | None:
    if city is None:
        return None
    row = next((c for c in s["cities"].rows() if c["name"].lower() == city.strip().lower()),
               None)
    if row is None:
        names = ", ".join(sorted(s["cities"].ids()))
        raise ToolError(f"unknown city {city!r}; cities on the map: {names}")
    return row["name"]


def _score(p: Row, words: list[str]) -> int | None:
    """Relevance of a place to the query words (None if some word matches nothing)."""
    fields = [(p["name"].lower(), 3), ((p["kind"] + " " + (p["cuisine"] or "")).lower(), 2),
              ((p["address"] + " " + p["city"]).lower(), 1)]
    total = 0
    for word in words:
        stems = {word, word[:-1]} if len(word) > 3 and word.endswith("s") else {word}
        hits = [w for text, w in fields if any(st in text for st in stems)]
        if not hits:
            return None
        total += max(hits)
    return total


def _filters(s: State, p: Row, kind: str | None, cuisine: str | None, min_rating: float | None,
             open_now: bool) -> bool:
    return ((kind is None or p["kind"] == kind) and (cuisine is None or p["cuisine"] == cuisine)
            and (min_rating is None or p["rating"] >= min_rating)
            and (not open_now or place_open_now(s, p)))


@DOMAIN.tool(read_only=True)
def search_places(
        s: State,
        query: Annotated[str | None, Arg(
            "Words to look for in names, kinds, cuisines and addresses, e.g. 'sushi' or "
            "'museum'")] = None,
        city: Annotated[str | None, Arg("Only places in this city, e.g. 'Lisbon'")] = None,
        kind: Annotated[Kind | None, Arg("Only places of this kind")] = None,
        cuisine: Annotated[Cuisine | None, Arg("Only restaurants with this cuisine")] = None,
        min_rating: MinRating = None, open_now: OpenNow = False,
        sort: Annotated[Literal["relevance", "rating", "name"], Arg(
            "Order of the results")] = "relevance",
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> PlaceList:
    """Search places by text and filters (city, kind, cuisine, rating, open now)."""
    city_name = _city(s, city)
    words = (query or "").lower().split()
    scored = []
    for p in s["places"].rows():
        if (city_name is not None and p["city"] != city_name) or not _filters(
                s, p, kind, cuisine, min_rating, open_now):
            continue
        score = _score(p, words)
        if score is not None:
            scored.append((score, p))
    key = {"relevance": lambda sp: (-sp[0], -sp[1]["rating"], sp[1]["place_id"]),
           "rating": lambda sp: (-sp[1]["rating"], sp[1]["place_id"]),
           "name": lambda sp: (sp[1]["name"], sp[1]["place_id"])}[sort]
    scored.sort(key=key)
    pg = paging.page([p for _, p in scored], limit, cursor, key="place_id")
    return {"places": [summary(s, p) for p in pg.rows], "total": len(scored),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def search_nearby(
        s: State, lat: Lat, lon: Lon,
        radius_m: Annotated[int, Arg("Search radius in metres", minimum=50,
                                     maximum=50_000)] = 2000,
        kind: Annotated[Kind | None, Arg("Only places of this kind")] = None,
        cuisine: Annotated[Cuisine | None, Arg("Only restaurants with this cuisine")] = None,
        min_rating: MinRating = None, open_now: OpenNow = False,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> PlaceList:
    """Places within a radius of a point, nearest first (with their distance in metres)."""
    found = []
    for p in s["places"].rows():
        d = haversine_m(lat, lon, p["lat"], p["lon"])
        if d <= radius_m and _filters(s, p, kind, cuisine, min_rating, open_now):
            found.append((d, p))
    found.sort(key=lambda dp: (dp[0], dp[1]["place_id"]))
    pg = paging.page(found, limit, cursor, key=lambda dp: dp[1]["place_id"])
    return {"places": [summary(s, p, d) for d, p in pg.rows], "total": len(found),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_place_details(s: State, place_id: PlaceId) -> PlaceDetails:
    """Full details of a place: address, coordinates, contact, price level, rating, opening
    hours, whether it is open now, and which of the user's lists it is saved in."""
    p = s["places"].get(place_id)
    lists = sorted({r["list_id"] for r in s["saved_places"].rows(
        lambda r: r["place_id"] == place_id)})
    return {**p, "open_now": place_open_now(s, p), "saved_in_lists": lists}


@DOMAIN.tool(read_only=True)
def get_place_reviews(
        s: State, place_id: PlaceId,
        sort: Annotated[Literal["newest", "highest", "lowest"], Arg(
            "Order of the reviews")] = "newest",
        min_rating: Annotated[int | None, Arg("Only reviews with at least this many stars",
                                              minimum=1, maximum=5)] = None,
        limit: Annotated[int, Arg("At most this many reviews", minimum=1, maximum=20)] = 5
) -> ReviewList:
    """Read a place's reviews (author, stars, text, date)."""
    p = s["places"].get(place_id)
    rows = s["reviews"].rows(lambda r: r["place_id"] == place_id
                             and (min_rating is None or r["rating"] >= min_rating))
    key = {"newest": lambda r: (r["created_at"], r["review_id"]),
           "highest": lambda r: (r["rating"], r["created_at"]),
           "lowest": lambda r: (-r["rating"], r["created_at"])}[sort]
    rows.sort(key=key, reverse=True)
    return {"place_id": place_id, "place_name": p["name"], "rating": p["rating"],
            "review_count": p["review_count"], "reviews": rows[:limit]}


@DOMAIN.tool(read_only=True)
def get_opening_hours(
        s: State, place_id: PlaceId,
        date: Annotated[str | None, Arg("Date to check (YYYY-MM-DD); default today",
                                        pattern=r"\d{4}-\d{2}-\d{2}")] = None,
        time: Annotated[str | None, Arg("Local time to check on that date (HH:MM, 24h)",
                                        pattern=r"([01]\d|2[0-3]):[0-5]\d")] = None
) -> OpeningHours:
    """Weekly opening hours of a place, its hours on a date, and whether it is open at a
    given time and right now."""
    p = s["places"].get(place_id)
    try:
        day = TODAY if date is None else dt.date.fromisoformat(date)
    except ValueError:
        raise ToolError(f"date {date!r} is not a valid calendar date; use YYYY-MM-DD") from None
    open_at = None
    if time is not None:
        hh, mm = map(int, time.split(":"))
        open_at = is_open(p["opening_hours"], dt.datetime.combine(day, dt.time(hh, mm)))
    return {"place_id": place_id, "name": p["name"], "weekly": p["opening_hours"],
            "date": day.isoformat(), "hours_on_date": p["opening_hours"][DAYS[day.weekday()]],
            "open_at_time": open_at, "time": time,
            "open_now": place_open_now(s, p)}


@DOMAIN.tool(read_only=True)
def list_cities(s: State, query: Annotated[str | None, Arg(
        "Part of a city or country name (case-insensitive)")] = None) -> CityList:
    """List the cities on the map with their centre coordinates, airport code and how many
    places each has."""
    q = (query or "").strip().lower()
    out = []
    for c in s["cities"].rows():
        if q and q not in c["name"].lower() and q not in c["country"].lower():
            continue
        count = len(s["places"].rows(lambda p, name=c["name"]: p["city"] == name))
        out.append({**c, "place_count": count})
    return {"cities": sorted(out, key=lambda c: c["name"])}
