"""The figures a run is judged by (stats.json `quality`, issue 23): an id counts as quoted
whether the call takes it alone (`member_id`) or in a list (`member_ids`)."""

from __future__ import annotations

from types import SimpleNamespace

from prove_jax.synthesis.quality import quality_of
from prove_jax.synthesis.records import Conversation, StepRecord


def _conv(args: dict, turn: str) -> Conversation:
    node = SimpleNamespace(name="invite_to_channel", server="team_chat", read_only=False)
    step = StepRecord(node=node, name="invite_to_channel", args=args, filled={}, payload={})
    return Conversation(plan=None, kind="normal", steps=[step], edges=[], user_turns=[turn],
                        system_prompt="", tools=[], step_turn=[0], mentions=[], trace=[],
                        stats={})


def test_an_id_quoted_inside_a_list_counts_as_quoted():
    rows = [_conv({"channel_id": "ch_k7qm2x", "member_ids": ["p_r4tw9b"]},
                  "Add 'p_r4tw9b' to the channel 'pets'."),
            _conv({"channel_id": "ch_k7qm2x", "member_ids": ["p_r4tw9b"]},
                  "Add the member 'Alice Usman' to the channel 'pets'."),
            _conv({"order_id": "ord_z8mm3c"}, "Cancel order 'ord_z8mm3c'."),
            _conv({"path": "/home/a.txt"}, "Delete '/home/a.txt'.")]
    q = quality_of(rows)
    assert q["normal_rows"] == 4
    assert q["ids_quoted"] == 0.5  # the listed member and the order number
    assert q["internal_ids_quoted"] == 0.25  # an order number is the user's to quote
