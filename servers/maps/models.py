"""maps: output shapes (TypedDicts become the tools' MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict

from servers.core.hours import WeeklyHours


class PlaceSummary(TypedDict):
    place_id: str
    name: str
    kind: str
    cuisine: str | None
    city: str
    address: str
    lat: float
    lon: float
    rating: float
    price_level: int | None
    open_now: bool
    distance_m: float | None


class PlaceList(TypedDict):
    places: list[PlaceSummary]
    total: int
    next_cursor: str | None


class PlaceDetails(TypedDict):
    place_id: str
    name: str
    kind: str
    cuisine: str | None
    city: str
    country: str
    address: str
    lat: float
    lon: float
    rating: float
    review_count: int
    price_level: int | None
    phone: str
    website: str
    opening_hours: WeeklyHours
    open_now: bool
    saved_in_lists: list[str]


class Review(TypedDict):
    review_id: str
    place_id: str
    author: str
    author_id: str
    rating: int
    text: str
    created_at: str


class ReviewList(TypedDict):
    place_id: str
    place_name: str
    rating: float
    review_count: int
    reviews: list[Review]


class OpeningHours(TypedDict):
    place_id: str
    name: str
    weekly: WeeklyHours
    date: str
    hours_on_date: list[str]
    open_at_time: bool | None
    time: str | None
    open_now: bool


class City(TypedDict):
    name: str
    country: str
    lat: float
    lon: float
    airport: str
    place_count: int


class CityList(TypedDict):
    cities: list[City]


class GeocodeResult(TypedDict):
    formatted_address: str
    lat: float
    lon: float
    city: str
    country: str
    place_id: str | None
    match_type: str


class GeocodeList(TypedDict):
    results: list[GeocodeResult]
    total: int


class ReverseGeocode(TypedDict):
    lat: float
    lon: float
    city: str | None
    country: str | None
    nearest_place_id: str | None
    nearest_address: str | None
    distance_m: float | None


class Location(TypedDict):
    label: str
    lat: float
    lon: float
    place_id: str | None
    city: str | None


class Distance(TypedDict):
    origin: Location
    destination: Location
    distance: float
    unit: str
    bearing_degrees: float
    direction: str


class Route(TypedDict):
    origin: Location
    destination: Location
    mode: str
    distance_km: float
    duration_minutes: int
    departure_time: str | None
    arrival_time: str | None
    summary: str
    steps: list[str]


class ModeOption(TypedDict):
    mode: str
    available: bool
    distance_km: float | None
    duration_minutes: int | None
    reason: str | None


class ModeComparison(TypedDict):
    origin: Location
    destination: Location
    straight_line_km: float
    options: list[ModeOption]
    fastest_mode: str | None


class SavedList(TypedDict):
    list_id: str
    name: str
    description: str | None
    is_default: bool
    created_at: str
    place_count: int


class SavedListList(TypedDict):
    lists: list[SavedList]


class SavedPlace(TypedDict):
    saved_id: str
    list_id: str
    place: PlaceSummary
    note: str | None
    saved_at: str


class SavedListDetail(TypedDict):
    list: SavedList
    places: list[SavedPlace]


class RemoveOut(TypedDict):
    list: SavedList
    removed_place_id: str
