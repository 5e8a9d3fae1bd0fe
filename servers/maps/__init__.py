"""maps: look-ups over the world's places and cities (search, nearby, details, reviews, opening
hours, geocoding, distances, directions per travel mode) and the user's saved-place lists.

Tools live in places.py, routes.py and saved.py; importing them registers them on DOMAIN.
A place id here (built as 'pl_0007', shown opaque) is the same id travel_booking uses for a hotel.
"""

from __future__ import annotations

from servers.maps import places, routes, saved  # noqa: F401 - registers the tools
from servers.maps.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("list_cities", {"query": "united"}),
    ("search_places", {"query": "museum", "city": "Berlin", "min_rating": 4, "sort": "rating"}),
    ("search_nearby", {"lat": 52.52, "lon": 13.405, "radius_m": 3000, "kind": "restaurant",
                       "open_now": True}),
    ("get_place_details", {"place_id": "pl_0007"}),
    ("get_place_reviews", {"place_id": "pl_0007", "sort": "highest", "limit": 3}),
    ("get_opening_hours", {"place_id": "pl_0001", "date": "2026-06-20", "time": "20:00"}),
    ("geocode", {"address": "146 King St, Lisbon"}),
    ("reverse_geocode", {"lat": 38.77, "lon": -9.125}),
    ("get_distance", {"origin": "The Golden Grill, Lisbon", "destination": "Hotel Ember, Lisbon",
                      "unit": "km"}),
    ("get_directions", {"origin": "The Golden Grill, Lisbon",
                        "destination": "Hotel Ember, Lisbon", "mode": "walking",
                        "departure_time": "08:30"}),
    ("compare_travel_modes", {"origin": "The Coral Inn, Berlin",
                              "destination": "Trattoria Juniper"}),
    ("list_saved_lists", {}),
    ("create_saved_list", {"name": "Lisbon weekend",
                           "description": "Hotels and food for the July trip"}),
    ("save_place", {"place_id": "pl_0007", "list_id": "lst_0008",
                    "note": "book it on travel_booking"}),
    ("get_saved_list", {"list_id": "lst_0008"}),
    ("remove_saved_place", {"place_id": "pl_0014", "list_id": "lst_0006"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
