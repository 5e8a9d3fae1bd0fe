"""The tiny Qwen3 with its weights scaled up 4x, for tests that compare two sampling paths:
logits far apart, so greedy choices cannot flip on float32 reduction order (as in a real
model's confident steps)."""

import jax
import numpy as np

from prove_jax.checkpoint.hf import load_hf


def scaled_model(path):
    from flax import nnx

    m, _ = load_hf(path, dtype="float32")
    graphdef, state = nnx.split(m)
    state = jax.tree.map(lambda x: x * 4 if x.ndim >= 2 else x, state)
    return nnx.merge(graphdef, state)


def teacher_forced(model, context, tokens):
    """log p(tokens | context) per token from one teacher-forced forward."""
    ids = np.asarray([context + tokens])
    logits = np.asarray(model(ids))[0, len(context) - 1:-1]
    logp = jax.nn.log_softmax(logits, axis=-1)
    return np.take_along_axis(np.asarray(logp), np.asarray(tokens)[:, None], axis=-1)[:, 0]
