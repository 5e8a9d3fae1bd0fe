"""travel_booking domain rules: holds and payment, seat inventory, refund and change rules,
baggage allowance, seats (hotels: test_travel_booking_hotels.py)."""

from __future__ import annotations

import pytest

from servers.core import money
from servers.core.runtime import Runtime
from servers.travel_booking import DOMAIN
from tests.servers import money_ops
from tests.servers.common import (
    assert_world_varies,
    fails,
    ok,
    row_where,
    rows_where,
    runtime_fixture,
)
from tests.servers.money_ops import SEEDS
from tests.servers.travel_rows import cents, pm

rt = runtime_fixture(DOMAIN)


def _offer(rt: Runtime, flight_number: str, date: str, origin: str, dest: str,
           cabin: str = "economy") -> dict:
    found = ok(rt, "search_flights", {"origin": origin, "destination": dest, "date": date,
                                       "cabin": cabin})["flights"]
    return next(f for f in found if f["flight_number"] == flight_number)


def _voucher(rt: Runtime) -> float:
    """The voucher's balance in EUR (seed 0's currency)."""
    return money.to_major(row_where(rt, "payment_methods", label="Travel voucher")["balance"],
                          "EUR")


def _plain_booking(rt: Runtime) -> dict:
    """An upcoming confirmed economy booking for one passenger, paid by card weeks ago with
    no paid extras (its bags within gold's free 2, no insurance): its only charge is the fare
    (above the cancel fee)."""
    return next(b for b in rows_where(rt, "bookings", status="confirmed", cabin="economy",
                                      insurance=False)
                if len(b["passengers"]) == 1 and b["date"] > "2026-06-20"
                and b["checked_bags"] <= 2 and len(b["charges"]) == 1
                and b["charges"][0]["amount"] > CANCEL)


def _to_three_bags(booking: dict) -> int:
    """Bags to add so the booking has 3: one over gold economy's free 2."""
    return 3 - booking["checked_bags"]


# seed 0 is an EUR world: the USD-like fees 200, 45, 30 and 75 are 180, 40.50, 27 and 67.50
CANCEL, BAG, INSURANCE, CHANGE = 18000, 4050, 2700, 6750


def test_hold_takes_seats_and_confirm_charges_the_held_fare(rt):
    before = _offer(rt, "BH854", "2026-07-10", "BER", "MAD")
    held = ok(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-07-10",
                                   "cabin": "economy",
                                   "passenger_names": ["Oscar Ito", "Amara Okafor"]})
    assert held["status"] == "held" and held["total_paid"] == 0.0
    assert held["fare_per_passenger"] == before["fare"]
    assert _offer(rt, "BH854", "2026-07-10", "BER", "MAD")["seats_left"] == \
        before["seats_left"] - 2
    bid = held["booking_id"]
    fails(rt, "select_seat", {"booking_id": bid, "passenger_name": "Oscar Ito",
                               "seat": "24A"}, "confirm it with confirm_booking")
    fails(rt, "confirm_booking", {"booking_id": bid, "payment_method_id": pm(rt, "Mastercard")},
           "expired")
    fails(rt, "confirm_booking", {"booking_id": bid,
                                  "payment_method_id": pm(rt, "Travel voucher")}, "not enough")
    visa = pm(rt, "Visa credit card")
    done = ok(rt, "confirm_booking", {"booking_id": bid, "payment_method_id": visa})
    assert done["status"] == "confirmed" and done["total_paid"] == before["fare"] * 2
    fails(rt, "confirm_booking", {"booking_id": bid, "payment_method_id": visa}, "not held")
    fails(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-07-10",
                               "cabin": "economy"}, "already on BH854")


def test_hold_validates_schedule_cabin_and_names(rt):
    fails(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-06-01",
                               "cabin": "economy"}, "in the past")
    fails(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-07-10",
                               "cabin": "premium_economy"}, "has no premium_economy cabin")
    fails(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-07-10",
                               "cabin": "economy", "passenger_names": ["Oscar"]},
           "first and last name")
    fails(rt, "hold_flight", {"flight_number": "ZZ999", "date": "2026-07-10",
                               "cabin": "economy"}, "ZZ999")
    fails(rt, "search_flights", {"origin": "XYZ", "destination": "MAD",
                                  "date": "2026-07-10"}, "list_airports")


def test_cancel_refund_rules(rt):
    state = rt.session(None).state
    # an economy booking made weeks ago, uninsured: the per-passenger fee applies
    old = next(b for b in state["bookings"].rows()
               if b["status"] == "confirmed" and b["cabin"] == "economy"
               and not b["insurance"] and b["date"] > "2026-06-16"
               and b["payment_method_id"] != pm(rt, "Travel voucher"))
    paid = ok(rt, "get_booking", {"booking_id": old["booking_id"]})["total_paid"]
    fee = min(cents(paid), CANCEL * len(old["passengers"]))
    out = ok(rt, "cancel_booking", {"booking_id": old["booking_id"], "reason": "illness"})
    assert cents(out["refund_amount"]) == cents(paid) - fee
    assert cents(out["cancellation_fee"]) == fee
    assert out["booking"]["status"] == "cancelled"
    assert cents(out["booking"]["total_paid"]) == fee
    fails(rt, "cancel_booking", {"booking_id": old["booking_id"], "reason": "other"},
           "is cancelled")
    # a booking made today is fully refundable (24-hour rule), to the voucher that paid
    held = ok(rt, "hold_flight", {"flight_number": "NV208", "date": "2026-08-26",
                                   "cabin": "economy", "passenger_names": ["Amara Okafor"]})
    balance = _voucher(rt)
    paid = ok(rt, "confirm_booking", {"booking_id": held["booking_id"],
                                       "payment_method_id": pm(rt, "Travel voucher")}
              )["total_paid"]
    assert cents(_voucher(rt)) == cents(balance) - cents(paid)
    out = ok(rt, "cancel_booking", {"booking_id": held["booking_id"], "reason": "other"})
    assert out["refund_amount"] == paid and out["cancellation_fee"] == 0.0
    assert _voucher(rt) == balance
    # flights already flown cannot be cancelled
    flown = next(b for b in state["bookings"].rows() if b["status"] == "flown")
    fails(rt, "cancel_booking", {"booking_id": flown["booking_id"], "reason": "other"},
           "is flown")


def _refund_entries(booking: dict) -> list[tuple[str, float]]:
    return [(c["payment_method_id"], c["amount"]) for c in booking["charges"]
            if c["description"] == "refund on cancellation"]


def _fare_paid(rt: Runtime, booking_id: str) -> int:
    return sum(c["amount"] for c in rt.session(None).state["bookings"].get(booking_id)["charges"])


def test_cancel_refunds_extras_to_the_method_that_paid_them(rt):
    # economy, 1 passenger, its fare on a card weeks ago; gold allows 2 free bags
    booking = _plain_booking(rt)
    bid, card, voucher = booking["booking_id"], booking["payment_method_id"], pm(
        rt, "Travel voucher")
    fare = _fare_paid(rt, bid)
    assert _voucher(rt) == 157.5  # 175 USD-like
    ok(rt, "add_baggage", {"booking_id": bid, "bags": _to_three_bags(booking),
                           "payment_method_id": voucher})
    assert cents(_voucher(rt)) == 15750 - BAG
    out = ok(rt, "cancel_booking", {"booking_id": bid, "reason": "other"})
    # the fee is the fare's: the card gets the fare less the fee, the voucher its bag fee
    assert (cents(out["refund_amount"]), cents(out["cancellation_fee"])) == (fare - CANCEL + BAG,
                                                                       CANCEL)
    assert _voucher(rt) == 157.5
    assert [(m, cents(a)) for m, a in _refund_entries(out["booking"])] == [
        (card, -(fare - CANCEL)), (voucher, -BAG)]
    assert [(r["payment_method_id"], cents(r["amount"])) for r in out["refunds"]] == [
        (card, fare - CANCEL), (voucher, BAG)]


def test_cancel_keeps_the_insurance_premium_from_the_method_that_paid_it(rt):
    booking = _plain_booking(rt)
    bid, card, voucher = booking["booking_id"], booking["payment_method_id"], pm(
        rt, "Travel voucher")
    ok(rt, "add_baggage", {"booking_id": bid, "bags": _to_three_bags(booking),
                           "payment_method_id": voucher})
    ok(rt, "purchase_travel_insurance", {"booking_id": bid, "payment_method_id": voucher})
    fare = _fare_paid(rt, bid) - BAG - INSURANCE
    assert cents(_voucher(rt)) == 15750 - BAG - INSURANCE
    out = ok(rt, "cancel_booking", {"booking_id": bid, "reason": "illness"})
    assert (cents(out["refund_amount"]), cents(out["cancellation_fee"])) == (fare + BAG, INSURANCE)
    assert cents(_voucher(rt)) == 15750 - INSURANCE
    assert [(r["payment_method_id"], cents(r["amount"])) for r in out["refunds"]] == [
        (card, fare), (voucher, BAG)]


def test_cancel_of_a_held_booking_refunds_nothing(rt):
    held = ok(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-07-10",
                                   "cabin": "economy"})
    out = ok(rt, "cancel_booking", {"booking_id": held["booking_id"], "reason": "other"})
    assert out["refund_amount"] == 0.0 and out["refunds"] == []


def _same_route_change(rt: Runtime) -> tuple[dict, dict, str]:
    """An upcoming confirmed economy booking for one passenger, the other flight on its route
    with economy seats left in July (as search_flights offers it), and that date."""
    flights = rt.session(None).state["flights"]
    for booking in rows_where(rt, "bookings", status="confirmed", cabin="economy"):
        if len(booking["passengers"]) != 1 or booking["date"] <= "2026-06-20":
            continue
        old = flights.get(booking["flight_number"])
        for day in range(1, 32):
            date = f"2026-07-{day:02d}"
            offers = ok(rt, "search_flights", {"origin": old["origin"],
                                               "destination": old["destination"],
                                               "date": date, "cabin": "economy"})["flights"]
            new = next((f for f in offers if f["flight_number"] != old["flight_number"]
                        and f["seats_left"] >= 1), None)
            if new is not None:
                return booking, new, date
    raise AssertionError("no confirmed economy booking on a route with a second flight")


def test_change_flight_charges_fare_difference_and_fee_and_keeps_route(rt):
    found, new, date = _same_route_change(rt)
    bid = found["booking_id"]
    booking = ok(rt, "get_booking", {"booking_id": bid})
    assert ok(rt, "get_traveler_profile", {})["loyalty"]["tier"] == "gold"
    elsewhere = next(f for f in rt.session(None).state["flights"].rows()
                     if f["origin"] == new["origin"] and f["destination"] != new["destination"]
                     and f["days"] == list(range(7)))  # flies daily, so on `date` too
    fails(rt, "change_flight", {"booking_id": bid, "new_flight_number": elsewhere[
        "flight_number"], "new_date": date}, "must keep the route")
    out = ok(rt, "change_flight", {"booking_id": bid, "new_flight_number": new["flight_number"],
                                    "new_date": date,
                                    "payment_method_id": pm(rt, "Visa credit card")})
    diff = cents(new["fare"]) - cents(booking["fare_per_passenger"])
    assert cents(out["fare_difference"]) == diff and cents(out["change_fee"]) == CHANGE
    net = diff + CHANGE
    assert cents(out["amount_charged"]) == max(net, 0)
    assert cents(out["amount_refunded"]) == max(-net, 0)
    assert cents(out["booking"]["total_paid"]) == cents(booking["total_paid"]) + net
    assert out["booking"]["flight_number"] == new["flight_number"]
    assert all(p["seat"] is None for p in out["booking"]["passengers"])
    fails(rt, "change_flight", {"booking_id": bid, "new_flight_number": new["flight_number"],
                                 "new_date": date}, f"already on {new['flight_number']}")


def test_baggage_allowance_and_seat_selection(rt):
    held = ok(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-07-10",
                                   "cabin": "economy"})
    bid = held["booking_id"]
    ok(rt, "confirm_booking", {"booking_id": bid, "payment_method_id": pm(rt, "American Express")})
    out = ok(rt, "add_baggage", {"booking_id": bid, "bags": 3})
    allowance = out["free_bag_allowance"]  # gold economy: 1 + 1 per passenger
    assert allowance == 2 and cents(out["amount_charged"]) == BAG * (3 - allowance)
    fails(rt, "add_baggage", {"booking_id": bid, "bags": 2}, "at most 4 checked bags")
    seat_map = ok(rt, "get_seat_map", {"flight_number": "BH854", "date": "2026-07-10",
                                        "cabin": "economy"})
    seat = seat_map["available_seats"][0]
    booking = ok(rt, "select_seat", {"booking_id": bid, "passenger_name": "oscar ito",
                                      "seat": seat})["booking"]
    assert booking["passengers"][0] == {"name": "Oscar Ito", "seat": seat}
    after = ok(rt, "get_seat_map", {"flight_number": "BH854", "date": "2026-07-10",
                                     "cabin": "economy"})
    assert seat not in after["available_seats"]
    assert after["total_available"] == seat_map["total_available"] - 1
    other = ok(rt, "hold_flight", {"flight_number": "BH854", "date": "2026-07-10",
                                    "cabin": "economy", "passenger_names": ["Amara Okafor"]})
    ok(rt, "confirm_booking", {"booking_id": other["booking_id"],
                                "payment_method_id": pm(rt, "Visa credit card")})
    fails(rt, "select_seat", {"booking_id": other["booking_id"],
                               "passenger_name": "Amara Okafor", "seat": seat}, "is taken")
    fails(rt, "select_seat", {"booking_id": bid, "passenger_name": "Nobody Here",
                               "seat": seat_map["available_seats"][1]}, "no passenger named")
    fails(rt, "select_seat", {"booking_id": bid, "passenger_name": "Oscar Ito",
                               "seat": "2A"}, "not in the economy cabin")


def test_insurance_makes_the_fare_refundable(rt):
    state = rt.session(None).state
    old = next(b for b in state["bookings"].rows()
               if b["status"] == "confirmed" and b["cabin"] == "economy"
               and not b["insurance"] and b["date"] > "2026-06-20"
               and b["payment_method_id"] != pm(rt, "Mastercard"))
    out = ok(rt, "purchase_travel_insurance", {"booking_id": old["booking_id"]})
    pax = len(old["passengers"])
    assert cents(out["premium_charged"]) == INSURANCE * pax
    fails(rt, "purchase_travel_insurance", {"booking_id": old["booking_id"]},
           "already has travel insurance")
    paid = out["booking"]["total_paid"]
    refund = ok(rt, "cancel_booking", {"booking_id": old["booking_id"],
                                        "reason": "illness"})["refund_amount"]
    assert cents(refund) == cents(paid) - INSURANCE * pax


# ------------------------------------------------------------------ exact money


def test_a_jpy_world_fares_and_rates_are_whole_yen():
    rt = Runtime(DOMAIN, default_seed=10)
    s = rt.session(None).state
    for f in s["flights"].rows():
        assert all(isinstance(v, int) for v in f["base_fares"].values())
    methods = ok(rt, "list_payment_methods", {})["payment_methods"]
    voucher = next(m for m in methods if m["kind"] == "travel_voucher")
    assert isinstance(voucher["balance"], int) and voucher["currency"] == "JPY"
    hotel = s["hotels"].rows()[0]
    fails(rt, "search_hotels", {"city": hotel["city"], "max_nightly_rate": 9999.5},
          "max_nightly_rate 9999.5 has more decimals than JPY allows (0)")


def _method(s, label: str) -> str:
    return next(m["payment_method_id"] for m in s["payment_methods"].rows()
                if m["label"] == label)


def _makers() -> dict:
    def voucher_or_visa(rng, s):
        return rng.choice([_method(s, "Travel voucher"), _method(s, "Visa credit card")])

    def booking(rng, s):
        return rng.choice(s["bookings"].ids())

    def hotel(rng, s):
        h = rng.choice(s["hotels"].rows()[:6])
        day = 10 + rng.randint(0, 15)
        return {"hotel_id": h["hotel_id"], "room_type": rng.choice(["standard", "deluxe"]),
                "check_in": f"2026-07-{day:02d}", "check_out": f"2026-07-{day + 2:02d}",
                "payment_method_id": voucher_or_visa(rng, s)}

    return {
        "add_baggage": lambda rng, s: {"booking_id": booking(rng, s), "bags": 1,
                                       "payment_method_id": voucher_or_visa(rng, s)},
        "purchase_travel_insurance": lambda rng, s: {
            "booking_id": booking(rng, s), "payment_method_id": _method(s, "Travel voucher")},
        "cancel_booking": lambda rng, s: {"booking_id": booking(rng, s), "reason": "other"},
        "book_hotel": hotel,
        "cancel_hotel_reservation": lambda rng, s: {
            "reservation_id": rng.choice(s["hotel_reservations"].ids())},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_voucher_reconciles_with_charges_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s = rt.session(None).state
    voucher = _method(s, "Travel voucher")
    opening = s["payment_methods"].get(voucher)["balance"]
    before = {b["booking_id"]: len(b["charges"]) for b in s["bookings"].rows()}
    hotels_before = {r["reservation_id"]: r["status"] for r in s["hotel_reservations"].rows()}
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 100 and failed > 20
    moved = 0  # what the voucher paid (+) or got back (-) in this session
    for b in s["bookings"].rows():
        moved += sum(c["amount"] for c in b["charges"][before.get(b["booking_id"], 0):]
                     if c["payment_method_id"] == voucher)
        assert sum(c["amount"] for c in b["charges"]) >= 0
    for r in s["hotel_reservations"].rows():
        if r["payment_method_id"] != voucher:
            continue
        if r["reservation_id"] not in hotels_before:
            moved += r["total"]
        if r["status"] == "cancelled" and hotels_before.get(r["reservation_id"]) != "cancelled":
            moved -= r["refund_amount"]
    assert s["payment_methods"].get(voucher)["balance"] == opening - moved >= 0


def test_world_varies_by_seed():
    # flights and hotels are the world's schedule and places; the user's trips vary per seed
    assert_world_varies("travel_booking", {"bookings": "status", "hotel_reservations": "status"})
