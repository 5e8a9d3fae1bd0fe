"""How one wave of admissions becomes the arrays of one extend call (see
prove_jax/sampling/slots.py): which new tokens of which row go in which entry, at which slot,
and which entry's last token gives its row the next hidden state."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prove_jax.sampling.buckets import bucket, prompt_bucket

__all__ = ["EXTEND_FINE_FROM", "EXTEND_PIECE", "PIECE_ROWS", "ExtendEntries", "plan_extend"]

# An extend's new tokens (tool results, a user turn: mostly 100-500) pad to quarter steps from
# 128 up (320, not 512, for 300 tokens): a wave of 32 rows x 300 new tokens over 2,000 kept
# ones of the ~100M Qwen3 shape computes 37% fewer slots, for at most 4 shapes per power of two
EXTEND_FINE_FROM = 128
# In pieces, entries hold at most EXTEND_PIECE new tokens of one row each, as many entries as
# a power of two up to PIECE_ROWS, then a multiple of it
EXTEND_PIECE, PIECE_ROWS = 128, 8


@dataclass(frozen=True)
class ExtendEntries:
    """Entry i: ids[i] into cache row rows[i] from slot offsets[i]; its token last[i] is the
    next hidden state of row targets[i] (out of range: of no row). k entries of e tokens,
    attending over slots [0, window); from_zero: every entry starts at slot 0."""

    ids: np.ndarray
    rows: np.ndarray
    offsets: np.ndarray
    last: np.ndarray
    targets: np.ndarray
    window: int
    from_zero: bool

    @property
    def shape(self) -> tuple[int, int]:
        return self.ids.shape


def plan_extend(wave: list[tuple[int, list[int], int]], length: int, slots: int, pad_id: int,
                min_bucket: int, pieces: bool) -> tuple[ExtendEntries, list[int]]:
    """wave: (row, the row's whole context, tokens of it the row already holds). Each row is
    one entry, its new tokens padded to the wave's bucket and the entries to a power of two;
    or, with `pieces` (rows attended one at a time) and some row continuing, its new tokens
    go in pieces of at most EXTEND_PIECE, each its own entry, instead of every row padded to
    the longest (a 16-task evaluation computed 24,736 slots for 11,322 new tokens, 17,056
    in pieces): a row's later pieces attend to the keys its earlier ones wrote in the same
    extend. Returns the entries and each row's kept count (lowered where the padded entry
    would pass the row's `length` slots)."""
    longest = max(len(tokens) - kept for _, tokens, kept in wave)
    e = min(length, prompt_bucket(longest, min_bucket, EXTEND_FINE_FROM))
    kept = [min(n, length - e) for _, _, n in wave]
    from_zero = not any(kept)
    if pieces and not from_zero and len(wave) > 1:
        e = min(e, EXTEND_PIECE)
        chosen = [(row, tokens, min(offset, length - e), offset + e >= len(tokens))
                  for (row, tokens, _), n in zip(wave, kept, strict=True)
                  for offset in range(n, len(tokens), e)]
        k = (bucket(len(chosen)) if len(chosen) <= PIECE_ROWS else
             -(-len(chosen) // PIECE_ROWS) * PIECE_ROWS)
    else:
        chosen = [(row, tokens, n, True) for (row, tokens, _), n in zip(wave, kept, strict=True)]
        k = bucket(len(wave))
    window = e if from_zero else min(length, prompt_bucket(
        max(offset for _, _, offset, _ in chosen) + e, min_bucket))
    ids = np.full((k, e), pad_id, np.int32)
    rows, offsets, last, targets = (np.zeros((k,), np.int32) for _ in range(4))
    for i, (row, tokens, offset, end) in enumerate(chosen):
        piece = tokens[offset:offset + e]
        ids[i, :len(piece)] = piece
        rows[i], offsets[i], last[i] = row, offset, len(piece) - 1
        targets[i] = row if end else slots  # only a row's last piece sets its state
    pad = slice(len(chosen), k)  # padding repeats the first entry: same writes, no harm
    for a in (ids, rows, offsets, last, targets):
        a[pad] = a[0]
    return ExtendEntries(ids, rows, offsets, last, targets, window, from_zero), kept
