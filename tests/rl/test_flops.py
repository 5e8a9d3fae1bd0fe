"""Train-step FLOPs against a hand count and XLA's own cost analysis; how they scale with
targets, iterations, GQA and tied embeddings; the device peak table and the CPU measurement;
MFU arithmetic."""

import math

import jax
import jax.numpy as jnp
import pytest
from flax import nnx

from prove_jax.models import init_model, preset
from prove_jax.rl.flops import _cpu_machine_flops, device_peak, mfu, step_flops

TINY = preset("tiny")  # V 512, D 64, F 128, L 2, N 4, K 2, H 32, tied embeddings


def test_hand_count_on_the_tiny_preset():
    assert (TINY.vocab_size, TINY.hidden_size, TINY.intermediate_size, TINY.num_layers,
            TINY.num_heads, TINY.num_kv_heads, TINY.head_dim) == (512, 64, 128, 2, 4, 2, 32)
    rows, seq_len, targets = 3, 17, 5  # the decoder runs 16 positions per row
    # Forward FLOPs per position per layer, 2 per multiply-add:
    q = 2 * 64 * (4 * 32)  # D -> N*H                  16384
    kv = 2 * (2 * 64 * (2 * 32))  # k and v: D -> K*H  16384
    o = 2 * (4 * 32) * 64  # N*H -> D                  16384
    mlp = 3 * (2 * 64 * 128)  # gate, up, down          49152
    # scores and probs.v: each of 4 query heads x 32 dims over all 16 keys (masked, not skipped)
    attention = 2 * (2 * 4 * 32 * 16)  #                8192
    per_layer_row = 16 * (q + kv + o + mlp + attention)
    assert per_layer_row == 1_703_936
    head_row = 5 * 2 * 64 * 512  # 5 target positions x D x V
    forward = rows * (2 * per_layer_row + head_row)
    assert step_flops(TINY, rows, seq_len, targets) == 3 * forward == 33_619_968


def test_attention_is_quadratic_in_sequence_length():
    # With no head, f(2t) - 2 f(t) leaves only attention's extra keys: 3 x rows x L x
    # 4NH x ((2t)^2 - 2 t^2), t = 16 decoder positions.
    extra = step_flops(TINY, 2, 33, 0) - 2 * step_flops(TINY, 2, 17, 0)
    assert extra == 3 * 2 * 2 * (4 * 4 * 32) * (32**2 - 2 * 16**2)


def test_targets_iterations_gqa_and_tied_embeddings():
    rows, seq_len = 4, 33
    base = step_flops(TINY, rows, seq_len, 8)
    head_share = 3 * rows * 8 * 2 * TINY.hidden_size * TINY.vocab_size
    assert step_flops(TINY, rows, seq_len, 16) - base == head_share
    assert step_flops(TINY, rows, seq_len, 8, iterations=3) == 3 * base
    mha = TINY.replace(num_kv_heads=4)  # k/v projections to 4 heads instead of 2
    kv_share = 3 * rows * 32 * TINY.num_layers * 2 * (2 * 64 * 32) * (4 - 2)
    assert step_flops(mha, rows, seq_len, 8) - base == kv_share
    untied = TINY.replace(tie_word_embeddings=False)
    assert step_flops(untied, rows, seq_len, 8) == base


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="seq_len"):
        step_flops(TINY, 1, 1, 1)
    with pytest.raises(ValueError, match="targets"):
        step_flops(TINY, 1, 8, -1)


def _xla_flops(fn, *args) -> float:
    cost = jax.jit(fn).lower(*args).compile().cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost  # older jax: one dict per program
    return float(cost["flops"])


def test_xla_cost_analysis_agrees():
    """XLA counts 2 FLOPs per multiply-add for dots (checked below on a plain matmul) plus
    elementwise work, so its figure may only exceed ours, by the elementwise share (~2% here,
    where matmuls dominate). One layer: XLA counts a while loop's body once, not per trip."""
    a, b = jnp.ones((16, 32)), jnp.ones((32, 8))
    assert _xla_flops(jnp.matmul, a, b) == 2 * 16 * 32 * 8

    cfg = preset("tiny", param_dtype="float32", dtype="float32", remat="none", num_layers=1,
                 hidden_size=128, intermediate_size=512, vocab_size=1024)
    graphdef, params = nnx.split(init_model(cfg), nnx.Param)
    rows, seq_len, targets = 2, 129, 32
    tokens = jnp.zeros((rows, seq_len), jnp.int32)
    index = jnp.zeros((rows, targets), jnp.int32)

    def forward(params, tokens, index):  # the step's shapes: decoder on T-1, head on R rows
        model = nnx.merge(graphdef, params)
        hidden = model.hidden_states(tokens[:, :-1])
        hidden = jnp.take_along_axis(hidden, index[..., None], axis=1)
        return model.logits_from_hidden(hidden)

    def loss(params, tokens, index):
        return jax.nn.logsumexp(forward(params, tokens, index), axis=-1).sum()

    ours = step_flops(cfg, rows, seq_len, targets)
    assert 1.0 <= _xla_flops(forward, params, tokens, index) / (ours / 3) < 1.05
    train = _xla_flops(jax.value_and_grad(loss), params, tokens, index)
    assert 1.0 <= train / ours < 1.05


class FakeDevice:
    def __init__(self, kind: str, platform: str = "gpu"):
        self.device_kind, self.platform = kind, platform


@pytest.mark.parametrize("kind, peak", [
    ("NVIDIA H100 80GB HBM3", 989e12),
    ("NVIDIA H100 PCIe", 756e12),
    ("NVIDIA H100 NVL", 835e12),
    ("NVIDIA H200", 989e12),
    ("NVIDIA H200 NVL", 835e12),
    ("NVIDIA GH200 480GB", 989e12),
    ("NVIDIA A100-SXM4-80GB", 312e12),
    ("TPU v5 lite", 197e12),
    ("TPU v5e", 197e12),
    ("TPU v5p", 459e12),
    ("TPU v5", 459e12),
    ("TPU v6 lite", 918e12),
    ("TPU v6e", 918e12),
])
def test_device_peak_table(kind, peak):
    platform = "tpu" if kind.startswith("TPU") else "gpu"
    value, label = device_peak(FakeDevice(kind, platform))
    assert value == peak
    assert kind in label


@pytest.mark.parametrize("kind", ["NVIDIA GeForce RTX 4090", "TPU v4", "TPU7x", ""])
def test_unknown_device_has_no_peak(kind):
    value, label = device_peak(FakeDevice(kind))
    assert math.isnan(value)
    assert label == f"unknown device kind {kind!r}: no peak"
    assert math.isnan(mfu(1e15, 1.0, 8, value))


def test_cpu_peak_is_measured_and_shared_among_devices():
    cpu = jax.local_devices(backend="cpu")
    value, label = device_peak(cpu[0])
    assert math.isfinite(value) and value > 0
    assert "measured" in label
    # the 8 virtual devices (tests/conftest.py) split one machine's rate
    assert len(cpu) == 8
    assert value == pytest.approx(_cpu_machine_flops() / 8)
    assert device_peak(cpu[3]) == (value, label)  # measured once, cached
    nan, label = device_peak(FakeDevice("cpu", "cpu"), measure_cpu=False)
    assert math.isnan(nan) and "not measured" in label


def test_mfu_arithmetic():
    assert mfu(4e15, 2.0, 4, 1e15) == pytest.approx(0.5)
    assert mfu(989e12, 1.0, 1, 989e12) == pytest.approx(1.0)
    assert math.isnan(mfu(1e15, 1.0, 4, math.nan))
    assert math.isnan(mfu(1e15, 0.0, 4, 1e15))
    assert math.isnan(mfu(1e15, -1.0, 4, 1e15))


def test_shared_prefix_flops_count_the_prefix_once():
    from prove_jax.rl.flops import layer_forward_flops, shared_step_flops

    groups, size, prefix, suffix, targets = 3, 4, 40, 17, 8
    # no prefix: exactly the unpacked rows of the suffixes
    assert shared_step_flops(TINY, groups, size, 0, suffix, targets) == step_flops(
        TINY, groups * size, suffix, targets)
    # a prefix adds its own forward once per group, and its keys to every suffix query
    extra = shared_step_flops(TINY, groups, size, prefix, suffix, targets) - shared_step_flops(
        TINY, groups, size, 0, suffix, targets)
    attention_per_key = layer_forward_flops(TINY, 1, 1) - layer_forward_flops(TINY, 1, 0)
    expect = 3 * groups * TINY.num_layers * (
        layer_forward_flops(TINY, prefix, prefix) + size * (suffix - 1) * prefix
        * attention_per_key)
    assert extra == pytest.approx(expect)
    # and costs less than the unpacked rows, which repeat the prefix
    unpacked = step_flops(TINY, groups * size, prefix + suffix, targets)
    assert shared_step_flops(TINY, groups, size, prefix, suffix, targets) < unpacked
    with pytest.raises(ValueError, match="suffix_len"):
        shared_step_flops(TINY, 1, 1, 4, 1, 1)


def test_micro_batch_widths_are_counted_at_the_width_they_ran_at():
    from prove_jax.rl.flops import shared_step_flops

    full = step_flops(TINY, 4, 33, 8)
    assert step_flops(TINY, 4, 33, 8, widths=[33, 33]) == pytest.approx(full)
    # two micro-batches of 2 rows, one cut to 17: half the rows cost a 17-wide step's rows
    mixed = step_flops(TINY, 4, 33, 8, widths=[17, 33])
    assert mixed == pytest.approx(step_flops(TINY, 2, 17, 8) + step_flops(TINY, 2, 33, 8))
    assert mixed < full
    # suffixes cut to 9 cost what 9-token suffixes cost; the prefix is counted once either way
    assert shared_step_flops(TINY, 2, 4, 40, 17, 8, widths=[9] * 4) == pytest.approx(
        shared_step_flops(TINY, 2, 4, 40, 9, 8))
    with pytest.raises(ValueError, match="do not split"):
        step_flops(TINY, 4, 33, 8, widths=[17, 17, 33])
    with pytest.raises(ValueError, match="widths must be in"):
        step_flops(TINY, 4, 33, 8, widths=[40, 33])
