"""travel_booking: a travel agency (flights between the world's city airports, hotels that are
the world's hotel places, the user's bookings, seats, bags, insurance, loyalty, payments).

Tools live in flights.py, bookings.py and hotels.py; importing them registers them on DOMAIN.
"""

from __future__ import annotations

from servers.travel_booking import bookings, flights, hotels  # noqa: F401 - registers tools
from servers.travel_booking.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("get_traveler_profile", {}),
    ("list_payment_methods", {}),
    ("list_airports", {"query": "united"}),
    ("search_flights", {"origin": "BER", "destination": "Madrid", "date": "2026-07-10",
                        "cabin": "economy", "passengers": 2, "sort": "price"}),
    ("get_flight_status", {"flight_number": "BH854", "date": "2026-06-15"}),
    ("get_seat_map", {"flight_number": "BH854", "date": "2026-07-10", "cabin": "economy",
                      "position": "window"}),
    ("hold_flight", {"flight_number": "BH854", "date": "2026-07-10", "cabin": "economy",
                     "passenger_names": ["Oscar Ito", "Amara Okafor"]}),
    ("confirm_booking", {"booking_id": "bk_0029", "payment_method_id": "pm_0001"}),
    ("select_seat", {"booking_id": "bk_0029", "passenger_name": "Amara Okafor", "seat": "24A",
                     "payment_method_id": "pm_0001"}),
    ("add_baggage", {"booking_id": "bk_0029", "bags": 3, "payment_method_id": "pm_0003"}),
    ("purchase_travel_insurance", {"booking_id": "bk_0029", "payment_method_id": "pm_0001"}),
    ("list_bookings", {"status": "confirmed", "upcoming_only": True, "limit": 10}),
    ("get_booking", {"booking_id": "bk_0029"}),
    ("change_flight", {"booking_id": "bk_0016", "new_flight_number": "BH854",
                       "new_date": "2026-07-02", "payment_method_id": "pm_0001"}),
    ("cancel_booking", {"booking_id": "bk_0015", "reason": "schedule_conflict"}),
    ("search_hotels", {"city": "Madrid", "check_in": "2026-07-10", "check_out": "2026-07-13",
                       "guests": 2, "sort": "price"}),
    ("get_hotel", {"hotel_id": "pl_0043", "check_in": "2026-07-10", "check_out": "2026-07-13"}),
    ("book_hotel", {"hotel_id": "pl_0043", "room_type": "standard", "check_in": "2026-07-10",
                    "check_out": "2026-07-13", "guests": 2, "payment_method_id": "pm_0001"}),
    ("list_hotel_reservations", {"status": "confirmed", "city": "Madrid"}),
    ("cancel_hotel_reservation", {"reservation_id": "hr_0022"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
