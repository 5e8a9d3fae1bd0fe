"""A back-reference ("that same one", "the one of that email") is used only where it names
exactly one entity among everything the conversation has shown; otherwise the value itself is
stated. These are the unsound-truth cases of issue #23: a budget called "that same one" after
a list of budgets, a person "of that email" that has a sender and two recipients."""

from __future__ import annotations

import random

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


def test_that_one_is_the_one_record_the_previous_step_returned():
    # a list showed two budgets, then a get returned one of them: "that budget" is the one
    # just returned, although its record points at another id of the same prefix
    listed = _step({}, {"budgets": [{"budget_id": "bud_k7qm2x"}, {"budget_id": "bud_p3hv9t"}]})
    got = {"budget_id": "bud_k7qm2x", "name": "Food", "parent_id": "bud_p3hv9t"}
    steps = [listed, _step({"budget_id": "bud_k7qm2x"}, got)]
    fetched = Filled("bud_k7qm2x", "derived", kind="budget", from_step=1, element=got)
    assert arg_spec("budget_id", fetched, steps, 2).how == "back"
    # not when the get is two steps back, nor when the previous step returned two
    assert arg_spec("budget_id", fetched, [*steps, _step({}, {"ok": True})], 3).how != "back"
    both = _step({}, {"budgets": [got, {"budget_id": "bud_zzzzz2", "name": "Rent"}]})
    assert arg_spec("budget_id", fetched, [listed, both], 2).how != "back"


def test_the_one_of_the_record_the_previous_step_returned():
    # two emails were listed; the previous step returned one of them, with one sender:
    # "the sender of that email" names it
    one = {"email_id": "eml_aaaaa2", "from_id": "p_bbbbb2", "subject": "Hi"}
    listed = _step({}, {"emails": [one, {**one, "email_id": "eml_eeeee2"}]})
    steps = [listed, _step({"email_id": "eml_aaaaa2"}, one)]
    sender = Filled("p_bbbbb2", "derived", kind="person", from_step=1, element=one)
    assert arg_spec("person_id", sender, steps, 2).how == "back"


def test_a_list_argument_is_named_by_reference_only_as_its_one_value():
    # a draft holds the user's address (from) and the recipient's (to): "the address of that
    # email" could be either, whether the argument is a string or a list of one
    draft = {"email_id": "draft_aaaaa2", "from_email": "me@x.com", "to": ["you@y.com"]}
    steps = [_step({"to": ["you@y.com"]}, draft)]
    for value in ("me@x.com", ["me@x.com"]):
        f = Filled(value, "derived", kind="@email", from_step=0, element=draft)
        assert arg_spec("to", f, steps, 1).how == "literal"
    two = Filled(["me@x.com", "you@y.com"], "derived", kind="@email", from_step=0, element=draft)
    assert arg_spec("to", two, steps, 1).how == "literal"
    alone = {"email_id": "eml_aaaaa2", "from_email": "me@x.com", "subject": "Hi"}
    f = Filled(["me@x.com"], "derived", kind="@email", from_step=0, element=alone)
    assert arg_spec("to", f, [_step({}, alone)], 1).how == "back"


def test_that_one_is_not_the_record_returned_when_the_request_named_another():
    removed = StepRecord(node=None, name="t", args={"item_id": "itm_bbbbb2"}, filled={},
                         payload={"lines": [{"item_id": "itm_aaaaa2", "name": "Lamp"}]})
    line = {"item_id": "itm_aaaaa2", "name": "Lamp"}
    f = Filled("itm_aaaaa2", "derived", kind="item", from_step=0, element=line)
    assert arg_spec("item_id", f, [removed], 1).how != "back"


def test_the_one_of_that_record_needs_a_record_the_step_returned_as_such():
    # reading check: "the email address of that person" after starting a meeting, whose host
    # (a record inside the meeting) the user never heard of
    host = {"person_id": "p_bbbbb2", "name": "Yusuf", "email": "yusuf@x.com"}
    meeting = {"meeting_id": "mtg_aaaaa2", "topic": "1:1", "host": host}
    f = Filled("yusuf@x.com", "derived", kind="@email", from_step=0, element=host)
    assert arg_spec("email", f, [_step({}, meeting)], 1).how != "back"
    # the same person returned by a get is "that person"
    f = Filled("yusuf@x.com", "derived", kind="@email", from_step=0, element=host)
    assert arg_spec("email", f, [_step({}, host)], 1).how == "back"
    # an item of a listing is returned as such, even where the listing names its folder
    email = {"email_id": "eml_aaaaa2", "from_email": "bo@y.com", "subject": "Hi"}
    listed = {"folder_id": "inbox", "emails": [email]}
    f = Filled("bo@y.com", "derived", kind="@email", from_step=0, element=email)
    assert arg_spec("to", f, [_step({}, listed)], 1).how == "back"


def test_a_record_is_singled_out_by_its_name_and_then_by_what_tells_namesakes_apart():
    # two cafes share the name: "the place 'Cafe Juniper' in Berlin", not "the place in Berlin"
    cafes = _step({"query": "Cafe Juniper"}, {"places": [
        {"place_id": "pl_k7qm2x", "name": "Cafe Juniper", "city": "Berlin"},
        {"place_id": "pl_p3hv9t", "name": "Cafe Juniper", "city": "Lisbon"}]})
    other = _step({"query": "x"}, {"results": []})
    place = Filled("pl_k7qm2x", "derived", kind="place", from_step=0,
                   element=cafes.payload["places"][0])
    spec = arg_spec("place_id", place, [cafes, other], 2)
    assert (spec.how, spec.pairs) == ("selector", [("name", "Cafe Juniper"), ("city", "Berlin")])
    # a record with no name keeps what tells it apart
    orders = _step({}, {"orders": [{"order_id": "ord_k7qm2x", "total": 267},
                                   {"order_id": "ord_p3hv9t", "total": 140}]})
    order = Filled("ord_k7qm2x", "derived", kind="order", from_step=0,
                   element=orders.payload["orders"][0])
    assert arg_spec("order_id", order, [orders, other], 2).pairs == [("total", 267)]


def test_one_of_a_steps_listed_records_is_named_before_it_is_described():
    places = [{"place_id": "pl_k7qm2x", "name": "Cafe Juniper", "city": "Berlin"},
              {"place_id": "pl_p3hv9t", "name": "Cafe Juniper", "city": "Lisbon"},
              {"place_id": "pl_w4nd8r", "name": "Olive Bakery", "city": "Madrid"}]
    listed = _step({"query": "cafe"}, {"places": places})
    pick = Filled("pl_k7qm2x", "derived", kind="place", from_step=0, element=places[0],
                  siblings=3, others=places)
    spec = arg_spec("place_id", pick, [listed], 1)
    assert (spec.how, spec.pairs) == ("selector", [("name", "Cafe Juniper"), ("city", "Berlin")])
    olive = Filled("pl_w4nd8r", "derived", kind="place", from_step=0, element=places[2],
                   siblings=3, others=places)
    assert arg_spec("place_id", olive, [listed], 1).pairs == [("name", "Olive Bakery")]


def test_a_target_its_owner_names_is_said_by_that_name_and_resolves_to_it():
    from prove_jax.synthesis.resolution import meanings
    from prove_jax.synthesis.verbalize import slot_text

    budgets = [{"budget_id": "bud_k7qm2x", "category_id": "cat_aaaaa2",
                "category_name": "Groceries", "limit": 300},
               {"budget_id": "bud_p3hv9t", "category_id": "cat_bbbbb2",
                "category_name": "Fitness", "limit": 80}]
    listed = _step({}, {"budgets": budgets})
    f = Filled("cat_aaaaa2", "derived", kind="category", from_step=0, element=budgets[0],
               siblings=2, others=budgets)
    a = arg_spec("category_id", f, [listed], 1)
    # "the category 'Groceries'", not "the category of the budget whose limit is 300"
    assert (a.how, a.via, a.pairs) == ("selector", "budget", [("category_name", "Groceries")])
    assert slot_text(a, random.Random(0)) == "the category 'Groceries'"
    assert meanings(a, [listed], 1) == {"cat_aaaaa2"}
    # a name field for another id of the record (a transfer's two accounts) names nothing
    transfer = {"transfer_id": "trf_ccccc2", "from_account_id": "acc_ddddd2",
                "account_id": "acc_eeeee2", "account_name": "Savings"}
    g = Filled("acc_ddddd2", "derived", kind="account", from_step=0, element=transfer)
    assert arg_spec("from_account_id", g, [_step({}, transfer)], 1).pairs != \
        [("account_name", "Savings")]
