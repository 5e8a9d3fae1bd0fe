"""Micro-batches cut to their length bucket train exactly as at the batch's full width."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import nnx

from prove_jax.models import init_model
from prove_jax.models.presets import preset
from prove_jax.rl.batch import rollout_batch
from prove_jax.rl.length_buckets import cut_lengths
from prove_jax.rl.losses import LossConfig
from prove_jax.rl.objectives import grpo_objective, sft_objective
from prove_jax.rl.train_step import accumulate, loss_weights
from prove_jax.rollout.trajectory import Trajectory


def test_cut_lengths_are_quarters_of_the_width_in_multiples_of_8():
    assert cut_lengths(1536) == (384, 768, 1152, 1536)
    assert cut_lengths(768) == (384, 576, 768)  # none under 256 tokens by default
    assert cut_lengths(300) == (300,)
    assert cut_lengths(768, shortest=8) == (192, 384, 576, 768)
    assert cut_lengths(48, shortest=8) == (16, 24, 40, 48)
    assert cut_lengths(24, shortest=8) == (8, 16, 24)
    assert cut_lengths(1536, 1) == (1536,)


def _rows(seed: int, n: int = 8) -> list[Trajectory]:
    """Rows of very different lengths: a prompt, a sampled turn, a tool result, a sampled turn
    (one row much longer than the rest, as one long episode in a GRPO step)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        t = Trajectory(f"task-{i}", 0, seed)
        t.append(rng.integers(3, 500, size=int(rng.integers(3, 8))).tolist())
        long = 4 if i == 5 else 1
        for turn in range(2):
            k = int(rng.integers(1, 6)) * long
            t.append(rng.integers(3, 500, size=k).tolist(), sampled=True,
                     logprobs=(-rng.random(k) * 3 - 0.5).tolist())
            if turn == 0:
                t.append(rng.integers(3, 500, size=int(rng.integers(1, 4)) * long).tolist())
        rows.append(t)
    return rows


@pytest.mark.parametrize("objective", ["grpo", "sft"])
def test_unpacked_micro_batches_cut_to_their_bucket_train_as_at_full_width(objective):
    cfg = preset("tiny", param_dtype="float32", dtype="float32", remat="full", attn_chunk=8)
    rows = _rows(7)
    adv = list(np.random.default_rng(8).normal(size=len(rows)))
    batch = rollout_batch(rows, adv, seq_multiple=8, target_multiple=8)
    lengths = cut_lengths(batch["tokens"].shape[-1], 4, shortest=8)
    used = {int(np.searchsorted(lengths, n)) for n in batch["attention_mask"].sum(-1)}
    assert len(used) > 1, (lengths, used)  # one row per micro-batch: several buckets run
    loss_cfg = LossConfig(kl_coef=0.0)
    w = loss_weights(jnp.asarray(batch["loss_mask"]), loss_cfg)
    graphdef, params = nnx.split(init_model(cfg, seed=1), nnx.Param)
    micro_loss = (grpo_objective(graphdef, loss_cfg, chunk_size=5, temperature=0.8)
                  if objective == "grpo" else sft_objective(graphdef, chunk_size=5))

    def grads(buckets: int):
        return jax.jit(lambda p, b: accumulate(micro_loss, p, b, w, len(rows), buckets, 8))(
            params, batch)

    (g_cut, m_cut), (g_full, m_full) = grads(4), grads(1)
    assert set(m_cut) == set(m_full)
    for k in m_full:
        np.testing.assert_allclose(m_cut[k], m_full[k], rtol=1e-5, atol=1e-7, err_msg=k)
    worst = max(float(jnp.linalg.norm(a - b) / jnp.linalg.norm(b))
                for a, b in zip(jax.tree.leaves(g_cut), jax.tree.leaves(g_full), strict=True)
                if float(jnp.linalg.norm(b)) > 0)
    assert worst <= 1e-5
    assert float(sum(jnp.sum(x * x) for x in jax.tree.leaves(g_full))) > 1e-8


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "4"])
def test_a_bad_length_buckets_is_refused_by_name(bad):
    from prove_jax.rl.optim import OptimConfig, make_optimizer
    from prove_jax.rl.train_step import make_train_step

    graphdef, _ = nnx.split(init_model(preset("tiny"), seed=0), nnx.Param)
    opt = make_optimizer(OptimConfig(lr=1e-3, total_updates=2))
    with pytest.raises(ValueError, match=r"train\.length_buckets"):
        make_train_step(graphdef, opt, LossConfig(), length_buckets=bad)



def _row_widths(ids: jax.Array, tokens: jax.Array, rows: int) -> jax.Array:
    """[rows, 2]: (1, width) on the rows this micro-batch holds, zeros elsewhere."""
    ids = ids.reshape(-1).astype(jnp.int32)
    return jnp.zeros((rows, 2), jnp.float32).at[ids].set(
        jnp.asarray([1.0, tokens.shape[-1]], jnp.float32))


def test_compact_widths_mirror_the_buckets_accumulate_runs():
    """The host count (used for FLOPs and MFU) names the width the jitted scan really ran each
    row at: every micro-batch marks its rows (ids carried in `advantages`) with its cut width."""
    from prove_jax.rl.length_buckets import compact_widths

    rng = np.random.default_rng(3)
    rows, width, parts = 12, 64, 4
    lengths = rng.integers(3, 30, size=rows)
    lengths[5], lengths[9] = 60, 40  # micro-batches 1 and 3 run wider than 0 and 2
    mask = (np.arange(width)[None] < lengths[:, None]).astype(np.int32)
    batch = {"tokens": jnp.zeros((rows, width), jnp.int32), "attention_mask": jnp.asarray(mask),
             "target_index": jnp.zeros((rows, 4), jnp.int32),
             "advantages": jnp.arange(rows, dtype=jnp.float32)}

    def micro_loss(params, mb, w):
        return jnp.sum(params * 0.0), {"rows": _row_widths(mb["advantages"], mb["tokens"], rows)}

    _, m = jax.jit(lambda p, b: accumulate(micro_loss, p, b, (jnp.ones((rows, 4)),), parts,
                                           4, 8))(jnp.ones(3), batch)
    mirror = compact_widths(mask, parts, 4, 8)
    assert len(set(mirror)) > 2, mirror
    ran = np.asarray(m["rows"])
    np.testing.assert_array_equal(ran[:, 0], 1.0)  # every row ran once
    np.testing.assert_array_equal(ran[:, 1], np.repeat(mirror, rows // parts))


def test_packed_widths_mirror_the_buckets_accumulate_shared_runs():
    from prove_jax.rl.length_buckets import packed_widths
    from prove_jax.rl.shared_prefix import accumulate_shared

    cfg = preset("tiny", param_dtype="float32", dtype="float32")
    graphdef, params = nnx.split(init_model(cfg, seed=1), nnx.Param)
    rng = np.random.default_rng(4)
    groups, size, prefix, width, parts, chunks = 4, 4, 8, 48, 2, 2
    lengths = rng.integers(2, 14, size=(groups, size))
    # chunk 0 holds groups 0 and 2, chunk 1 groups 1 and 3; part 0 suffixes 0-1, part 1 2-3
    lengths[0, 1], lengths[2, 0], lengths[3, 3] = 20, 45, 30
    mask = (np.arange(width)[None, None] < lengths[..., None]).astype(np.int32)
    batch = {"tokens": jnp.zeros((groups, size, width), jnp.int32),
             "attention_mask": jnp.asarray(mask),
             "positions": jnp.broadcast_to(prefix + jnp.arange(width), (groups, size, width)),
             "target_index": jnp.zeros((groups, size, 4), jnp.int32),
             "advantages": jnp.arange(groups * size, dtype=jnp.float32).reshape(groups, size),
             "prefix_tokens": jnp.ones((groups, prefix), jnp.int32),
             "prefix_mask": jnp.ones((groups, prefix), jnp.int32)}
    rows = groups * size

    def micro_loss(params, encoded, mb, w):
        loss = sum(jnp.sum(x * 0.0) for x in jax.tree.leaves((params, encoded)))
        return loss, {"rows": _row_widths(mb["advantages"], mb["tokens"], rows)}

    weights = (jnp.ones((groups, size, 4)),)
    _, m = jax.jit(lambda p, b: accumulate_shared(micro_loss, graphdef, p, b, weights, parts,
                                                  chunks, 4, 8))(params, batch)
    mirror = packed_widths(mask, parts, chunks, 4, 8)
    assert mirror == [48, 16, 16, 40], mirror  # (chunk, part) order
    expect = np.zeros((groups, size))
    for c in range(chunks):
        for p in range(parts):
            expect[c::chunks, p * size // parts:(p + 1) * size // parts] = mirror[c * parts + p]
    ran = np.asarray(m["rows"])
    np.testing.assert_array_equal(ran[:, 0], 1.0)
    np.testing.assert_array_equal(ran[:, 1], expect.reshape(-1))
