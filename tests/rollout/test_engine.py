"""End to end: 8 tasks x G=4 episodes against real in-process MCP sessions (payments, banking),
driven by a scripted policy whose calls are text tokenized with the real Qwen3 tokenizer."""

from __future__ import annotations

import pytest

from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.tools.manager import MCPManager, ServerSpec
from servers.core.runtime import Runtime
from servers.registry import load_domain
from tests.rollout.scripted import ScriptedPolicy, call, raw

pytestmark = pytest.mark.anyio
G = 4
CAP = 6
SERVERS = ("payments", "banking")


def step(name: str, **args) -> list[dict]:
    return [{"name": name, "arguments": args}]


def _pick(server: str, seed: int, table: str, nth: int = 0, **where) -> str:
    """The id of the `nth` row of `table` with fields `where` in the world of `seed`: ids are
    opaque and seeded, and seeds vary which entities exist, so the scripts look them up."""
    state = Runtime(load_domain(server), default_seed=seed).session(None).state
    rows = [r for r in state[table].rows() if all(r.get(k) == v for k, v in where.items())]
    return rows[nth][state[table].key]


P2, P3, P4 = (_pick("payments", 0, "contacts", n) for n in (1, 2, 3))
P2_THINK = _pick("payments", 1, "contacts", 1)  # the think task plays seed 1
SAVINGS = _pick("banking", 0, "accounts", type="savings", status="open")
CHECKING = _pick("banking", 0, "accounts", type="checking", status="open")
CARD = _pick("banking", 0, "cards", status="active")
BILL = _pick("banking", 0, "payees", category="utilities")
REQUEST = _pick("payments", 0, "requests", direction="incoming", status="pending")
THOUGHT = f"<think>\nThe user owes {P2_THINK}; pay before answering.\n</think>\n\n"
SCRIPTS = {
    "pay": lambda seed, t: [call("send_payment", {"contact_id": P2,
                                                  "amount": 10 + seed % 7, "note": "lunch"})]
    if t == 0 else "Sent.",
    "parallel": lambda seed, t: [
        call("request_payment", {"contact_id": P3, "amount": 20, "note": "tickets"}),
        call("send_payment", {"contact_id": P2, "amount": 5, "note": "coffee"})]
    if t == 0 else "Requested 20 and sent 5.",
    "followup": lambda seed, t: [
        [call("transfer_between_accounts", {"from_account_id": SAVINGS,
                                            "to_account_id": CHECKING, "amount": 250 + seed % 3})],
        "Moved it.",
        [call("freeze_card", {"card_id": CARD, "reason": "misplaced"})],
        "Card frozen."][t],
    "both": lambda seed, t: [
        [call("get_wallet", {}), call("list_accounts", {"type": "checking"})],
        [call("pay_payee", {"payee_id": BILL, "from_account_id": CHECKING, "amount": 84.2,
                            "memo": "June electricity"})],
        "Paid the bill from checking."][t],
    "malformed": lambda seed, t: [
        [raw('<tool_call>\n{"name": "send_payment", "arguments": {"contact_id": \n</tool_call>')],
        [call("send_payment", {"contact_id": P4, "amount": 7, "note": "retry"})],
        "Sent after fixing the call."][t],
    "unknown": lambda seed, t: [
        [call("teleport", {"to": "mars"}),
         raw('<tool_call>\n{"arguments": {"amount": 3}}\n</tool_call>'),
         raw('<tool_call>\n{"name": "send_payment", "arguments": [1, 2]}\n</tool_call>'),
         call("send_payment", {"contact_id": P2}),  # the server: schema_error (no amount)
         call("send_payment", {"contact_id": "zz", "amount": 1.0, "note": "x"}),  # execution
         raw('<tool_call>\n{"name": "get_wallet", "arguments": "{}"}\n</tool_call>')],
        [call("respond_to_request", {"request_id": REQUEST, "action": "decline"})],
        "Declined it."][t],
    "cap": lambda seed, t: [call("get_wallet", {})],  # never answers
    "think": lambda seed, t: [raw(THOUGHT), call("send_payment", {
        "contact_id": P2_THINK, "amount": 3, "note": "owed"})] if t == 0 else "Done.",
}
TASKS = [
    Task("pay", ("payments",), (f"[task pay] Pay {P2} for lunch.",),
         {"steps": [step("send_payment", contact_id=P2, amount=10)]}),
    Task("parallel", ("payments",), (f"[task parallel] Request 20 from {P3}, send 5 to {P2}.",),
         {"steps": [step("request_payment", contact_id=P3, amount=20)
                    + step("send_payment", contact_id=P2, amount=5)]},
         system_prompt="You are a payments assistant."),
    Task("followup", ("banking",), ("[task followup] Move 250 from savings to checking.",
                                    f"Also freeze {CARD}, I lost it."),
         {"steps": [step("transfer_between_accounts", from_account_id=SAVINGS),
                    step("freeze_card", card_id=CARD)]}),
    Task("both", SERVERS, ("[task both] Pay my electricity bill from checking.",),
         {"steps": [step("list_accounts"), step("pay_payee", payee_id=BILL)],
          "edges": [[0, 1]]}),
    Task("malformed", ("payments",), (f"[task malformed] Send 7 to {P4}.",),
         {"steps": [step("send_payment", contact_id=P4, amount=7)]}),
    Task("unknown", ("payments",), (f"[task unknown] Decline request {REQUEST}.",),
         {"steps": [step("respond_to_request", request_id=REQUEST, action="decline")]},
         tools=("get_wallet", "send_payment", "respond_to_request")),
    Task("cap", ("payments",), ("[task cap] How much money do I have?",),
         {"steps": [step("get_wallet")]}),
    Task("think", ("payments",), (f"[task think] Pay back {P2_THINK}.",),
         {"steps": [step("send_payment", contact_id=P2_THINK)]}, seed=1),
]
BY_ID = {t.id: t for t in TASKS}


def expected_hashes(task: Task, seed: int, turns: int) -> dict[str, str]:
    """Replay the script's well-formed calls on fresh runtimes (failed calls roll back)."""
    runtimes = {s: Runtime(load_domain(s), default_seed=task.seed) for s in task.servers}
    for t in range(turns):
        turn = SCRIPTS[task.id](seed, t)
        for item in [] if isinstance(turn, str) else turn:
            if item[0] == "call":
                for rt in runtimes.values():
                    if item[1] in rt.domain.tools:
                        rt.call(item[1], item[2])
    return {s: rt.sessions["default"].state.digest() for s, rt in runtimes.items()}


async def test_groups_play_end_to_end(chat):
    policy = ScriptedPolicy(chat, SCRIPTS)
    config = RolloutConfig(max_assistant_turns=CAP, batch_wait_s=0.05)
    async with MCPManager([ServerSpec(s, "inprocess") for s in SERVERS]) as mgr:
        groups = await RolloutEngine(policy, mgr, chat, config).run_groups(TASKS, G, seed=3)
    trajs = [tr for group in groups for tr in group]
    assert len(trajs) == 32 and [g[0].task_id for g in groups] == [t.id for t in TASKS]
    assert len({tr.seed for tr in trajs}) == 32  # every rollout its own sampling seed
    assert all(tr.failed is None for tr in trajs), [tr.failed for tr in trajs]
    records = policy.by_seed()

    for tr in trajs:
        task = BY_ID[tr.task_id]
        # Every episode reached the state of replaying its own calls on a fresh world: no two
        # episodes shared a session (4 rollouts on one session would have stacked the calls).
        assert tr.snapshots == expected_hashes(task, tr.seed, tr.assistant_turns), tr.task_id
        # The loss mask covers exactly the sampled tokens, with their sampler log-probs.
        mask, logprobs = [0] * len(tr.tokens), [0.0] * len(tr.tokens)
        for rec in records[tr.seed]:
            assert tr.tokens[rec.start:rec.start + len(rec.tokens)] == rec.tokens
            mask[rec.start:rec.start + len(rec.tokens)] = [1] * len(rec.tokens)
            logprobs[rec.start:rec.start + len(rec.tokens)] = rec.logprobs
        assert tr.loss_mask == mask and tr.logprobs == logprobs
        assert tr.n_sampled == sum(len(r.tokens) for r in records[tr.seed])
        assert len(records[tr.seed]) == tr.assistant_turns
        assert tr.prompt_len == records[tr.seed][0].start and "total" in tr.rewards
        assert tr.timings["total_s"] >= tr.timings["generate_s"] > 0

    by_task = {g[0].task_id: g for g in groups}
    finals = {tid: {tr.snapshots.get("payments") for tr in g} for tid, g in by_task.items()}
    assert finals["parallel"].isdisjoint(finals["malformed"])  # different tasks, different worlds
    assert len(finals["pay"]) > 1  # rollouts of one group sent different amounts, separately
    for tid in ("pay", "parallel", "both", "malformed", "unknown", "think"):
        assert all(tr.finish_reason == "answered" for tr in by_task[tid]), tid
    for tr in by_task["pay"]:
        assert tr.rewards["cov"] == 1.0 and tr.rewards["val"] == 1.0

    for tr in by_task["parallel"]:  # one turn, two calls, both executed
        assert [(c.name, c.turn, c.outcome) for c in tr.calls] == [
            ("request_payment", 0, "ok"), ("send_payment", 0, "ok")]
    for tr in by_task["followup"]:  # the scripted follow-up user turn was consumed
        assert tr.user_turns == 2 and tr.assistant_turns == 4 and tr.finish_reason == "answered"
        assert f"Also freeze {CARD}" in chat.decode(tr.tokens)
        assert [c.name for c in tr.calls] == ["transfer_between_accounts", "freeze_card"]
    for tr in by_task["both"]:
        assert {c.server for c in tr.calls} == {"payments", "banking"}
        assert tr.rewards["cov"] == 1.0
    for tr in by_task["malformed"]:  # the error is shown to the model; the episode continues
        assert [c.outcome for c in tr.calls] == ["unknown_tool", "ok"]
        assert [c.kind for c in tr.calls] == ["malformed_call", "ok"]
        assert "<tool_response>\nError: tool call is not valid JSON" in records[tr.seed][1].context
    for tr in by_task["unknown"]:
        assert [(c.name, c.outcome) for c in tr.calls] == [
            ("teleport", "unknown_tool"), ("", "unknown_tool"), ("send_payment", "schema_error"),
            ("send_payment", "schema_error"), ("send_payment", "execution_error"),
            ("get_wallet", "ok"), ("respond_to_request", "ok")]
        seen = records[tr.seed][1].context
        assert seen.count("<tool_response>\nError:") == 5 and "unknown tool 'teleport'" in seen
        assert "list_payments" not in seen  # only the offered tools are listed
    for tr in by_task["cap"]:
        assert tr.finish_reason == "max_assistant_turns" and tr.assistant_turns == CAP
        assert len(tr.calls) == CAP and tr.rewards["eff"] < 0
    for tr in by_task["think"]:  # the sampled thinking stays in the sequence, verbatim
        assert chat.decode(tr.tokens).count(THOUGHT) == 1 and tr.snapshots != {}

    # The batcher batched: few generate calls, each gathering many waiting episodes.
    turns = sum(tr.assistant_turns for tr in trajs)
    assert sum(policy.batch_sizes) == turns and max(policy.batch_sizes) > 1
    assert len(policy.batch_sizes) < turns / 4, policy.batch_sizes
