"""The continuously batched policy plays the same episodes as the step-synchronous reference
(recomputing every context): same tokens, loss masks, calls and end states."""

from __future__ import annotations

import numpy as np
import pytest

from prove_jax.models import init_model, preset
from prove_jax.rollout.continuous import ContinuousPolicy
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.jax_policy import SamplerPolicy
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.sampling.slots import SlotSampler
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.test_jax_policy import _ends_turns_early
from tests.rollout.tokenizers import qwen3_tokenizer

pytestmark = pytest.mark.anyio


async def test_continuous_batching_plays_the_reference_episodes():
    """3 tasks x G = 2 with 3 user turns on 4 rows (two episodes wait for a row at first):
    identical trajectories to the step sampler recomputing every context; the group's prompt
    and each episode's earlier turns are reused, and rows are freed when episodes end."""
    tokenizer = qwen3_tokenizer()
    chat = ChatFormat(tokenizer, "qwen3")
    model = _ends_turns_early(init_model(preset("tiny", vocab_size=len(tokenizer)), seed=1),
                              chat.eot_id)
    params = SamplingParams(max_new_tokens=16, temperature=1.0, top_k=20,
                            stop_token_ids=(chat.eot_id,))
    truth = {"steps": [[{"name": "get_wallet", "arguments": {}}]], "edges": [], "kind": "normal"}
    tasks = [Task(id=f"t{i}", servers=["payments"], truth=truth, seed=i,
                  user_turns=["What is my balance?", "And in euros?", "Thanks, bye."])
             for i in range(3)]
    config = RolloutConfig(max_assistant_turns=6, max_new_tokens=16, max_total_tokens=4096)
    slots = SlotSampler(model, params, slots=4, capacity=4096, pad_id=tokenizer.pad_token_id,
                        steps_per_call=4)
    policies = [ContinuousPolicy(slots),
                SamplerPolicy(Sampler(model, pad_id=tokenizer.pad_token_id), params)]
    runs = []
    for policy in policies:
        async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
            groups = await RolloutEngine(policy, mgr, chat, config).run_groups(tasks, 2, seed=3)
        runs.append([t for g in groups for t in g])
    new, reference = runs
    assert sum(t.user_turns for t in new) >= 12
    for a, b in zip(new, reference, strict=True):
        assert not a.failed and a.tokens == b.tokens and a.loss_mask == b.loss_mask
        assert [c.name for c in a.calls] == [c.name for c in b.calls]
        assert a.snapshots == b.snapshots and a.finish_reason == b.finish_reason
        np.testing.assert_allclose(a.logprobs, b.logprobs, atol=1e-4, rtol=0)
    assert slots.reused_tokens > 0.5 * sum(len(t.tokens) for t in new)
    assert max(policies[0].batch_sizes) == 4  # every row decoding at once
    assert all(r.owner is None and not r.tokens for r in slots.rows)  # released at the end
    assert policies[0]._task is None  # the scheduler stopped with the run
