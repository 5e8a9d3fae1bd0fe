"""The rollout engine driven by the real JAX sampler on a tiny random model: episodes complete,
garbage and malformed output is handled, and the loss mask covers exactly the sampled tokens."""

from __future__ import annotations

import numpy as np
import pytest

from prove_jax.models import init_model, preset
from prove_jax.rollout.engine import RolloutEngine
from prove_jax.rollout.jax_policy import SamplerPolicy
from prove_jax.rollout.task import RolloutConfig, Task
from prove_jax.sampling import Sampler, SamplingParams
from prove_jax.tools.chat import ChatFormat
from prove_jax.tools.manager import MCPManager, ServerSpec
from tests.rollout.tokenizers import qwen3_tokenizer

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def test_tiny_random_model_plays_episodes():
    tokenizer = qwen3_tokenizer()
    chat = ChatFormat(tokenizer, "qwen3")
    model = init_model(preset("tiny", vocab_size=len(tokenizer)), seed=0)
    params = SamplingParams(max_new_tokens=24, temperature=1.0, stop_token_ids=(chat.eot_id,))
    policy = SamplerPolicy(Sampler(model, pad_id=tokenizer.pad_token_id), params)
    truth = {"steps": [[{"name": "get_wallet", "arguments": {}}]], "edges": [], "kind": "normal"}
    tasks = [Task(id=f"t{i}", servers=["payments"], user_turns=["What is my balance?"],
                  truth=truth, seed=i) for i in range(3)]
    config = RolloutConfig(max_assistant_turns=2, max_new_tokens=24, max_total_tokens=4096)
    async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
        engine = RolloutEngine(policy, mgr, chat, config)
        groups = await engine.run_groups(tasks, group_size=2, seed=0)
    trajectories = [t for group in groups for t in group]
    assert len(trajectories) == 6 and not any(t.failed for t in trajectories)
    assert max(engine.batch_sizes) > 1  # episodes share sampler calls
    for traj in trajectories:
        mask = np.asarray(traj.loss_mask)
        assert len(traj.tokens) == len(mask) == len(traj.logprobs)
        assert mask[:traj.prompt_len].sum() == 0 and traj.n_sampled == mask.sum() > 0
        sampled_logp = np.asarray(traj.logprobs)[mask == 1]
        assert np.all(sampled_logp < 0) and np.all(np.asarray(traj.logprobs)[mask == 0] == 0)
        assert "total" in traj.rewards
    # Two rollouts of one task sample differently (own seeds), from the same start.
    a, b = groups[0]
    assert a.tokens[:a.prompt_len] == b.tokens[:b.prompt_len] and a.tokens != b.tokens
