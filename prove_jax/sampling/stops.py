"""Stop strings: those that are one token (Qwen's `</tool_call>`, `<|im_end|>`) become stop ids
checked inside the decode loop; longer ones are cut on the host after decoding."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prove_jax.sampling.sampler import SampleOutput


def split_stop_strings(tokenizer: object, strings: Sequence[str]
                       ) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """(stop ids for single-token strings, the strings that need host-side truncation)."""
    ids, rest = [], []
    for s in strings:
        encoded = tokenizer(s, add_special_tokens=False)["input_ids"]
        if len(encoded) == 1:
            ids.append(encoded[0])
        else:
            rest.append(s)
    return tuple(ids), tuple(rest)


def truncate_at_stop_strings(out: SampleOutput, decode: Callable[[list[int]], str],
                             strings: Sequence[str]) -> SampleOutput:
    """Cut after the first token whose decoded prefix contains any stop string."""
    if not strings:
        return out
    for n in range(1, len(out.tokens) + 1):
        text = decode(out.tokens[:n])
        if any(s in text for s in strings):
            return SampleOutput(out.tokens[:n], out.logprobs[:n], "stop")
    return out
