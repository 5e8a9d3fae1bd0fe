"""A truth call's alternatives (issue 23, item 4): another read that surfaces the same value
covers the step, on by default; `accept_alternatives=False` is the paper's literal rule.
Every expected value below is worked out by hand in the comments."""

from __future__ import annotations

import pytest

from prove_jax.rewards import RewardConfig, alignment, parse_truth, score
from tests.rewards.builders import call, tc

# Step 0 reads account A1 (get_account, or list_accounts / find_account as alternatives);
# step 1 transfers from it and depends on step 0. n_gt = 2, budget B = 2 + ceil(0.5 * 2) = 3.
READ = {**tc("get_account", account_id="A1"),
        "alternatives": [tc("list_accounts"), tc("find_account", query="Ana")]}
TRANSFER = tc("transfer", src="A1", dst="B2", amount=50)
TRUTH = {"steps": [[READ], [TRANSFER]], "edges": [[0, 1]], "kind": "normal"}
LITERAL = RewardConfig(accept_alternatives=False)
FULL = {"val": 1.0, "cov": 1.0, "eff": 0.0, "name": 1.0, "arg": 1.0}


def _move(first: dict) -> list[dict]:
    return [first, call("transfer", src="A1", dst="B2", amount=50)]


def _prove(calls: list[dict], config=None) -> dict:
    out = score(calls, TRUTH, config)
    return {k: round(v, 9) for k, v in out.items()}


def test_either_path_scores_full_coverage():
    # total = 0.5 val + 0.5 cov + 0.15 eff + 0.2 name + 0.1 arg = 1.3 on every path
    for first in (call("get_account", account_id="A1"), call("list_accounts"),
                  call("find_account", query="Ana")):
        assert _prove(_move(first)) == {**FULL, "total": 1.3}, first["name"]


def test_an_alternative_compares_its_own_arguments():
    # find_account's one value is wrong: arg = (0/1 + 3/3) / 2 = 0.5; total 1.3 - 0.05 = 1.25
    got = _prove(_move(call("find_account", query="Bob")))
    assert got == {**FULL, "arg": 0.5, "total": 1.25}
    # an alternative's keys must all be there, as a truth call's: without `query` it does not
    # cover step 0, so transfer's dependency is unmet: cov 0, arg 3/3 over the one pair
    got = _prove(_move(call("find_account", text="Ana")))
    assert got == {**FULL, "cov": 0.0, "total": 0.8}


def test_the_switch_off_is_the_literal_rule():
    # list_accounts covers nothing: step 0 missed, transfer out of order -> cov 0; name: 1 of
    # 2 calls is a truth name -> 0.5; arg: the transfer pair alone, 3/3 -> 1.
    # total = 0.5 * 1 + 0.5 * 0 + 0 + 0.2 * 0.5 + 0.1 * 1 = 0.7
    got = _prove(_move(call("list_accounts")), LITERAL)
    assert got == {"val": 1.0, "cov": 0.0, "eff": 0.0, "name": 0.5, "arg": 1.0, "total": 0.7}
    assert _prove(_move(call("get_account", account_id="A1")), LITERAL) == {**FULL,
                                                                            "total": 1.3}
    assert _prove(_move(call("list_accounts")), {"accept_alternatives": True})["total"] == 1.3


def test_dependent_calls_after_an_alternative_read_still_score_in_order_only():
    # transfer before the read: transfer's dependency (step 0) is matched later -> o = 0;
    # cov = 1/2 (the read alone); everything else full: total 1.3 - 0.25 = 1.05
    calls = [call("transfer", src="A1", dst="B2", amount=50), call("list_accounts")]
    assert _prove(calls) == {**FULL, "cov": 0.5, "total": 1.05}
    got = alignment(_move(call("list_accounts")), TRUTH)
    assert [(a["name"], a["call"], a["alternative"], a["keys"], a["in_order"]) for a in got] \
        == [("get_account", 0, "list_accounts", 0, True), ("transfer", 1, None, 3, True)]


def test_one_step_is_covered_once_the_second_read_is_extra():
    # get_account covers step 0; list_accounts then finds it taken (extra call, but its name
    # still counts: name 3/3); 3 calls <= B = 3, so eff 0
    calls = [call("get_account", account_id="A1"), call("list_accounts"),
             call("transfer", src="A1", dst="B2", amount=50)]
    assert _prove(calls) == {**FULL, "total": 1.3}
    assert _prove(calls, LITERAL)["name"] == round(2 / 3, 9)


def test_a_name_both_recorded_and_alternative_goes_by_matching_values():
    # step 0: list_accounts, or get_account(A1); step 1: get_account(B2); no edges.
    truth = {"steps": [[{**tc("list_accounts"), "alternatives": [tc("get_account",
                                                                    account_id="A1")]}],
                       [tc("get_account", account_id="B2")]]}
    calls = [call("get_account", account_id="B2"), call("get_account", account_id="A1")]
    # get_account(B2): step 1 (1 value) beats step 0's alternative (0); get_account(A1)
    # then takes step 0 through the alternative (1 value of 1)
    got = alignment(calls, truth)
    assert [(a["call"], a["alternative"], a["hits"]) for a in got] == [
        (1, "get_account", 1), (0, None, 1)]
    assert score(calls, truth)["cov"] == 1.0 and score(calls, truth)["arg"] == 1.0
    # equal values: the earliest truth call wins, whether it is reached by name or alternative
    got = alignment([call("get_account", account_id="C3")], truth)
    assert [(a["call"], a["alternative"]) for a in got] == [(0, "get_account"), (None, None)]


def test_toolrl_honours_alternatives_behind_the_same_switch():
    toolrl = RewardConfig(kind="toolrl")
    # recorded path: names {get_account, transfer} both ways: Jaccard 1; param 1 + 1 = 2;
    # values 1 + 3 = 4; S_max = 1 + (1 + 1) + (1 + 3) = 7; correct = 6 * 7/7 - 3 = 3
    recorded = score(_move(call("get_account", account_id="A1")), TRUTH, toolrl)
    assert (recorded["name"], recorded["param"], recorded["value"]) == (1.0, 2.0, 4.0)
    assert recorded["total"] == pytest.approx(4.0)
    # alternative path: step 0 resolves to list_accounts (key Jaccard of {} and {} = 1);
    # Jaccard 1; param 2; values 0 + 3; S_max = 1 + (1 + 0) + (1 + 3) = 6: correct 3 again
    alt = score(_move(call("list_accounts")), TRUTH, toolrl)
    assert (alt["name"], alt["param"], alt["value"], alt["total"]) == (1.0, 2.0, 3.0, 4.0)
    # switch off: names {get_account, transfer} vs {list_accounts, transfer}: 1/3; param 1,
    # values 3, S_max 7: correct = 6 * (1/3 + 4) / 7 - 3 = 5/7; total 1 + 5/7 = 12/7
    off = score(_move(call("list_accounts")), TRUTH,
                RewardConfig(kind="toolrl", accept_alternatives=False))
    assert off["name"] == pytest.approx(1 / 3) and off["total"] == pytest.approx(12 / 7)


def test_truth_exposes_alternatives():
    t = parse_truth(TRUTH)
    assert t.calls[0].alts == (("list_accounts", {}), ("find_account", {"query": "Ana"}))
    assert t.calls[1].alts == ()
    assert dict(t.alt_by_name) == {"list_accounts": ((0, 0),), "find_account": ((0, 1),)}
    assert dict(parse_truth({"steps": [[tc("f")]]}).alt_by_name) == {}


@pytest.mark.parametrize("alts, message", [
    ("list_accounts", r"truth.steps\[0\]\[0\].alternatives: must be a list, got str"),
    ([["list_accounts"]], r"alternatives\[0\]: must be an object, got list"),
    ([{"arguments": {}}], r"alternatives\[0\]: missing 'name'"),
    ([{"name": "list_accounts"}], r"alternatives\[0\]: missing 'arguments'"),
    ([{"name": "x", "arguments": []}], r"alternatives\[0\].arguments: must be an object"),
    ([{"name": 3, "arguments": {}}], r"alternatives\[0\].name: must be a string"),
    ([tc("get_account", account_id="A2")],
     r"alternatives\[0\].name: 'get_account' is the truth call's own name"),
    ([tc("list_accounts"), tc("list_accounts", page=2)],
     r"alternatives\[1\].name: 'list_accounts' is listed twice"),
    ([{**tc("list_accounts"), "outcome": "ok"}],
     r"alternatives\[0\]: unknown keys \['outcome'\] \(expected name, arguments\)"),
])
def test_malformed_alternatives_raise_a_clear_error(alts, message):
    truth = {"steps": [[{**tc("get_account", account_id="A1"), "alternatives": alts}]]}
    with pytest.raises(ValueError, match=message):
        parse_truth(truth)


def test_the_switch_is_validated():
    with pytest.raises(ValueError, match=r"RewardConfig\.accept_alternatives: must be a bool"):
        RewardConfig(accept_alternatives=1)
    assert RewardConfig.from_dict({"accept_alternatives": False}).accept_alternatives is False
    assert RewardConfig().accept_alternatives is True
