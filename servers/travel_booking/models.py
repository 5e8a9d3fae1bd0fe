"""travel_booking: output shapes (TypedDicts become the tools' MCP output schemas)."""

from __future__ import annotations

from typing import TypedDict

from servers.core.hours import WeeklyHours


class Loyalty(TypedDict):
    program: str
    member_number: str
    tier: str
    miles: int
    benefits: list[str]


class SavedPassenger(TypedDict):
    name: str
    relationship: str
    date_of_birth: str


class Profile(TypedDict):
    traveler_id: str
    name: str
    email: str
    phone: str
    date_of_birth: str
    nationality: str
    home_airport: str
    passport_number_last4: str
    passport_expires: str
    loyalty: Loyalty
    saved_passengers: list[SavedPassenger]


class PaymentMethod(TypedDict):
    payment_method_id: str
    kind: str
    label: str
    last4: str | None
    expires: str
    expired: bool
    balance: float | None
    currency: str


class PaymentMethodList(TypedDict):
    payment_methods: list[PaymentMethod]


class Airport(TypedDict):
    code: str
    name: str
    city: str
    country: str
    lat: float
    lon: float
    utc_offset_hours: int


class AirportList(TypedDict):
    airports: list[Airport]


class FlightOffer(TypedDict):
    flight_number: str
    airline: str
    origin: str
    destination: str
    date: str
    departure: str
    arrival: str
    duration_minutes: int
    stops: int
    aircraft: str
    cabin: str
    fare: float
    total_fare: float
    currency: str
    seats_left: int


class FlightSearch(TypedDict):
    flights: list[FlightOffer]
    total: int
    notice: str | None


class FlightStatus(TypedDict):
    flight_number: str
    date: str
    origin: str
    destination: str
    status: str
    scheduled_departure: str
    estimated_departure: str
    scheduled_arrival: str
    estimated_arrival: str
    delay_minutes: int
    terminal: str
    gate: str


class SeatMap(TypedDict):
    flight_number: str
    date: str
    cabin: str
    available_seats: list[str]
    total_available: int
    extra_legroom_seats: list[str]
    extra_legroom_fee: float
    currency: str
    layout: str


class Passenger(TypedDict):
    name: str
    seat: str | None


class Charge(TypedDict):
    description: str
    amount: float
    currency: str
    payment_method_id: str
    at: str


class Booking(TypedDict):
    booking_id: str
    status: str
    flight_number: str
    airline: str
    origin: str
    destination: str
    date: str
    departure: str
    arrival: str
    cabin: str
    passengers: list[Passenger]
    checked_bags: int
    free_bag_allowance: int
    fare_per_passenger: float
    insurance: bool
    payment_method_id: str | None
    charges: list[Charge]
    total_paid: float
    currency: str
    created_at: str
    hold_expires_at: str | None
    cancelled_at: str | None
    refund_if_cancelled: float | None
    miles_to_earn: int


class BookingSummary(TypedDict):
    booking_id: str
    status: str
    flight_number: str
    origin: str
    destination: str
    date: str
    departure: str
    cabin: str
    passenger_count: int
    total_paid: float
    currency: str


class BookingList(TypedDict):
    bookings: list[BookingSummary]
    total: int
    next_cursor: str | None


class RefundShare(TypedDict):
    payment_method_id: str
    amount: float
    currency: str


class CancelOut(TypedDict):
    booking: Booking
    refund_amount: float
    currency: str
    cancellation_fee: float
    refunds: list[RefundShare]
    policy: str


class ChangeOut(TypedDict):
    booking: Booking
    fare_difference: float
    change_fee: float
    amount_charged: float
    amount_refunded: float
    currency: str


class BaggageOut(TypedDict):
    booking: Booking
    bags_added: int
    free_bag_allowance: int
    amount_charged: float
    currency: str


class SeatOut(TypedDict):
    booking: Booking
    passenger_name: str
    seat: str
    fee_charged: float
    currency: str


class InsuranceOut(TypedDict):
    booking: Booking
    premium_charged: float
    currency: str


class RoomOption(TypedDict):
    room_type: str
    beds: str
    max_guests: int
    nightly_rate: float
    available_rooms: int | None
    stay_total: float | None
    currency: str


class HotelSummary(TypedDict):
    hotel_id: str
    place_id: str
    name: str
    city: str
    address: str
    stars: int
    rating: float
    price_from: float
    currency: str
    available: bool | None
    stay_total_from: float | None


class HotelSearch(TypedDict):
    hotels: list[HotelSummary]
    total: int
    next_cursor: str | None


class Hotel(TypedDict):
    hotel_id: str
    place_id: str
    name: str
    city: str
    country: str
    address: str
    lat: float
    lon: float
    stars: int
    rating: float
    amenities: list[str]
    check_in_time: str
    check_out_time: str
    opening_hours: WeeklyHours  # the front desk's, local to the city; as on maps
    open_now: bool
    rooms: list[RoomOption]
    cancellation_policy: str


class HotelReservation(TypedDict):
    reservation_id: str
    hotel_id: str
    place_id: str
    hotel_name: str
    city: str
    room_type: str
    rooms: int
    guests: int
    guest_name: str
    check_in: str
    check_out: str
    nights: int
    total: float
    currency: str
    status: str
    payment_method_id: str
    free_cancellation_until: str
    created_at: str
    cancelled_at: str | None
    refund_amount: float | None


class ReservationList(TypedDict):
    reservations: list[HotelReservation]
    total: int
    next_cursor: str | None


class HotelCancelOut(TypedDict):
    reservation: HotelReservation
    refund_amount: float
    currency: str
    cancellation_fee: float
