"""PROVE reward on hand-computed cases. Expected numbers come from the §3 formulas worked by hand.

Defaults: total = 0.5·val + 0.5·cov + 0.15·eff + 0.2·name + 0.1·arg; α = β = 0.5.
The banking chain (builders.CHAIN) has n_gt = 4 and budget B = 4 + ceil(0.5·4) = 6.
"""

from __future__ import annotations

import pytest

from prove_jax.rewards import score
from tests.rewards.builders import (
    ACCOUNT,
    BALANCE,
    CHAIN,
    EMAIL,
    TRANSFER,
    as_model,
    call,
    tc,
)

ALL_OUTCOMES = {"match_outcomes": ["ok", "execution_error", "schema_error", "unknown_tool"]}
OK_ONLY = {"match_outcomes": ["ok"]}  # the option: only successful calls can match


def check(got: dict, **want: float) -> None:
    assert set(got) == {"val", "cov", "eff", "name", "arg", "total"}
    for k in want:
        assert got[k] == pytest.approx(want[k], abs=1e-12), k


def test_perfect_trajectory_is_the_known_maximum():
    calls = [as_model(c) for c in (ACCOUNT, BALANCE, TRANSFER, EMAIL)]
    # 0.5·1 + 0.5·1 + 0.15·0 + 0.2·1 + 0.1·1 = 1.3 (the sum of the positive weights)
    check(score(calls, CHAIN), val=1, cov=1, eff=0, name=1, arg=1, total=1.3)


def test_canonicalization_5_equals_5_point_0_and_key_order_is_ignored():
    calls = [as_model(c) for c in (ACCOUNT, BALANCE)]
    calls.append(call("transfer", amount=50.0, dst="B2", src="A1"))
    calls.append(call("send_email", body={"tags": ["paid", "rent"], "amount": 50.0},
                      to="ana@x.com"))
    check(score(calls, CHAIN), arg=1, cov=1, total=1.3)


def test_wrong_order():
    # account@0, transfer@1, balance@2, email@3: transfer needs balance earlier (2 < 1 fails).
    # cov = (1 + 1 + 0 + 1)/4 = 0.75; total = 0.5 + 0.375 + 0 + 0.2 + 0.1 = 1.175
    calls = [as_model(c) for c in (ACCOUNT, TRANSFER, BALANCE, EMAIL)]
    check(score(calls, CHAIN), val=1, cov=0.75, eff=0, name=1, arg=1, total=1.175)


def test_missing_dependency():
    # balance never called: m(balance) = 0, o(transfer) = 0 (its dependency is unmatched),
    # email's direct dependency (transfer@1 < 2) holds. cov = (1 + 0 + 0 + 1)/4 = 0.5
    # total = 0.5 + 0.25 + 0 + 0.2 + 0.1 = 1.05
    calls = [as_model(c) for c in (ACCOUNT, TRANSFER, EMAIL)]
    check(score(calls, CHAIN), val=1, cov=0.5, eff=0, name=1, arg=1, total=1.05)


def test_extra_calls_inside_the_budget():
    # N = 6 <= B = 6: eff = 0. list_accounts is not a truth name: name = 5/6; the repeated
    # get_balance is unmatched (already taken), so cov and arg stay 1.
    # total = 0.5 + 0.5 + 0 + 0.2·5/6 + 0.1 = 1.1 + 1/6
    calls = [as_model(ACCOUNT), call("list_accounts"), as_model(BALANCE), as_model(BALANCE),
             as_model(TRANSFER), as_model(EMAIL)]
    check(score(calls, CHAIN), val=1, cov=1, eff=0, name=5 / 6, arg=1, total=1.1 + 1 / 6)


def test_extra_calls_beyond_the_budget():
    # N = 8 > B = 6: eff = -0.5·(8-6)/6 = -1/6; name = 4/8.
    # total = 0.5 + 0.5 + 0.15·(-1/6) + 0.2·0.5 + 0.1 = 1.175
    calls = [as_model(c) for c in (ACCOUNT, BALANCE, TRANSFER, EMAIL)]
    calls += [call("list_accounts")] * 4
    check(score(calls, CHAIN), val=1, cov=1, eff=-1 / 6, name=0.5, arg=1, total=1.175)


def test_flat_budget_beta_zero():
    # Same 6 calls as the inside-budget case, but B = 4 + ceil(0·4) = 4:
    # eff = -0.5·(6-4)/4 = -0.25; total = 0.5 + 0.5 - 0.15·0.25 + 0.2·5/6 + 0.1
    calls = [as_model(ACCOUNT), call("list_accounts"), as_model(BALANCE), as_model(BALANCE),
             as_model(TRANSFER), as_model(EMAIL)]
    check(score(calls, CHAIN, {"beta": 0.0}), eff=-0.25, name=5 / 6,
          total=1.0 - 0.0375 + 1 / 6 + 0.1)


def test_hallucinated_tool_name():
    # get_acct_balance does not exist: validity 0, not a truth name, matches nothing.
    # val = (1+0+1+1)/4 = 0.75; name = 3/4; cov = (1 + 0 + 0 + 1)/4 = 0.5 (transfer lacks its
    # dependency; email's dependency transfer@2 < 3 holds); arg = 1 over 3 pairs.
    # total = 0.375 + 0.25 + 0 + 0.15 + 0.1 = 0.875
    calls = [as_model(ACCOUNT), call("get_acct_balance", "unknown_tool", account_id="A1"),
             as_model(TRANSFER), as_model(EMAIL)]
    check(score(calls, CHAIN), val=0.75, cov=0.5, eff=0, name=0.75, arg=1, total=0.875)


def test_right_name_wrong_types():
    # get_balance(account_id=1) is a schema error: validity 1/3. val = (1 + 1/3)/2 = 2/3.
    # Default matching (ok only): balance unmatched, cov = 1/4, arg = 1 (account pair only).
    # total = 0.5·2/3 + 0.5·0.25 + 0 + 0.2·1 + 0.1·1 = 1/3 + 0.425
    calls = [as_model(ACCOUNT), call("get_balance", "schema_error", account_id=1)]
    check(score(calls, CHAIN, OK_ONLY), val=2 / 3, cov=0.25, eff=0, name=1, arg=1,
          total=1 / 3 + 0.425)
    # Matching every outcome: the bad call carries the key, so balance is matched (0 of 1 values,
    # dependency account@0 < 1 holds): cov = 2/4, arg = (1 + 0)/2.
    # total = 1/3 + 0.25 + 0.2 + 0.05
    check(score(calls, CHAIN, ALL_OUTCOMES), cov=0.5, arg=0.5, total=1 / 3 + 0.5)


SINGLE = {"steps": [[tc("transfer", src="A1", dst="B2", amount=50)]], "edges": []}  # B = 1 + 1


def test_execution_failure_then_corrected_retry():
    calls = [call("transfer", "execution_error", src="A1", dst="B2", amount=5000),
             call("transfer", src="A1", dst="B2", amount=50)]
    # val = (2/3 + 1)/2 = 5/6; N = 2 <= B = 2. Default: the retry owns the step (3/3 values).
    # total = 0.5·5/6 + 0.5 + 0 + 0.2 + 0.1
    check(score(calls, SINGLE, OK_ONLY), val=5 / 6, cov=1, eff=0, name=1, arg=1, total=5 / 12 + 0.8)
    # Matching every outcome: the failed call owns it with 2/3 values: arg = 2/3.
    check(score(calls, SINGLE, ALL_OUTCOMES), cov=1, arg=2 / 3, total=5 / 12 + 0.7 + 0.2 / 3)


def test_execution_failure_alone():
    # val = 2/3; nothing performed the step: cov = 0, arg = 0 (no pair); name = 1.
    # total = 0.5·2/3 + 0 + 0 + 0.2 + 0 = 1/3 + 0.2
    calls = [call("transfer", "execution_error", src="A1", dst="B2", amount=5000)]
    check(score(calls, SINGLE, OK_ONLY), val=2 / 3, cov=0, eff=0, name=1, arg=0, total=1 / 3 + 0.2)


ABSTAIN = {"steps": [], "edges": [], "kind": "abstention"}


def test_abstention_without_calls():
    # No call: total 1; components by their empty rules (B = 0, N = 0: eff 0).
    check(score([], ABSTAIN), val=0, cov=0, eff=0, name=0, arg=0, total=1)


def test_abstention_with_calls():
    # Two calls: total 0; val = 1 (both ok); eff = -0.5·(2-0)/max(0,1) = -1.
    calls = [call("get_account", user="ana"), call("list_accounts")]
    check(score(calls, ABSTAIN), val=1, cov=0, eff=-1, name=0, arg=0, total=0)


def test_clarification_task_scores_like_a_normal_task():
    # Truth = the booking made once the user gave the date. A look-up before it is an extra call.
    # n_gt = 1, B = 2, N = 2: eff 0; name = 1/2; cov = arg = 1.
    # total = 0.5 + 0.5 + 0 + 0.1 + 0.1 = 1.2
    truth = {"steps": [[tc("book_flight", dest="Oslo", date="2024-05-01")]],
             "kind": "clarification"}
    calls = [call("search_flights", dest="Oslo"),
             call("book_flight", dest="Oslo", date="2024-05-01")]
    got = score(calls, truth)
    check(got, val=1, cov=1, eff=0, name=0.5, arg=1, total=1.2)
    assert got == score(calls, {**truth, "kind": "normal"})


PARALLEL = {"steps": [[tc("get_weather", city="Oslo"), tc("get_weather", city="Rome")],
                      [tc("send_email", to="a", body="x")]],
            "edges": [[0, 1]]}  # n_gt = 3, B = 3 + ceil(1.5) = 5


def test_parallel_calls_count_one_by_one():
    # Rome@0 -> Rome (1 value beats Oslo's 0), email@1, Oslo@2. The email needs both weather
    # calls earlier; Oslo@2 > 1, so o(email) = 0. cov = 2/3; total = 0.5 + 1/3 + 0.2 + 0.1
    calls = [call("get_weather", city="Rome"), call("send_email", to="a", body="x"),
             call("get_weather", city="Oslo")]
    check(score(calls, PARALLEL), val=1, cov=2 / 3, eff=0, name=1, arg=1, total=0.8 + 1 / 3)
    # Parallel calls of one step in either order, then the email: perfect.
    calls = [call("get_weather", city="Rome"), call("get_weather", city="Oslo"),
             call("send_email", to="a", body="x")]
    check(score(calls, PARALLEL), cov=1, arg=1, total=1.3)


def test_one_of_two_parallel_calls():
    # Only Oslo then the email: cov = (1 + 0 + 0)/3 (email lacks Rome); name = 1; arg = 1.
    # total = 0.5 + 0.5/3 + 0.2 + 0.1
    calls = [call("get_weather", city="Oslo"), call("send_email", to="a", body="x")]
    check(score(calls, PARALLEL), cov=1 / 3, total=0.8 + 1 / 6)


def test_no_calls_on_a_normal_task():
    # Empty means are 0: val = name = arg = cov = 0, eff = 0: total 0.
    check(score([], CHAIN), val=0, cov=0, eff=0, name=0, arg=0, total=0)


def test_custom_weights():
    # wrong-order trajectory (cov 0.75, others perfect) with weights 1/1/1/1/1:
    # total = 1 + 0.75 + 0 + 1 + 1 = 3.75
    calls = [as_model(c) for c in (ACCOUNT, TRANSFER, BALANCE, EMAIL)]
    w = {"w_val": 1.0, "w_cov": 1.0, "w_eff": 1.0, "w_name": 1.0, "w_arg": 1.0}
    check(score(calls, CHAIN, w), total=3.75)


def test_partial_argument_values():
    # transfer with the wrong amount: matched (keys present), 2 of 3 values.
    # arg = (1 + 1 + 2/3 + 1)/4 = 11/12; total = 0.5 + 0.5 + 0.2 + 0.1·11/12
    calls = [as_model(ACCOUNT), as_model(BALANCE), call("transfer", src="A1", dst="B2", amount=5),
             as_model(EMAIL)]
    check(score(calls, CHAIN), cov=1, arg=11 / 12, total=1.2 + 1.1 / 12)


def test_string_normalization_is_off_by_default():
    truth = {"steps": [[tc("get_weather", city="Oslo")]]}
    calls = [call("get_weather", city="  oslo ")]
    # default: 0 of 1 value: arg 0, total = 0.5 + 0.5 + 0.2 + 0 = 1.2; normalized: 1.3
    check(score(calls, truth), arg=0, total=1.2)
    check(score(calls, truth, {"normalize_strings": True}), arg=1, total=1.3)


def test_bools_are_not_numbers():
    truth = {"steps": [[tc("set_light", on=True, level=1)]]}
    # on=1 != True, level=True != 1: 0 of 2 values -> arg 0; total = 1.2
    check(score([call("set_light", on=1, level=True)], truth), arg=0, total=1.2)


def test_state_term_hand_computed():
    """The optional end-state term: 1 when every server the truth writes ended in its end
    state, 0 when one did not; absent (and unweighted) when either side has no end state."""
    calls = [as_model(c) for c in (ACCOUNT, BALANCE, TRANSFER, EMAIL)]
    truth = {**CHAIN, "end_state": {"banking": "h1", "email": "h2"}}
    on = {"w_state": 0.5}
    reached = score(calls, truth, on, end_state={"banking": "h1", "email": "h2", "maps": "x"})
    assert reached["state"] == 1.0 and reached["total"] == pytest.approx(1.3 + 0.5)
    missed = score(calls, truth, on, end_state={"banking": "h1", "email": "other"})
    assert missed["state"] == 0.0 and missed["total"] == pytest.approx(1.3)
    lost = score(calls, truth, on, end_state={"banking": "h1"})  # a server never snapshotted
    assert lost["state"] == 0.0
    # the paper's formula by default: the term is reported, weighted 0
    default = score(calls, truth, end_state={"banking": "h1", "email": "h2"})
    assert default["state"] == 1.0 and default["total"] == pytest.approx(1.3)
    check(score(calls, truth, on), total=1.3)  # no episode end state: no term at all
    check(score(calls, CHAIN, on, end_state={"banking": "h1"}), total=1.3)  # no truth one
