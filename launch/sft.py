"""The SFT baseline: cross-entropy on the assistant tokens of ground-truth replays.

    python -m launch.sft --config=configs/qwen3_4b.py --config.model.model_dir=/models/q4b \
        --config.workdir=runs/q4b-sft [--config.sft.steps=500 --config.sft.lr=1e-5]

The demonstrations are the oracle's replay of each train task through the rollout engine
against live servers (real tool results, the same chat format and tokens RL sees), built once
into <workdir>/sft/train.jsonl. Training, checkpoints (resume by rerunning), metrics and the
export use the GRPO run's machinery and workdir layout; `launch.export` reads it too.
"""

from __future__ import annotations

from launch.common import fake_cpu_devices, quiet_logs

fake_cpu_devices(8)

import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from absl import app  # noqa: E402
from ml_collections import ConfigDict, config_flags  # noqa: E402

from launch.cli import check_config_flags, parse_flags  # noqa: E402

_CONFIG = config_flags.DEFINE_config_file("config", None, "experiment config (configs/*.py)")


def main(argv: list[str]) -> None:
    quiet_logs()
    del argv
    from launch.runner import check, config_or_exit, single_process, train_path

    c = config_or_exit(_CONFIG.value, single_process, check)
    tasks_file = train_path(c)
    asyncio.run(sft(c, tasks_file))


async def demonstrations(c: ConfigDict, chat: object, tasks_file: Path, out: Path) -> Path:
    """<workdir>/sft/train.jsonl, built once from the oracle's replays."""
    if out.is_file():
        return out
    import dataclasses

    from launch.wiring import rollout_config, server_specs
    from prove_jax.data.loader import cap_tools
    from prove_jax.data.sft import sft_examples, write_sft_jsonl
    from prove_jax.data.tasks import load_tasks
    from prove_jax.rollout.oracle import load_meta
    from prove_jax.tools.manager import MCPManager

    tasks = [cap_tools(t, c.data.max_tools) for t in load_tasks(tasks_file)]
    meta_file = tasks_file.parent / "meta.jsonl"
    meta = load_meta(meta_file) if meta_file.is_file() else None
    # every truth step and answer is an assistant turn: demonstrations need more than RL's cap
    # and a whole tool-call turn must fit one turn's budget
    config = dataclasses.replace(rollout_config(c), max_assistant_turns=max(
        c.sft.max_assistant_turns, c.rollout.max_assistant_turns),
        max_new_tokens=c.rollout.max_response_tokens)
    async with MCPManager(server_specs(c, tasks_file)) as manager:
        rows = await sft_examples(tasks, chat, manager, config, meta=meta, seed=c.seed)
    write_sft_jsonl(rows, out)
    print(f"{len(rows)} demonstrations of {len(tasks)} tasks -> {out}; dropped: "
          f"{dict(rows.dropped) or 'none'}")
    return out


def repeated(examples: Path, tasks_file: Path, repeats: dict[str, int]) -> Path:
    """The demonstrations with some task kinds shown more than once (`sft.kind_repeats`), as
    <demonstrations dir>/train_repeated.jsonl; the file itself where every kind shows once."""
    if all(n == 1 for n in repeats.values()):
        return examples
    from prove_jax.data.sft import SFTSource, repeat_kinds, write_sft_jsonl
    from prove_jax.data.tasks import load_tasks

    kinds = {t.id: t.kind for t in load_tasks(tasks_file)}
    source = SFTSource(examples)
    rows = repeat_kinds([source[i] for i in range(len(source))], kinds, repeats)
    out = write_sft_jsonl(rows, examples.parent / "train_repeated.jsonl")
    print(f"{len(rows)} demonstrations with kinds repeated {repeats} -> {out}")
    return out


async def sft(c: ConfigDict, tasks_file: Path) -> None:
    import jax
    from flax import nnx

    from launch.common import chat_format, model_from_config, tokenizer_dir
    from launch.runner import finish, model_type
    from prove_jax.checkpoint.train_state import TrainCheckpointer
    from prove_jax.data.loader import row_batches
    from prove_jax.rl.length_buckets import BUCKETS
    from prove_jax.rl.losses import LossConfig
    from prove_jax.rl.optim import make_optimizer, optim_config
    from prove_jax.rl.sft import SFTTrainer
    from prove_jax.sharding import make_mesh

    workdir = Path(c.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    mesh = make_mesh(dict(c.mesh))
    chat = chat_format(c.model, model_type(c))
    examples = await demonstrations(c, chat, tasks_file, workdir / "sft" / "train.jsonl")
    examples = repeated(examples, tasks_file, dict(c.sft.get("kind_repeats", {})))
    vocab = -(-len(chat.tokenizer) // 128) * 128 if c.model.vocab_from_tokenizer else None
    model, model_cfg = model_from_config(c.model, mesh, vocab_size=vocab)
    n_params = sum(x.size for x in jax.tree.leaves(nnx.state(model, nnx.Param)))
    print(f"model: {model_cfg.model_type}, {n_params:,} parameters; mesh {dict(mesh.shape)}")
    (workdir / "run.json").write_text(json.dumps({
        "model_config": model_cfg.to_hf(), "tokenizer_dir": tokenizer_dir(c.model),
        "param_dtype": c.model.param_dtype}, indent=1))
    loader = row_batches(examples, c.sft.batch_size, seed=c.seed, shuffle=c.data.shuffle,
                         process_index=jax.process_index(), process_count=jax.process_count())
    optim = optim_config(c.optim, train_steps=c.sft.steps, lr=c.sft.lr)
    checkpointer = TrainCheckpointer(workdir / "checkpoints", every=c.train.checkpoint_every,
                                     keep=c.train.keep_checkpoints)
    trainer = SFTTrainer(batch_size=c.sft.batch_size, seq_multiple=c.train.seq_multiple,
                         steps=c.sft.steps, model=model, mesh=mesh,
                         optimizer=make_optimizer(optim),
                         loss=LossConfig(kl_coef=0.0, aggregation="token-mean"),
                         loader=loader, micro_batches=c.train.micro_batches,
                         chunk_size=c.model.logprob_chunk, seed=c.seed,
                         checkpointer=checkpointer,
                         length_buckets=c.train.get("length_buckets", BUCKETS))
    await finish(c, trainer, model, model_cfg, checkpointer, desc="sft", plot=False)


if __name__ == "__main__":
    check_config_flags(sys.argv)
    app.run(main, flags_parser=parse_flags)
