"""servers/core/world.py: the shared world's shape, its invariants, and its determinism.
Counts are worked out from the generator's tables by hand (see each comment)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import os
import subprocess
import sys
from zoneinfo import ZoneInfo

import pytest

from servers.core.world import (
    CITIES,
    CUISINES,
    CURRENCY_DIGITS,
    REFERENCE_DATE,
    days_ago,
    make_world,
    rng_for,
)


def test_counts_and_id_formats():
    w = make_world(4)
    assert len(w.people) == 60 and len(w.companies) == 20 and len(w.cities) == 12
    # Per city: 4 restaurants + 2 cafes, hotels, stores and landmarks each = 12; 12 cities.
    assert len(w.places) == 144
    assert [p.id for p in w.people[:2]] == ["p_001", "p_002"] and w.people[-1].id == "p_060"
    assert w.companies[-1].id == "co_020" and w.places[-1].id == "pl_0144"
    assert len({p.name for p in w.people}) == 60  # names are drawn without replacement
    assert w.reference_date == REFERENCE_DATE == dt.date(2026, 6, 15)


def test_people_belong_to_their_company():
    w = make_world(4)
    by_id = {c.id: c for c in w.companies}
    for p in w.people:
        company = by_id[p.company_id]
        assert p.email == f"{p.first_name.lower()}.{p.last_name.lower()}@{company.domain}"
        assert p.city == company.city and p.name == f"{p.first_name} {p.last_name}"
    # Everyone but the user works at companies[i % 20] (index i in the people list).
    assert w.people[1].company_id == "co_002" and w.people[20].company_id == "co_001"
    assert w.user is w.people[0]


def test_places_stay_near_their_city():
    w = make_world(4)
    cities = {c[0]: c for c in CITIES}
    for pl in w.places:
        lat, lon = cities[pl.city][2:4]
        assert abs(pl.lat - lat) <= 0.05 and abs(pl.lon - lon) <= 0.05
        assert 3.2 <= pl.rating <= 4.9
        assert (pl.cuisine in CUISINES) if pl.kind == "restaurant" else pl.cuisine is None
    assert sum(pl.kind == "restaurant" for pl in w.places) == 48


def test_lookups_by_id():
    w = make_world(4)
    assert w.person("p_003") is w.people[2]
    assert w.company("co_005") is w.companies[4]
    with pytest.raises(KeyError, match="no person 'p_999' in the world of seed 4"):
        w.person("p_999")
    with pytest.raises(KeyError, match="no company 'zz' in the world of seed 4"):
        w.company("zz")


def test_a_world_is_cached_and_cannot_be_changed():
    w = make_world(4)
    assert make_world(4) is w
    with pytest.raises(dataclasses.FrozenInstanceError):
        w.people[0].name = "Mallory"  # type: ignore[misc]
    assert isinstance(w.people, tuple)  # no list to append to either


def test_seeds_give_different_worlds():
    assert make_world(4).people != make_world(5).people


def test_rng_streams_depend_on_seed_and_scope_only():
    draw = lambda *key: [rng_for(*key).random() for _ in range(3)]
    assert draw(1, "banking") == draw(1, "banking")
    assert draw(1, "banking") != draw(1, "email")
    assert draw(1, "banking") != draw(2, "banking")


def test_the_world_is_the_same_in_any_process():
    """String seeds hash with sha512, not hash(): PYTHONHASHSEED must not matter."""
    def world_hash_in(hash_seed: str) -> str:
        code = ("import hashlib; from servers.core.world import make_world; "
                "print(hashlib.sha256(repr(make_world(9)).encode()).hexdigest())")
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env=env).stdout.strip()

    here = hashlib.sha256(repr(make_world(9)).encode()).hexdigest()
    assert world_hash_in("1") == world_hash_in("2") == here


def test_days_ago():
    w = make_world(0)
    off = w.now.isoformat()[-6:]  # the home zone's June offset
    assert days_ago(w, 3) == f"2026-06-12T09:00{off}"  # no rng: 09:00, local, with offset
    assert days_ago(w, 0) == f"2026-06-15T09:00{off}"
    assert days_ago(w, 365) == f"2025-06-15T09:00{off}"
    rng = rng_for(0, "test")
    stamps = [days_ago(w, 15, rng) for _ in range(50)]
    for s in stamps:
        day, time = s.split("T")
        hour, minute = map(int, time[:5].split(":"))
        assert time[5:] == off
        assert day == "2026-05-31" and 7 <= hour <= 21 and minute in (0, 15, 30, 45)
    rng = rng_for(0, "test")
    assert [days_ago(w, 15, rng) for _ in range(50)] == stamps
    # seeded "today" is always before the world's now, so new writes sort after it
    rng = rng_for(0, "today")
    assert all(dt.datetime.fromisoformat(days_ago(w, 0, rng)) < w.now for _ in range(200))


# UTC offsets on 2026-06-15 and currencies, from the outside world (summer time in the north)
KNOWN = {"Lisbon": ("+01:00", "EUR"), "London": ("+01:00", "GBP"), "Berlin": ("+02:00", "EUR"),
         "New York": ("-04:00", "USD"), "San Francisco": ("-07:00", "USD"),
         "Tokyo": ("+09:00", "JPY"), "Singapore": ("+08:00", "SGD"),
         "Sydney": ("+10:00", "AUD"), "Toronto": ("-04:00", "CAD")}


def test_the_world_clock_and_currency_are_the_users_home_citys():
    seen = set()
    for seed in range(40):
        w = make_world(seed)
        assert w.home.name == w.user.city
        stamp = w.now.isoformat(timespec="minutes")
        assert stamp.startswith("2026-06-15T12:00") and w.now.utcoffset() is not None
        assert w.currency == w.home.currency and w.currency in CURRENCY_DIGITS
        if w.home.name in KNOWN:
            offset, currency = KNOWN[w.home.name]
            assert stamp.endswith(offset) and w.currency == currency, (seed, w.home.name)
        seen.add(w.home.name)
    assert len(seen) >= 4  # the home city (so the time zone) varies with the seed


def test_every_city_has_a_known_time_zone_and_currency():
    for city in make_world(0).cities:
        assert CURRENCY_DIGITS[city.currency] in (0, 2)
        assert dt.datetime(2026, 1, 1, tzinfo=ZoneInfo(city.tz)).utcoffset() is not None
    assert {c[0] for c in CITIES} >= set(KNOWN)
