"""travel_booking tools: hotels (the world's hotel places, id = maps place id) and the user's
hotel reservations."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from servers.core import clock, hours, money, paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.travel_booking.common import (
    DOMAIN,
    bookable_date,
    charge,
    date_arg,
    now,
    out,
    refund_to,
)
from servers.travel_booking.data import (
    HOTEL_FREE_CANCEL_DAYS,
    MAX_NIGHTS,
    MAX_ROOMS,
    ROOM_TYPES,
    TODAY,
    nightly_price,
    rooms_available,
    stay_total,
)
from servers.travel_booking.models import (
    Hotel,
    HotelCancelOut,
    HotelReservation,
    HotelSearch,
    HotelSummary,
    ReservationList,
    RoomOption,
)

HotelId = Annotated[str, Arg(
    "Hotel id, which is the hotel's maps place id, e.g. 'pl_bap2y2' (from search_hotels)")]
RoomType = Literal["standard", "deluxe", "suite"]
CheckIn = Annotated[str | None, date_arg("Check-in date")]
CheckOut = Annotated[str | None, date_arg("Check-out date, after check-in")]
POLICY = (f"free cancellation until {HOTEL_FREE_CANCEL_DAYS} days before check-in; later "
          "cancellations are charged the first night")


def _stay(check_in: str | None, check_out: str | None) -> tuple[dt.date, dt.date] | None:
    if check_in is None and check_out is None:
        return None
    if check_in is None or check_out is None:
        raise ToolError("give both check_in and check_out (or neither to skip availability)")
    start, end = bookable_date(check_in, "check_in"), bookable_date(check_out, "check_out")
    if end <= start:
        raise ToolError(f"check_out {check_out} must be after check_in {check_in}")
    if (end - start).days > MAX_NIGHTS:
        raise ToolError(f"stays are limited to {MAX_NIGHTS} nights; this one is "
                        f"{(end - start).days}")
    return start, end


def _rooms(s: State, hotel: Row, stay: tuple[dt.date, dt.date] | None, rooms: int
           ) -> list[RoomOption]:
    rows = []
    for r in hotel["rooms"]:
        avail = total = None
        if stay is not None:
            avail = rooms_available(s, hotel, r["room_type"], *stay)
            total = stay_total(hotel, r["room_type"], *stay, rooms) if avail >= rooms else None
        rows.append({"room_type": r["room_type"], "beds": r["beds"],
                     "max_guests": r["max_guests"], "nightly_rate": out(s, r["nightly_rate"]),
                     "available_rooms": avail, "stay_total": out(s, total),
                     "currency": money.currency_of(s)})
    return rows


def _summary(s: State, hotel: Row, stay: tuple[dt.date, dt.date] | None, guests: int
             ) -> HotelSummary:
    fitting = [r for r in _rooms(s, hotel, stay, 1) if r["max_guests"] >= guests]
    totals = [r["stay_total"] for r in fitting if r["stay_total"] is not None]
    return {"hotel_id": hotel["hotel_id"], "place_id": hotel["place_id"], "name": hotel["name"],
            "city": hotel["city"], "address": hotel["address"], "stars": hotel["stars"],
            "rating": hotel["rating"], "price_from": min(r["nightly_rate"] for r in fitting),
            "currency": money.currency_of(s),
            "available": None if stay is None else bool(totals),
            "stay_total_from": min(totals) if totals else None}


@DOMAIN.tool(read_only=True)
def search_hotels(
        s: State,
        city: Annotated[str | None, Arg("City name, e.g. 'Lisbon'")] = None,
        query: Annotated[str | None, Arg(
            "Part of the hotel's name or address, or its place id (e.g. 'pl_bap2y2')")] = None,
        check_in: CheckIn = None, check_out: CheckOut = None,
        guests: Annotated[int, Arg("Guests in one room", minimum=1, maximum=4)] = 1,
        max_nightly_rate: Annotated[float | None, Arg(
            "Only hotels with a room from at most this nightly rate (the world's currency)",
            minimum=0.01)] = None,
        min_stars: Annotated[int | None, Arg("Only hotels with at least this many stars",
                                             minimum=1, maximum=5)] = None,
        sort: Annotated[Literal["rating", "price", "stars", "name"], Arg(
            "Order of the results (rating and stars: best first; price: cheapest first)")
        ] = "rating",
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> HotelSearch:
    """Search hotels by city, name or place id; with dates, shows availability and the
    cheapest total for the stay."""
    hotels = s["hotels"].rows()
    if city is not None:
        cities = sorted({h["city"] for h in hotels})
        hotels = [h for h in hotels if h["city"].lower() == city.strip().lower()]
        if not hotels:
            raise ToolError(f"no hotels in {city!r}; cities with hotels: {', '.join(cities)}")
    if query is not None:
        q = query.strip().lower()
        hotels = [h for h in hotels if q in h["name"].lower() or q in h["address"].lower()
                  or q == h["place_id"].lower()]
    stay = _stay(check_in, check_out)
    hi = None if max_nightly_rate is None else money.amount_in(s, max_nightly_rate,
                                                                "max_nightly_rate")
    found = [_summary(s, h, stay, guests) for h in hotels]
    found = [h for h in found
             if (hi is None or money.amount_in(s, h["price_from"]) <= hi)
             and (min_stars is None or h["stars"] >= min_stars)]
    key = {"rating": lambda h: (-h["rating"], h["name"]),
           "price": lambda h: (h["stay_total_from"] or h["price_from"], h["name"]),
           "stars": lambda h: (-h["stars"], -h["rating"], h["name"]),
           "name": lambda h: (h["name"], h["hotel_id"])}[sort]
    found.sort(key=key)
    pg = paging.page(found, limit, cursor, key="hotel_id")
    return {"hotels": pg.rows, "total": len(found), "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def get_hotel(s: State, hotel_id: HotelId, check_in: CheckIn = None, check_out: CheckOut = None,
              rooms: Annotated[int, Arg("Rooms wanted (for availability and totals)", minimum=1,
                                        maximum=MAX_ROOMS)] = 1) -> Hotel:
    """Hotel details and room types; with dates, rooms free on every night and the stay
    total for the number of rooms."""
    hotel = s["hotels"].get(hotel_id)
    stay = _stay(check_in, check_out)
    local = clock.now(s).astimezone(clock.city_zone(hotel["city"]))  # on the hotel's clock
    return {**{k: v for k, v in hotel.items() if k != "rooms"},
            "open_now": hours.is_open(hotel["opening_hours"], local),
            "rooms": _rooms(s, hotel, stay, rooms), "cancellation_policy": POLICY}


@DOMAIN.tool(read_only=False)
def book_hotel(
        s: State, hotel_id: HotelId, room_type: Annotated[RoomType, Arg("Room type")],
        check_in: Annotated[str, date_arg("Check-in date")],
        check_out: Annotated[str, date_arg("Check-out date, after check-in")],
        payment_method_id: Annotated[str, Arg(
            "Payment method id, e.g. 'pm_etab2s' (from list_payment_methods)")],
        guests: Annotated[int, Arg("Total guests", minimum=1, maximum=16)] = 1,
        rooms: Annotated[int, Arg("Rooms of this type", minimum=1, maximum=MAX_ROOMS)] = 1,
        guest_name: Annotated[str | None, Arg(
            "Name the reservation is under (default: the user)", min_length=3, max_length=60)
        ] = None) -> HotelReservation:
    """Book and pay for a hotel stay (the full stay total is charged now)."""
    hotel = s["hotels"].get(hotel_id)
    s["payment_methods"].get(payment_method_id)
    stay = _stay(check_in, check_out)
    assert stay is not None
    cap = ROOM_TYPES[room_type][1]
    if guests > cap * rooms:
        raise ToolError(f"a {room_type} room sleeps at most {cap}; {guests} guests need at "
                        f"least {-(-guests // cap)} rooms (or a bigger room type)")
    if guests < rooms:
        raise ToolError(f"{rooms} rooms for {guests} guest(s): every room needs a guest")
    left = rooms_available(s, hotel, room_type, *stay)
    if left < rooms:
        raise ToolError(f"only {left} {room_type} room(s) free at {hotel['name']} for "
                        f"{check_in} to {check_out}; try another room type, dates or hotel "
                        "(get_hotel shows availability)")
    total = stay_total(hotel, room_type, *stay, rooms)
    charge(s, payment_method_id, total)
    row = s["hotel_reservations"].insert({
        "reservation_id": s.next_id("hr"), "hotel_id": hotel_id, "place_id": hotel["place_id"],
        "hotel_name": hotel["name"], "city": hotel["city"], "room_type": room_type,
        "rooms": rooms, "guests": guests,
        "guest_name": " ".join(guest_name.split()) if guest_name else s.var("profile")["name"],
        "check_in": stay[0].isoformat(), "check_out": stay[1].isoformat(),
        "nights": (stay[1] - stay[0]).days, "total": total, "status": "confirmed",
        "payment_method_id": payment_method_id,
        "free_cancellation_until": (stay[0] - dt.timedelta(
            days=HOTEL_FREE_CANCEL_DAYS)).isoformat(),
        "created_at": now(s), "cancelled_at": None, "refund_amount": None})
    return reservation_out(s, row)


def reservation_out(s: State, row: Row) -> HotelReservation:
    return {**row, "total": out(s, row["total"]), "refund_amount": out(s, row["refund_amount"]),
            "currency": money.currency_of(s)}


@DOMAIN.tool(read_only=True)
def list_hotel_reservations(
        s: State,
        status: Annotated[Literal["confirmed", "completed", "cancelled"] | None, Arg(
            "Only reservations with this status")] = None,
        city: Annotated[str | None, Arg("Only stays in this city")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> ReservationList:
    """List the user's hotel reservations in check-in order."""
    rows = [r for r in s["hotel_reservations"].rows()
            if (status is None or r["status"] == status)
            and (city is None or r["city"].lower() == city.strip().lower())]
    rows.sort(key=lambda r: (r["check_in"], r["reservation_id"]))
    pg = paging.page(rows, limit, cursor, key="reservation_id")
    return {"reservations": [reservation_out(s, r) for r in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def cancel_hotel_reservation(s: State, reservation_id: Annotated[str, Arg(
        "Hotel reservation id, e.g. 'hr_ue4tze' (from list_hotel_reservations)")]
                             ) -> HotelCancelOut:
    """Cancel a confirmed hotel reservation before check-in. Free until two days before
    check-in; after that the first night is charged. Refunds go to the paying method."""
    res = s["hotel_reservations"].get(reservation_id)
    if res["status"] != "confirmed":
        raise ToolError(f"reservation {reservation_id} is {res['status']}; only confirmed "
                        "reservations can be cancelled")
    if res["check_in"] <= TODAY.isoformat():
        raise ToolError(f"the stay of reservation {reservation_id} began on {res['check_in']}; "
                        "a started stay cannot be cancelled, contact the hotel")
    fee = 0
    if TODAY.isoformat() > res["free_cancellation_until"]:
        first = nightly_price(s["hotels"].get(res["hotel_id"]), res["room_type"],
                              dt.date.fromisoformat(res["check_in"]))
        fee = min(res["total"], first * res["rooms"])
    refund = res["total"] - fee
    refund_to(s, res["payment_method_id"], refund)
    row = s["hotel_reservations"].update(reservation_id, status="cancelled",
                                         cancelled_at=now(s), refund_amount=refund)
    return {"reservation": reservation_out(s, row), "refund_amount": out(s, refund),
            "cancellation_fee": out(s, fee), "currency": money.currency_of(s)}
