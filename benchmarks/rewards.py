"""Reward scoring throughput: `prove_jax.rewards.score` on 10,000 synthetic trajectories.

Builds (seeded) realistic trajectories: 2–8 ground-truth calls grouped into steps (some
parallel) with dependency edges, 0–12 model calls (copies of the truth calls in roughly the
right order, some dropped, repeated, reordered or with perturbed values, plus extra look-ups,
hallucinated tools and failed executions), arguments with nested objects and arrays; 5% of the
tasks are abstentions and 10% clarifications. Then times, best of --repeats, the full JSON path
(validation + canonicalization + matching + components) of
  score(calls, truth, RewardConfig())               PROVE reward (defaults)
  score(calls, truth, RewardConfig(kind="toolrl"))  ToolRL baseline
against the named baseline json.dumps((calls, truth), sort_keys=True) of the same inputs, and
prints each as wall seconds (best of the interleaved repeats, cyclic GC off as in timeit), µs per
trajectory, the ratio to json.dumps, and CPU seconds (less sensitive to a busy shared machine).
Run: .venv/bin/python -m benchmarks.rewards [--n 10000] [--repeats 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import time
from collections.abc import Callable

from prove_jax.rewards import RewardConfig, score

TOOLS = {  # name -> argument makers (each takes the rng)
    "get_account": {"user": lambda r: r.choice(["ana", "bo", "cy", "dee"])},
    "get_balance": {"account_id": lambda r: f"ACC-{r.randrange(1000):04d}"},
    "transfer": {"src": lambda r: f"ACC-{r.randrange(1000):04d}",
                 "dst": lambda r: f"ACC-{r.randrange(1000):04d}",
                 "amount": lambda r: round(r.uniform(1, 500), 2),
                 "memo": lambda r: {"note": r.choice(["rent", "gift"]), "tags": ["p", "q"]}},
    "search_items": {"query": lambda r: r.choice(["usb cable", "desk lamp", "tea"]),
                     "filters": lambda r: {"price": {"max": r.randrange(10, 100)},
                                           "in_stock": r.random() < 0.5,
                                           "brands": r.sample(["a", "b", "c", "d"], 2)}},
    "add_to_cart": {"cart_id": lambda r: f"C{r.randrange(100)}",
                    "items": lambda r: [{"sku": f"S{r.randrange(999)}", "qty": r.randint(1, 3)}
                                        for _ in range(r.randint(1, 3))]},
    "create_event": {"title": lambda r: r.choice(["standup", "1:1", "review"]),
                     "start": lambda r: f"2024-05-{r.randint(1, 28):02d}T09:00",
                     "attendees": lambda r: [f"u{r.randrange(50)}" for _ in range(2)],
                     "reminder": lambda r: {"minutes": r.choice([5, 10, 30]), "email": True}},
    "send_email": {"to": lambda r: f"u{r.randrange(50)}@x.com",
                   "subject": lambda r: r.choice(["hi", "update", "invoice"]),
                   "body": lambda r: {"text": "see attached", "cc": [],
                                      "priority": r.randint(1, 3)}},
    "set_thermostat": {"device_id": lambda r: f"D{r.randrange(20)}",
                       "target": lambda r: r.choice([19, 20.5, 22])},
}
NAMES = list(TOOLS)
EXTRA = ["list_accounts", "get_profile", "search_items"]
HALLUCINATED = ["get_acct", "transfer_funds", "email_send", "book"]


def make_call(r: random.Random, name: str) -> dict:
    return {"name": name, "arguments": {k: f(r) for k, f in TOOLS[name].items()}}


def make_truth(r: random.Random) -> dict:
    kind = r.choices(["normal", "clarification", "abstention"], [85, 10, 5])[0]
    if kind == "abstention":
        return {"steps": [], "edges": [], "kind": kind}
    n_gt, steps = r.randint(2, 8), []
    while n_gt:
        width = min(n_gt, r.choice([1, 1, 1, 2, 3]))
        steps.append([make_call(r, r.choice(NAMES)) for _ in range(width)])
        n_gt -= width
    edges = [[j, g] for g in range(1, len(steps)) for j in range(g)
             if r.random() < (0.6 if j == g - 1 else 0.15)]
    return {"steps": steps, "edges": edges, "kind": kind}


def perturb(r: random.Random, args: dict) -> dict:
    args = dict(args)
    key = r.choice(list(args))
    v = args[key]
    args[key] = float(v) if isinstance(v, int) and not isinstance(v, bool) else f"{v}x"
    return args


def make_calls(r: random.Random, truth: dict) -> list[dict]:
    calls = []
    for step in truth["steps"]:
        for c in r.sample(step, len(step)):
            roll = r.random()
            if roll < 0.1:
                continue  # dropped
            args = perturb(r, c["arguments"]) if roll < 0.3 else c["arguments"]
            outcome = r.choices(["ok", "execution_error", "schema_error"], [80, 12, 8])[0]
            calls.append({"name": c["name"], "arguments": args, "outcome": outcome})
            if outcome != "ok" and r.random() < 0.7:  # retry with the right arguments
                calls.append({"name": c["name"], "arguments": c["arguments"], "outcome": "ok"})
    for _ in range(r.choice([0, 0, 1, 2, 3])):
        if r.random() < 0.3:
            extra = {"name": r.choice(HALLUCINATED), "arguments": {"id": "x"},
                     "outcome": "unknown_tool"}
        else:
            name = r.choice(EXTRA)
            extra = ({**make_call(r, name), "outcome": "ok"} if name in TOOLS
                     else {"name": name, "arguments": {}, "outcome": "ok"})
        calls.insert(r.randint(0, len(calls)), extra)
    if len(calls) > 1 and r.random() < 0.2:  # one adjacent swap
        i = r.randrange(len(calls) - 1)
        calls[i], calls[i + 1] = calls[i + 1], calls[i]
    return calls[:r.randint(0, 12)] if r.random() < 0.1 else calls[:12]


def dataset(n: int, seed: int) -> list[tuple[list[dict], dict]]:
    """(calls, truth) pairs; each side is a JSON round trip, so no object is shared between the
    model's calls and the truth, as when both come from parsers."""
    r = random.Random(seed)
    out = []
    for _ in range(n):
        truth = make_truth(r)
        calls = make_calls(r, truth)
        out.append((json.loads(json.dumps(calls)), json.loads(json.dumps(truth))))
    return out


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call, with the cyclic GC off as timeit does: a full collection
    walks the whole 10,000-trajectory data set, a cost of this harness, not of the scorer."""
    gc.collect()
    gc.disable()
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        gc.enable()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10_000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    data = dataset(a.n, a.seed)
    n_model = sum(len(c) for c, _ in data)
    n_truth = sum(len(s) for _, t in data for s in t["steps"])
    print(f"{a.n} trajectories: {n_model / a.n:.1f} model calls and {n_truth / a.n:.1f} truth "
          f"calls on average; best of {a.repeats}")
    prove, toolrl = RewardConfig(), RewardConfig(kind="toolrl")  # read once, as a trainer does
    runs = {
        "json.dumps (baseline)": lambda: [json.dumps((c, t), sort_keys=True) for c, t in data],
        "score, PROVE": lambda: [score(c, t, prove) for c, t in data],
        "score, ToolRL": lambda: [score(c, t, toolrl) for c, t in data],
    }
    wall = {name: math.inf for name in runs}
    cpu = dict(wall)
    for _ in range(a.repeats):  # interleaved, so a busy spell on a shared machine hits all three
        for name, fn in runs.items():
            w, c = timed(fn)
            wall[name], cpu[name] = min(wall[name], w), min(cpu[name], c)
    base = wall["json.dumps (baseline)"]
    print(f"{'':24s} {'wall':>8s} {'µs/traj':>8s} {'vs json':>8s} {'CPU':>8s}")
    for name, s in wall.items():
        print(f"{name:24s} {s:7.3f}s {s / a.n * 1e6:8.1f} {s / base:7.2f}x {cpu[name]:7.3f}s")
    mean = sum(score(c, t)["total"] for c, t in data) / a.n
    print(f"mean PROVE total {mean:.4f}; target < 1 s wall for PROVE: "
          f"{'met' if wall['score, PROVE'] < 1.0 else 'MISSED'}")


if __name__ == "__main__":
    main()
