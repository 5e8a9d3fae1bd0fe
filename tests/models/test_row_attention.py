"""The extend's row-at-a-time attention against `attend_cache` over every row at once: same
outputs to float32 rounding, for rows at different offsets in a shared slot cache, ragged
query blocks and rows that repeat (the sampler's padding)."""

import jax
import jax.numpy as jnp
import numpy as np

from prove_jax.models.layers import attend_cache
from prove_jax.models.row_attention import attend_grouped, attend_rows


def test_grouped_attention_equals_attend_cache():
    rng = np.random.default_rng(0)
    q = jnp.asarray(rng.normal(size=(3, 5, 6, 8)).astype(np.float32))  # 6 heads over 2 kv
    k, v = (jnp.asarray(rng.normal(size=(3, 2, 11, 8)).astype(np.float32)) for _ in range(2))
    mask = jnp.asarray(rng.random((3, 1, 5, 11)) < 0.7).at[:, :, :, 0].set(True)
    np.testing.assert_allclose(np.asarray(attend_grouped(q, k, v, mask, 0.3)),
                               np.asarray(attend_cache(q, k, v, mask, 0.3)), atol=2e-6)


def test_rows_attend_causally_over_their_own_slots():
    rng = np.random.default_rng(1)
    layers, slots, kv, length, h, n = 2, 5, 2, 40, 8, 4
    k_all, v_all = (jnp.asarray(rng.normal(size=(layers, slots, kv, length, h)).astype(
        np.float32)) for _ in range(2))
    rows = jnp.asarray([3, 0, 4, 3])  # the last repeats the first: padding
    offsets = jnp.asarray([9, 0, 17, 9])
    e, window, layer = 7, 24, 1
    q = jnp.asarray(rng.normal(size=(4, e, n, h)).astype(np.float32))
    got = jax.jit(lambda q: attend_rows(q, (k_all, v_all), jnp.int32(layer), rows, offsets,
                                        window, 3, 0.25))(q)  # blocks of 3, 3 and 1
    at = offsets[:, None] + jnp.arange(e)[None]
    mask = (jnp.arange(window)[None, None] <= at[:, :, None])[:, None]
    want = attend_cache(q, k_all[layer, rows, :, :window], v_all[layer, rows, :, :window],
                        mask, 0.25)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), atol=2e-6)
    # a later slot than the query's own changes nothing; its own slot does
    bumped = k_all.at[layer, 3, :, 9 + e].add(5.0)
    again = attend_rows(q, (bumped, v_all), jnp.int32(layer), rows, offsets, window, 3, 0.25)
    np.testing.assert_array_equal(np.asarray(again), np.asarray(got))
    own = k_all.at[layer, 3, :, 9].add(5.0)
    moved = attend_rows(q, (own, v_all), jnp.int32(layer), rows, offsets, window, 3, 0.25)
    assert not np.allclose(np.asarray(moved)[0, 0], np.asarray(got)[0, 0])


def test_rows_one_at_a_time_only_where_they_live_on_one_device():
    """The row-at-a-time forms index rows with traced values: with the rows split over several
    host devices that gathers every device's cache, so a mesh of more than one device takes
    the batched forms (as accelerators do); a mesh of one device keeps the CPU forms."""
    from prove_jax.models.row_attention import cpu_kernels, row_kernels
    from prove_jax.sharding import make_mesh

    assert jax.device_count() == 8  # tests/conftest.py fakes 8 host devices
    assert row_kernels()
    with jax.set_mesh(make_mesh({"data": 1, "fsdp": -1, "tensor": 1})):
        assert not row_kernels()
        assert cpu_kernels()  # prefill blocks' grouped products index no rows: kept
    one = jax.sharding.Mesh(np.asarray(jax.devices()[:1]).reshape(1, 1, 1),
                            ("data", "fsdp", "tensor"))
    with jax.set_mesh(one):
        assert row_kernels()
