"""The resolution check re-reads each reference from the records the conversation has shown
and drops a row whose reference could mean another value than its truth's (issue 23 item 3).
The cases are the ambiguities it caught in a default run: a selector that told a record apart
from its own list but not from a record another step showed (two stores in Tokyo, a draft
and a sent email with one subject, a post and its repost), and names a look-up never showed."""

from __future__ import annotations

from prove_jax.synthesis.dialogue import ArgSpec, DialogueSpec, StepSpec, TurnSpec
from prove_jax.synthesis.records import StepRecord
from prove_jax.synthesis.resolution import meanings, unresolved


def _step(payload: object) -> StepRecord:
    return StepRecord(node=None, name="t", args={}, filled={}, payload=payload)


TOKYO = {"store_id": "pl_aaaaa2", "name": "Ember Books", "city": "Tokyo"}
OTHER_TOKYO = {"store_id": "pl_bbbbb2", "name": "Maple Market", "city": "Tokyo"}
LISBON = {"store_id": "pl_ccccc2", "name": "Saffron Books", "city": "Lisbon"}


def _spec(arg: ArgSpec, index: int) -> DialogueSpec:
    step = StepSpec("reserve_for_pickup", "retail_chain", "Reserve.", False, [arg], index)
    return DialogueSpec([TurnSpec("request", [step])], 0, ["retail_chain"], "2026-06-15",
                        "normal")


def test_a_selector_must_single_out_its_record_among_everything_shown():
    by_city = ArgSpec("store_id", "pl_aaaaa2", "selector", "store", pairs=[("city", "Tokyo")])
    made = _step({"reservation_id": "res_aaaaa2"})  # the step the reference is for
    alone = [_step({"stores": [TOKYO, LISBON]}), _step({"ok": True}), made]
    assert meanings(by_city, alone, 2) == {"pl_aaaaa2"}
    assert unresolved(_spec(by_city, 2), alone) is None
    # a store in Tokyo another step showed: "the store whose city is Tokyo" is two stores
    both = [_step({"stores": [TOKYO, LISBON]}), _step({"stores": [OTHER_TOKYO]}), made]
    assert meanings(by_city, both, 2) == {"pl_aaaaa2", "pl_bbbbb2"}
    assert "selector store_id" in unresolved(_spec(by_city, 2), both)
    # only what was shown before the step counts
    assert unresolved(_spec(by_city, 1), both) is None


def test_a_name_must_be_shown_by_the_records_not_only_pointed_at():
    named = ArgSpec("store_id", "pl_aaaaa2", "entity", "store", "Ember Books",
                    label_field="name")
    assert unresolved(_spec(named, 1), [_step({"stores": [TOKYO]}), _step({"ok": 1})]) is None
    assert "entity" in unresolved(_spec(named, 1), [_step({"stores": [LISBON]}), _step({})])
    # a record that carries the name under another field shows the user no 'name'
    pointed = _step({"stores": [{"store_id": "pl_aaaaa2", "store_name": "Ember Books"}]})
    assert meanings(named, [pointed], 1) == set()
    twins = _step({"stores": [TOKYO, {**OTHER_TOKYO, "name": "Ember Books"}]})
    assert meanings(named, [twins], 1) == {"pl_aaaaa2", "pl_bbbbb2"}


def test_that_one_is_the_record_just_returned_or_the_only_one_shown():
    that = ArgSpec("store_id", "pl_aaaaa2", "back", "store")
    assert meanings(that, [_step({"stores": [LISBON, OTHER_TOKYO]}), _step(TOKYO)], 2) == \
        {"pl_aaaaa2"}
    assert meanings(that, [_step(TOKYO), _step({"ok": True})], 2) == {"pl_aaaaa2"}
    assert meanings(that, [_step(TOKYO), _step(LISBON)], 2) == {"pl_ccccc2"}  # not the truth
    assert meanings(that, [_step({"stores": [TOKYO, LISBON]})], 1) == set()
    # "the store of that reservation": the record's one value of the kind
    res = {"reservation_id": "res_aaaaa2", "store_id": "pl_aaaaa2", "source_store_id": None}
    of = ArgSpec("store_id", "pl_aaaaa2", "back", "store", via="reservation")
    assert meanings(of, [_step(res)], 1) == {"pl_aaaaa2"}
    moved = {**res, "source_store_id": "pl_ccccc2"}
    assert meanings(of, [_step(moved)], 1) == {"pl_aaaaa2", "pl_ccccc2"}


def test_a_supplied_name_is_checked_for_its_step_and_later_steps_are_not():
    named = ArgSpec("store_id", "pl_aaaaa2", "entity", "store", "Ember Books",
                    label_field="name")
    step = StepSpec("reserve_for_pickup", "retail_chain", "Reserve.", False,
                    [ArgSpec("store_id", "pl_aaaaa2", "withheld")], 1)
    turns = [TurnSpec("request", [step]), TurnSpec("supply", supply=named, supply_step=1)]
    spec = DialogueSpec(turns, 0, ["retail_chain"], "2026-06-15", "clarification")
    assert unresolved(spec, [_step({"stores": [TOKYO]}), _step({"ok": True})]) is None
    twins = _step({"stores": [TOKYO, {**OTHER_TOKYO, "name": "Ember Books"}]})
    assert "entity store_id" in unresolved(spec, [twins, _step({"ok": True})])
    # a step past the truth (asked for, but its tool is hidden) is not checked
    assert unresolved(_spec(named, 5), [twins]) is None


def test_that_one_is_not_the_record_returned_when_the_request_named_another():
    # reading check: "drop the item 'Argan Hair Oil' from the cart, then add that item" -- the
    # removal returned the cart's one other item, but "that item" is the one just dropped
    removed = StepRecord(node=None, name="remove_from_cart", args={"item_id": "itm_bbbbb2"},
                         filled={}, payload={"lines": [{"item_id": "itm_aaaaa2", "qty": 1}]})
    that = ArgSpec("item_id", "itm_aaaaa2", "back", "item")
    assert meanings(that, [removed], 1) == set()
    # paths: "the path from before" after a turn that named three
    moved = StepRecord(node=None, name="mv", args={"source": "/a/x.csv", "destination": "/b"},
                       filled={}, payload={"path": "/b/x.csv"})
    wrote = StepRecord(node=None, name="write_file", args={"path": "/c/n.txt"}, filled={},
                       payload={"path": "/c/n.txt", "bytes": 3})
    path = ArgSpec("path", "/c/n.txt", "back", "@path")
    assert meanings(path, [wrote], 1) == {"/c/n.txt"}
    assert meanings(path, [moved, wrote], 2) == {"/c/n.txt"}  # the step just before: its own
    assert meanings(path, [wrote, moved], 2) == set()  # the last step named two other paths
