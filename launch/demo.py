"""What `make demo` runs until the GRPO trainer lands (issue 8): the foundation, end to end.

A random model from the config is exported as a Hugging Face checkpoint, streamed back into a
(data, fsdp, tensor) mesh of fake CPU devices, run with the sharded forward and chunked
log-probs, and loaded by transformers; each step prints how far it is from the original.

    python -m launch.demo --config=configs/tiny.py
"""

from __future__ import annotations

from launch.common import fake_cpu_devices

fake_cpu_devices(8)

import time  # noqa: E402

import jax  # noqa: E402
import numpy as np  # noqa: E402
from absl import app  # noqa: E402
from flax import nnx  # noqa: E402
from ml_collections import config_flags  # noqa: E402

from launch.common import model_from_config  # noqa: E402
from prove_jax.checkpoint.hf import export_hf, load_hf  # noqa: E402
from prove_jax.models import token_logprobs  # noqa: E402
from prove_jax.sharding import make_mesh, sharded_forward  # noqa: E402

_CONFIG = config_flags.DEFINE_config_file("config", "configs/tiny.py", "experiment config")


def main(argv: list[str]) -> None:
    del argv
    c = _CONFIG.value
    t0 = time.perf_counter()
    model, cfg = model_from_config(c.model)
    n_params = sum(x.size for x in jax.tree.leaves(nnx.state(model, nnx.Param)))
    print(f"model: {cfg.model_type} {cfg.num_layers} layers, {n_params:,} params")

    out = export_hf(model, cfg, c.export.out_dir, max_shard_size=c.export.max_shard_size,
                    dtype=c.export.dtype)
    print(f"exported HF checkpoint: {out} ({len(list(out.glob('*.safetensors')))} shard files)")

    mesh = make_mesh(dict(c.mesh))
    print(f"mesh: {dict(mesh.shape)} over {jax.device_count()} {jax.devices()[0].platform} devices")
    sharded, _ = load_hf(out, mesh=mesh, dtype=c.model.param_dtype,
                         compute_dtype=c.model.dtype)
    rng = np.random.default_rng(c.seed)
    batch = mesh.shape["data"] * mesh.shape["fsdp"] * 2
    ids = rng.integers(3, cfg.vocab_size, size=(batch, 64))
    mask = np.ones_like(ids)
    forward, state = sharded_forward(sharded, mesh)
    logits = np.asarray(forward(state, ids, mask))
    ref = np.asarray(model(ids))
    diff = np.abs(logits - ref).max()
    print(f"sharded forward {logits.shape}: max |diff| vs unsharded = {diff:.2e}")

    hidden = sharded.hidden_states(ids[:, :-1])
    logp = token_logprobs(hidden, sharded.head_matrix(), ids[:, 1:],
                          logits_scaling=cfg.logits_scaling, chunk_size=c.model.logprob_chunk)
    full = jax.nn.log_softmax(ref[:, :-1], axis=-1)
    full = np.take_along_axis(full, ids[:, 1:, None], axis=-1)[..., 0]
    print(f"chunked log-probs (chunk {c.model.logprob_chunk}): mean {float(logp.mean()):.4f}, "
          f"max |diff| vs full softmax = {np.abs(np.asarray(logp) - full).max():.2e}")

    try:
        import torch
        import transformers
    except ImportError:
        print("transformers check skipped: torch is not installed (it is a test dependency)")
    else:
        hf = transformers.AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32)
        with torch.no_grad():
            theirs = hf(torch.as_tensor(ids)).logits.numpy()
        print(f"transformers {type(hf).__name__} on the export: "
              f"max |diff| = {np.abs(theirs - ref).max():.2e}")
    print(f"demo finished in {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    app.run(main)
