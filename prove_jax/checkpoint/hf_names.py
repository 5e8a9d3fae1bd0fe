"""The map between our parameter paths and Hugging Face tensor names (all four families).

Our kernels keep torch's [out, in] layout, so a tensor moves between the two as a plain copy;
per-layer parameters are stacked on a leading L axis where HF stores one tensor per layer.
"""

from __future__ import annotations

from dataclasses import dataclass

_TOP = {
    "embed": "model.embed_tokens.weight",
    "final_norm/scale": "model.norm.weight",
    "lm_head/kernel": "lm_head.weight",
}
_MODULES = {
    "attn": "self_attn",
    "input_norm": "input_layernorm",
    "post_attn_norm": "post_attention_layernorm",
}
_LEAVES = {"kernel": "weight", "bias": "bias", "scale": "weight"}


@dataclass(frozen=True)
class HFTensor:
    """Where one of our parameters lives in a HF checkpoint."""

    path: str  # ours, e.g. "layers/attn/q_proj/kernel"
    template: str  # HF name, with "{i}" for the layer index when stacked
    stacked: bool

    def names(self, num_layers: int) -> list[str]:
        if not self.stacked:
            return [self.template]
        return [self.template.format(i=i) for i in range(num_layers)]


def hf_tensor(path: str) -> HFTensor:
    if path in _TOP:
        return HFTensor(path, _TOP[path], stacked=False)
    parts = path.split("/")
    if parts[0] != "layers" or len(parts) < 3 or parts[-1] not in _LEAVES:
        raise KeyError(f"parameter {path!r} has no Hugging Face name")
    modules = [_MODULES.get(p, p) for p in parts[1:-1]]
    return HFTensor(path, ".".join(["model.layers.{i}", *modules, _LEAVES[parts[-1]]]),
                    stacked=True)
