"""servers/core/state.py: the undo journal (all or nothing, in reverse order, row positions
kept) and the canonical snapshot and its hash."""

from __future__ import annotations

import hashlib

import pytest

from servers.core import ids
from servers.core.errors import NotFound, ToolError
from servers.core.state import State


def _state() -> State:
    s = State()
    s.table("items", hint="list_items shows the ids").load(
        [{"id": "a", "v": 1}, {"id": "b", "v": 2}, {"id": "c", "v": 3}])
    s.table("notes", key="note_id", kind="note").load([{"note_id": "n1", "text": "hi"}])
    s.set_var("count", 10)
    s.commit()  # as Domain.new_state does: generation is not undoable
    return s


def test_rollback_undoes_repeated_changes_to_one_row_in_reverse_order():
    s = _state()
    s.begin()
    s["items"].update("a", v=100)
    s["items"].update("a", v=200)
    s.set_var("count", 11)
    s.set_var("count", 12)
    s.rollback()
    # Undoing oldest-first would leave the intermediate values (v=100, count=11).
    assert s["items"].get("a") == {"id": "a", "v": 1}
    assert s.var("count") == 10


def test_rollback_of_a_multi_step_change_leaves_no_half_applied_state():
    s = _state()
    before = s.canonical()
    s.begin()
    s["items"].update("a", v=-1)
    s["items"].delete("b")
    s["items"].insert({"id": "d", "v": 4})
    s["notes"].update("n1", text="changed")
    s.set_var("count", 0)
    s.set_var("fresh", "new var")
    assert s.next_id("ord") == ids.opaque("", "ord_1")
    s.rollback()
    assert s.canonical() == before
    assert "fresh" not in s.to_json()["vars"]  # removed, not left as None
    assert "__seq_ord" not in s.to_json()["vars"]


def test_row_created_and_removed_in_one_call_is_gone_after_rollback():
    s = _state()
    s.begin()
    s["items"].insert({"id": "d", "v": 4})
    s["items"].update("d", v=5)
    s["items"].delete("d")
    s.rollback()
    assert "d" not in s["items"] and len(s["items"]) == 3


def test_row_deleted_and_recreated_in_one_call_comes_back_as_it_was():
    s = _state()
    s.begin()
    s["items"].delete("b")
    s["items"].insert({"id": "b", "v": 99})
    s.rollback()
    assert s["items"].get("b") == {"id": "b", "v": 2}
    assert s["items"].ids() == ["a", "b", "c"]


@pytest.mark.parametrize("victims", [["a"], ["b"], ["c"], ["a", "c"], ["c", "a"],
                                     ["b", "a", "c"]])
def test_rollback_puts_deleted_rows_back_in_their_places(victims):
    """List tools return rows in table order: a failed call must not reorder them."""
    s = _state()
    s.begin()
    for row_id in victims:
        s["items"].delete(row_id)
    s.rollback()
    assert s["items"].ids() == ["a", "b", "c"]
    assert [r["v"] for r in s["items"].rows()] == [1, 2, 3]


def test_rollback_after_inserts_and_deletes_keeps_the_order():
    s = _state()
    s.begin()
    s["items"].insert({"id": "d", "v": 4})
    s["items"].delete("a")
    s["items"].insert({"id": "e", "v": 5})
    s["items"].delete("c")
    s.rollback()
    assert s["items"].ids() == ["a", "b", "c"]


def test_only_the_current_call_is_undone():
    s = _state()
    s.begin()
    s["items"].update("a", v=50)
    s.commit()
    s.begin()
    s["items"].update("a", v=60)
    s["items"].delete("c")
    s.rollback()
    assert s["items"].get("a")["v"] == 50
    assert s["items"].ids() == ["a", "b", "c"]
    s.rollback()  # a second rollback has nothing left to undo
    assert s["items"].get("a")["v"] == 50


def test_a_failed_insert_or_update_journals_nothing():
    s = _state()
    s.begin()
    with pytest.raises(ToolError, match="item 'a' already exists"):
        s["items"].insert({"id": "a", "v": 0})
    with pytest.raises(NotFound, match="no item with id 'zz'; list_items shows the ids"):
        s["items"].update("zz", v=0)
    with pytest.raises(NotFound, match="no note with id 'zz'"):
        s["notes"].delete("zz")
    s.rollback()
    # Had the refused insert been journaled, undoing it would have removed the real row "a".
    assert s["items"].get("a") == {"id": "a", "v": 1}


def test_update_leaves_earlier_row_dicts_untouched():
    s = _state()
    old = s["items"].get("a")
    new = s["items"].update("a", v=7)
    assert old == {"id": "a", "v": 1} and new == {"id": "a", "v": 7}
    assert s["items"].get("a") is new


def test_next_id_counts_per_prefix_and_mints_opaque_ids_of_the_world():
    s = State()
    s.id_salt = "7"
    assert [s.next_id("txn"), s.next_id("txn"), s.next_id("ord")] == \
        [ids.opaque(7, "txn_1"), ids.opaque(7, "txn_2"), ids.opaque(7, "ord_1")]
    s.begin()
    assert s.next_id("txn") == ids.opaque(7, "txn_3")
    s.rollback()
    assert s.next_id("txn") == ids.opaque(7, "txn_3")  # a failed call does not use up ids
    assert s.next_number("txn") == 4


def test_default_kind_and_hint_come_from_the_table_name():
    s = State()
    t = s.table("payees")
    assert (t.kind, t.hint) == ("payee", "list payees to see ids")
    assert s.table("payees") is t  # fetching again returns the same table


# ----------------------------------------------------------------------------- snapshots
def test_canonical_form_and_digest_worked_by_hand():
    s = State()
    s.table("t").load([{"id": "a", "x": 1, "name": "Zoë"}])
    s.set_var("v", 2.5)
    text = '{"tables":{"t":{"a":{"id":"a","name":"Zoë","x":1}}},"vars":{"v":2.5}}'
    assert s.canonical() == text
    assert s.digest() == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_digest_ignores_insertion_order_of_tables_rows_keys_and_vars():
    one = State()
    one.table("a").load([{"id": "1", "p": 1, "q": [1, 2]}, {"id": "2", "p": 2, "q": []}])
    one.table("b").load([{"id": "x", "r": {"m": 1, "n": 2}}])
    one.set_var("u", 1)
    one.set_var("w", 2)

    two = State()
    two.table("b").load([{"id": "x", "r": {"n": 2, "m": 1}}])
    two.table("a").load([{"q": [], "p": 2, "id": "2"}, {"q": [1, 2], "id": "1", "p": 1}])
    two.set_var("w", 2)
    two.set_var("u", 1)
    assert one.digest() == two.digest()


@pytest.mark.parametrize("change", [
    lambda s: s["t"].update("a", x=2),
    lambda s: s["t"].update("a", x=1.0),  # 1 and 1.0 are different states
    lambda s: s["t"].update("a", items=[2, 1]),  # list order matters
    lambda s: s.set_var("v", None),
    lambda s: s.table("empty"),  # an empty table is part of the state
])
def test_digest_sees_every_change(change):
    s = State()
    s.table("t").load([{"id": "a", "x": 1, "items": [1, 2]}])
    before = s.digest()
    change(s)
    assert s.digest() != before
