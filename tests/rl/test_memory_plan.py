"""The dry-run memory plan on the tiny preset: it compiles on the fake devices from abstract
shapes, its compiled argument bytes agree with the analytic sharded sizes, and a longer
sequence needs more temporary memory."""

import dataclasses

import jax
import pytest
from flax import nnx
from jax.sharding import PartitionSpec as P

from configs.tiny import get_config
from prove_jax.models import abstract_model, preset
from prove_jax.rl.memory_plan import (
    PLANS,
    Plan,
    batch_geometry,
    compile_plan,
    layout_hint,
    opt_state_shardings,
    print_memory_plan,
)
from prove_jax.rl.optim import OptimConfig, make_optimizer
from prove_jax.sharding import make_mesh, tree_shardings


def _config(prompt=96, response=32):
    c = get_config()
    c.model.init = "random"
    c.rollout.update(max_prompt_tokens=prompt, max_response_tokens=response)
    c.train.seq_multiple = 64
    return c


def test_batch_geometry_follows_the_config():
    c = _config()
    mesh = {"data": 2, "fsdp": 2, "tensor": 2}
    assert batch_geometry(c, mesh) == (8, 128, 2)  # one row per data shard per micro-batch
    c.train.micro_batches = 4
    c.rollout.max_response_tokens = 33  # 129 tokens round up to 192
    # as the trainer pads: 4 micro-batches of one row per shard (4 shards) are 16 rows
    assert batch_geometry(c, mesh) == (16, 192, 4)
    # rows pad as the trainer pads them: 3 micro-batches x 4 shards need 12 rows
    c.train.micro_batches = 3
    assert batch_geometry(c, mesh) == (12, 192, 3)
    # a data-3 mesh: one row per shard per micro-batch, 8 rows -> 3 micro-batches of 3
    c.train.micro_batches = 0
    assert batch_geometry(c, {"data": 3, "fsdp": 1, "tensor": 2}) == (9, 192, 3)


@pytest.fixture(scope="module")
def tiny_plan():
    """The 8-device plan (tiny's mesh: data 2 x fsdp 2 x tensor 2), compiled once."""
    assert len(jax.devices("cpu")) >= 8
    lines = []
    (res,) = print_memory_plan(_config(), plans=PLANS[:1], out=lines.append)
    return res, "\n".join(lines)


def test_tiny_plan_compiles_and_its_numbers_agree(tiny_plan):
    res, text = tiny_plan
    assert "XLA:CPU" in text and "8x H100-80GB" in text and "fits (margin" in text
    assert "communication per device per step" in text and "model FLOPs per step" in text
    assert f"--config.rollout.slots={res.episodes_that_fit} " in text  # the slot budget
    # tensor 2 and fsdp 2 shard the weights: the step gathers them and reduces gradients
    assert res.comm["all-gather"] > 0 and res.comm["unknown_trip_loops"] == 0
    assert res.comm["total"] == sum(res.comm[k] for k in ("all-gather", "reduce-scatter",
                                                           "all-reduce", "all-to-all",
                                                           "collective-permute"))
    m = res.memory
    assert res.mesh == {"data": 2, "fsdp": 2, "tensor": 2}
    assert all(m[k] > 0 for k in ("argument", "output", "temp", "total"))
    assert res.params > 0 and res.reference > 0 and res.kv_per_episode > 0
    # float32 master weights: Adam's two moments are twice the parameters.
    assert res.adam == pytest.approx(2 * res.params, rel=0.01)
    # Arguments per device = params + Adam state + this device's rows of the compact batch:
    # tokens and attention mask [rows, seq]; target_index, loss_mask, old_logp and ref_logp
    # [rows, 32] (every one of the 32 response tokens sampled); advantages [rows]; 4 shards.
    assert (res.rows, res.seq_len, res.targets) == (8, 128, 32)
    batch_bytes = (2 * 8 * 128 * 4 + 4 * 8 * 32 * 4 + 8 * 4) // 4
    assert m["argument"] == pytest.approx(res.params + res.adam + batch_bytes, rel=0.05)
    # Donated params and optimizer state come back in place.
    assert m["alias"] == pytest.approx(res.params + res.adam, rel=0.05)
    # The tiny preset by hand: a tied V 512 x D 64 embedding and 2 layers of q 64x128,
    # k and v 64x64, o 128x64, gate and up 64x128, down 128x64 (49152), every matrix split
    # 4 ways (fsdp 2 x tensor 2); norms replicated (q, k 32, two of 64 per layer; final 64):
    # (32768 + 2 * 49152) / 4 + 2 * 192 + 64 = 33216 float32 values per device.
    per_device = 33216 * 4
    assert res.params == per_device
    assert res.reference == per_device  # kl_coef > 0: a frozen copy in tiny's float32
    # the step's peak: live arguments and outputs (donated buffers counted once) + scratch
    peak = m["argument"] + m["output"] - m["alias"] + m["temp"] + m["generated_code"]
    assert m["total"] == peak
    assert res.train_total == peak + per_device


def test_longer_sequences_need_more_temporary_memory(tiny_plan):
    short = tiny_plan[0]
    long = compile_plan(_config(192, 64), PLANS[0])
    assert (short.seq_len, long.seq_len) == (128, 256)
    assert long.memory["temp"] > 1.5 * short.memory["temp"]
    assert long.params == short.params and long.micro_batches == short.micro_batches


def test_communication_follows_the_mesh():
    """One device moves nothing; pure data parallelism (parameters replicated) gathers no
    weights but must sum every gradient across the two replicas: at least one full copy of the
    float32 gradients (526,080 bytes: 131,520 parameters, counted in the test above) per step."""
    alone = compile_plan(_config(), Plan("one", 1, 80.0, "H100 SXM",
                                         {"data": 1, "fsdp": 1, "tensor": 1}))
    assert alone.comm["total"] == 0
    data = compile_plan(_config(), Plan("data 2", 2, 80.0, "H100 SXM",
                                        {"data": 2, "fsdp": 1, "tensor": 1}))
    assert data.params == 131520 * 4
    assert data.comm["all-gather"] == 0
    assert data.comm["all-reduce"] + data.comm["reduce-scatter"] >= 131520 * 4


def _opt_specs(name):
    mesh = make_mesh({"data": 1, "fsdp": 4, "tensor": 2})
    graphdef, params = nnx.split(abstract_model(preset(name)), nnx.Param)
    optimizer = make_optimizer(OptimConfig())
    opt_state = jax.eval_shape(optimizer.init, params)
    ours = opt_state_shardings(optimizer, opt_state, tree_shardings(params, mesh), mesh)
    return graphdef, params, optimizer, opt_state, mesh, ours


def test_optimizer_state_sharding_tells_same_shaped_params_apart():
    """Qwen3-8B's q_proj and o_proj are both [36, 4096, 4096] with different specs."""
    ours = _opt_specs("qwen3_8b")[-1]
    mu = ours[1][0].mu  # chain(clip, adamw): adamw is chain(scale_by_adam, ...)
    assert mu["layers"]["attn"]["q_proj"]["kernel"].spec == P(None, "tensor", "fsdp")
    assert mu["layers"]["attn"]["o_proj"]["kernel"].spec == P(None, "fsdp", "tensor")


def test_tiny_plan_compiles_the_shared_prefix_layout_too(tiny_plan):
    res, text = tiny_plan
    sp = res.shared
    assert "shared-prefix layout (train.shared_prefix)" in text
    # 2 prompts per step pad to one whole group per data shard (4), each of 4 rollouts, the
    # prompt (96 -> 128) stored once per group, responses 32 -> 64, one rollout per micro-batch
    assert (sp.groups, sp.group_size, sp.prefix_len, sp.suffix_len, sp.micro_batches) == (
        4, 4, 128, 64, 4)
    assert sp.memory["total"] > 0 and sp.memory["temp"] > 0
    assert sp.memory["alias"] == pytest.approx(res.params + res.adam, rel=0.05)


def test_shared_geometry_refuses_micro_batches_that_do_not_split_a_group():
    from prove_jax.rl.memory_plan import shared_geometry

    c = _config()
    c.train.micro_batches = 3
    with pytest.raises(ValueError, match=r"must divide rollout\.group_size=4"):
        shared_geometry(c, {"data": 2, "fsdp": 2, "tensor": 2})


def test_the_plan_names_the_trained_layout_and_the_switch_when_only_the_other_fits(tiny_plan):
    res, text = tiny_plan
    assert "this config trains the unpacked layout (train.shared_prefix=False)" in text
    gb = 1e9
    shared, unpacked = res.shared.memory["total"] + res.reference, res.train_total
    assert shared != unpacked
    between = dataclasses.replace(res, plan=dataclasses.replace(
        res.plan, budget_gb=(shared + unpacked) / 2 / gb))
    small, large = (True, False) if shared < unpacked else (False, True)
    # the larger layout does not fit the budget between them: the hint names the switch
    assert layout_hint(between, large).endswith(f"--config.train.shared_prefix={small}")
    assert "does not fit" not in layout_hint(between, small)
    roomy = dataclasses.replace(res, plan=dataclasses.replace(res.plan, budget_gb=1e6))
    assert "does not fit" not in layout_hint(roomy, large)
    assert layout_hint(dataclasses.replace(res, shared=None), True) == ""
