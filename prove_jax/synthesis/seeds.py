"""Process-stable randomness: every stream is derived from strings, never from `hash()` (which
changes per process) and never from completion order, so a rerun is byte-identical."""

from __future__ import annotations

import hashlib
import random

__all__ = ["derive_seed", "rng_for", "unit"]


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, parts)).encode()).digest()


def derive_seed(*parts: object) -> int:
    """A 31-bit seed for (parts...): fits every server's `--seed` and numpy alike."""
    return int.from_bytes(_digest(*parts)[:4], "little") & 0x7FFFFFFF


def rng_for(*parts: object) -> random.Random:
    """An independent random stream for (parts...)."""
    return random.Random(_digest(*parts).hex())


def unit(*parts: object) -> float:
    """A uniform number in [0, 1) for (parts...), e.g. to hold out a block for the test split."""
    return int.from_bytes(_digest(*parts)[:8], "little") / 2 ** 64
