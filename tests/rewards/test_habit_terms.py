"""The habit terms (w_repeat, w_finish): off by default they change nothing; on, a repeated call
and an episode that never answers cost what the docstrings say. Numbers worked by hand.

The banking chain (builders.CHAIN): n_gt = 4, B = 6; paper total = 0.5·val + 0.5·cov +
0.15·eff + 0.2·name + 0.1·arg.
"""

from __future__ import annotations

import pytest

from prove_jax.rewards import RewardConfig, parse_calls, parse_truth, r_repeat, score
from tests.rewards.builders import ACCOUNT, BALANCE, CHAIN, EMAIL, TRANSFER, as_model, call, tc

HABITS = {"w_repeat": 0.25, "w_finish": 0.2}
PERFECT = [as_model(c) for c in (ACCOUNT, BALANCE, TRANSFER, EMAIL)]


def _repeat(calls: list[dict], truth: dict) -> float:
    return r_repeat(parse_calls(calls), parse_truth(truth))


def test_defaults_keep_the_paper_formula_and_its_components():
    calls = [*PERFECT, as_model(BALANCE)]  # one repeat
    for finished in (None, True, False):
        got = score(calls, CHAIN, finished=finished)
        assert set(got) == {"val", "cov", "eff", "name", "arg", "total"}
        assert got["total"] == pytest.approx(1.3)  # the repeat is free under the paper's reward


def test_a_repeat_costs_w_repeat_per_truth_call():
    calls = [*PERFECT, as_model(BALANCE), as_model(BALANCE)]  # two repeats, 6 calls = B
    got = score(calls, CHAIN, HABITS, finished=True)
    assert got["repeat"] == pytest.approx(-2 / 4)
    assert got["finish"] == 1.0
    # paper part 1.3 (6 calls is within B), then 0.25·(-0.5) + 0.2·1
    assert got["total"] == pytest.approx(1.3 - 0.125 + 0.2)


def test_repeats_judge_canonical_arguments_not_their_spelling():
    calls = [call("transfer", src="A1", dst="B2", amount=50),
             {"name": "transfer", "arguments": {"amount": 50.0, "dst": "B2", "src": "A1"},
              "outcome": "ok"},
             call("transfer", src="A1", dst="B2", amount=51)]  # other arguments: not a repeat
    assert _repeat(calls, CHAIN) == pytest.approx(-1 / 4)
    # another name with the same arguments is not a repeat either
    assert _repeat([call("a", x=1), call("b", x=1)], CHAIN) == 0.0


def test_a_failed_call_retried_unchanged_is_a_repeat():
    calls = [call("get_balance", "execution_error", account_id="A1"),
             call("get_balance", "execution_error", account_id="A1")]
    assert _repeat(calls, CHAIN) == pytest.approx(-1 / 4)


def test_the_truths_own_repeats_are_allowed():
    look = tc("list_files", path="/docs")
    write = tc("write_file", path="/docs/a.txt", content="hi")
    truth = {"steps": [[look], [write], [look]], "edges": [[0, 1], [1, 2]], "kind": "normal"}
    twice = [as_model(look), as_model(write), as_model(look)]
    assert _repeat(twice, truth) == 0.0
    assert _repeat([*twice, as_model(look)], truth) == pytest.approx(-1 / 3)
    assert _repeat([*twice, as_model(write)], truth) == pytest.approx(-1 / 3)
    # a listing made twice of the truth's three does not pay for a write made twice
    thrice = {"steps": [[look], [write], [look], [look]], "edges": [[0, 1], [1, 2], [2, 3]],
              "kind": "normal"}
    calls = [as_model(look), as_model(write), as_model(look), as_model(write)]
    assert _repeat(calls, thrice) == pytest.approx(-1 / 4)


def test_abstention_divides_by_one_and_keeps_its_own_total():
    truth = {"steps": [], "kind": "abstention"}
    calls = [call("x"), call("x"), call("x")]
    got = score(calls, truth, HABITS, finished=True)
    assert got["repeat"] == pytest.approx(-2.0)
    assert got["total"] == 0.0  # abstention: 0 with any call, whatever the habit terms
    assert score([], truth, HABITS, finished=True)["total"] == 1.0


def test_an_answer_earns_w_finish_times_the_coverage_before_it():
    cfg = RewardConfig(w_finish=0.2)
    calls = [as_model(ACCOUNT), as_model(BALANCE)]  # half the chain: R_cov = 0.5
    done = score(calls, CHAIN, cfg, finished=True)
    capped = score(calls, CHAIN, cfg, finished=False)
    unknown = score(calls, CHAIN, cfg)
    assert done["finish"] == 0.5 and capped["finish"] == 0.0 and "finish" not in unknown
    assert done["total"] - capped["total"] == pytest.approx(0.2 * 0.5)
    assert unknown["total"] == pytest.approx(capped["total"])
    assert "repeat" not in done  # w_repeat = 0: not computed
    whole = score(PERFECT, CHAIN, cfg, finished=True)
    assert whole["finish"] == 1.0 and whole["total"] == pytest.approx(1.5)


def test_a_bare_answer_earns_nothing_unless_the_rule_is_answer():
    """The fifth reading's rule ("answer": 1 for any answer) paid a claim with no call 0.2,
    as much as a flailing attempt earns, and GRPO learned to answer without calling. Under
    "covered" the claim earns 0 and a bare answer never beats doing the task's first calls."""
    bare = score([], CHAIN, HABITS, finished=True)
    assert bare["finish"] == 0.0 and bare["total"] == 0.0
    half = score([as_model(ACCOUNT), as_model(BALANCE)], CHAIN, HABITS, finished=False)
    assert half["total"] > 0.5
    old = {**HABITS, "finish": "answer"}
    assert score([], CHAIN, old, finished=True)["total"] == pytest.approx(0.2)
    flailing = [call("get_acount", "unknown_tool", user="ana")] * 2  # repeated unknown tool
    assert score(flailing, CHAIN, old, finished=False)["total"] < 0.2


def test_an_unknown_finish_rule_is_refused():
    with pytest.raises(ValueError, match=r"RewardConfig\.finish: 'done' is not one of"):
        RewardConfig(finish="done")


@pytest.mark.parametrize("field", ["w_repeat", "w_finish"])
@pytest.mark.parametrize("bad", [-0.1, float("nan"), True, "0.2"])
def test_bad_weights_are_refused_by_name(field, bad):
    with pytest.raises(ValueError, match=f"RewardConfig.{field}"):
        RewardConfig(**{field: bad})
