"""Validation: replay each conversation's truth on a freshly opened session of its world and
check what the paper checks, plus that the replay reproduces the generation run.

  replay_errors      more than max_error_frac of the truth's calls fail (empty results are
                     not failures)
  replay_mismatch    a call's output differs from what it returned when the example was made
  credential_untraced a password/token/pin/secret/api key/code value is used before it appears
                     verbatim in a user turn or an earlier tool output
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any

from prove_jax.synthesis.records import Conversation

__all__ = ["Replay", "credential_problems", "is_secret_arg", "replay"]

_SECRET_WORDS = ("password", "passcode", "passphrase", "token", "pin", "secret", "otp")
_NOT_SECRET = ("postal_code", "zip_code", "country_code", "currency_code", "area_code",
               "language_code", "airport_code", "color_code")


def is_secret_arg(name: str) -> bool:
    """Does this argument carry a credential? (`pin` as a word, not inside `shipping`)."""
    n = name.lower()
    if n in _NOT_SECRET or n.endswith(_NOT_SECRET):
        return False
    words = re.split(r"[_\W]+", n)
    return any(w in _SECRET_WORDS for w in words) or n.endswith("api_key") or \
        words[-1] == "code"


@dataclass(frozen=True)
class Replay:
    calls: int
    errors: int
    mismatches: int
    hashes: dict[str, str]
    end_state: dict[str, str] = dataclasses.field(default_factory=dict)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


async def replay(manager: Any, conv: Conversation, *, servers: list[str] | None = None,
                 use_row_names: bool = False, snapshot: bool = False,
                 end_state: bool = False) -> Replay:
    """Run the truth on a new episode of the conversation's world.

    By default the episode holds only the servers the truth calls (distractor servers are
    never called); `use_row_names` opens every server of the row and calls the truth's own
    exposed names, which also checks the row's routing. `end_state`: also the clock-free
    hash of every server the truth writes, after the replay (the truth's end state)."""
    steps = conv.steps
    if not steps:
        return Replay(0, 0, 0, {})
    if use_row_names:
        servers = list(conv.plan.servers)
    servers = servers or list(dict.fromkeys(s.node.server for s in steps))
    episode = await manager.open_episode(servers, conv.plan.world_seed)
    local = {route: name for name, route in episode.routes.items()}
    errors = mismatches = 0
    try:
        for s in steps:
            name = s.name if use_row_names else local[(s.node.server, s.node.name)]
            result = await manager.call(episode, name, s.args)
            if not result.ok:
                errors += 1
            elif _canon(result.payload) != _canon(s.payload):
                mismatches += 1
        snaps = await manager.snapshot(episode, clock_free=end_state) \
            if snapshot or end_state else {}
        hashes = {k: v["hash"] for k, v in snaps.items()} if snapshot else {}
        written = {s.node.server for s in steps if not s.node.read_only}
        ends = {k: v["clock_free_hash"] for k, v in snaps.items() if k in written} \
            if end_state else {}
    finally:
        await manager.close_episode(episode)
    return Replay(len(steps), errors, mismatches, hashes, ends)


def credential_problems(conv: Conversation) -> list[str]:
    """Credential values used by the truth that no earlier user turn or output shows."""
    problems = []
    for g, step in enumerate(conv.steps):
        turn = conv.step_turn[g] if g < len(conv.step_turn) else len(conv.user_turns) - 1
        said = "\n".join(conv.user_turns[:turn + 1])
        seen = "\n".join(_canon(s.payload) for s in conv.steps[:g])
        for arg, value in step.args.items():
            if not is_secret_arg(arg):
                continue
            for v in value if isinstance(value, list) else [value]:
                text = v if isinstance(v, str) else json.dumps(v)
                if text not in said and text not in seen:
                    problems.append(f"{step.name}.{arg}={text!r}")
    return problems
