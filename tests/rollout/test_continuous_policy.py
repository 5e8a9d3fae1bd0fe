"""The continuously batched policy plays the same episodes as the step-synchronous reference
(recomputing every context): same tokens, loss masks, calls and end states."""

from __future__ import annotations

import numpy as np
import pytest

from prove_jax.rollout.continuous import ContinuousPolicy
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.jax_policy import SamplerPolicy
from prove_jax.sampling import Sampler
from prove_jax.sampling.slots import SlotSampler
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.test_jax_policy import three_turn_workload

pytestmark = pytest.mark.anyio


async def test_continuous_batching_plays_the_reference_episodes():
    """3 tasks x G = 2 with 3 user turns on 4 rows (two episodes wait for a row at first):
    identical trajectories to the step sampler recomputing every context; the group's prompt
    and each episode's earlier turns are reused, and rows are freed when episodes end."""
    tokenizer, chat, model, params, tasks, config = three_turn_workload()
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


async def test_a_failing_scheduler_fails_its_requests_instead_of_hanging():
    """A bookkeeping fault inside the scheduler loop (a decode call reporting a row that no
    request holds) fails the waiting request with the cause; the next request starts a fresh
    scheduler and is served."""
    import asyncio

    from prove_jax.rollout.policy import GenerationRequest
    from prove_jax.sampling.slots import Finished

    tokenizer, _, model, params, *_ = three_turn_workload()

    class FaultySlots(SlotSampler):
        faults = 1

        def decode(self):
            out = super().decode()
            if self.faults:
                self.faults -= 1
                return [Finished(99, [], [], "stop"), *out]  # row 99 is nobody's
            return out

    policy = ContinuousPolicy(FaultySlots(model, params, slots=2, capacity=256,
                                          pad_id=tokenizer.pad_token_id))
    request = GenerationRequest([5, 6, 7], 4, 0, "t", 0, 0, 0)
    with pytest.raises(RuntimeError, match="KeyError"):
        await asyncio.wait_for(policy.generate_one(request), timeout=60)
    assert len((await asyncio.wait_for(policy.generate_one(request), timeout=60)).tokens) >= 1
    await policy.aclose()
