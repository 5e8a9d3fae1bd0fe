"""The shared-prefix GRPO step (each group's prompt encoded once) equals the unpacked step:
loss, per-token log-probs and gradients, on tiny Qwen3 / Qwen2 / Granite models, with groups of
different prompt and suffix lengths, a failed rollout (a padding row) and a group of nothing
but padding, multi-turn masks (tool results inside the suffix), KL on and off, micro-batches,
remat with chunked attention; and on the 2x2x2 mesh, five steps of both layouts end at the
same parameters."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import nnx

from prove_jax.models import init_model
from prove_jax.models.presets import preset
from prove_jax.rl.batch import rollout_batch
from prove_jax.rl.group_batch import grouped_batch
from prove_jax.rl.length_buckets import cut_lengths
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.objectives import grpo_objective, sequence_logprobs
from prove_jax.rl.optim import OptimConfig, make_optimizer
from prove_jax.rl.shared_prefix import accumulate_shared, packed_logprobs, shared_grpo_objective
from prove_jax.rl.train_step import accumulate, jit_train_step, loss_weights, make_train_step
from prove_jax.rollout.trajectory import Trajectory
from prove_jax.sharding import make_mesh

F32 = dict(param_dtype="float32", dtype="float32")
FAMILIES = {
    "qwen3": preset("tiny", **F32),
    "qwen2": preset("tiny", model_type="qwen2", qk_norm=False, qkv_bias=True,
                    tie_word_embeddings=False, **F32),
    "granite": preset("tiny", model_type="granite", qk_norm=False, embedding_multiplier=12.0,
                      residual_multiplier=0.22, attention_multiplier=0.0078125,
                      logits_scaling=16.0, **F32),
}
G = 4


def _groups(seed: int, n_groups: int = 4, failed: tuple = ((1, 2),)) -> list[list[Trajectory]]:
    """Groups with their own prompt lengths; each rollout: a sampled turn, a tool result,
    a second sampled turn, all of random lengths; (group, row) in `failed` fails."""
    rng = np.random.default_rng(seed)
    groups = []
    for n in range(n_groups):
        prompt = rng.integers(3, 500, size=int(rng.integers(5, 14))).tolist()
        group = []
        for g in range(G):
            t = Trajectory(f"task-{n}", g, seed)
            t.append(prompt)
            for turn in range(2):
                k = int(rng.integers(1, 7))
                t.append(rng.integers(3, 500, size=k).tolist(), sampled=True,
                         logprobs=(-rng.random(k) * 4 - 0.5).tolist())
                if turn == 0:
                    t.append(rng.integers(3, 500, size=int(rng.integers(2, 6))).tolist())
            if (n, g) in failed:
                t.fail("session_lost: scripted")
            group.append(t)
        groups.append(group)
    return groups


def _advantages(groups: list, seed: int) -> np.ndarray:
    adv = np.random.default_rng(seed + 100).normal(size=(len(groups), G)).astype(np.float32)
    for n, group in enumerate(groups):
        for g, t in enumerate(group):
            adv[n, g] = 0.0 if t.failed else adv[n, g]
    return adv


def _layouts(groups: list, adv: np.ndarray, min_groups: int = 0) -> tuple[dict, dict]:
    flat = [t for g in groups for t in g]
    rows = max(len(groups), min_groups) * G
    unpacked = rollout_batch(flat, list(adv.reshape(-1)), seq_multiple=8, target_multiple=8,
                             min_rows=rows)
    packed = grouped_batch(groups, adv, seq_multiple=8, target_multiple=8,
                           min_groups=min_groups)
    assert unpacked["target_index"].shape[1] == packed["target_index"].shape[2]
    return unpacked, packed


def _rel(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def _assert_close_trees(a, b, tol=1e-4):
    worst = max(_rel(x, y) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True))
    assert worst <= tol, worst


def test_packing_keeps_positions_masks_and_prompt_once():
    groups = _groups(0)
    unpacked, packed = _layouts(groups, _advantages(groups, 0), min_groups=5)
    n, g = packed["tokens"].shape[:2]
    assert (n, g) == (5, G) and not packed["loss_mask"][4].any()  # a padding group
    assert packed["prefix_tokens"].shape[0] == 5
    for i in range(4):
        p = int(packed["prefix_mask"][i].sum())
        for j in range(G):
            row = i * G + j
            real = packed["attention_mask"][i, j].astype(bool)
            if groups[i][j].failed:  # a padding row: nothing to learn, advantage 0
                assert real.sum() == 1 and not packed["loss_mask"][i, j].any()
                assert packed["advantages"][i, j] == 0
                continue
            # prefix + suffix is the unpacked row, positions continue the prefix
            whole = np.concatenate([packed["prefix_tokens"][i, :p], packed["tokens"][i, j][real]])
            length = int(unpacked["attention_mask"][row].sum())
            np.testing.assert_array_equal(whole, unpacked["tokens"][row, :length])
            np.testing.assert_array_equal(packed["positions"][i, j][real],
                                          p + np.arange(real.sum()))
            # the same sampled targets, at the same absolute prediction positions
            np.testing.assert_array_equal(packed["loss_mask"][i, j], unpacked["loss_mask"][row])
            k = int(packed["loss_mask"][i, j].sum())
            # prediction 0 is the prefix's last token (position p - 1)
            np.testing.assert_array_equal(packed["target_index"][i, j, :k] + p - 1,
                                          unpacked["target_index"][row, :k])
            assert packed["target_index"][i, j, 0] == 0  # the first turn follows the prompt
            np.testing.assert_array_equal(packed["old_logp"][i, j], unpacked["old_logp"][row])


def test_rows_of_a_group_with_different_prompts_are_refused():
    groups = _groups(1, n_groups=1, failed=())
    groups[0][2].tokens[1] += 1  # one prompt token differs
    with pytest.raises(ValueError, match="do not share their prompt"):
        grouped_batch(groups, np.zeros((1, G)))


def _grads(cfg, loss_cfg, unpacked, packed, micro: int, chunks: int = 1):
    model = init_model(cfg, seed=1)
    graphdef, params = nnx.split(model, nnx.Param)
    kw = dict(chunk_size=5, temperature=0.8)
    w_u = loss_weights(jnp.asarray(unpacked["loss_mask"]), loss_cfg)
    w_p = loss_weights(jnp.asarray(packed["loss_mask"]), loss_cfg)
    u = jax.jit(lambda p, b: accumulate(grpo_objective(graphdef, loss_cfg, **kw), p, b, w_u,
                                        micro))(params, unpacked)
    s = jax.jit(lambda p, b: accumulate_shared(shared_grpo_objective(graphdef, loss_cfg, **kw),
                                               graphdef, p, b, w_p, micro, chunks))(params, packed)
    return u, s


@pytest.mark.parametrize("family,kl,micro,remat,chunk,chunks", [
    ("qwen3", True, 2, "none", 0, 1),
    ("qwen3", False, 1, "full", 4, 2),  # remat, chunked attention over prefix and suffix
    ("qwen2", True, 4, "none", 0, 4),  # one group and one suffix per micro-batch
    ("granite", True, 1, "dots", 4, 1),
])
def test_shared_prefix_equals_the_unpacked_step(family, kl, micro, remat, chunk, chunks):
    cfg = FAMILIES[family].replace(remat=remat, attn_chunk=chunk)
    groups = _groups(2)
    adv = _advantages(groups, 2)
    unpacked, packed = _layouts(groups, adv)
    model = init_model(cfg, seed=1)
    # per-token log-probs (the reference pass's computation), both layouts
    ref_u = sequence_logprobs(model, jnp.asarray(unpacked["tokens"]),
                              jnp.asarray(unpacked["attention_mask"]), 3, temperature=0.8,
                              target_index=jnp.asarray(unpacked["target_index"]))
    graphdef, params = nnx.split(model, nnx.Param)
    ref_p = jax.jit(lambda p, b: packed_logprobs(graphdef, p, b, 3, 0.8, micro_batches=2))(
        params, packed)
    mask = unpacked["loss_mask"].astype(bool)
    assert _rel(np.asarray(ref_p).reshape(ref_u.shape)[mask], np.asarray(ref_u)[mask]) <= 1e-4
    loss_cfg = LossConfig(kl_coef=0.05 if kl else 0.0, aggregation="seq-mean-token-mean")
    if kl:  # a reference a little off the policy, so the KL term has a gradient
        ref = np.asarray(ref_u) - 0.3 * mask
        unpacked["ref_logp"] = ref
        packed["ref_logp"] = ref.reshape(packed["loss_mask"].shape)
    (g_u, m_u), (g_s, m_s) = _grads(cfg, loss_cfg, unpacked, packed, micro, chunks)
    assert set(m_u) == set(m_s)
    for k in m_u:
        np.testing.assert_allclose(m_s[k], m_u[k], rtol=1e-4, atol=1e-7, err_msg=k)
    assert float(optax_norm(g_u)) > 1e-3
    _assert_close_trees(g_s, g_u)


def optax_norm(tree) -> jax.Array:
    return jnp.sqrt(sum(jnp.sum(x * x) for x in jax.tree.leaves(tree)))


def test_five_steps_on_the_2x2x2_mesh_end_at_the_same_parameters():
    cfg = FAMILIES["qwen3"]
    groups = _groups(3, n_groups=8)  # two groups per data shard, one chunk of 4 at a time
    adv = _advantages(groups, 3)
    unpacked, packed = _layouts(groups, adv)
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    loss_cfg = LossConfig(kl_coef=0.01)
    mask = unpacked["loss_mask"].astype(bool)
    ref = np.where(mask, unpacked["old_logp"] - 0.2, 0.0).astype(np.float32)
    unpacked["ref_logp"], packed["ref_logp"] = ref, ref.reshape(packed["loss_mask"].shape)
    final = {}
    for shared, batch in ((False, unpacked), (True, packed)):
        model = init_model(cfg, seed=1)
        graphdef, params = nnx.split(model, nnx.Param)
        opt = make_optimizer(OptimConfig(lr=1e-3, total_updates=10, eps=1e-4))
        step = make_train_step(graphdef, opt, loss_cfg, micro_batches=2, chunk_size=8,
                               shared_prefix=shared, group_chunks=2 if shared else 1)
        opt_state = opt.init(params)
        run = jit_train_step(step, params, opt_state, mesh, opt)
        losses = []
        for _ in range(5):
            params, opt_state, metrics = run(params, opt_state, batch)
            assert float(metrics["skipped_nonfinite"]) == 0.0
            losses.append(float(metrics["loss"]))
        final[shared] = (jax.tree.map(np.asarray, params), losses)
    (p_u, l_u), (p_s, l_s) = final[False], final[True]
    np.testing.assert_allclose(l_s, l_u, rtol=1e-4)
    _assert_close_trees(p_s, p_u)
    moved = init_model(cfg, seed=1)
    assert _rel(jax.tree.leaves(nnx.state(moved, nnx.Param))[0], jax.tree.leaves(p_u)[0]) > 1e-3


def _loop_trainer(shared: bool, micro: int = 0, prompts: int = 4):
    from prove_jax.rl.grpo import GRPOSettings, GRPOTrainer
    from tests.rl.test_grpo_step import FAIL, Loader, scripted

    rounds = [[[1.0, 0.0, FAIL, 1.0], [0.5, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0],
               [0.0, 1.0, 0.0, 0.0]]]
    settings = GRPOSettings(steps=2, group_size=G, prompts_per_step=prompts, seq_multiple=16,
                            logprob_chunk=16, micro_batches=micro, shared_prefix=shared,
                            dynamic_sampling=True, max_refills=0)
    return GRPOTrainer(settings, model=init_model(FAMILIES["qwen3"], seed=0),
                       mesh=make_mesh({"data": 2, "fsdp": 2, "tensor": 2}),
                       optimizer=make_optimizer(OptimConfig(lr=1e-3, total_updates=4,
                                                            eps=1e-4)),
                       loss=LossConfig(kl_coef=0.05), loader=Loader(4),
                       collect=scripted(rounds))


def test_the_grpo_loop_trains_the_packed_layout_like_the_unpacked_one():
    """Two steps of the real loop (reference pass, a failed rollout, a uniform group left out,
    so a padding group) in both layouts: the same metrics and parameters."""
    import asyncio

    out = {}
    for shared in (False, True):
        trainer = _loop_trainer(shared)
        history = asyncio.run(trainer.run())
        out[shared] = (history, jax.tree.map(np.asarray, trainer.params))
    (h_u, p_u), (h_s, p_s) = out[False], out[True]
    assert h_s[0]["groups_kept"] == 3 and h_s[-1]["updates"] == 1.0
    for a, b in zip(h_s, h_u, strict=True):
        for key in ("loss", "kl", "grad_norm", "policy_tokens", "ratio_mean"):
            np.testing.assert_allclose(a[key], b[key], rtol=1e-4, atol=1e-7, err_msg=key)
    _assert_close_trees(p_s, p_u)


def test_shared_prefix_micro_batches_must_divide_the_group():
    with pytest.raises(ValueError, match=r"must divide rollout\.group_size"):
        _loop_trainer(True, micro=3)


def test_groups_that_do_not_fill_the_data_shards_are_warned_about(caplog):
    """Groups sit whole on a data shard: 2 prompts over the mesh's 4 shards leave 2 shards a
    padding group, which the log says along with the remedy; 4 prompts say nothing."""
    with caplog.at_level("WARNING", logger="prove_jax.rl.grpo"):
        _loop_trainer(True, prompts=4)
        assert "padding group" not in caplog.text
        _loop_trainer(True, prompts=2)
    assert "2 prompts per step over 4 data shards leaves 2 shard(s) a padding group" \
        in caplog.text
    assert "--config.train.shared_prefix=False" in caplog.text


@pytest.mark.parametrize("case", ["non_finite", "zero_advantages", "no_policy_tokens"])
def test_the_packed_step_keeps_the_state_when_it_cannot_learn(case):
    """The clean-step fallbacks hold for the packed layout: a non-finite loss, or a batch
    with nothing to learn (after a step that gave Adam momentum), moves nothing."""
    groups = _groups(4, n_groups=2)
    _, packed = _layouts(groups, _advantages(groups, 4))
    model = init_model(FAMILIES["qwen3"], seed=1)
    graphdef, params = nnx.split(model, nnx.Param)
    opt = make_optimizer(OptimConfig(lr=1e-3, total_updates=10))
    step = jax.jit(make_train_step(graphdef, opt, LossConfig(kl_coef=0.0), micro_batches=2,
                                   chunk_size=8, shared_prefix=True))
    params, opt_state, first = step(params, opt.init(params), packed)
    assert float(first["nothing_to_learn"]) == 0.0 and float(first["grad_norm"]) > 0
    bad = dict(packed)
    if case == "non_finite":
        bad["advantages"] = packed["advantages"].copy()
        bad["advantages"][0, 0] = np.nan
    elif case == "zero_advantages":
        bad["advantages"] = np.zeros_like(packed["advantages"])
    else:
        bad["loss_mask"] = np.zeros_like(packed["loss_mask"])
    new, new_opt, metrics = step(params, opt_state, bad)
    flag = "skipped_nonfinite" if case == "non_finite" else "nothing_to_learn"
    assert float(metrics[flag]) == 1.0
    for a, b in zip(jax.tree.leaves((params, opt_state)), jax.tree.leaves((new, new_opt)),
                    strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_shared_prefix_is_refused_for_sft():
    model = init_model(FAMILIES["qwen3"], seed=1)
    graphdef, _ = nnx.split(model, nnx.Param)
    opt = make_optimizer(OptimConfig(lr=1e-3, total_updates=10))
    with pytest.raises(ValueError, match="shared_prefix packs GRPO groups"):
        make_train_step(graphdef, opt, LossConfig(), objective="sft", shared_prefix=True)


def test_bfloat16_compute_runs_and_stays_near_the_unpacked_step():
    """The real configs compute in bfloat16: the encoded prefix's cotangent is summed over the
    micro-batches in float32 and rounded once; gradients stay near the unpacked step's."""
    cfg = FAMILIES["qwen3"].replace(dtype="bfloat16")
    groups = _groups(5)
    unpacked, packed = _layouts(groups, _advantages(groups, 5))
    (g_u, m_u), (g_s, m_s) = _grads(cfg, LossConfig(kl_coef=0.0), unpacked, packed, 4)
    assert np.isfinite(float(m_s["loss"]))
    np.testing.assert_allclose(float(m_s["loss"]), float(m_u["loss"]), rtol=2e-2)
    _assert_close_trees(g_s, g_u, tol=5e-2)


def test_group_chunks_share_one_gradient_sum():
    """Running the groups in 4 chunks holds a quarter of the activations and no gradient sum of
    its own: XLA's temporaries for the step are within half a parameter tree of a quarter of
    the one-chunk step's (a per-chunk sum, as before, cost about one more tree)."""
    cfg = FAMILIES["qwen3"]
    groups = _groups(3, n_groups=4)
    _, packed = _layouts(groups, _advantages(groups, 3))
    graphdef, params = nnx.split(init_model(cfg, seed=1), nnx.Param)
    tree = sum(x.nbytes for x in jax.tree.leaves(params))
    opt = make_optimizer(OptimConfig(lr=1e-3, total_updates=10, eps=1e-4))
    opt_state = opt.init(params)

    def temp_bytes(chunks: int) -> int:
        step = make_train_step(graphdef, opt, LossConfig(kl_coef=0.0), micro_batches=2,
                               chunk_size=8, shared_prefix=True, group_chunks=chunks)
        compiled = jax.jit(step).lower(params, opt_state, packed).compile()
        return compiled.memory_analysis().temp_size_in_bytes

    one, four = temp_bytes(1), temp_bytes(4)
    assert one > 2 * tree  # the step's temporaries hold more than the gradient trees
    assert four - one / 4 < tree / 2, (one, four, tree)


def test_micro_batches_cut_to_their_length_bucket_train_as_at_full_width():
    """Each micro-batch runs at the shortest of the suffix lengths that holds its longest
    suffix: gradients and metrics equal the full-width step's, with micro-batches of one suffix
    falling in more than one bucket."""
    cfg = FAMILIES["qwen3"].replace(remat="full", attn_chunk=4)
    groups = _groups(5, n_groups=4)
    _, packed = _layouts(groups, _advantages(groups, 5))
    width = packed["tokens"].shape[-1]
    lengths = cut_lengths(width, 4, shortest=8)
    longest = packed["attention_mask"].sum(-1)  # [N, G]: micro-batches of one suffix
    used = {int(np.searchsorted(lengths, n)) for n in longest.reshape(-1)}
    assert len(used) > 1, (lengths, used)
    loss_cfg = LossConfig(kl_coef=0.0)
    w = loss_weights(jnp.asarray(packed["loss_mask"]), loss_cfg)
    graphdef, params = nnx.split(init_model(cfg, seed=1), nnx.Param)
    objective = shared_grpo_objective(graphdef, loss_cfg, chunk_size=5, temperature=0.8)

    def grads(buckets: int):
        return jax.jit(lambda p, b: accumulate_shared(objective, graphdef, p, b, w, G, 4,
                                                      buckets, 8))(params, packed)

    (g_cut, m_cut), (g_full, m_full) = grads(4), grads(1)
    for k in m_full:
        np.testing.assert_allclose(m_cut[k], m_full[k], rtol=1e-5, atol=1e-7, err_msg=k)
    assert float(optax_norm(g_full)) > 1e-3
    _assert_close_trees(g_cut, g_full, tol=1e-5)
