"""Parallel calls (issue 23, item 5): reads of one user turn that need nothing from each other
are one truth step of several calls, as a model would issue them in one message (look up the
payee and the account, then pay). Only reads join: their order cannot change what either
returns or the end state, so the replay, which calls them in order, stays exact."""

from __future__ import annotations

from collections.abc import Sequence

from prove_jax.synthesis.records import StepRecord

__all__ = ["parallel_groups"]


def parallel_groups(steps: Sequence[StepRecord], step_turn: Sequence[int]) -> list[list[int]]:
    """The truth's steps as groups of indices into `steps`: runs of consecutive reads asked
    for in the same user turn, none depending on another of its run."""
    groups: list[list[int]] = []
    for i, step in enumerate(steps):
        run = groups[-1] if groups else None
        if run is not None and step.node.read_only \
                and all(steps[j].node.read_only for j in run) \
                and all(step_turn[j] == step_turn[i] for j in run) \
                and not set(step.deps) & set(run):
            run.append(i)
        else:
            groups.append([i])
    return groups
