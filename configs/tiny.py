"""A laptop-CPU run of the whole stack: tiny random model, 8 fake devices, float32."""

from ml_collections import ConfigDict

from configs.base import get_base_config


def get_config() -> ConfigDict:
    c = get_base_config()
    c.model.preset = "tiny"
    c.model.dtype = "float32"
    c.model.remat = "none"
    c.model.logprob_chunk = 16
    c.mesh = ConfigDict(dict(data=2, fsdp=2, tensor=2))
    c.optim.lr = 1e-4
    c.rollout.update(prompts_per_step=2, group_size=4, max_prompt_tokens=256,
                     max_response_tokens=64, max_user_turns=2, max_assistant_turns=3)
    c.train.steps = 3
    c.export.update(out_dir="runs/tiny/export", dtype="float32", max_shard_size="200KB")
    return c
