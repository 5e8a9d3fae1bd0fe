"""score() refuses malformed input and config with a message naming the offending element."""

from __future__ import annotations

import re

import pytest
from ml_collections import ConfigDict

from prove_jax.rewards import RewardConfig, score
from tests.rewards.builders import call, tc

OK_TRUTH = {"steps": [[tc("f", a=1)], [tc("g")]], "edges": [[0, 1]]}


@pytest.mark.parametrize(("calls", "message"), [
    ({"name": "f"}, "calls: must be a list, got dict"),
    ("f", "calls: must be a list, got str"),
    ([["f"]], "calls[0]: must be an object, got list"),
    ([call("f"), {"arguments": {}, "outcome": "ok"}], "calls[1]: missing 'name'"),
    ([{"name": 3, "arguments": {}, "outcome": "ok"}], "calls[0].name: must be a string, got int"),
    ([{"name": "f", "outcome": "ok"}], "calls[0]: missing 'arguments'"),
    ([{"name": "f", "arguments": "{}", "outcome": "ok"}],
     "calls[0].arguments: must be an object, got str"),
    ([{"name": "f", "arguments": None, "outcome": "ok"}],
     "calls[0].arguments: must be an object, got NoneType"),
    ([{"name": "f", "arguments": {}}], "calls[0]: missing 'outcome'"),
    ([call("f", "error")], "calls[0].outcome: 'error' is not one of"),
    ([call("f", "OK")], "calls[0].outcome: 'OK' is not one of"),
    ([{"name": "f", "arguments": {1: 2}, "outcome": "ok"}],
     "calls[0].arguments: key 1 is not a string"),
    # non-JSON values raise when a reward compares them
    ([call("f", a={1, 2})],
     "calls[0].arguments.a or the truth call truth.steps[0][0].arguments.a: "
     "$: set is not a JSON value"),
    ([call("f", a=[1, b"x"])], "calls[0].arguments.a or the truth call truth.steps[0][0]"
     ".arguments.a: $[1]: bytes is not a JSON value"),
])
def test_malformed_calls(calls, message):
    for kind in ("prove", "toolrl"):
        with pytest.raises(ValueError, match=re.escape(message.split(" or the truth")[0])):
            score(calls, OK_TRUTH, {"kind": kind, "match_outcomes": ["ok"]})
    with pytest.raises(ValueError, match=re.escape(message)):
        score(calls, OK_TRUTH)


@pytest.mark.parametrize(("truth", "message"), [
    ([], "truth: must be an object, got list"),
    ({"edges": []}, "truth: missing 'steps'"),
    ({"steps": [[tc("f")]], "edge": [[0, 1]]}, "truth: unknown keys ['edge']"),
    ({"steps": [[tc("f")]], "kind": "refusal"}, "truth.kind: 'refusal' is not one of"),
    ({"steps": []}, "truth.steps: a normal task needs at least one step"),
    ({"steps": [], "kind": "clarification"}, "a clarification task needs at least one step"),
    ({"steps": [[tc("f")]], "kind": "abstention"}, "an abstention task has no steps, got 1"),
    ({"steps": [tc("f")]}, "truth.steps[0]: must be a list, got dict"),
    ({"steps": [[tc("f")], []]}, "truth.steps[1]: a step needs at least one call"),
    ({"steps": [[{"arguments": {}}]]}, "truth.steps[0][0]: missing 'name'"),
    ({"steps": [[tc("f"), {"name": "g"}]]}, "truth.steps[0][1]: missing 'arguments'"),
    ({"steps": [[{"name": "f", "arguments": [1]}]]},
     "truth.steps[0][0].arguments: must be an object, got list"),
    ({"steps": [[tc("f")], [{"name": "g", "arguments": {None: 1}}]]},
     "truth.steps[1][0].arguments: key None is not a string"),
    ({"steps": [[tc("f")]], "edges": [[0, 1]]},
     "truth.edges[0]: step 1 out of range (the task has 1 steps)"),
    ({"steps": [[tc("f")], [tc("g")]], "edges": [[-1, 1]]}, "truth.edges[0]: step -1 out of"),
    ({"steps": [[tc("f")], [tc("g")]], "edges": [[1, 1]]}, "truth.edges[0]: self-edge on step 1"),
    ({"steps": [[tc("f")], [tc("g")]], "edges": [[0, 1, 2]]}, "truth.edges[0]: must be a pair"),
    ({"steps": [[tc("f")], [tc("g")]], "edges": [[0, "1"]]}, "truth.edges[0]: must be a pair"),
    ({"steps": [[tc("f")], [tc("g")]], "edges": [[True, 1]]}, "truth.edges[0]: must be a pair"),
    ({"steps": [[tc("f")], [tc("g")]], "edges": {"0": 1}}, "truth.edges: must be a list"),
    ({"steps": [[tc("f")], [tc("g")], [tc("h")]], "edges": [[0, 1], [1, 2], [2, 1]]},
     "truth.edges: dependency cycle through steps [1, 2]"),
    ({"steps": [[tc("f")]], "end_state": ["abc"]}, "truth.end_state: must map server names"),
    ({"steps": [[tc("f")]], "end_state": {"bank": ""}}, "truth.end_state: must map server"),
    ({"steps": [[tc("f")]], "end_state": {"bank": 3}}, "truth.end_state: must map server"),
    ({"steps": [[tc("f")]], "end": {}}, "truth: unknown keys ['end']"),
])
def test_malformed_truth(truth, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        score([], truth)


def test_defaults_and_extra_call_keys():
    # edges default to [], kind to "normal"; extra keys on a call (an id, a result) are ignored.
    calls = [{**call("f", a=1), "id": "c1", "result": "done"}]
    assert score(calls, {"steps": [[tc("f", a=1)]]})["total"] == pytest.approx(1.3)


def test_tuples_work_like_lists():
    truth = {"steps": ((tc("f", a=(1, 2)),),), "edges": ()}
    assert score((call("f", a=[1, 2]),), truth)["arg"] == 1.0


@pytest.mark.parametrize(("config", "message"), [
    ({"kind": "dapo"}, "RewardConfig.kind: 'dapo' is not one of prove, toolrl"),
    ({"w_vall": 0.5}, "reward config: unknown keys ['w_vall']"),
    ({"alpha": -1.0}, "RewardConfig.alpha: must be >= 0"),
    ({"beta": "0.5"}, "RewardConfig.beta: must be a finite number"),
    ({"w_state": None}, "RewardConfig.w_state: must be a finite number"),
    ({"w_cov": float("nan")}, "RewardConfig.w_cov: must be a finite number"),
    ({"w_cov": True}, "RewardConfig.w_cov: must be a finite number"),
    ({"normalize_strings": 1}, "RewardConfig.normalize_strings: must be a bool"),
    ({"match_outcomes": "ok"}, "RewardConfig.match_outcomes: must be a list"),
    ({"match_outcomes": ["ok", "fine"]}, "RewardConfig.match_outcomes: unknown outcomes ['fine']"),
    ([("kind", "prove")], "reward config: expected a mapping, got list"),
])
def test_bad_config(config, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        score([], OK_TRUTH, config)


def test_config_from_plain_dict_and_config_dict():
    d = {"kind": "prove", "w_cov": 0.7, "beta": 0.0, "match_outcomes": ["ok", "execution_error"]}
    a = RewardConfig.from_dict(d)
    b = RewardConfig.from_dict(ConfigDict(d))
    assert a == b
    assert a.match_outcomes == ("ok", "execution_error")
    assert a.w_cov == 0.7 and a.w_val == 0.5 and a.beta == 0.0
    assert RewardConfig.from_dict({}) == RewardConfig()
    with pytest.raises(ValueError, match=r"unknown keys \['extra'\]"):
        RewardConfig.from_dict(ConfigDict({"extra": 1}))


def test_config_selects_the_reward():
    truth = {"steps": [[tc("f", a=1)]]}
    assert set(score([], truth, {"kind": "toolrl"})) == {
        "format", "name", "param", "value", "correct", "total"}
    assert set(score([], truth, RewardConfig())) == {"val", "cov", "eff", "name", "arg", "total"}


def test_every_experiment_config_builds_a_reward_config():
    import importlib

    for name in ("tiny", "qwen3_4b", "qwen3_8b", "qwen2_5_7b", "granite_4_1_8b"):
        c = importlib.import_module(f"configs.{name}").get_config()
        assert RewardConfig.from_dict(c.reward) == RewardConfig()
    state = importlib.import_module("configs.smollm2_135m_state").get_config()
    assert RewardConfig.from_dict(state.reward) == RewardConfig(w_state=0.5)
