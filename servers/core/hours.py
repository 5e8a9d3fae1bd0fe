"""Weekly opening hours of the world's places: one source for every server that shows a place
(maps, food_delivery, travel_booking), so the same place is open at the same instant on all.

Hours are local wall-clock spans on the place's own city clock ('12:00-15:00'; '24:00' closes
at midnight), per weekday ('mon'..'sun'; an empty list is a closed day).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import TypedDict

Hours = dict[str, list[str]]
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# shops close on Sundays by law there (maps and retail_chain show the same store hours)
SUNDAY_CLOSED = ("Germany", "France", "Spain", "Netherlands")
DAY_NAMES = {"mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday",
             "fri": "Friday", "sat": "Saturday", "sun": "Sunday"}


class WeeklyHours(TypedDict):
    """Hours as the tools show them (an MCP output schema)."""
    mon: list[str]
    tue: list[str]
    wed: list[str]
    thu: list[str]
    fri: list[str]
    sat: list[str]
    sun: list[str]


def copied(hours: Hours) -> Hours:
    """A session's own copy: a state's rows must not share lists with the cached world."""
    return {d: list(spans) for d, spans in hours.items()}


def make_hours(kind: str, name: str, country: str, rng: random.Random) -> Hours:
    """Weekly opening hours typical of the kind of place (some days closed)."""
    if kind == "hotel":  # the front desk never closes
        return {d: ["00:00-24:00"] for d in DAYS}
    if kind == "restaurant":
        if rng.random() < 0.5:
            spans = [_span(rng, 12, 15), _span(rng, 19, 23)]
            return {d: ([] if d == "mon" else spans) for d in DAYS}
        span = _span(rng, 11.5, 22.5)
        return {d: [span] for d in DAYS}
    if kind == "cafe":
        week, weekend = _span(rng, 7, 18), _span(rng, 8, 17)
        closed_sun = rng.random() < 0.3
        return {d: ([] if d == "sun" and closed_sun else [weekend if d in ("sat", "sun")
                                                            else week]) for d in DAYS}
    if kind == "store":
        span = _span(rng, 10, 20)
        sunday = ([_span(rng, 11, 17)] if rng.random() < 0.5 and country not in SUNDAY_CLOSED
                  else [])
        return {d: (sunday if d == "sun" else [span]) for d in DAYS}
    if "Park" in name:
        return {d: ["06:00-22:00"] for d in DAYS}
    span = _span(rng, 9, 22 if "Tower" in name else 18)
    return {d: ([] if d == "mon" and "Tower" not in name else [span]) for d in DAYS}


def _span(rng: random.Random, open_h: float, close_h: float) -> str:
    def hhmm(h: float) -> str:
        return "24:00" if h >= 24 else f"{int(h):02d}:{round((h % 1) * 60):02d}"
    return f"{hhmm(open_h + rng.choice([0, 0, 0.5]))}-{hhmm(close_h - rng.choice([0, 0, 0.5]))}"


def spans_on(hours: Hours, day: dt.date) -> list[str]:
    return hours[DAYS[day.weekday()]]


def is_open(hours: Hours, local: dt.datetime) -> bool:
    """Open at this local wall-clock time (read on the place's own city clock)?"""
    clock = local.strftime("%H:%M")
    return any(span[:5] <= clock < span[6:] for span in spans_on(hours, local.date()))


def minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:5])


def summary(hours: Hours) -> str:
    """One line for a whole week: the most common day's spans, then the days that differ
    ('12:00-15:00, 19:00-23:00; closed Monday')."""
    text = {d: ", ".join(hours[d]) or "closed" for d in DAYS}
    usual = max(DAYS, key=lambda d: (list(text.values()).count(text[d]), -DAYS.index(d)))
    parts = [text[usual]]
    for d in DAYS:
        if text[d] != text[usual]:
            parts.append(f"{text[d]} {DAY_NAMES[d]}" if text[d] == "closed"
                         else f"{DAY_NAMES[d]} {text[d]}")
    return "; ".join(parts)
