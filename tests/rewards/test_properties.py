"""Property tests: bounds, the efficiency penalty's monotonicity, R_cov's order invariances."""

from __future__ import annotations

import copy
import math
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from prove_jax.rewards import (
    OUTCOMES,
    budget,
    canonical,
    json_equal,
    match_calls,
    parse_calls,
    parse_truth,
    r_cov,
    r_eff,
    score,
)

# Per test, not a global profile: other packages' tests keep their own settings.
SETTINGS = settings(deadline=None, max_examples=100)

NAMES = ["get", "put", "send", "list"]
KEYS = ["id", "to", "amount", "body"]
json_leaf = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2) | st.sampled_from(
    ["a", "b", " A "])
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(KEYS), inner, max_size=3), max_leaves=6)
arguments = st.dictionaries(st.sampled_from(KEYS), json_value, max_size=3)


@st.composite
def truths(draw, unique: bool = False) -> dict:
    """A random task; with unique=True every truth call carries a distinct `uid` value."""
    kind = draw(st.sampled_from(["normal", "clarification", "abstention"])) if not unique \
        else "normal"
    if kind == "abstention":
        return {"steps": [], "edges": [], "kind": kind}
    n_steps = draw(st.integers(1, 4))
    steps, uid = [], 0
    for _ in range(n_steps):
        step = []
        for _ in range(draw(st.integers(1, 3))):
            args = draw(arguments)
            if unique:
                args = {**args, "uid": uid}
                uid += 1
            step.append({"name": draw(st.sampled_from(NAMES)), "arguments": args})
        steps.append(step)
    pairs = [[j, g] for g in range(n_steps) for j in range(g)]  # j < g: always acyclic
    edges = draw(st.lists(st.sampled_from(pairs), unique_by=tuple, max_size=len(pairs))) \
        if pairs else []
    return {"steps": steps, "edges": edges, "kind": kind}


def model_call(truth: dict):
    """A model call: a copy of a truth call (perhaps perturbed) or a random one."""
    copies = [c for s in truth["steps"] for c in s]
    rand = st.builds(lambda n, a, o: {"name": n, "arguments": a, "outcome": o},
                     st.sampled_from([*NAMES, "nope"]), arguments, st.sampled_from(OUTCOMES))
    if not copies:
        return rand
    copy = st.builds(lambda c, o: {**c, "outcome": o}, st.sampled_from(copies),
                     st.sampled_from(OUTCOMES))
    return copy | rand


@st.composite
def cases(draw):
    truth = draw(truths())
    calls = draw(st.lists(model_call(truth), max_size=12))
    # β with at most 3 decimals: budget_reference is exact for it
    config = {"alpha": draw(st.floats(0, 2)), "beta": float(draw(st.decimals(0, 2, places=3))),
              "normalize_strings": draw(st.booleans()),
              "match_outcomes": draw(st.lists(st.sampled_from(OUTCOMES), unique=True))}
    return calls, truth, config


def n_truth_calls(truth: dict) -> int:
    return sum(len(s) for s in truth["steps"])


@SETTINGS
@given(cases())
def test_prove_components_stay_within_bounds(case):
    calls, truth, config = case
    got = score(calls, truth, config)
    for k in ("val", "cov", "name", "arg"):
        assert 0.0 <= got[k] <= 1.0, k
    b = budget_reference(n_truth_calls(truth), config["beta"])
    assert -config["alpha"] * len(calls) / max(b, 1) - 1e-12 <= got["eff"] <= 0.0
    if truth["kind"] == "abstention":
        assert got["total"] == (0.0 if calls else 1.0)
    else:
        assert 0.15 * got["eff"] - 1e-12 <= got["total"] <= 1.3 + 1e-12


@SETTINGS
@given(cases())
def test_toolrl_components_stay_within_bounds(case):
    calls, truth, config = case
    got = score(calls, truth, {**config, "kind": "toolrl"})
    assert got["format"] in (0.0, 1.0)
    assert 0.0 <= got["name"] <= 1.0
    assert -3 - 1e-9 <= got["correct"] <= 3 + 1e-9
    assert -3 - 1e-9 <= got["total"] <= 4 + 1e-9


@SETTINGS
@given(st.integers(0, 40), st.integers(0, 20), st.floats(0, 3), st.floats(0, 3),
       st.integers(1, 10))
def test_eff_is_nonpositive_and_never_rises_with_more_calls(n, n_gt, alpha, beta, extra):
    assert r_eff(n, n_gt, alpha, beta) <= 0.0
    assert r_eff(n + extra, n_gt, alpha, beta) <= r_eff(n, n_gt, alpha, beta)


@SETTINGS
@given(cases(), st.lists(st.sampled_from(["list", "nope", "get"]), min_size=1, max_size=6))
def test_appending_calls_never_raises_eff(case, names):
    calls, truth, config = case
    more = calls + [{"name": n, "arguments": {}, "outcome": "ok"} for n in names]
    assert score(more, truth, config)["eff"] <= score(calls, truth, config)["eff"]


def budget_reference(n_gt: int, beta: float) -> int:
    """B = n_gt + ceil(β·n_gt) in exact decimal arithmetic on β as written (repr), so float
    noise in β·n_gt cannot push the ceiling up; exact for the few-decimal βs drawn here."""
    return n_gt + math.ceil(Decimal(repr(beta)) * n_gt)


def test_budget_worked_by_hand():
    assert budget(4, 0.5) == 6  # 4 + ceil(2)
    assert budget(10, 0.7) == 17  # 10 + ceil(7)
    assert budget(5, 0.21) == 7  # 5 + ceil(1.05)
    assert budget(3, 0.1) == 4  # 3 + ceil(0.3)
    assert budget(1, 3.0) == 4 and budget(4, 0.0) == 4 and budget(0, 2.0) == 0
    assert budget(100, 0.07) == 107  # 0.07 * 100 is 7.000000000000001 in floats: still 7


@SETTINGS
@given(st.integers(0, 50), st.decimals(0, 3, places=3))
def test_budget_matches_exact_decimal_arithmetic(n_gt, beta):
    assert budget(n_gt, float(beta)) == n_gt + math.ceil(beta * n_gt)


def _trajectory(draw, truth: dict) -> tuple[list[dict], list[int]]:
    """Exact copies (ok) of a random subset of the truth calls in random order, with their steps,
    interleaved with calls no truth call can match (step -1)."""
    flat = [(c, s) for s, step in enumerate(truth["steps"]) for c in step]
    chosen = draw(st.lists(st.sampled_from(range(len(flat))), unique=True))
    items = [({**flat[i][0], "outcome": "ok"}, flat[i][1]) for i in chosen]
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(items)))
        items.insert(at, ({"name": "nope", "arguments": {}, "outcome": "ok"}, -1))
    return [c for c, _ in items], [s for _, s in items]


def _cov(calls: list[dict], truth: dict) -> float:
    t = parse_truth(truth)
    return r_cov(match_calls(parse_calls(calls), t), t)


@SETTINGS
@given(st.data())
def test_swapping_calls_of_independent_steps_leaves_cov_unchanged(data):
    truth = data.draw(truths(unique=True))
    calls, steps = _trajectory(data.draw, truth)
    linked = {tuple(e) for e in truth["edges"]} | {(g, j) for j, g in truth["edges"]}
    before = _cov(calls, truth)
    for i in range(len(calls) - 1):
        if (steps[i], steps[i + 1]) in linked:
            continue
        swapped = [*calls[:i], calls[i + 1], calls[i], *calls[i + 2:]]
        assert _cov(swapped, truth) == before


@SETTINGS
@given(st.data())
def test_permuting_the_step_list_leaves_every_component_unchanged(data):
    truth = data.draw(truths(unique=True))
    calls, _ = _trajectory(data.draw, truth)
    n = len(truth["steps"])
    perm = data.draw(st.permutations(range(n)))  # old step s goes to position perm[s]
    steps = [None] * n
    for s, step in enumerate(truth["steps"]):
        steps[perm[s]] = step
    relabeled = {"steps": steps, "edges": [[perm[j], perm[g]] for j, g in truth["edges"]],
                 "kind": truth["kind"]}
    assert score(calls, relabeled) == score(calls, truth)


@SETTINGS
@given(st.data())
def test_any_topological_order_of_all_truth_calls_has_full_cov(data):
    truth = data.draw(truths(unique=True))
    deps = {g: {j for j, gg in truth["edges"] if gg == g} for g in range(len(truth["steps"]))}
    done: set[int] = set()
    calls = []
    while len(done) < len(truth["steps"]):
        ready = sorted(s for s in deps if s not in done and deps[s] <= done)
        s = data.draw(st.sampled_from(ready))
        step = data.draw(st.permutations(truth["steps"][s]))
        calls += [{**c, "outcome": "ok"} for c in step]
        done.add(s)
    got = score(calls, truth)
    assert got["cov"] == 1.0 and got["arg"] == 1.0 and abs(got["total"] - 1.3) < 1e-12


def _respell(draw, v):
    """The same JSON value spelled differently: ints as floats, keys reordered, lists as tuples."""
    if type(v) is int and draw(st.booleans()):
        return float(v)
    if isinstance(v, dict):
        items = [(k, _respell(draw, x)) for k, x in v.items()]
        return dict(draw(st.permutations(items)))
    if isinstance(v, list):
        out = [_respell(draw, x) for x in v]
        return tuple(out) if draw(st.booleans()) else out
    return v


@SETTINGS
@given(st.data(), json_value, json_value, st.booleans())
def test_json_equal_agrees_with_canonical_forms(data, a, b, ns):
    assert json_equal(a, b, ns) == (canonical(a, ns) == canonical(b, ns))
    same = _respell(data.draw, a)
    assert json_equal(a, same, ns) and canonical(a, ns) == canonical(same, ns)


@SETTINGS
@given(cases())
def test_scoring_is_pure(case):
    calls, truth, config = case
    before = copy.deepcopy((calls, truth, config))
    first = score(calls, truth, config)
    assert (calls, truth, config) == before
    assert score(calls, truth, config) == first
