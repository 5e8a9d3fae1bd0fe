"""Defaults shared by every experiment; each config file starts from here and changes data only.

Paper settings (REFERENCE.md §4) are the defaults where the paper gives them.
"""

from ml_collections import ConfigDict


def get_base_config() -> ConfigDict:
    c = ConfigDict()
    c.seed = 0
    c.model = ConfigDict(dict(
        preset="",  # a name from prove_jax.models.PRESETS (random init), or
        hf_path="",  # a Hugging Face checkpoint dir (its config.json wins)
        param_dtype="float32",
        dtype="bfloat16",  # compute dtype
        remat="dots",
        logprob_chunk=1024,  # tokens per LM-head chunk for log-probs
    ))
    c.mesh = ConfigDict(dict(data=1, fsdp=-1, tensor=2))  # paper: tensor parallel 2
    c.optim = ConfigDict(dict(lr=1e-6, kl_coef=0.01))
    c.rollout = ConfigDict(dict(
        prompts_per_step=16, group_size=16, max_prompt_tokens=12384,
        max_response_tokens=16384, max_user_turns=5, max_assistant_turns=10,
    ))
    c.train = ConfigDict(dict(steps=350))
    # prove_jax.rewards.RewardConfig.from_dict(c.reward): the paper's weights (REFERENCE.md §3).
    c.reward = ConfigDict(dict(kind="prove", w_val=0.5, w_cov=0.5, w_eff=0.15, w_name=0.2,
                               w_arg=0.1, alpha=0.5, beta=0.5, normalize_strings=False))
    c.export = ConfigDict(dict(out_dir="", dtype="bfloat16", max_shard_size="5GB"))
    return c
