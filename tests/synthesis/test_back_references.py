"""A back-reference ("that same one", "the one of that email") is used only where it names
exactly one entity among everything the conversation has shown; otherwise the value itself is
stated. These are the unsound-truth cases of issue #23: a budget called "that same one" after
a list of budgets, a person "of that email" that has a sender and two recipients."""

from __future__ import annotations

from prove_jax.synthesis.dialogue import arg_spec
from prove_jax.synthesis.records import Filled, StepRecord


def _step(args: dict, payload: object) -> StepRecord:
    return StepRecord(node=None, name="t", args=args, filled={}, payload=payload)


def _back(value: str, from_step: int, element: dict | None = None) -> Filled:
    return Filled(value, "derived", kind="budget" if element is None else "person",
                  from_step=from_step, element=element)


def test_that_same_one_needs_the_only_one_shown_by_the_previous_step():
    made = _step({"name": "Food"}, {"budget_id": "bud_k7qm2x", "name": "Food"})
    assert arg_spec("budget_id", _back("bud_k7qm2x", 0), [made], 1).how == "back"
    listed = _step({}, {"budgets": [{"budget_id": "bud_k7qm2x"}, {"budget_id": "bud_p3hv9t"}]})
    steps = [listed, made]
    # the previous step made it, but a list before showed two budgets with nothing to tell
    # them apart: state the value
    assert arg_spec("budget_id", _back("bud_k7qm2x", 1), steps, 2).how == "literal"
    # shown only two steps back: "the one you just got" would be wrong; its name, the only
    # budget shown, says which
    other = _step({"query": "x"}, {"results": []})
    two_back = arg_spec("budget_id", _back("bud_k7qm2x", 0), [made, other], 2)
    assert (two_back.how, two_back.pairs) == ("selector", [("name", "Food")])
    named = _step({}, {"budgets": [{"budget_id": "bud_k7qm2x", "name": "Food"},
                                   {"budget_id": "bud_p3hv9t", "name": "Rent"}]})
    among = arg_spec("budget_id", _back("bud_k7qm2x", 1), [named, made], 2)
    assert (among.how, among.pairs) == ("selector", [("name", "Food")])
    # a budget only quoted by the user has no record to tell it from: state the value
    quoted = _step({"budget_id": "bud_p3hv9t"}, {"ok": True})
    assert arg_spec("budget_id", _back("bud_k7qm2x", 1), [quoted, made], 2).how == "literal"


def test_the_one_of_that_record_needs_one_id_of_that_kind_in_it():
    one = {"email_id": "eml_aaaaa2", "from_id": "p_bbbbb2", "subject": "Hi"}
    three = {**one, "to_ids": ["p_ccccc2", "p_ddddd2"]}
    shown = [_step({}, {"email": one})]
    assert arg_spec("person_id", _back("p_bbbbb2", 0, one), shown, 1).how == "back"
    assert arg_spec("person_id", _back("p_bbbbb2", 0, three), [_step({}, {"email": three})],
                    1).how == "literal"
    two_emails = [_step({}, {"emails": [one, {**one, "email_id": "eml_eeeee2"}]})]
    assert arg_spec("person_id", _back("p_bbbbb2", 0, one), two_emails, 1).how == "literal"


def test_an_address_of_that_email_needs_the_email_to_hold_one_address():
    email = {"email_id": "msg_k7qm2x", "from_email": "ana@x.com", "to": ["me@x.com"],
             "cc": ["bo@x.com"]}
    shown = _step({}, email)
    addr = Filled("ana@x.com", "derived", kind="@email", from_step=0, element=email)
    # sender, recipient and copy: "the email address of that email" could be any of three
    assert arg_spec("to", addr, [shown], 1).how == "literal"
    alone = {"email_id": "msg_k7qm2x", "from_email": "ana@x.com", "subject": "Hi"}
    one = Filled("ana@x.com", "derived", kind="@email", from_step=0, element=alone)
    assert arg_spec("to", one, [_step({}, alone)], 1).how == "back"


def test_that_symbol_needs_the_previous_step_to_show_one_symbol():
    watch = {"watchlist_id": "wl_k7qm2x", "symbols": ["AAPL", "XOM"]}
    listed = _step({}, {"watchlists": [watch]})
    xom = Filled("XOM", "derived", kind="@symbol", from_step=0)
    # the watchlist shows two tickers: "that symbol" could be either, so say it
    assert arg_spec("symbol", xom, [listed], 1).how == "literal"
    quoted = _step({"symbol": "XOM"}, {"symbol": "XOM", "price": 101.5})
    assert arg_spec("symbol", xom, [quoted], 1).how == "back"


def test_that_symbol_needs_no_other_symbol_said_before():
    added = _step({"symbol": "PSYS"}, {"ok": True})
    shown = _step({"watchlist_id": "wl_k7qm2x"}, {"symbols": ["XOM"]})
    xom = Filled("XOM", "derived", kind="@symbol", from_step=1)
    # the user just added PSYS: "that symbol" after a list showing only XOM is still unclear
    assert arg_spec("symbol", xom, [added, shown], 2).how == "literal"
    assert arg_spec("symbol", Filled("XOM", "derived", kind="@symbol", from_step=0),
                    [shown], 1).how == "back"
