"""Query-chunked attention equals dense attention (forward and gradients) with left padding and
GQA, inside the decoder too, and its compiled backward needs far less temporary memory."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import nnx

from prove_jax.models import ConfigError, abstract_model, init_model, preset
from prove_jax.models.attention import use_chunks
from prove_jax.models.layers import attend

B, T, N, K, H = 3, 37, 6, 2, 8  # T is not a multiple of the chunk; 3 query heads per kv head
SCALE = H ** -0.5


def _inputs(seed=0, t=T):
    rng = np.random.default_rng(seed)
    q = jnp.asarray(rng.normal(size=(B, t, N, H)), jnp.float32)
    k = jnp.asarray(rng.normal(size=(B, t, K, H)), jnp.float32)
    v = jnp.asarray(rng.normal(size=(B, t, K, H)), jnp.float32)
    attn = np.ones((B, t), bool)
    attn[1, :5] = False  # left padding
    attn[2, :t - 3] = False  # almost all padding: few real keys, many fully masked rows
    causal = np.tril(np.ones((t, t), bool))
    mask = jnp.asarray(causal[None, None] & attn[:, None, None, :])
    return q, k, v, mask


def _real_rows(mask):
    """Query rows that see at least one key: left-padding rows see none (no loss counts them,
    no real row reads them, and the causal blocks average them over fewer keys)."""
    return np.asarray(mask[:, 0].any(-1))  # B T


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("chunk", [8, 16, 36])
def test_chunked_equals_dense_forward_and_grads(chunk, causal):
    q, k, v, mask = _inputs()
    real = _real_rows(mask)
    cot = np.random.default_rng(1).normal(size=(B, T, N, H)) * real[:, :, None, None]
    cot = jnp.asarray(cot, jnp.float32)

    def loss(q, k, v, c):
        return jnp.sum(attend(q, k, v, mask, SCALE, c, causal) * cot)

    fwd = jax.jit(attend, static_argnums=(4, 5, 6))
    dense = fwd(q, k, v, mask, SCALE, 0)
    chunked = fwd(q, k, v, mask, SCALE, chunk, causal)
    assert chunked.shape == dense.shape == (B, T, N, H)
    assert 0 < real.sum() < real.size
    np.testing.assert_allclose(np.asarray(chunked)[real], np.asarray(dense)[real], atol=1e-5,
                               rtol=0)
    if not causal:  # every row of the dense-key blocks, padding too, is the dense row
        np.testing.assert_allclose(chunked, dense, atol=1e-5, rtol=0)
    grad = jax.jit(jax.grad(loss, argnums=(0, 1, 2)), static_argnums=3)
    g_dense = grad(q, k, v, 0)
    g_chunk = grad(q, k, v, chunk)
    for a, b in zip(g_chunk, g_dense, strict=True):
        assert float(jnp.abs(b).max()) > 1e-2  # gradients are not trivially zero
        np.testing.assert_allclose(a, b, atol=1e-5, rtol=0)


def test_causal_blocks_need_a_causal_mask():
    """The promise matters: with a mask that lets rows see later keys (here all keys), the
    causal blocks drop those keys and differ from dense attention."""
    q, k, v, _ = _inputs()
    full = jnp.ones((B, 1, T, T), jnp.bool_)
    dense = attend(q, k, v, full, SCALE, 0)
    assert not np.allclose(attend(q, k, v, full, SCALE, 8, True), dense, atol=1e-3)
    np.testing.assert_allclose(attend(q, k, v, full, SCALE, 8, False), dense, atol=1e-5)


def test_chunking_switches_on_above_the_threshold():
    assert use_chunks(37, 8) and use_chunks(1025, 1024)
    assert not use_chunks(1024, 1024) and not use_chunks(37, 0)
    with pytest.raises(ConfigError, match="attn_chunk"):
        preset("tiny", attn_chunk=-1)


def test_decoder_with_chunks_equals_dense():
    """The whole decoder (GQA tiny preset, remat "dots" around each block as in the paper
    configs), left-padded rows, hidden states and parameter gradients."""
    rng = np.random.default_rng(2)
    ids = jnp.asarray(rng.integers(3, 512, size=(B, T)), jnp.int32)
    attn = np.ones((B, T), np.int32)
    attn[0, :9] = 0
    attn[2, :20] = 0
    attn = jnp.asarray(attn)
    # the loss weighs real tokens only (padding rows are nobody's output)
    w = jnp.asarray(rng.normal(size=(B, T, 64)) * np.asarray(attn)[:, :, None], jnp.float32)
    cfg = preset("tiny", dtype="float32", param_dtype="float32", remat="dots")
    _, params = nnx.split(init_model(cfg, seed=3), nnx.Param)

    def run(chunk):
        # Same parameters, the graph of a model whose attention chunks (or not).
        graphdef, _ = nnx.split(abstract_model(cfg.replace(attn_chunk=chunk)), nnx.Param)

        def loss(p):
            hidden = nnx.merge(graphdef, p).hidden_states(ids, attention_mask=attn)
            return jnp.sum(hidden * w), hidden

        (_, hidden), grads = jax.jit(jax.value_and_grad(loss, has_aux=True))(params)
        return hidden, grads

    h_dense, g_dense = run(0)
    h_chunk, g_chunk = run(8)
    real = np.asarray(attn, bool)
    np.testing.assert_allclose(np.asarray(h_chunk)[real], np.asarray(h_dense)[real], atol=1e-5,
                               rtol=0)
    # Parameter gradients here reach ~400 (a sum over B*T*D outputs): compare at float32
    # resolution of each leaf's scale (dense jit vs eager differ by ~3e-7 of it, too).
    for a, b in zip(jax.tree.leaves(g_chunk), jax.tree.leaves(g_dense), strict=True):
        scale = float(jnp.abs(b).max())
        assert scale > 1.0
        np.testing.assert_allclose(a, b, atol=1e-5 * scale, rtol=0)


@pytest.mark.parametrize("causal", [False, True])
def test_chunked_backward_needs_less_temporary_memory(causal):
    """XLA's buffer assignment for the gradient: dense keeps [B, N, T, T] scores and probs,
    chunks of 64 rows keep one block's; at T = 1024 that is >= 4x less temporary memory."""
    t = 1024
    q, k, v, mask = _inputs(t=t)

    def temp_bytes(chunk):
        def loss(q, k, v):
            return jnp.sum(attend(q, k, v, mask, SCALE, chunk, causal) ** 2)

        compiled = jax.jit(jax.grad(loss, argnums=(0, 1, 2))).lower(q, k, v).compile()
        return compiled.memory_analysis().temp_size_in_bytes

    dense, chunked = temp_bytes(0), temp_bytes(64)
    print(f"grad temp bytes at T={t}: dense {dense:,}, chunk 64 {chunked:,} (causal {causal})")
    scores = B * N * t * t * 4  # one float32 [B, N, T, T] buffer
    assert dense >= scores
    assert chunked * 4 < dense, (chunked, dense)


@pytest.mark.parametrize("block", [4, 5, 16])
def test_causal_blocks_equal_full_masked_rows(block):
    """Prefill attention that skips the causal upper triangle equals every row attending to all
    keys under the causal and padding mask, for blocks that do and do not divide the prompt."""
    from prove_jax.models.layers import attend_cache, causal_blocks

    b, p, n, kv, h = 2, 13, 4, 2, 8
    rng = np.random.default_rng(0)
    q = jnp.asarray(rng.normal(size=(b, p, n, h)), jnp.float32)
    k, v = (jnp.asarray(rng.normal(size=(b, kv, p, h)), jnp.float32) for _ in range(2))
    key_mask = jnp.asarray(np.arange(p)[None, :] >= np.array([[0], [5]]))  # row 1: 5 pads
    causal = jnp.tril(jnp.ones((p, p), jnp.bool_))
    full = attend_cache(q, k, v, causal[None, None] & key_mask[:, None, None, :], 0.3)
    got = causal_blocks(q, k, v, key_mask, 0.3, block)
    real = np.asarray(key_mask)  # pad query rows attend to nothing real: garbage either way
    np.testing.assert_allclose(np.asarray(got)[real], np.asarray(full)[real], atol=1e-6, rtol=0)
    # the padding mask matters: without it row 1's real queries read its pads
    leaky = causal_blocks(q, k, v, jnp.ones((b, p), jnp.bool_), 0.3, block)
    assert not np.allclose(np.asarray(leaky)[real], np.asarray(full)[real], atol=1e-3)
