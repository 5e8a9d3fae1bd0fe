"""Collective bytes from HLO text: small programs on the 8 fake CPU devices, each with one known
collective of a known per-device shape, and hand-written HLO snippets for the parser's edge
cases. Every expected figure is worked out by hand from the shapes."""

import jax
import jax.numpy as jnp
import pytest
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from prove_jax.rl.comm import KINDS, collective_bytes, compiled_collective_bytes

N = 8
X = jax.ShapeDtypeStruct((N * 16, 8), jnp.float32)  # per device f32[16,8] = 512 bytes


@pytest.fixture(scope="module")
def mesh():
    assert len(jax.devices("cpu")) >= N
    return Mesh(jax.devices("cpu")[:N], ("x",))


def _bytes(mesh, f, x=X, out=None):
    out = P("x") if out is None else out
    g = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=out))
    return compiled_collective_bytes(g.lower(x).compile())


def _only(kind, nbytes, loops=0):
    want = dict.fromkeys(KINDS, 0)
    want.update({kind: nbytes, "total": nbytes, "unknown_trip_loops": loops})
    return want


def test_psum_is_one_all_reduce_of_the_local_block(mesh):
    assert _bytes(mesh, lambda a: jax.lax.psum(a, "x"), out=P()) == _only("all-reduce", 512)


def test_all_gather_counts_the_local_shard(mesh):
    # the operand is this device's f32[16,8]; the f32[8,16,8] result is not what is sent
    got = _bytes(mesh, lambda a: jax.lax.all_gather(a, "x"))
    assert got == _only("all-gather", 512)


def test_psum_scatter_is_a_reduce_scatter_of_the_full_local_block(mesh):
    x = jax.ShapeDtypeStruct((N * 64, 8), jnp.float32)  # per device f32[64,8] = 2048 bytes
    f = lambda a: jax.lax.psum_scatter(a, "x", scatter_dimension=0, tiled=True)
    assert _bytes(mesh, f, x) == _only("reduce-scatter", 2048)


def test_all_to_all_sums_its_pieces(mesh):
    # XLA:CPU splits f32[16,8] into 8 operands of f32[2,8] (64 bytes each): 512 in all
    f = lambda a: jax.lax.all_to_all(a, "x", 0, 0, tiled=True)
    assert _bytes(mesh, f) == _only("all-to-all", 512)


def test_ppermute_is_a_collective_permute(mesh):
    f = lambda a: jax.lax.ppermute(a, "x", [(i, (i + 1) % N) for i in range(N)])
    assert _bytes(mesh, f) == _only("collective-permute", 512)


def _psum_step(c, _):
    return c + jax.lax.psum(c, "x"), None  # the carry depends on the psum: not hoisted


def test_psum_in_a_scan_counts_once_per_trip(mesh):
    f = lambda a: jax.lax.scan(_psum_step, a, None, length=5)[0]
    assert _bytes(mesh, f) == _only("all-reduce", 5 * 512)


def test_nested_scans_multiply(mesh):
    inner = lambda c, _: (jax.lax.scan(_psum_step, c, None, length=4)[0], None)
    f = lambda a: jax.lax.scan(inner, a, None, length=3)[0]
    assert _bytes(mesh, f) == _only("all-reduce", 3 * 4 * 512)


def test_jit_with_shardings(mesh):
    rows, rep = NamedSharding(mesh, P("x")), NamedSharding(mesh, P())
    # no communication: elementwise on row shards
    same = jax.jit(lambda a: a * 2, in_shardings=rows, out_shardings=rows)
    assert compiled_collective_bytes(same.lower(X).compile()) == dict.fromkeys(
        (*KINDS, "total", "unknown_trip_loops"), 0)
    # a column sum to a replicated f32[8]: each device all-reduces its partial sums, 32 bytes
    colsum = jax.jit(lambda a: a.sum(0), in_shardings=rows, out_shardings=rep)
    assert compiled_collective_bytes(colsum.lower(X).compile()) == _only("all-reduce", 32)


# Hand-written HLO in the shapes XLA prints (untyped operands as in jax 0.10, typed operands as
# in older printers, comments, nested braces in backend_config).
_SNIPPET = """HloModule m, entry_computation_layout={(f32[4,8]{1,0})->f32[4,8]{1,0}}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%wrapped_rs (p0: bf16[64]) -> bf16[8] {
  %p0 = bf16[64]{0} parameter(0)
  ROOT %rs = bf16[8]{0} reduce-scatter(%p0), dimensions={0}, to_apply=%add
}

%body (t: (s32[], f32[4,8])) -> (s32[], f32[4,8]) {
  %t = (s32[], f32[4,8]{1,0}) parameter(0)
  %x = f32[4,8]{1,0} get-tuple-element(%t), index=1
  %ar = f32[4,8]{1,0} all-reduce(%x), channel_id=2, to_apply=%add
  ROOT %r = (s32[], f32[4,8]{1,0}) tuple(%i, %ar)
}

%cond (t.1: (s32[], f32[4,8])) -> pred[] {
  %t.1 = (s32[], f32[4,8]{1,0}) parameter(0)
  ROOT %c = pred[] constant(true)
}

%callee (q: f32[4,8]) -> f32[4,8] {
  ROOT %pp = f32[4,8]{1,0} collective-permute(%q), source_target_pairs={{0,1},{1,0}}
}

ENTRY %main (x.0: f32[4,8], h: bf16[64]) -> f32[4,8] {
  %x.0 = f32[4,8]{1,0} parameter(0), metadata={op_name="jit(f)/a, b"}
  %h = bf16[64]{0} parameter(1)
  %i = s32[] constant(0)
  %tup = (f32[2]{0}, bf16[3,5]{1,0}) tuple(%v, %w)
  %var = (f32[4,8]{1,0}, bf16[16]{0}) all-reduce(f32[4,8]{1,0} %x.0, bf16[16]{0} %y), to_apply=%add
  %tv = (f32[2]{0}, bf16[3,5]{1,0}) all-reduce(%tup), to_apply=%add
  %ags = (bf16[64]{0}, bf16[512]{0}) all-gather-start(%h), dimensions={0}
  %agd = bf16[512]{0} all-gather-done(%ags)
  %cps = (f32[4,8]{1,0}, f32[4,8]{1,0}, u32[], u32[]) collective-permute-start(%x.0)
  %cpd = f32[4,8]{1,0} collective-permute-done(%cps)
  %as = ((bf16[64]{0}), bf16[8]{0}) async-start(%h), calls=%wrapped_rs
  %au = ((bf16[64]{0}), bf16[8]{0}) async-update(%as), calls=%wrapped_rs
  %ad = bf16[8]{0} async-done(%au), calls=%wrapped_rs
  %t0 = (s32[], f32[4,8]{1,0}) tuple(%i, %x.0)
  %w7 = (s32[], f32[4,8]{1,0}) while(%t0), condition=%cond, body=%body, backend_config=CFG7
  %wu = (s32[], f32[4,8]{1,0}) while(%t0), condition=%cond, body=%body, backend_config=CFG0
  %call = f32[4,8]{1,0} call(%x.0), to_apply=%callee
  %a2a = (s8[4]{0}, /*index=1*/s8[4]{0}) all-to-all(%s8a, /*index=1*/%s8b), replica_groups={{0,1}}
  ROOT %out = f32[4,8]{1,0} copy(%x.0)
}
"""


def test_parser_on_a_hand_written_module():
    snippet = _SNIPPET.replace(  # operands the snippet leaves undefined, defined here
        "  %i = s32[] constant(0)\n",
        "  %i = s32[] constant(0)\n  %y = bf16[16]{0} constant({...})\n"
        "  %v = f32[2]{0} constant({1, 2})\n  %w = bf16[3,5]{1,0} constant({...})\n"
        "  %s8a = s8[4]{0} constant({...})\n  %s8b = s8[4]{0} constant({...})\n")
    snippet = snippet.replace("CFG7", '{"a":{"b":{"c":[1,{"d":2}]}},"known_trip_count":{"n":"7"}}')
    snippet = snippet.replace("CFG0", '{"known_init_step":{"init":"0","step":"1"}}')
    got = collective_bytes(snippet)
    f32_4x8 = 4 * 8 * 4  # 128 bytes
    # variadic, typed operands: f32[4,8] + bf16[16]; tuple operand: f32[2] + bf16[3,5]
    # the loop body's f32[4,8]: 7 trips, plus once for the loop with no known trip count
    all_reduce = (f32_4x8 + 16 * 2) + (2 * 4 + 15 * 2) + (7 + 1) * f32_4x8
    want = {
        "all-gather": 64 * 2,  # start counted, done not
        "reduce-scatter": 64 * 2,  # the op async-start wraps, once (not again for update/done)
        "all-reduce": all_reduce,
        "all-to-all": 4 + 4,
        "collective-permute": f32_4x8 + f32_4x8,  # async start + the one inside `call`
        "unknown_trip_loops": 1,
    }
    want["total"] = sum(want[k] for k in KINDS)
    assert got == want


def test_nothing_is_counted_in_a_computation_nobody_runs():
    # a reduction computation (to_apply of an all-reduce) is not a call
    text = """HloModule m
%red (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %odd = f32[] all-reduce(%a), to_apply=%red
  ROOT %s = f32[] add(%a, %b)
}
ENTRY %main (p: f32[10]) -> f32[10] {
  ROOT %r = f32[10]{0} all-reduce(%p), to_apply=%red
}
"""
    assert collective_bytes(text)["all-reduce"] == 40


def test_conditional_branches_and_bf16_and_pred_sizes():
    text = """HloModule m
%t (p: bf16[3,7]) -> bf16[3,7] {
  ROOT %g = bf16[3,7]{1,0} all-reduce(%p), to_apply=%x
}
%f (p.1: pred[5]) -> pred[5] {
  ROOT %h = pred[5]{0} all-reduce(%p.1), to_apply=%x
}
ENTRY %main (b: pred[], u: bf16[3,7]) -> pred[] {
  %c = () conditional(%b, %u, %u), true_computation=%t, false_computation=%f
  %d = () conditional(%b, %u, %u), branch_computations={%t, %f}
  ROOT %r = pred[] copy(%b)
}
"""
    got = collective_bytes(text)
    # both branches counted (an upper bound) at both call sites: 2 * (21 * 2 + 5 * 1)
    assert got["all-reduce"] == 2 * (42 + 5) == got["total"]


def test_unknown_operand_and_element_type_are_clear_errors():
    text = "ENTRY %main (p: f32[2]) -> f32[2] {\n  ROOT %r = f32[2]{0} all-reduce(%nope)\n}\n"
    with pytest.raises(ValueError, match="nope"):
        collective_bytes(text)
    text = "ENTRY %main (p: q9[2]) -> q9[2] {\n  ROOT %r = q9[2]{0} all-reduce(%p)\n}\n"
    with pytest.raises(ValueError, match="q9"):
        collective_bytes(text)
