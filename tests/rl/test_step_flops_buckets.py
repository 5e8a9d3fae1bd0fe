"""MFU's numerator through the trainer: each micro-batch's FLOPs are counted at the length
bucket it ran at (`prove_jax.rl.length_buckets`), in both batch layouts."""

import numpy as np
import pytest

from tests.rl.test_shared_prefix import G, _loop_trainer


@pytest.mark.parametrize("shared", [False, True])
def test_the_step_flops_count_each_micro_batch_at_its_length_bucket(shared):
    """MFU's numerator: a 1,024-wide step whose rows are all under 256 tokens ran every
    micro-batch at 256 (the shortest bucket), and is counted so; one long row widens only its
    own micro-batch."""
    from prove_jax.rl.flops import shared_step_flops, step_flops

    trainer = _loop_trainer(shared)
    cfg = trainer.model.cfg
    width, targets = 1024, 64
    if shared:
        groups, prefix = 4, 32
        # one group per data shard: one chunk of 4 micro-batches, one suffix of each group
        assert (trainer.micro_batches, trainer.group_chunks) == (G, 1)
        lengths = np.full((groups, G), 200)
        batch = {"tokens": np.zeros((groups, G, width), np.int32),
                 "target_index": np.zeros((groups, G, targets), np.int32),
                 "prefix_tokens": np.zeros((groups, prefix), np.int32)}
        count = lambda w: shared_step_flops(cfg, groups, G, prefix, w, targets)
        long_row = (1, 2)  # group 1's suffix 2: micro-batch 2 of 4
    else:
        rows = 16
        assert trainer.micro_batches == 4  # 4 rows per micro-batch
        lengths = np.full(rows, 200)
        batch = {"tokens": np.zeros((rows, width), np.int32),
                 "target_index": np.zeros((rows, targets), np.int32)}
        count = lambda w: step_flops(cfg, rows, w, targets)
        long_row = (11,)  # micro-batch 2 of 4
    batch["attention_mask"] = (np.arange(width) < lengths[..., None]).astype(np.int32)
    flops = trainer.throughput(batch, 1.0, 1.0)["model_flops"]
    assert flops == pytest.approx(count(256))
    assert flops < count(width) / 3

    lengths[long_row] = 1000
    batch["attention_mask"] = (np.arange(width) < lengths[..., None]).astype(np.int32)
    parts = 4
    widened = trainer.throughput(batch, 1.0, 1.0)["model_flops"]
    assert widened == pytest.approx(count(256) + (count(width) - count(256)) / parts)
