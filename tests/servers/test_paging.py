"""Cursor paging (servers/core/paging.py): the helper itself, and every paged tool on every
server at seeds 0, 11 and 12.

For each paged tool a cursor walk must visit every matching row exactly once, in the tool's
order (the same rows as a walk with 100-row pages, `total` of them, and every row of the table
where the walk is unfiltered); the first page must hold the default 20 rows; a malformed,
altered or foreign cursor, and a cursor reused with other filters, must be refused with a
message naming the cause and leave the state as it was.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest

from servers.core import ids, paging
from servers.core.errors import SchemaError
from servers.core.runtime import Runtime
from servers.registry import available, load_domain

SEEDS = (0, 11, 12)


class Spec:
    """How to walk one paged tool: `args` for the walk (filters), `other` a different filter,
    `key` a row's id (a field name or a function), `table` the table whose every row an
    unfiltered walk returns."""

    def __init__(self, key: str | Callable[[Any], Any], args: dict | None = None,
                 other: dict | None = None, table: str | None = None):
        self.key, self.args, self.other, self.table = key, args or {}, other, table

    def ident(self, row: Any) -> Any:
        return row[self.key] if isinstance(self.key, str) else self.key(row)


S = Spec
PAGED: dict[str, dict[str, tuple[str, Spec]]] = {  # server -> tool -> (rows field, spec)
    "banking": {
        "list_transactions": ("transactions", S("transaction_id", {}, {"type": "card_purchase"},
                                                "transactions")),
        "search_transactions": ("transactions", S("transaction_id", {"query": "ar"},
                                                  {"query": "er"})),
        "list_payees": ("payees", S("payee_id", {}, {"kind": "person"}, "payees")),
    },
    "trading": {
        "search_symbols": ("symbols", S("symbol", {}, {"query": "a"}, "stocks")),
        "list_orders": ("orders", S("order_id", {}, {"side": "buy"}, "orders")),
        "list_trades": ("trades", S("trade_id", {}, {"side": "sell"}, "trades")),
    },
    "payments": {
        "search_contacts": ("contacts", S("contact_id", {"query": "@"}, {"query": "a"},
                                          "contacts")),
        "list_payments": ("payments", S("payment_id", {}, {"direction": "sent"}, "payments")),
    },
    "calendar": {
        "list_events": ("events", S(lambda e: (e["event_id"], e["start"]),
                                    {"start_date": "2026-05-20", "end_date": "2026-07-10"},
                                    {"start_date": "2026-05-21", "end_date": "2026-07-10"})),
        "search_events": ("events", S("event_id", {"query": "e"}, {"query": "a"})),
        "list_invitations": ("invitations", S("invitation_id", {"include_past": True},
                                              {"status": "pending"}, "invitations")),
        # the only filter is an event id: seed 0's first event (ids.opaque(0, "evt_0001"))
        "list_reminders": ("reminders", S("reminder_id", {}, {"event_id": "evt_0001"},
                                          "reminders")),
    },
    "email": {
        "list_emails": ("emails", S("email_id", {}, {"unread_only": True})),
        "search_emails": ("emails", S("email_id", {"query": "e"}, {"query": "a"})),
        "search_contacts": ("contacts", S("contact_id", {"query": "@"}, {"query": "a"},
                                          "contacts")),
    },
    "filesystem": {
        "find": ("paths", S(lambda p: p, {"path": "/"}, {"path": "/", "type": "file"})),
        "list_recent": ("files", S("path", {"path": "/"}, {"path": "~"})),
        "search_content": ("results", S("path", {"query": "e", "path": "/"},
                                        {"query": "a", "path": "/"})),
    },
    "shopping": {
        "search_products": ("products", S("product_id", {}, {"sort": "rating"}, "products")),
        "list_orders": ("orders", S("order_id", {}, {"status": "delivered"}, "orders")),
    },
    "marketplace": {
        "search_listings": ("listings", S("listing_id", {}, {"sort": "price_low"})),
        "list_offers": ("offers", S("offer_id", {}, {"direction": "made"})),
        "list_conversations": ("conversations", S("conversation_id", {}, {"unread_only": True},
                                                  "conversations")),
    },
    "retail_chain": {
        "find_stores": ("stores", S("store_id", {}, {"pickup_only": True}, "stores")),
        "search_catalog": ("products", S("product_id", {}, {"in_stock_only": True},
                                         "products")),
    },
    "budget": {
        "list_budgets": ("budgets", S("budget_id", {}, {"status": "over_budget"}, "budgets")),
        "list_expenses": ("expenses", S("expense_id", {}, {"merchant": "ar"}, "expenses")),
    },
    "travel_booking": {
        "list_bookings": ("bookings", S("booking_id", {}, {"upcoming_only": True}, "bookings")),
        "search_hotels": ("hotels", S("hotel_id", {}, {"sort": "name"}, "hotels")),
        "list_hotel_reservations": ("reservations", S("reservation_id", {},
                                                      {"status": "confirmed"},
                                                      "hotel_reservations")),
    },
    "maps": {
        "search_places": ("places", S("place_id", {}, {"sort": "name"}, "places")),
        "search_nearby": ("places", S("place_id", {"lat": 52.52, "lon": 13.405,
                                                   "radius_m": 50000},
                                      {"lat": 52.52, "lon": 13.405, "radius_m": 40000})),
    },
    "social_media": {
        "search_users": ("users", S("user_id", {"query": "a"}, {"query": "e"})),
        "list_connections": ("users", S("user_id", {"relation": "followers"},
                                        {"relation": "following"})),
        "get_timeline": ("posts", S("post_id", {}, {"user_id": "p_004"})),
        "search_posts": ("posts", S("post_id", {"query": "e"}, {"query": "a"})),
    },
    "team_chat": {
        "search_members": ("members", S("member_id", {}, {"query": "a"}, "members")),
        "list_channels": ("channels", S("channel_id", {}, {"kind": "public"})),
        "get_channel_history": ("messages", S("message_id", {"channel_id": "ch_0001"},
                                              {"channel_id": "ch_0002"})),
        "search_messages": ("messages", S("message_id", {"query": "e"}, {"query": "a"})),
    },
    "iot_devices": {
        "list_devices": ("devices", S("device_id", {}, {"online": True}, "devices")),
        "list_automations": ("automations", S("automation_id", {}, {"enabled": True},
                                              "automations")),
    },
    "vehicle": {
        "search_destinations": ("destinations", S("place_id", {"query": "e"}, {"query": "a"})),
        "list_trips": ("trips", S("trip_id", {}, {"since": "2026-06-01"}, "trips")),
        "list_service_centers": ("centers", S("center_id", {}, {"service_type": "tire_service"},
                                              "service_centers")),
        "list_service_appointments": ("appointments", S("appointment_id", {},
                                                        {"status": "completed"},
                                                        "appointments")),
    },
    "crm": {
        "list_tasks": ("tasks", S("task_id", {"status": "all"}, {"status": "open"}, "tasks")),
        "search_contacts": ("contacts", S("contact_id", {}, {"query": "a"}, "contacts")),
        "list_deals": ("deals", S("deal_id", {}, {"sort": "newest"}, "deals")),
    },
    "issue_tracker": {
        "search_issues": ("issues", S("issue_id", {}, {"status": "closed"}, "issues")),
        "list_users": ("users", S("user_id", {}, {"query": "a"}, "users")),
    },
    "food_delivery": {
        "search_restaurants": ("restaurants", S("restaurant_id", {}, {"sort": "delivery_fee"},
                                                "restaurants")),
        "list_orders": ("orders", S("order_id", {}, {"status": "delivered"}, "orders")),
    },
    "video_meeting": {
        "list_meetings": ("meetings", S("meeting_id", {}, {"status": "past"})),
        "list_recordings": ("recordings", S("recording_id", {}, {"query": "a"},
                                            "recordings")),
    },
}
CASES = [(srv, tool) for srv in available() for tool in PAGED.get(srv, {})]
_RUNTIMES: dict[str, Runtime] = {}


def runtime(server: str) -> Runtime:
    if server not in _RUNTIMES:
        rt = Runtime(load_domain(server))
        for seed in SEEDS:
            rt.open(seed, f"s{seed}")
        _RUNTIMES[server] = rt
    return _RUNTIMES[server]


def ok(rt: Runtime, tool: str, args: dict, seed: int | str) -> dict:
    """A successful call; the spec's filters name the seed-0 world's built ids (resolved for
    the session's seed: 's0', 's11', 's12', or a named session of seed 0)."""
    world = seed if isinstance(seed, int) else 0
    out = rt.call(tool, ids.resolve(args, world), f"s{seed}" if isinstance(seed, int) else seed)
    assert out.ok, out.error
    return out.payload


def walk(rt: Runtime, tool: str, field: str, args: dict, seed: int | str, limit: int
         ) -> list[dict]:
    rows, cursor, pages = [], None, 0
    while True:
        page = ok(rt, tool, {**args, "limit": limit, **({"cursor": cursor} if cursor else {})},
                  seed)
        assert len(page[field]) <= limit
        rows += page[field]
        cursor, pages = page["next_cursor"], pages + 1
        if cursor is None:
            return rows
        assert page[field], "a page with a next_cursor must hold rows"
        assert pages < 1000


# ----------------------------------------------------------------------------- every tool
def test_every_paged_tool_has_a_spec_and_vice_versa():
    """The specs list exactly the tools that page (a tool losing or gaining paging shows)."""
    for server in available():
        paged = {n for n, t in load_domain(server).tools.items()
                 if "cursor" in t.input_schema["properties"]}
        assert paged == set(PAGED.get(server, {})), server


@pytest.mark.parametrize(("server", "tool"), CASES)
def test_paged_tool_schema(server, tool):
    spec = load_domain(server).tools[tool]
    props = spec.input_schema["properties"]
    assert props["limit"] == {"type": "integer", "description": props["limit"]["description"],
                              "minimum": 1, "maximum": 100, "default": 20}
    assert props["cursor"]["type"] == "string" and "offset" not in props
    assert spec.output_schema["properties"]["next_cursor"]["type"] == ["string", "null"]
    assert PAGED[server][tool][0] in spec.output_schema["properties"]


@pytest.mark.parametrize(("server", "tool"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_cursor_walk_visits_every_row_once(server, tool, seed):
    field, spec = PAGED[server][tool]
    rt = runtime(server)
    big = walk(rt, tool, field, spec.args, seed, 100)
    small = walk(rt, tool, field, spec.args, seed, 7)
    ids = [spec.ident(r) for r in small]
    assert ids == [spec.ident(r) for r in big]  # same rows, same order, whatever the page size
    assert len(set(ids)) == len(ids)
    first = ok(rt, tool, spec.args, seed)
    if "total" in first and isinstance(first["total"], int):
        assert len(ids) == first["total"]
    if spec.table is not None:
        table = rt.session(f"s{seed}").state[spec.table]
        assert sorted(map(str, ids)) == sorted(map(str, table.ids()))
    # the first page holds the default 20 rows, and says whether more follow
    assert len(first[field]) == min(paging.DEFAULT_LIMIT, len(ids))
    assert (first["next_cursor"] is not None) == (len(ids) > paging.DEFAULT_LIMIT)


def test_some_walk_of_every_server_spans_pages():
    """The specs are not vacuous: every server has a paged walk longer than one page."""
    for server in PAGED:
        rt = runtime(server)
        longest = max(len(walk(rt, tool, field, spec.args, 0, 100))
                      for tool, (field, spec) in PAGED[server].items())
        assert longest > paging.DEFAULT_LIMIT, server


@pytest.mark.parametrize(("server", "tool"), CASES)
def test_bad_cursors_are_refused_and_change_nothing(server, tool):
    field, spec = PAGED[server][tool]
    rt = runtime(server)
    first = ok(rt, tool, {**spec.args, "limit": 1}, 0)
    cursor = first["next_cursor"]
    assert cursor is not None and len(first[field]) == 1
    state = rt.session("s0").state
    before = state.digest()
    middle = len(cursor) // 2
    altered = cursor[:middle] + ("A" if cursor[middle] != "A" else "B") + cursor[middle + 1:]
    foreign = paging.encode("another_tool", "0" * 16, "x", 0)
    refusals = {"not-a-cursor!": "malformed", "e30": "malformed",  # e30 = base64 of {}
                altered: "", foreign: "belongs to 'another_tool'"}
    if spec.other is not None:
        refusals[(cursor, "other")] = "different filter arguments"
    for bad, why in refusals.items():
        args = ({**spec.other, "cursor": bad[0]} if isinstance(bad, tuple)
                else {**spec.args, "cursor": bad})
        out = rt.call(tool, ids.resolve(args, 0), "s0")
        assert not out.ok and out.kind == "schema_error", (bad, out)
        assert why in out.error and "cursor" in out.error, out.error
        if bad == altered:
            assert "altered" in out.error or "malformed" in out.error, out.error
    assert state.digest() == before
    # limit may change between pages; the filters may not
    assert ok(rt, tool, {**spec.args, "limit": 3, "cursor": cursor}, 0)


def test_a_cursor_walk_survives_inserts_without_duplicates():
    """Keyset, not offset: a transfer made after every page puts new transactions at the front;
    the walk neither repeats a row nor skips one it had not reached."""
    rt = Runtime(load_domain("banking"))
    rt.open(0, "w")
    accounts = rt.session("w").state["accounts"].rows()
    savings, checking = (next(a["account_id"] for a in accounts
                              if a["type"] == kind and a["status"] == "open")
                         for kind in ("savings", "checking"))
    reference = [r["transaction_id"]
                 for r in walk(rt, "list_transactions", "transactions", {}, "w", 100)]
    rows, cursor = [], None
    while True:
        args = {"limit": 30, **({"cursor": cursor} if cursor else {})}
        page = ok(rt, "list_transactions", args, "w")
        rows += [r["transaction_id"] for r in page["transactions"]]
        ok(rt, "transfer_between_accounts", {"from_account_id": savings,
                                             "to_account_id": checking, "amount": 1}, "w")
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(rows) == len(set(rows)) == len(reference)
    assert rows == reference


def test_defaults_are_part_of_the_filters():
    """An argument given as its default is the same query as one left out."""
    rt = runtime("payments")
    first = ok(rt, "list_payments", {"limit": 5}, 0)
    page = ok(rt, "list_payments", {"direction": "all", "limit": 5,
                                    "cursor": first["next_cursor"]}, 0)
    assert page["payments"] and page["payments"][0] != first["payments"][0]


# ----------------------------------------------------------------------------- the helper
AT = ("list_things", paging.fingerprint({"q": "x"}))
ROWS = [{"id": f"r{i:02d}"} for i in range(10)]


def ids_of(rows: list[dict]) -> list[str]:
    return [r["id"] for r in rows]


def test_helper_pages_in_order_and_ends_with_none():
    seen, cursor = [], None
    for _ in range(10):
        pg = paging.page(ROWS, 3, cursor, key="id", at=AT)
        seen += ids_of(pg.rows)
        cursor = pg.next_cursor
        if cursor is None:
            break
    assert seen == ids_of(ROWS)
    assert paging.page(ROWS, 10, None, key="id", at=AT).next_cursor is None
    assert paging.page([], 5, None, key="id", at=AT) == paging.Page([], None)


def test_helper_cursor_is_opaque():
    cursor = paging.page(ROWS, 3, None, key="id", at=AT).next_cursor
    assert cursor and "r02" not in cursor and set(cursor) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_helper_insert_and_delete_during_a_walk():
    cursor = paging.page(ROWS, 4, None, key="id", at=AT).next_cursor  # after r03
    grown = [{"id": "new0"}, *ROWS[:2], {"id": "new1"}, *ROWS[2:]]   # both before the anchor
    assert ids_of(paging.page(grown, 3, cursor, key="id", at=AT).rows) == ["r04", "r05", "r06"]
    shrunk = ROWS[:1] + ROWS[2:]  # a row behind the anchor deleted: no row is skipped
    assert ids_of(paging.page(shrunk, 2, cursor, key="id", at=AT).rows) == ["r04", "r05"]
    gone = ROWS[:3] + ROWS[4:]  # the anchor itself deleted: resume where it stood
    assert ids_of(paging.page(gone, 2, cursor, key="id", at=AT).rows) == ["r04", "r05"]


def test_helper_refusals_name_the_cause():
    cursor = paging.page(ROWS, 4, None, key="id", at=AT).next_cursor
    cases = {
        "%%%": "malformed", "": "malformed", "bm90IGpzb24": "malformed",  # 'not json'
        paging.encode("list_things", AT[1], "r03", -1): "malformed",
        cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB"): "altered|malformed",
        paging.encode("list_other", AT[1], "r03", 3): "belongs to 'list_other'",
    }
    for bad, why in cases.items():
        with pytest.raises(SchemaError, match=why) as err:
            paging.page(ROWS, 4, bad, key="id", at=AT)
        assert "omit cursor" in str(err.value)
    with pytest.raises(SchemaError, match="different filter arguments"):
        paging.page(ROWS, 4, cursor, key="id", at=("list_things", paging.fingerprint({})))
    with pytest.raises(SchemaError, match="different filter arguments"):  # empty result too
        paging.page([], 4, cursor, key="id", at=("list_things", paging.fingerprint({})))


def test_helper_checksum_catches_an_edited_position():
    cursor = paging.page(ROWS, 4, None, key="id", at=AT).next_cursor
    body = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    body["a"] = "r00"
    edited = base64.urlsafe_b64encode(json.dumps(body).encode()).decode().rstrip("=")
    with pytest.raises(SchemaError, match="altered"):
        paging.page(ROWS, 4, edited, key="id", at=AT)


def test_helper_outside_a_paged_call_says_so():
    with pytest.raises(RuntimeError, match="outside a paged call"):
        paging.page(ROWS, 4, None, key="id")


def test_fingerprint_ignores_argument_order():
    assert paging.fingerprint({"a": 1, "b": None}) == paging.fingerprint({"b": None, "a": 1})
    assert paging.fingerprint({"a": 1}) != paging.fingerprint({"a": 2})
