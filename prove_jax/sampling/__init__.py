"""Batched generation with a KV cache, sampling params, returned log-probs."""

from prove_jax.sampling.buckets import batch_bucket, bucket
from prove_jax.sampling.sampler import SampleOutput, Sampler, SamplingParams
from prove_jax.sampling.stops import split_stop_strings, truncate_at_stop_strings

__all__ = ["SampleOutput", "Sampler", "SamplingParams", "batch_bucket", "bucket",
           "split_stop_strings", "truncate_at_stop_strings"]
