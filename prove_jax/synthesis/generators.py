"""Values that are not looked up but made up the way a user would: amounts, counts, dates in the
format a schema asks for, short free texts by argument name, strings for simple regex patterns.
Plus a small schema checker, so a proposed call that does not fit its schema is regenerated
before it is sent (the state machine's "malformed call" branch).
"""

from __future__ import annotations

import datetime as dt
import math
import random
import re
import string
from typing import Any

from prove_jax.synthesis.schemas import json_type, schema_types
from prove_jax.synthesis.textbanks import TOOL_TEXT

__all__ = ["OFFERED_AGAINST", "TOOL_TEXT", "check_value", "date_format", "gen_date", "gen_number",
           "gen_text", "offer_below", "sample_regex"]

TEXT: dict[str, tuple[str, ...]] = {
    "note": ("dinner", "rent share", "concert tickets", "groceries", "birthday gift",
             "team lunch", "taxi home", "book club", "coffee", "utilities", "movie night"),
    "memo": ("monthly savings", "rent June", "trip fund", "card payment", "household",
             "emergency fund", "tuition"),
    "message": ("Is this still available?", "Could you do a little less?",
                "I can pick it up this weekend.", "Thanks, see you soon!"),
    "comment": ("Smooth pickup, item as described.", "Friendly seller, quick replies.",
                "Item was a bit worn but fine.", "Great communication, would buy again."),
    "body": ("Hi, just checking in on this. Thanks!", "Thanks for the update, looks good to me.",
             "Can we move this to next week?", "Please find my notes below. Talk soon.",
             "Sounds great, count me in."),
    "subject": ("Quick question", "Follow-up", "Meeting notes", "Invoice for June",
                "Weekend plans", "Project update", "Schedule change"),
    "title": ("Project sync", "Dentist appointment", "Lunch with the team", "Quarterly review"),
    "description": ("Lightly used, all parts included.", "Agenda to follow.",
                    "Pick-up only, cash or transfer.", "Bring the printed report."),
    "details": ("I never made this purchase.", "I was charged twice for the same order.",
                "The item never arrived."),
    "content": ("TODO: review the budget", "Meeting notes: ship v2 on Friday",
                "Ideas for the team offsite", "Remember to renew the passport"),
    "name": ("Travel", "Receipts", "Project Phoenix", "Landlord", "Side projects", "Taxes"),
    "new_name": ("report_final.csv", "notes_old.txt", "summary_v2.md", "archive_2026.txt"),
    "nickname": ("Rent", "Gym", "Landlord", "Daycare", "Piano lessons"),
    "label": ("important", "follow-up", "travel", "Home", "Office"),
    "recipient_name": ("Alex Morgan", "Sam Rivera", "Jordan Lee"),
    # a person, not the last word's pool ("seat '23A' for 'Taxes'")
    **{k: ("Alex Morgan", "Sam Rivera", "Jordan Lee") for k in ("passenger_name", "guest_name",
                                                                 "display_name")},
    "first_name": ("Alex", "Sam", "Jordan", "Priya", "Mateo", "Yuki", "Leila"),
    "last_name": ("Morgan", "Rivera", "Lee", "Shah", "Okafor", "Tanaka", "Novak"),
    "line1": ("12 Market St", "48 Oak Ave", "7 Harbor Rd", "221 King St"),
    "line2": ("Apt 4B", "Floor 3", "Suite 210"),
    "city": ("Lisbon", "Berlin", "Paris", "Madrid", "Toronto", "Tokyo"),
    "country": ("Portugal", "Germany", "France", "Spain", "Canada", "Japan"),
    "postal_code": ("10117", "75001", "28013", "M5V 2T6"),
    "phone": ("+1-555-201-3344", "+1-555-867-5309"),
    "location": ("Room 4.12", "Cafe downstairs", "Main office", "Video call"),
    "merchant": ("Corner Bakery", "City Parking", "Green Grocer", "Metro Pharmacy"),
    "reason": ("ordered by mistake", "found a better price", "no longer needed"),
    "tag": ("tax-2025", "work", "personal", "archive", "receipts"),
    "replace": ("DONE", "updated", "2026"),
    "text": ("Is this still available?", "Could you hold it until Friday?",
             "Thanks, see you soon!"),
}
# ISO 4217 currencies without a minor unit: amounts are whole numbers, and a typical price is
# some hundred times its dollar figure (a coffee costs ~600 yen), so USD-like draws are scaled.
ZERO_DECIMAL_CURRENCIES = frozenset({"JPY", "KRW", "VND", "CLP", "ISK", "PYG", "UGX"})
ZERO_DECIMAL_SCALE = 100
# An amount offered against a record's price stands to it: a little under the asking price,
# rounded as a person rounds (a reading found 5000 offered on a listing priced 48,000). Keyed
# tool -> (argument, the priced record's field).
OFFERED_AGAINST = {"make_offer": ("amount", "price")}
QUERY_LIKE = ("query", "pattern", "contains", "name_contains", "keyword", "search", "find", "q")


def check_value(value: Any, schema: dict) -> bool:
    """Does `value` fit `schema` (type, enum, range, length, pattern, items)?"""
    types = schema_types(schema)
    actual = json_type(value)
    if types and actual not in types and not (actual == "integer" and "number" in types):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if actual in ("integer", "number"):
        if value < schema.get("minimum", -float("inf")) or \
                value > schema.get("maximum", float("inf")):
            return False
    elif actual == "string":
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", 10 ** 9):
            return False
        if "pattern" in schema and not re.fullmatch(schema["pattern"], value):
            return False
    elif actual == "array":
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", 10 ** 9):
            return False
        items = schema.get("items") or {}
        return all(check_value(v, items) for v in value)
    return True


def gen_text(name: str, schema: dict, rng: random.Random, tool: str = "") -> str | None:
    """A free text for argument `name` of `tool`, from the tool's own bank, else the
    argument's (exact name, then its last word), else the example in its description
    ("e.g. 'SUMMER15'")."""
    bank = TOOL_TEXT.get((tool, name)) or TEXT.get(name) or TEXT.get(name.rsplit("_", 1)[-1])
    options = [t for t in bank or () if check_value(t, schema)]
    if options:
        return rng.choice(options)
    m = re.search(r"e\.g\. '([^']+)'", schema.get("description") or "")
    if m and check_value(m.group(1), schema):
        return m.group(1)
    if "pattern" in schema:
        value = sample_regex(schema["pattern"], rng)
        if value is not None and check_value(value, schema):
            return value
    return None


def gen_number(name: str, schema: dict, rng: random.Random, integer: bool,
               currency: str | None = None) -> float | int:
    """A plausible number for `name` inside the schema's range; money-like names follow the
    world's `currency` (as its live outputs name it) where it has no minor unit."""
    n = name.lower()
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if integer:
        if "rating" in n:
            v = rng.randint(1, 5)
        elif "quantity" in n or n == "count":
            v = rng.randint(1, 3)
        elif "minutes" in n:
            v = rng.choice([10, 15, 30, 60])
        elif "duration" in n:
            v = rng.choice([30, 45, 60, 90])
        elif "threshold" in n or "percent" in n:
            v = rng.choice([70, 75, 80, 90])
        elif n in ("limit", "max_results", "lines") or n.endswith("_limit"):
            v = rng.choice([3, 5, 10, 20])
        elif "offset" in n:
            v = rng.choice([0, 5, 10])
        else:
            v = int(lo or 1) + rng.randint(0, 4)
    elif "rating" in n:
        v = rng.choice([3.5, 4.0, 4.5])
    elif "temperature" in n:  # a room's, not 30 degrees: Fahrenheit where the name says so
        v = rng.choice([68, 70, 72, 74]) if n.endswith("_f") else \
            rng.choice([19.0, 20.0, 20.5, 21.0, 22.0, 23.0])
    elif any(w in n for w in ("amount", "price", "limit", "budget", "cost", "value", "total")):
        v = (rng.choice([15, 20, 25, 40, 50, 60, 75, 100, 120, 150]) if rng.random() < 0.5
             else round(rng.uniform(5, 180), 2))
        if currency in ZERO_DECIMAL_CURRENCIES:
            v = int(round(v * ZERO_DECIMAL_SCALE, -1))
    else:
        v = round(rng.uniform(1, 100), 2)
    if lo is not None and v < lo:
        v = lo
    if hi is not None and v > hi:
        v = hi
    return int(v) if integer else float(v)


def offer_below(price: float, rng: random.Random) -> float:
    """A round offer 8-25% under `price`, never above it."""
    step = 10 ** max(0, int(math.log10(max(price, 1))) - 1)  # 450 -> 10, 48000 -> 1000
    offer = math.floor(price * rng.uniform(0.75, 0.92) / step) * step
    return float(offer if offer >= step else price)


def date_format(name: str, schema: dict) -> str | None:
    """'datetime' | 'date' | 'month' when the argument holds a date-like string."""
    if "string" not in schema_types(schema):
        return None
    pat, desc = schema.get("pattern") or "", schema.get("description") or ""
    if ("T" in pat and r"\d{2}:" in pat) or "YYYY-MM-DDTHH:MM" in desc or \
            re.search(r"'\d{4}-\d{2}-\d{2}T\d{2}:\d{2}'", desc):
        return "datetime"
    if pat.startswith(r"\d{4}-(0") or re.search(r"YYYY-MM(?!-)", desc):
        return "month"
    if pat == r"\d{4}-\d{2}-\d{2}" or "YYYY-MM-DD" in desc or \
            re.search(r"'\d{4}-\d{2}-\d{2}'", desc):
        return "date"
    return None


def gen_date(fmt: str, name: str, schema: dict, today: dt.date, rng: random.Random,
             future: bool, after: str | None = None) -> str:
    """A date-like string relative to `today` (the world's reference date); `after` is a start
    value this one must follow (an end date)."""
    desc = (schema.get("description") or "").lower()
    if after is not None:
        if fmt == "datetime":
            start = dt.datetime.fromisoformat(after)
            return (start + dt.timedelta(minutes=rng.choice([30, 60, 90]))).isoformat(
                timespec="minutes")
        if fmt == "date":
            return (dt.date.fromisoformat(after[:10])
                    + dt.timedelta(days=rng.choice([3, 7, 14]))).isoformat()
    if fmt == "month":
        month = today.month + (rng.choice([0, 1]) if future else rng.choice([0, -1, -2]))
        year = today.year + (month - 1) // 12
        return f"{year:04d}-{(month - 1) % 12 + 1:02d}"
    days = rng.randint(1, 21) if future else -rng.randint(0, 30)
    day = today + dt.timedelta(days=days)
    if "weekday" in desc or fmt == "datetime":
        while day.weekday() >= 5:
            day += dt.timedelta(days=1 if future else -1)
    if fmt == "date":
        return day.isoformat()
    return f"{day.isoformat()}T{rng.choice([9, 10, 11, 13, 14, 15, 16]):02d}:" \
           f"{rng.choice([0, 30]):02d}"


# ----------------------------------------------------------------------------- regex sampling
_CLASSES = {"d": string.digits, "w": string.ascii_letters + string.digits + "_",
            "s": " "}


def _parse_class(p: str, i: int) -> tuple[str, int]:
    """Characters of the class starting at p[i] == '['; returns (chars, index after ']')."""
    i += 1
    negate = p[i] == "^"
    chars, prev = [], None
    while p[i] != "]":
        c = p[i]
        if c == "\\":
            i += 1
            group = _CLASSES.get(p[i])
            chars.extend(group or p[i])
            prev = None if group else p[i]
        elif c == "-" and prev is not None and p[i + 1] != "]":
            i += 1
            chars.extend(chr(x) for x in range(ord(prev) + 1, ord(p[i]) + 1))
            prev = None
        else:
            chars.append(c)
            prev = c
        i += 1
    if negate:
        chars = [c for c in string.ascii_letters + string.digits if c not in chars]
    return "".join(dict.fromkeys(chars)), i + 1


def sample_regex(pattern: str, rng: random.Random) -> str | None:
    """A string matching a simple regex (classes, escapes, groups with |, quantifiers)."""
    try:
        out, _ = _sample_seq(pattern, 0, rng)
    except (IndexError, ValueError):
        return None
    return out if re.fullmatch(pattern, out) else None


def _sample_seq(p: str, i: int, rng: random.Random) -> tuple[str, int]:
    alternatives, current = [], []
    while i < len(p) and p[i] != ")":
        c = p[i]
        if c == "|":
            alternatives.append("".join(current))
            current = []
            i += 1
            continue
        if c in "^$":
            i += 1
            continue
        if c == "(":
            j = i + 3 if p.startswith("(?:", i) else i + 1
            atom, i = _sample_seq(p, j, rng)
            i += 1
            make = lambda atom=atom: atom
        elif c == "[":
            chars, i = _parse_class(p, i)
            make = lambda chars=chars: rng.choice(chars)
        elif c == "\\":
            group = _CLASSES.get(p[i + 1])
            lit = p[i + 1]
            i += 2
            make = (lambda group=group: rng.choice(group)) if group else (lambda lit=lit: lit)
        elif c == ".":
            i += 1
            make = lambda: rng.choice(string.ascii_lowercase)
        else:
            i += 1
            make = lambda c=c: c
        lo, hi = 1, 1
        if i < len(p) and p[i] in "*+?{":
            if p[i] == "{":
                j = p.index("}", i)
                parts = p[i + 1:j].split(",")
                lo = int(parts[0] or 0)
                hi = int(parts[1]) if len(parts) > 1 and parts[1] else lo if len(parts) == 1 \
                    else lo + 3
                i = j + 1
            else:
                lo, hi = {"*": (0, 3), "+": (1, 4), "?": (0, 1)}[p[i]]
                i += 1
        n = rng.randint(lo, min(hi, lo + 6))
        current.append("".join(make() for _ in range(n)))
    alternatives.append("".join(current))
    return rng.choice(alternatives), i
