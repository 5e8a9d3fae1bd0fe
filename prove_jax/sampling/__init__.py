"""Batched generation with a KV cache, sampling params, returned log-probs."""

from prove_jax.sampling.sampler import SampleOutput, Sampler, SamplingParams, bucket

__all__ = ["SampleOutput", "Sampler", "SamplingParams", "bucket", "split_stop_strings",
           "truncate_at_stop_strings"]
