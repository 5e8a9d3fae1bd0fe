"""How a user words what tells a record apart and the values a phrasing has no slot for:
"the email 'Budget' sent on May 25 at 6:45 pm", "my payment with Alice Xu for 'dinner'",
"sorted by 'newest'", "with the note 'go on a weekday'". A reading check found users who
spoke in field names and raw timestamps ("whose sent at is '2026-05-25T18:45+01:00'",
"using '2026-06-06' as the date to").

Only the wording is chosen here. What a phrase must single out is decided on the values
(references.py) and re-checked on them (resolution.py), so a timestamp may be said without
its offset or year: a world's records share one offset and lie within months of its today.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from prove_jax.synthesis.schemas import LABEL_FIELDS, humanize

__all__ = ["ANSWER_NOUNS", "BOOKED", "DATED", "VAGUE", "bool_clause", "has_clause",
           "literal_clause", "named_by_owner", "number", "qualify", "render_value", "said",
           "said_amount", "said_literal", "spoken_choice", "via_phrase", "when"]

_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?"
                  r"(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?$")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
DATED = re.compile(rf"\b(?:{'|'.join(_MONTHS)}) \d")  # a date said in words ("June 19")


def _clock(hour: int, minute: str, second: str | None = None) -> str:
    """18, '45' -> '6:45 pm' (seconds only where they are not zero)."""
    extra = f":{second}" if second and second != "00" else ""
    return f"{hour % 12 or 12}:{minute}{extra} {'am' if hour < 12 else 'pm'}"


def when(value: Any) -> str | None:
    """'2026-05-25T18:45+01:00' -> 'May 25 at 6:45 pm'; '2026-06-06' -> 'June 6'; None for
    anything that is not an ISO date."""
    m = _ISO.match(value) if isinstance(value, str) else None
    if m is None or not 1 <= int(m.group(2)) <= 12:
        return None
    day = f"{_MONTHS[int(m.group(2)) - 1]} {int(m.group(3))}"
    if m.group(4) is None:
        return day
    return f"{day} at {_clock(int(m.group(4)), m.group(5), m.group(6))}"


def render_value(value: Any) -> str:
    """A value as it appears in text; strings quoted so the model can copy them exactly."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"' if "'" in value else f"'{value}'"
    if isinstance(value, list):
        return ", ".join(render_value(v) for v in value)
    return json.dumps(value)


def number(value: Any) -> str:
    """25.0 -> '25', 12.5 -> '12.5' (the reward compares numbers by value)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return json.dumps(value)


def said(value: Any) -> str:
    """A value as the user says it inside a sentence: yes/no, numbers bare, text quoted."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return number(value)
    if isinstance(value, list):
        return ", ".join(said(v) for v in value)
    return render_value(value)


def said_literal(value: Any) -> str:
    """A value the user gives a tool: a date or a local time as a person writes it ("June 23",
    "June 30 at 1:00 pm"; the assistant knows today's date and the tool's format, and the
    reward compares date-times by their clock, rewards.canonical), anything else as `said`.
    A time with an offset stays literal: the words would drop it."""
    if isinstance(value, str) and _LOCAL.match(value) and (spoken := when(value)) is not None:
        return spoken
    if isinstance(value, str) and (m := _CLOCK.match(value)) and int(m.group(1)) < 24:
        return _clock(int(m.group(1)), m.group(2))  # '19:38' -> "7:38 pm"
    if isinstance(value, str) and (m := _YEAR_MONTH.match(value)):
        return f"{_MONTHS[int(m.group(2)) - 1]} {m.group(1)}"  # '2026-07' -> "July 2026"
    return said(value)


def said_amount(arg: str, value: Any) -> str | None:
    """A sum of money with its cents ("71.70", not "71.7"); None when `arg` is no amount."""
    if isinstance(value, float) and not value.is_integer() and _MONEY_ARG.search(arg):
        return _money(value)
    return None


_LOCAL = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::00)?)?$")  # no offset
_CLOCK = re.compile(r"^(\d{2}):([0-5]\d)$")
_YEAR_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
_MONEY_ARG = re.compile(r"amount|price|limit|budget|cost|total|fee|balance|salary|revenue")

_CODE = re.compile(r"^[a-z]+(?:_[a-z0-9]+)+$")
_WORD = re.compile(r"^[a-z]{3,}$")
# a sort order's direction as a person says it: 'price_asc' -> "lowest price first"
_ORDER_WORDS = {"asc": "lowest", "low": "lowest", "desc": "highest", "high": "highest"}
_TIME_ORDER = {"date", "time", "created", "posted", "updated"}  # "newest first", not "highest"


def spoken_choice(arg: str, value: Any) -> str | None:
    """An enum value the offered schema lists, in words: reason 'suspicious_activity' ->
    "suspicious activity", sort 'price_high' -> "highest price first", side 'buy' -> "buy"
    unquoted (None: not a lower-case code). The
    assistant maps it back to the code from the schema's list; where the row strips enums from
    the schema, the code is said as it is (dialogue.ArgSpec.choice stays False)."""
    if isinstance(value, str) and _WORD.match(value):
        return value  # "on the buy side", "giving the reason fraud": a word, not a quote
    if not isinstance(value, str) or not _CODE.match(value):
        return None
    head, _, last = value.rpartition("_")
    if ("sort" in arg or "order" in arg) and last in _ORDER_WORDS and "_" not in head:
        if head in _TIME_ORDER:
            return "oldest first" if _ORDER_WORDS[last] == "lowest" else "newest first"
        return f"{_ORDER_WORDS[last]} {head} first"
    return value.replace("_", " ")


def _money(value: Any) -> str:
    """2019.6 -> '2019.60' (a price is said with its cents), 25.0 -> '25'."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}"
    return number(value)


# A time field's verb: "sent on May 25 at 6:45 pm", "starting on July 1 at 3:00 pm"
_TIME_VERBS = (("created", "created"), ("sent", "sent"), ("posted", "posted"),
               ("placed", "placed"), ("start", "starting"), ("end", "ending"),
               ("due", "due"), ("updated", "updated"), ("scheduled", "scheduled for"),
               ("check_in", "checking in"), ("check_out", "checking out"),
               ("depart", "leaving"), ("arriv", "arriving"))
# Fields a person says with a preposition, not as "whose <field> is" (names unquoted)
_FIELD_PHRASES = {"amount": "for {n}", "total": "for {n}", "price": "for {n}",
                  "merchant": "at {s}", "store_name": "at {s}", "hotel_name": "at {s}",
                  "city": "in {s}", "counterparty_name": "with {s}", "from_name": "from {s}",
                  "from_email": "from {s}", "author_name": "by {s}", "seller_name": "sold by {s}",
                  "destination_name": "to {s}", "flight_number": "on flight {s}",
                  "last4": "ending in {s}", "note": "for {q}", "memo": "for {q}",
                  "status": "that is {w}", "description": "described as {q}",
                  "product_name": "for {q}", "item_name": "for {q}", "month": "for {l}"}


def _time_phrase(field: str, value: Any) -> str | None:
    said = when(value)
    if said is None:
        return None
    verb = next((v for k, v in _TIME_VERBS if field.startswith(k) or f"_{k}" in field), "from")
    return f"{verb} {said}" if verb.endswith(" for") else f"{verb} on {said}"


def _field_phrase(field: str, value: Any) -> str | None:
    form = _FIELD_PHRASES.get(field)
    if form is None:
        return None
    if "{n}" in form:
        return form.format(n=_money(abs(value))) if isinstance(value, (int, float)) \
            and not isinstance(value, bool) else None
    if not isinstance(value, str):
        return None
    # {w}: a status word said as a word ("that is on track"), not a quoted code; {l}: as a
    # user gives it ("for July 2026", not "for '2026-07'")
    return form.format(s=value, q=render_value(value), w=humanize(value), l=said_literal(value))


def qualify(pairs: list[tuple[str, Any]], named_first: bool = True) -> str:
    """What follows the noun to single a record out: its name first ("'Food'") unless the
    noun phrase already names it, then times and phrases a person uses ("sent on May 25 at
    6:45 pm", "for 17.62", "in Tokyo"), and whatever is left as "whose <field> is <value>"."""
    named, phrased, rest = [], [], []
    for i, (field, value) in enumerate(pairs):
        phrase = _time_phrase(field, value) or _field_phrase(field, value)
        label = named_first and i == 0 and field in LABEL_FIELDS and isinstance(value, str)
        if label and phrase is None:
            named.append(render_value(value))
        elif phrase is not None:
            phrased.append(phrase)
        else:
            rest.append(f"{humanize(field)} is {said(value)}")
    out = named + phrased
    if rest:
        out.append("whose " + " and ".join(rest))
    return " ".join(out)


# Literal arguments a phrasing has no slot for, as a person adds them: {v} is the value
_LITERAL_FORMS = {
    "limit": ("only the first {v}", "at most {v} of them"), "sort": ("sorted by {v}",),
    "sort_by": ("sorted by {v}",), "order_by": ("sorted by {v}",),
    "note": ("with the note {v}", "adding the note {v}"), "memo": ("with the memo {v}",),
    "title": ("titled {v}",), "subject": ("with the subject {v}",),
    "body": ("saying {v}",), "message": ("saying {v}",), "text": ("saying {v}",),
    "comment": ("with the comment {v}",), "description": ("with the description {v}",),
    "reason": ("giving the reason {v}", "because {v}"), "cc": ("copying {v}",),
    "bcc": ("blind-copying {v}",), "status": ("with status {v}",), "phone": ("phone {v}",),
    "email": ("email {v}",), "amount": ("for {v}",), "merchant": ("at {v}",),
    "city": ("in {v}",), "query": ("matching {v}", "searching for {v}"), "month": ("for {v}",),
    "time": ("at {v}",), "date": ("on {v}",), "start": ("starting {v}",), "end": ("ending {v}",),
    "date_from": ("from {v}", "since {v}"), "date_to": ("up to {v}", "until {v}"),
    "from_date": ("from {v}", "since {v}"), "to_date": ("up to {v}", "until {v}"),
    "start_date": ("from {v}",), "end_date": ("until {v}",),
    "since": ("since {v}",), "until": ("until {v}",), "due_date": ("due {v}",),
    "due_before": ("due before {v}",), "valid_until": ("valid until {v}",),
    "name": ("named {v}",), "location": ("at {v}",), "min_rating": ("rated at least {v}",),
    "max_price": ("under {v}",), "min_price": ("priced at least {v}",),
    "min_amount": ("of {v} or more",), "min_stars": ("with at least {v} stars",),
    "open_at": ("open at {v}",),
    "max_amount": ("of {v} or less",), "guest_name": ("for the guest {v}",),
    "passenger_name": ("for the passenger {v}",), "check_in": ("checking in {v}",),
    "check_out": ("checking out {v}",), "payment_method": ("paying by {v}",),
    "method": ("paying by {v}",), "color": ("in {v}",), "rating": ("rating it {v}",),
    "quantity": ("quantity {v}",), "next_step": ("with the next step {v}",),
    "side": ("on the {v} side",), "guests": ("for {v} guests",), "rooms": ("for {v} rooms",),
    "to": ("to {v}", "sending it to {v}"), "minutes_before": ("{v} minutes before",),
    "tag": ("with the tag {v}",), "content": ("with the text {v}",),
    "kind": ("of type {v}",), "type": ("of type {v}",),
    "duration_minutes": ("lasting {v} minutes",), "new_start": ("to start {v}",),
    "relation": ("as {v}",), "alert_threshold": ("alerting me at {v} percent",),
    "stage": ("at stage {v}",), "lifecycle_stage": ("at stage {v}",),
    "story_points": ("with a {v}-point estimate",),
    "recurrence": ("repeating {v}",),
}


# Yes/no arguments a phrasing has no slot for, as a person says them: (yes, no)
_BOOL_FORMS = {
    "overwrite": ("replacing what is there", "without replacing anything"),
    "allow_overlap": ("even if it overlaps something", "only if it overlaps nothing"),
    "reply_all": ("to everyone on the thread", "to the sender only"),
    "auto_record": ("recording it automatically", "without recording it"),
    "unread_only": ("only the unread ones", "read or not"),
    "recursive": ("with everything inside", "without going into subfolders"),
    "vegetarian_only": ("vegetarian dishes only", "vegetarian or not"),
    "waiting_room": ("with a waiting room", "without a waiting room"),
    "open_now": ("open right now", "open or not"),
    "replace_cart": ("replacing what is in my cart", "keeping what is in my cart"),
    "has_attachments": ("only ones with attachments", "only ones without attachments"),
    "include_closed": ("closed ones included", "leaving out closed ones"),
    "reverse": ("in reverse order", "in the usual order"),
    "set_default": ("and make it my default", "without making it my default"),
    "pickup_only": ("only stores with pickup", "any store"),
    "unique": ("without duplicates", "keeping duplicates"),
    "parents": ("creating parent folders as needed", "without creating parent folders"),
    "in_stock_only": ("only what's in stock", "in stock or not"),
    "ignore_case": ("ignoring case", "matching case exactly"),
    "enabled": ("turned on", "turned off"),
    "long": ("with sizes and dates", "names only"),
    "online": ("that are online", "that are offline"),
    "all": ("hidden files included", "leaving out hidden files"),
    "all_duplicates": ("counting equal lines anywhere in the file", "counting adjacent repeats"),
    "only_repeated": ("only the lines that repeat", "every line"),
    "remove_sources": ("and delete the originals afterwards", "keeping the originals"),
}


def bool_clause(arg: str, value: bool) -> str:
    """A yes/no value a phrasing has no slot for: "replacing what is there", else "with
    auto record on"."""
    forms = _BOOL_FORMS.get(arg)
    if forms:
        return forms[0] if value else forms[1]
    return f"with {humanize(arg)} {'on' if value else 'off'}"


# What a user calls a value they were asked for: "the message is 'Hi'", not "saying 'Hi'"
ANSWER_NOUNS = {"body": "message", "text": "message", "content": "text", "message": "message",
                "comment": "comment", "subject": "subject", "amount": "amount",
                "quantity": "quantity", "query": "search", "symbol": "stock",
                "order_id": "order number", "title": "title", "name": "name",
                "new_name": "new name", "merchant": "shop", "other_path": "other file",
                "source": "file to move", "label": "label", "tag": "tag"}
# A value a clarification leaves open, said vaguely so the sentence still reads ("move a file
# to ..."): the assistant has to ask for it
VAGUE = {"source": "a file", "path": "a file", "other_path": "another file",
         "merchant": "a shop", "amount": "some money", "quantity": "some", "to": "someone",
         "query": "something", "content": "something", "new_name": "something else",
         "destination": "another folder"}


def has_clause(arg: str, value: Any = None) -> bool:
    """Whether `literal_clause` words `arg` with a link word of its own (not "with the X")."""
    return _forms(arg, value) is not None


def _forms(arg: str, value: Any) -> tuple[str, ...] | None:
    if arg == "limit" and isinstance(value, float):  # a budget's limit, not a page size
        return None
    if arg in _LITERAL_FORMS:
        return _LITERAL_FORMS[arg]
    bound, _, rest = arg.partition("_")  # "with the seats at least 2", not "with the min seats"
    if bound in ("min", "max") and rest:
        return (f"with the {humanize(rest)} at {'least' if bound == 'min' else 'most'} {{v}}",)
    head, _, end = arg.rpartition("_")  # a range's bound: "with the close date on or before"
    if head and end in ("from", "to"):
        dated = isinstance(value, str) and _ISO.match(value) is not None
        bound = {("from", True): "on or after", ("to", True): "on or before",
                 ("from", False): "at least", ("to", False): "at most"}[end, dated]
        return (f"with the {humanize(head)} {bound} {{v}}",)
    return None


def literal_clause(arg: str, text: str, rng: random.Random, value: Any = None) -> str:
    """A stated value as a clause that carries its own link word ("sorted by 'newest'",
    "with the priority 'high'"), so it reads after a comma or in brackets."""
    forms = _forms(arg, value)
    if forms:
        return rng.choice(forms).format(v=text)
    return f"with the {humanize(arg)} {text}"  # a bare "cuisine 'spanish'" reads as a form


# A record named through another that points at it, as a person says the link: "the event
# that reminder is for", not "the event of that reminder". Keyed (noun, owner's noun); {o} is
# the owner's whole noun phrase ("the reminder 'Budget planning'", "that reminder").
_VIA_FORMS = {
    ("listing", "offer"): "the listing {o} is on",
    ("listing", "conversation"): "the listing {o} is about",
    ("channel", "message"): "the channel {o} was posted in",
    ("event", "reminder"): "the event {o} is for", ("event", "invitation"): "the event {o} is for",
    ("invitation", "event"): "the invitation to {o}",
    ("stock", "order"): "the stock {o} is for", ("stock", "trade"): "the stock traded in {o}",
    ("category", "budget"): "the category {o} covers",
    ("budget", "category"): "the budget for {o}",
    ("category", "expense"): "the category {o} is filed under",
    ("account", "transaction"): "the account {o} went through",
    ("account", "card"): "the account linked to {o}",
    ("post", "comment"): "the post {o} is on", ("product", "review"): "the product {o} is about",
    ("device", "code"): "the lock {o} opens", ("issue", "comment"): "the issue {o} is on",
    ("product", "reservation"): "the product {o} is for", ("product", "item"): "the product in {o}",
    ("store", "reservation"): "the store {o} is at",
    ("hotel", "reservation"): "the hotel {o} is at",
    ("payment method", "reservation"): "the payment method {o} was paid with",
    ("payment method", "order"): "the payment method {o} was paid with",
    # a place a restaurant, hotel or store is: people say the venue ("drive to that
    # restaurant"), not "the map entry for that restaurant"
    ("place", "restaurant"): "{o}", ("place", "hotel"): "{o}", ("place", "store"): "{o}",
    ("place", "reservation"): "the hotel {o} is at",
    ("home", "device"): "the home {o} is in", ("room", "device"): "the room {o} is in",
    ("device", "automation"): "the device {o} controls",
    ("scene", "automation"): "the scene {o} runs",
    ("home", "automation"): "the home {o} belongs to",
    ("vehicle", "appointment"): "the vehicle {o} is for",
    ("project", "sprint"): "the project {o} belongs to",
    # "file it into the same folder as the email 'X'", not "the folder the email ... is in"
    ("folder", "email"): "the same folder as {o}",
    ("meeting", "recording"): "the meeting recorded in {o}",
    ("issue", "link"): "the issue {o} points to",
    ("list", "saved place"): "the list {o} is on",
    # a CRM record's owner is the rep it is assigned to: "owned by the same rep as the deal
    # 'X'", not "owned by whoever owns the deal 'X'"
    **{("owner", k): "the same rep as {o}" for k in ("account", "contact", "deal", "lead")},
}


def via_phrase(noun: str, owner_noun: str, owner: str) -> str:
    """A record named through the one that points at it (`owner`, its whole noun phrase)."""
    form = _VIA_FORMS.get((noun, owner_noun))
    return form.format(o=owner) if form else f"the {noun} of {owner}"


# An owner whose label is the target's own name ("the reservation at The Azure Inn", "the
# item 'Insulated Water Bottle'"): the user says that name and how they know it, not "the
# hotel the reservation at The Azure Inn is at". Keyed (owner's field, noun, owner kind).
_NAMED_BY_OWNER = {
    ("hotel_name", "hotel", "reservation"): "{name} (the hotel I booked)",
    ("hotel_name", "place", "reservation"): "{name} (the hotel I booked)",
    ("store_name", "store", "reservation"): "{name} (the store holding my reservation)",
    ("product_name", "product", "reservation"): "{quoted} (the product I reserved)",
    # an order or cart line carries its product's name
    **{(field, "product", "item"): "the product {quoted}" for field in ("name", "product_name")},
}


# the same owner singled out by its price or date: "the hotel I booked for 729", not "the
# hotel the reservation for 729 is at"
BOOKED = {("hotel", "reservation"): "the hotel I booked",
          ("place", "reservation"): "the hotel I booked"}


def named_by_owner(noun: str, via: str, pairs: list[tuple[str | None, Any]]) -> str | None:
    """The target said by its own name when a field of its owner is that name; whatever
    else singles the owner out does not change which record the target is."""
    for field, value in pairs:
        # a budget's `category_name`: "the category 'Groceries'" (references.name_on_owner)
        form = _NAMED_BY_OWNER.get((field, noun, via)) or (
            "the {noun} {quoted}" if field == f"{noun.replace(' ', '_')}_name" else None)
        if form and isinstance(value, str):
            return form.format(name=value, quoted=render_value(value), noun=noun)
    return None
