"""Mesh construction, the rules table, and the sharded forward on 8 fake CPU devices."""

import jax
import numpy as np
import pytest
from flax import nnx
from jax.sharding import PartitionSpec as P

from prove_jax.checkpoint.hf import export_hf, load_hf
from prove_jax.sharding import (
    MeshError,
    make_mesh,
    mesh_shape,
    partition_spec,
    shard_model,
    sharded_forward,
)
from tests.hf_models import COMMON
from tests.hf_models import read_safetensors_dir as _tensors


def test_eight_fake_devices():
    assert jax.device_count() == 8


def test_mesh_shape_fills_minus_one():
    assert mesh_shape({"data": 2, "fsdp": -1, "tensor": 2}, 8) == {"data": 2, "fsdp": 2,
                                                                   "tensor": 2}
    assert mesh_shape({"tensor": 2, "fsdp": -1}, 8) == {"data": 1, "fsdp": 4, "tensor": 2}
    with pytest.raises(MeshError, match="needs 2 devices"):
        mesh_shape({"tensor": 2}, 8)
    with pytest.raises(MeshError, match="at most one"):
        mesh_shape({"data": -1, "fsdp": -1}, 8)
    with pytest.raises(MeshError, match="unknown mesh axes"):
        mesh_shape({"model": 2}, 8)
    with pytest.raises(MeshError, match="do not divide"):
        mesh_shape({"data": 3, "fsdp": -1}, 8)


def test_rules_fall_back_when_not_divisible():
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    q = "layers/attn/q_proj/kernel"
    assert partition_spec(q, (3, 96, 64), mesh) == P(None, "tensor", "fsdp")
    assert partition_spec(q, (3, 48, 63), mesh) == P(None, "tensor")  # 63 % fsdp != 0
    assert partition_spec("final_norm/scale", (64,), mesh) == P()


@pytest.mark.parametrize("variant", ["qwen3_untied", "qwen2_bias", "granite"])
def test_sharded_forward_equals_single_device(hf_checkpoint, variant):
    path, _ = hf_checkpoint(variant)
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    ids = np.random.default_rng(7).integers(0, COMMON["vocab_size"], size=(4, 32))
    mask = np.ones_like(ids)
    mask[1, :5] = 0  # one left-padded row
    single, _ = load_hf(path, dtype="float32")
    ref = np.asarray(single(ids, attention_mask=mask))

    sharded, _ = load_hf(path, mesh=mesh, dtype="float32")  # streamed into shardings
    q = sharded.layers.attn.q_proj.kernel[...]
    assert q.sharding.spec == P(None, "tensor", "fsdp")
    assert {s.data.shape for s in q.addressable_shards} == {(3, q.shape[1] // 2, 32)}
    forward, state = sharded_forward(sharded, mesh)
    logits = forward(state, ids, mask)
    assert logits.sharding.spec == P(("data", "fsdp"), None, "tensor")
    np.testing.assert_allclose(np.asarray(logits), ref, atol=1e-5, rtol=0)

    # Placing an already-loaded model on the mesh gives the same as loading into it.
    placed = shard_model(single, mesh)
    forward2, state2 = sharded_forward(placed, mesh)
    np.testing.assert_allclose(np.asarray(forward2(state2, ids, mask)), ref, atol=1e-5, rtol=0)


def test_export_from_sharded_model_matches(hf_checkpoint, tmp_path):
    path, _ = hf_checkpoint("qwen3_tied")
    mesh = make_mesh({"data": 2, "fsdp": 2, "tensor": 2})
    model, cfg = load_hf(path, mesh=mesh)
    assert not nnx.state(model)["embed"][...].sharding.is_fully_replicated
    out = export_hf(model, cfg, tmp_path / "from-mesh")
    before, after = _tensors(path), _tensors(out)
    before.pop("lm_head.weight", None)
    assert sorted(before) == sorted(after)
    assert all(np.array_equal(before[k].numpy(), after[k].numpy()) for k in before)
