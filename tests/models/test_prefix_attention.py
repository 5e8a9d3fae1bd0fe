"""Two-part attention (a group's suffixes over their shared prefix and themselves): the flash
path (square blocks, the prefix as lead keys) equals the dense path forward and in gradients,
the prefix's gradient summing every suffix's, and its backward keeps one block of scores
rather than a [rows, heads, chunk, P + S] slab."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from prove_jax.models.attention import query_chunked
from prove_jax.models.layers import attend_cache
from prove_jax.models.prefix_attention import _two_part, prefix_suffix_attend

N, G, NQ, K, H = 2, 3, 4, 2, 8  # 2 groups of 3 suffixes, 2 query heads per kv head
SCALE = H ** -0.5


def _inputs(p: int, s: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    b = N * G
    q = jnp.asarray(rng.normal(size=(b, s, NQ, H)), jnp.float32)
    k_s, v_s = (jnp.asarray(rng.normal(size=(b, K, s, H)), jnp.float32) for _ in range(2))
    k_p, v_p = (jnp.asarray(rng.normal(size=(N, K, p, H)), jnp.float32) for _ in range(2))
    prefix_mask = np.ones((N, p), bool)
    prefix_mask[1, p - 4:] = False  # group 1's prompt is 4 tokens shorter (right padding)
    suffix_keys = np.ones((b, s), bool)
    suffix_keys[2, s - 6:] = False  # a shorter rollout
    suffix_keys[4, 3:] = False  # a rollout that ended almost at once
    causal = np.tril(np.ones((s, s), bool))
    suffix_mask = jnp.asarray(causal[None, None] & suffix_keys[:, None, None, :])
    return q, k_s, v_s, suffix_mask, k_p, v_p, jnp.asarray(prefix_mask), suffix_keys


@pytest.mark.parametrize("p,s,chunk", [(21, 13, 4), (16, 24, 8), (5, 11, 4)])
def test_flash_two_part_equals_dense_forward_and_grads(p, s, chunk):
    q, k_s, v_s, suffix_mask, k_p, v_p, prefix_mask, real = _inputs(p, s)
    cot = np.random.default_rng(1).normal(size=q.shape) * real[:, :, None, None]
    cot = jnp.asarray(cot, jnp.float32)

    def loss(q, k_s, v_s, k_p, v_p, c):
        out = prefix_suffix_attend(q, k_s, v_s, suffix_mask, k_p, v_p, prefix_mask, SCALE, c)
        return jnp.sum(out * cot), out

    grad = jax.jit(jax.value_and_grad(loss, argnums=(0, 1, 2, 3, 4), has_aux=True),
                   static_argnums=5)
    (_, dense), g_dense = grad(q, k_s, v_s, k_p, v_p, 0)
    (_, flash), g_flash = grad(q, k_s, v_s, k_p, v_p, chunk)
    np.testing.assert_allclose(np.asarray(flash)[real], np.asarray(dense)[real], atol=1e-5,
                               rtol=0)
    for a, b in zip(g_flash, g_dense, strict=True):
        assert float(jnp.abs(b).max()) > 1e-2  # gradients are not trivially zero
        np.testing.assert_allclose(a, b, atol=1e-5, rtol=0)


def test_two_part_equals_each_row_attending_to_prompt_plus_suffix():
    """The oracle: each unpacked row, prompt then suffix, under one causal + padding mask."""
    p, s = 9, 7
    q, k_s, v_s, suffix_mask, k_p, v_p, prefix_mask, real = _inputs(p, s, seed=3)
    out = prefix_suffix_attend(q, k_s, v_s, suffix_mask, k_p, v_p, prefix_mask, SCALE, 4)
    pm = np.asarray(prefix_mask)
    for r in range(N * G):
        n = r // G
        keep = pm[n]  # the unpacked row holds only the prompt's real tokens
        k = jnp.concatenate([k_p[n][:, keep], k_s[r]], axis=1)[None]
        v = jnp.concatenate([v_p[n][:, keep], v_s[r]], axis=1)[None]
        mask = jnp.concatenate([jnp.ones((1, 1, s, int(keep.sum())), bool),
                                suffix_mask[r:r + 1]], axis=-1)
        want = attend_cache(q[r:r + 1], k, v, mask, SCALE)[0]
        np.testing.assert_allclose(np.asarray(out[r])[real[r]], np.asarray(want)[real[r]],
                                   atol=1e-5, rtol=0)
    # and the prompt matters: a row of group 0 differs from the same queries over group 1's
    swapped = prefix_suffix_attend(q, k_s, v_s, suffix_mask, k_p[::-1], v_p[::-1],
                                   prefix_mask[::-1], SCALE, 4)
    assert not np.allclose(np.asarray(swapped[0]), np.asarray(out[0]), atol=1e-3)


def _query_blocks_over_all_keys(q, k_s, v_s, suffix_mask, k_p, v_p, prefix_mask, chunk):
    """The layout this replaced: query blocks of `chunk` rows, each over every prefix and
    suffix key at once (a [rows, heads, chunk, P + S] slab per block)."""
    n, p = prefix_mask.shape
    b, _, t, _ = suffix_mask.shape
    pre = jnp.broadcast_to(prefix_mask[:, None, None, None, :], (n, b // n, 1, t, p))
    mask = jnp.concatenate([pre.reshape(b, 1, t, p), suffix_mask], axis=-1)
    return query_chunked(lambda q_c, k, v, m_c: _two_part(q_c, k, v, m_c, SCALE),
                         q, (k_p, k_s), (v_p, v_s), mask, chunk)


def test_flash_two_part_backward_keeps_less_temporary_memory():
    """XLA's buffer assignment for the gradient: the dense path keeps [B, N, S, P + S] scores
    and probs, query blocks over all keys one [B, N, 64, P + S] slab, and the flash blocks one
    64 x 64 block at a time (the bool masks, as the unpacked step's, are what remains)."""
    p, s = 768, 512
    q, k_s, v_s, suffix_mask, k_p, v_p, prefix_mask, _ = _inputs(p, s)

    def temp_bytes(attend):
        def loss(q, k_s, v_s, k_p, v_p):
            return jnp.sum(attend(q, k_s, v_s, suffix_mask, k_p, v_p, prefix_mask) ** 2)

        compiled = jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3, 4))).lower(
            q, k_s, v_s, k_p, v_p).compile()
        return compiled.memory_analysis().temp_size_in_bytes

    dense = temp_bytes(lambda *a: prefix_suffix_attend(*a, SCALE, 0))
    blocks = temp_bytes(lambda *a: _query_blocks_over_all_keys(*a, 64))
    flash = temp_bytes(lambda *a: prefix_suffix_attend(*a, SCALE, 64))
    print(f"two-part grad temp bytes: dense {dense:,}, query blocks {blocks:,}, flash {flash:,}")
    assert dense >= N * G * NQ * s * (p + s) * 4  # one float32 score buffer
    assert flash * 3 < blocks < dense, (flash, blocks, dense)
