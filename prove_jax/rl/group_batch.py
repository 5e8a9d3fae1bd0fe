"""Rollout groups to the shared-prefix train step's arrays: each group's prompt stored once.

The G rollouts of a group start with the same prompt token for token (same task, system
prompt, tool schemas, first user turn). The prefix is every token before the first sampled
one; rows are checked to agree on it (a longest common prefix could swallow sampled tokens that
happen to agree). Each suffix is the rest of its row. The prefix's last token predicts every
row's first sampled token, so the LM head runs on that one prefix position per row and on no
other.

Layout, N groups of G rows, compact like `prove_jax.rl.batch`:
  prefix_tokens, prefix_mask     [N, P]     the prefix (positions 0..), right-padded;
  tokens, attention_mask,        [N, G, S]  each row's suffix, right-padded; positions are
    positions                               the unpacked row's (they continue the prefix);
  target_index, loss_mask,       [N, G, R]  the sampled tokens' predictions: index 0 is the
    old_logp                                prefix's last token, i > 0 suffix position i - 1;
                                            R as in the unpacked batch;
  advantages                     [N, G].
A failed rollout's row (and a usable one with nothing sampled) becomes a padding row: one
attended pad token, loss mask 0, advantage 0; it teaches nothing either way. Groups are padded
with all-padding groups up to `min_groups` and a multiple of `groups_multiple`, so a step that
kept fewer groups keeps its compiled shape. Whole groups sit on one data shard (the batch's
leading axis is the group).
"""

from __future__ import annotations

from collections.abc import Sequence

import grain
import numpy as np

from prove_jax.rl.batch import TARGET_MULTIPLE, padded_length
from prove_jax.rollout.trajectory import Trajectory

__all__ = ["grouped_batch", "prompt_length"]


def _first_sampled(loss_mask: Sequence[int]) -> int | None:
    hits = np.flatnonzero(np.asarray(loss_mask, np.int32)[1:])
    return int(hits[0]) + 1 if len(hits) else None


def prompt_length(group: Sequence[Trajectory]) -> int:
    """The group's prompt length (tokens before the first sampled one) over its usable rows,
    checked to be the same prompt in each; 0 for a group with no usable sampled row."""
    rows = [(first, t) for t in group if t.failed is None
            and (first := _first_sampled(t.loss_mask)) is not None]
    if not rows:
        return 0
    (p, ref), *rest = rows
    for q, t in rest:
        if q != p or list(t.tokens[:p]) != list(ref.tokens[:p]):
            raise ValueError(f"group of task {ref.task_id!r}: rollouts do not share their "
                             f"prompt (first sampled token at {p} and {q}, or the prompt "
                             "tokens differ); shared_prefix needs identical prompts")
    return p


def _pack(group_size: int, p_len: int, s_len: int, n_targets: int):
    def pack(group: dict) -> dict[str, np.ndarray]:
        out = {"prefix_tokens": np.zeros((p_len,), np.int32),
               "prefix_mask": np.zeros((p_len,), np.int32),
               "tokens": np.zeros((group_size, s_len), np.int32),
               "attention_mask": np.zeros((group_size, s_len), np.int32),
               "positions": np.zeros((group_size, s_len), np.int32),
               "target_index": np.zeros((group_size, n_targets), np.int32),
               "loss_mask": np.zeros((group_size, n_targets), np.int32),
               "old_logp": np.zeros((group_size, n_targets), np.float32),
               "advantages": np.zeros((group_size,), np.float32)}
        start = group["prompt"]
        out["prefix_tokens"][:start] = group["prefix"]
        out["prefix_mask"][:start] = 1
        for g, row in enumerate(group["rows"]):
            if row is None:  # padding row: one attended pad token
                out["attention_mask"][g, 0] = 1
                continue
            suffix = np.asarray(row["tokens"][start:], np.int32)
            n = len(suffix)
            out["tokens"][g, :n] = suffix
            out["attention_mask"][g, :n] = 1
            out["positions"][g, :n] = start + np.arange(n)
            # token start + i is predicted by prediction i (the prefix's last token for i = 0)
            where = np.flatnonzero(np.asarray(row["loss_mask"][start:], np.int32))
            out["target_index"][g, :len(where)] = where
            out["loss_mask"][g, :len(where)] = 1
            out["old_logp"][g, :len(where)] = np.asarray(row["logprobs"], np.float32)[
                start + where]
            out["advantages"][g] = row["advantage"]
        return out
    return pack


def grouped_batch(groups: Sequence[Sequence[Trajectory]], advantages: Sequence[Sequence[float]],
                  *, seq_multiple: int = 256, target_multiple: int = TARGET_MULTIPLE,
                  groups_multiple: int = 1, min_groups: int = 0) -> dict[str, np.ndarray]:
    """The packed batch (module docstring) of `groups`, each of G trajectories, with their
    advantages [N][G]; through a Grain map + batch like `prove_jax.rl.batch`."""
    if not groups:
        raise ValueError("no rollout groups to batch")
    size = len(groups[0])
    if any(len(g) != size for g in groups) or len(advantages) != len(groups):
        raise ValueError("every group needs the same number of rollouts and one advantage each")
    packed, prefix_most, suffix_most, target_most = [], 1, 1, 1
    for group, adv in zip(groups, advantages, strict=True):
        p = start = prompt_length(group)
        rows = []
        for t, a in zip(group, adv, strict=True):
            if p == 0 or t.failed is not None or _first_sampled(t.loss_mask) is None:
                rows.append(None)
                continue
            rows.append({"tokens": t.tokens, "loss_mask": t.loss_mask, "logprobs": t.logprobs,
                         "advantage": float(a)})
            suffix_most = max(suffix_most, len(t.tokens) - start)
            target_most = max(target_most, int(np.sum(np.asarray(t.loss_mask)[1:])))
        prefix_most = max(prefix_most, start)
        usable = [t for t, r in zip(group, rows, strict=True) if r is not None]
        prefix = usable[0].tokens[:start] if usable else []
        packed.append({"prompt": p, "prefix": prefix, "rows": rows})
    n = -(-max(len(packed), min_groups) // groups_multiple) * groups_multiple
    packed += [{"prompt": 0, "prefix": [], "rows": [None] * size} for _ in range(n - len(packed))]
    pack = _pack(size, padded_length(prefix_most, seq_multiple),
                 padded_length(suffix_most, seq_multiple),
                 padded_length(target_most, target_multiple))
    return grain.MapDataset.source(packed).map(pack).batch(n)[0]
