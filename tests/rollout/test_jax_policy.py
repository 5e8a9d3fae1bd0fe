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


def _ends_turns_early(model, eot: int, logit: float = 11.0):
    """The tiny random model made to end turns after a few tokens, so that episodes go on to
    their next user turn: every embedding row gets 1.0 in dimension 0, which then dominates the
    residual stream and the normed final state's dimension 0 (same sign at every position);
    the tied head row of the end-of-turn token gets `logit` more there."""
    import jax.numpy as jnp

    embed = model.embed[...].at[:, 0].set(1.0)
    model.embed[...] = embed
    h0 = float(np.asarray(model.hidden_states(jnp.arange(3, 67)[None]))[0, :, 0].mean())
    model.embed[...] = embed.at[eot, 0].set(1.0 + logit / h0)
    return model


def three_turn_workload():
    """3 payments tasks of 3 user turns, the tiny model made to end turns early, and sampling
    that two paths computing the same logits to float32 rounding sample alike: (tokenizer,
    chat, model, params, tasks, config)."""
    tokenizer = qwen3_tokenizer()
    chat = ChatFormat(tokenizer, "qwen3")
    model = _ends_turns_early(init_model(preset("tiny", vocab_size=len(tokenizer)), seed=1),
                              chat.eot_id)
    # top_k: the two paths' logits differ by float32 rounding, and an inverse-CDF draw over
    # the whole 152K vocabulary lands that close to some token boundary now and then (two
    # adjacent ids, 105663 vs 105664, once flipped here); over 20 tokens it practically never
    params = SamplingParams(max_new_tokens=16, temperature=1.0, top_k=20,
                            stop_token_ids=(chat.eot_id,))
    truth = {"steps": [[{"name": "get_wallet", "arguments": {}}]], "edges": [], "kind": "normal"}
    tasks = [Task(id=f"t{i}", servers=["payments"], truth=truth, seed=i,
                  user_turns=["What is my balance?", "And in euros?", "Thanks, bye."])
             for i in range(3)]
    config = RolloutConfig(max_assistant_turns=6, max_new_tokens=16, max_total_tokens=4096)
    return tokenizer, chat, model, params, tasks, config


async def test_kept_kv_plays_the_same_episodes_as_recomputing(tmp_path):
    """Episodes of 3 user turns each (later turns append a template delta and a user message)
    played twice: with KV kept across turns (the default path) and recomputing every context
    (kv_reuse_bytes=0). Tokens, loss masks, calls and end states are identical; log-probs agree
    to float32 rounding; the kept KV really served later turns and is freed when the run ends."""
    tokenizer, chat, model, params, tasks, config = three_turn_workload()
    runs, samplers = [], []
    for budget in (1 << 30, 0):
        sampler = Sampler(model, pad_id=tokenizer.pad_token_id)
        policy = SamplerPolicy(sampler, params, kv_reuse_bytes=budget)
        async with MCPManager([ServerSpec("payments", "inprocess")]) as mgr:
            groups = await RolloutEngine(policy, mgr, chat, config).run_groups(tasks, 2, seed=3)
        runs.append([t for g in groups for t in g])
        samplers.append(sampler)
        assert policy.store is None or len(policy.store) == 0  # freed at the end of the run
    kept, recomputed = runs
    assert sum(t.user_turns for t in kept) >= 12  # most episodes reach later user turns
    for a, b in zip(kept, recomputed, strict=True):
        assert not a.failed and a.tokens == b.tokens and a.loss_mask == b.loss_mask
        assert [c.name for c in a.calls] == [c.name for c in b.calls]
        assert a.snapshots == b.snapshots and a.finish_reason == b.finish_reason
        np.testing.assert_allclose(a.logprobs, b.logprobs, atol=1e-4, rtol=0)
    assert samplers[0].reused_tokens > 0 and samplers[1].reused_tokens == 0
    assert samplers[0].prefill_slots < 0.7 * samplers[1].prefill_slots
