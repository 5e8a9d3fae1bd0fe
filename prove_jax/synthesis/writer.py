"""The dataset directory: train.jsonl / test.jsonl (one `Task.to_dict()` row per line, fixed
JSON form), meta.jsonl (per-row facts the rows cannot carry: kind details, information level,
chain, mentions, recovery counts), stats.json and drop_report.json."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from prove_jax.rollout.task import Task
from prove_jax.synthesis.quality import quality_of
from prove_jax.synthesis.records import Conversation, Drop
from servers.core.ids import SEALED

__all__ = ["alternatives_of", "dump_row", "held_out_id_overlap", "meta_of", "stats_of",
           "write_dataset"]

EXAMPLES_PER_REASON = 5


def dump_row(conv: Conversation) -> str:
    """The row as one line: validated by Task.from_dict, keys sorted, separators fixed."""
    task = Task.from_dict(conv.row())
    return json.dumps(task.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def meta_of(conv: Conversation) -> dict[str, Any]:
    """Per-row facts; `step_turn`, `gap.step` and `lookup_steps` index the truth's steps
    (a group of parallel calls is one), `chain` lists every call."""
    p = conv.plan
    groups, where = conv.grouping()
    gap = conv.stats.get("gap")
    if gap is not None:
        gap = {**gap, "step": where[gap["step"]]}
    return {"id": p.id, "index": p.index, "split": p.split, "kind": conv.kind,
            "variant": p.variant, "goal": p.goal, "info": conv.stats.get("info", p.info),
            "server": p.server, "servers": p.servers, "seed": p.world_seed, "block": p.block,
            "chain": [s.node.key for s in conv.steps], "lookups": conv.stats.get("lookups", 0),
            "user_turns": len(conv.user_turns), "distractors": len(p.distractors),
            "enum_strip": p.enum_strip, "step_turn": [conv.step_turn[m[0]] for m in groups],
            "mentions": conv.mentions, "intended": conv.intended, "trace": conv.trace,
            "gap": gap, "lookup_steps": sorted({where[i] for i, s in enumerate(conv.steps)
                                                if s.lookup}),
            "run": {k: v for k, v in sorted(conv.stats.items())
                    if isinstance(v, int) and k != "lookups"}}


def _ids_in(value: Any, key: str = "") -> set[str]:
    """World-made ids (sealed, servers.core.ids) under id keys (`id`, `*_id`, `*_ids`) at
    any depth: the ids every world shares by design ('cal_work', a folder 'inbox', a
    project key 'WEB') say nothing about whether worlds repeat."""
    if isinstance(value, dict):
        return set().union(*(_ids_in(v, k) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(_ids_in(v, key) for v in value))
    is_id = key == "id" or key.endswith(("_id", "_ids"))
    return {value} if is_id and isinstance(value, str) and SEALED.match(value) else set()


def held_out_id_overlap(kept: Sequence[Conversation]) -> dict[str, Any]:
    """How many of the ids that held-out truth calls pass also appear in train truth calls:
    worlds vary by seed and ids are opaque, so a held-out world should share almost none."""
    def ids_of(split: str) -> set[str]:
        return set().union(*(_ids_in(c.truth()) for c in kept if c.plan.split == split))

    test, train = ids_of("test"), ids_of("train")
    shared = len(test & train)
    return {"test_ids": len(test), "shared_with_train": shared,
            "fraction": round(shared / len(test), 4) if test else 0.0}


def _mix(counter: Counter, total: int) -> dict[str, float]:
    return {k: round(v / total, 4) for k, v in sorted(counter.items())} if total else {}


def stats_of(kept: Sequence[Conversation], drops: Sequence[Drop], kind_mix: dict[str, float],
             servers: Sequence[str], graph_info: dict) -> dict[str, Any]:
    n = len(kept)
    by = {name: Counter() for name in ("server", "chain_length", "kind", "user_turns",
                                       "distractors", "info", "enum_strip", "split",
                                       "variant")}
    recovery = Counter()
    for c in kept:
        by["server"][c.plan.server] += 1
        by["chain_length"][str(len(c.steps))] += 1
        by["kind"][c.kind] += 1
        by["user_turns"][str(len(c.user_turns))] += 1
        by["distractors"][str(len(c.plan.distractors))] += 1
        by["info"][c.stats.get("info", c.plan.info)] += 1
        by["enum_strip"][str(c.plan.enum_strip).lower()] += 1
        by["split"][c.plan.split] += 1
        by["variant"][c.plan.variant] += 1
        for k, v in c.stats.items():
            if isinstance(v, int) and k != "lookups":
                recovery[k] += v
    mix = _mix(by["kind"], n)
    return {"kept": n, "dropped": len(drops), "servers": list(servers),
            "counts": {k: dict(sorted(v.items())) for k, v in by.items()},
            "kind_mix": mix, "kind_mix_target": dict(sorted(kind_mix.items())),
            "kind_mix_max_deviation_points": round(max(
                (abs(mix.get(k, 0.0) - t) * 100 for k, t in kind_mix.items()), default=0.0), 2),
            "recovery": dict(sorted(recovery.items())), "graph": graph_info,
            "held_out_ids": held_out_id_overlap(kept), "alternatives": alternatives_of(kept),
            "quality": quality_of(kept)}


def alternatives_of(kept: Sequence[Conversation]) -> dict[str, int]:
    """How many truth read steps (look-ups apart) carry at least one verified alternative."""
    reads = [s for c in kept for s in c.steps if s.node.read_only]
    return {"read_steps": len(reads), "with_alternatives": sum(bool(s.alternatives)
                                                               for s in reads),
            "lookups": sum(s.lookup for s in reads),
            "lookups_with_alternatives": sum(s.lookup and bool(s.alternatives) for s in reads),
            "recorded": sum(len(s.alternatives) for s in reads)}


def _drop_report(drops: Sequence[Drop], generated: int, kept: int) -> dict[str, Any]:
    reasons: dict[str, dict[str, Any]] = {}
    for d in sorted(drops, key=lambda d: d.index):
        r = reasons.setdefault(d.reason, {"count": 0, "examples": []})
        r["count"] += 1
        if len(r["examples"]) < EXAMPLES_PER_REASON:
            r["examples"].append({"id": d.id, "detail": d.detail})
    return {"generated": generated, "kept": kept, "dropped": len(drops),
            "by_reason": dict(sorted(reasons.items()))}


def _write(path: Path, lines: Sequence[str]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    tmp.replace(path)


def write_dataset(out_dir: str | Path, kept: Sequence[Conversation], drops: Sequence[Drop],
                  generated: int, stats: dict[str, Any]) -> dict[str, Path]:
    """Write every file (rows in index order); returns name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    kept = sorted(kept, key=lambda c: c.plan.index)
    paths = {name: out / name for name in ("train.jsonl", "test.jsonl", "meta.jsonl",
                                           "stats.json", "drop_report.json")}
    _write(paths["train.jsonl"], [dump_row(c) for c in kept if c.plan.split == "train"])
    _write(paths["test.jsonl"], [dump_row(c) for c in kept if c.plan.split == "test"])
    _write(paths["meta.jsonl"], [json.dumps(meta_of(c), sort_keys=True, separators=(",", ":"),
                                            ensure_ascii=False) for c in kept])
    paths["stats.json"].write_text(json.dumps(stats, indent=1, sort_keys=True) + "\n")
    paths["drop_report.json"].write_text(json.dumps(
        _drop_report(drops, generated, len(kept)), indent=1, sort_keys=True) + "\n")
    return paths
