"""Defaults shared by every experiment; each config file starts from here and changes data only.

Paper settings (REFERENCE.md §4) are the defaults where the paper gives them; where it is silent
(clip ratio, temperature, schedule, seeds) the choice is named in a comment.
"""

from ml_collections import ConfigDict

from prove_jax.rewards.types import OUTCOMES  # names only: imports no jax
from servers.registry import AVAILABLE  # names only: imports no server


def get_base_config() -> ConfigDict:
    c = ConfigDict()
    c.seed = 0
    c.workdir = ""  # metrics.jsonl, tb/, reward.png, checkpoints/, hf/ (required for training)
    c.dry_run = False  # compile the train step from abstract shapes and print its memory plan
    c.model = ConfigDict(dict(
        init="hf",  # hf: weights from model_dir (required) | random: preset, randomly initialised
        preset="",  # architecture from prove_jax.models.PRESETS (dry runs; random init)
        model_dir="",  # the user's local Hugging Face checkpoint dir (its config.json wins)
        tokenizer_dir="",  # empty: model_dir's tokenizer; "pkg:NAME/SUB": a package's folder
        vocab_from_tokenizer=False,  # random init: the tokenizer's vocabulary size
        param_dtype="float32",  # float32 master weights, hence float32 optimizer state
        dtype="bfloat16",  # compute dtype
        # full: the dry-run plan (README) fits all four models at the paper's 28,768-token
        # sequences only with full remat; "dots" needs 108-185 GB per device there.
        remat="full",
        attn_chunk=1024,  # query rows per attention block above this length (bounded memory)
        logprob_chunk=1024,  # tokens per LM-head chunk for log-probs
    ))
    c.mesh = ConfigDict(dict(data=1, fsdp=-1, tensor=2))  # paper: tensor parallel 2
    # Several processes (hosts): prove_jax.distributed.DistributedConfig. Unset fields come
    # from JAX_COORDINATOR_ADDRESS / JAX_NUM_PROCESSES / JAX_PROCESS_ID, then from JAX's own
    # cluster detection (TPU pod slices, SLURM, Open MPI).
    c.distributed = ConfigDict(dict(
        enabled=False, coordinator_address="", num_processes=0, process_id=-1,
        cpu_collectives="gloo", initialization_timeout_s=300,
    ))
    c.optim = ConfigDict(dict(
        # warmup in training steps; the schedule itself counts optimizer updates (steps x
        # loss.iterations). schedule: not given by the paper
        lr=1e-6, warmup_steps=0, schedule="constant",
        weight_decay=0.0, b1=0.9, b2=0.999, eps=1e-8, max_grad_norm=1.0,
    ))
    c.loss = ConfigDict(dict(
        estimator="grpo",  # grpo (mean/std over the group) | drgrpo (no std normalisation)
        aggregation="token-mean",  # token-mean | seq-mean-token-mean | seq-mean-token-sum-norm
        clip_low=0.2, clip_high=0.28,  # DAPO's clip-higher (the paper gives no clip ratio)
        kl_coef=0.01,  # paper §4; 0 skips the reference model entirely
        iterations=1,  # optimisation passes over each rollout batch (old policy = sampler)
        dynamic_sampling=False,  # drop zero-variance groups and refill (DAPO)
        max_refills=2,  # extra rollout rounds per step when dynamic sampling drops groups
    ))
    c.rollout = ConfigDict(dict(
        prompts_per_step=16, group_size=16, max_prompt_tokens=12384,
        max_response_tokens=16384, max_user_turns=5, max_assistant_turns=10,
        max_new_tokens=4096,  # per assistant turn
        temperature=1.0, top_p=1.0, top_k=0,  # not given by the paper
        max_concurrent_episodes=256, episode_timeout_s=900.0,
        compact_schemas=False,  # tools shown without validation-only keywords (tools.compact)
        # KV kept across an episode's turns, so a turn prefills only its new tokens (device
        # memory, freed when the rollout ends); 0 recomputes every context (reference mode)
        kv_reuse_mib=4096,
        # continuous: decode rows that episodes join and leave between steps (each keeps its
        # row, so its KV, across turns); step: the step-synchronous reference, recomputing
        # every context when kv_reuse_mib is 0. Rows hold slot_tokens each (0: prompt +
        # response tokens); slots=0 takes as many as kv_reuse_mib holds (at most one per live
        # episode); steps_per_call decode steps run between admissions.
        batching="continuous", slots=0, slot_tokens=0, steps_per_call=8,
    ))
    c.train = ConfigDict(dict(
        steps=350,
        micro_batches=0,  # 0: one sequence per data-parallel shard per micro-batch
        # Train on each GRPO group's prompt once (prove_jax.rl.shared_prefix): the prefix's
        # forward/backward and the reference pass run once per group, not once per rollout;
        # micro_batches then splits each group's rollouts (0: one per micro-batch). Groups
        # sit whole on a data shard, so prompts_per_step should fill the data x fsdp shards;
        # False keeps the unpacked reference layout (and its lower peak memory: see
        # `--config.dry_run=True`, which plans both).
        shared_prefix=True,
        seq_multiple=256,  # pad sequences to a multiple of this (bounds recompilation)
        # each micro-batch runs at the shortest quarter of the batch's width that holds its
        # longest row (prove_jax.rl.length_buckets: one compiled branch per length; 1: off)
        length_buckets=4,
        checkpoint_every=25, keep_checkpoints=3,
        export_at_end=True,
        progress=True,
    ))
    # What a run keeps for people to read (`python -m launch.view --run=WORKDIR`): every
    # `episodes_every` steps (0: never), the step's rollouts in <workdir>/episodes/
    # step_NNNNNN.jsonl, at most episodes_max_mib per file (a seeded sample of whole episodes).
    c.log = ConfigDict(dict(episodes_every=10, episodes_max_mib=16.0))
    c.data = ConfigDict(dict(
        train_path="runs/synth/train.jsonl",  # empty with synthesize > 0: the synthesized set
        test_path="runs/synth/test.jsonl",
        shuffle=True,
        max_tools=0,  # > 0: offer at most this many tools per task (truth tools always kept)
        synthesize=0,  # > 0: synthesize this many examples into <workdir>/data first
        synth_servers="",  # comma-separated servers for that synthesis (empty: all)
        # how many times each task kind shows in GRPO's prompt order per epoch (e.g.
        # --config.data.kind_repeats.abstention=3: ~8% of the tasks abstain, and a step's
        # abstention groups are its only signal for when not to call)
        kind_repeats=ConfigDict(dict(normal=1, clarification=1, abstention=1)),
    ))
    c.servers = ConfigDict(dict(
        transport="inprocess",  # inprocess | stdio | http
        # server name -> URL of `python -m servers NAME --transport http` (transport http; ""
        # unset). Every name is listed so the command line can set one:
        # --config.servers.urls.payments=http://10.0.0.5:8765/mcp
        urls=ConfigDict({name: "" for name in AVAILABLE}),
    ))
    # The SFT baseline (launch.sft; the paper gives no SFT hyper-parameters): cross-entropy on
    # the assistant tokens of ground-truth replays of the same train split.
    # kind_repeats: how many times each task kind's replays show in the data (e.g.
    # --config.sft.kind_repeats.abstention=3 when a short warm start sees too few to learn it).
    c.sft = ConfigDict(dict(steps=500, batch_size=32, lr=1e-5, max_assistant_turns=32,
                            kind_repeats=ConfigDict(dict(normal=1, clarification=1,
                                                         abstention=1))))
    # prove_jax.rewards.RewardConfig.from_dict(c.reward): the paper's weights (REFERENCE.md §3).
    # w_state weighs the end-state term (0: the paper's formula; configs/*_state.py turn it on).
    # w_repeat / w_finish charge repeated calls and reward a final answer (0: the paper's
    # formula); finish="covered" pays an answer R_cov (see prove_jax.rewards.config).
    # accept_alternatives: a truth call's recorded alternatives (another read surfacing the
    # same value) also cover it; False is the paper's literal rule. match_outcomes: the call
    # outcomes that may cover a truth call (all four: the paper's rule; ["ok"]: only calls that
    # ran, so a call the server refused earns no R_cov / R_arg).
    c.reward = ConfigDict(dict(kind="prove", w_val=0.5, w_cov=0.5, w_eff=0.15, w_name=0.2,
                               w_arg=0.1, w_state=0.0, w_repeat=0.0, w_finish=0.0,
                               finish="covered", alpha=0.5, beta=0.5, normalize_strings=False,
                               accept_alternatives=True, match_outcomes=OUTCOMES))
    c.export = ConfigDict(dict(out_dir="", dtype="bfloat16", max_shard_size="5GB"))
    # launch.evaluate (REFERENCE.md §5, §7): one benchmark per run, results in out_dir. The
    # model is config.model (e.g. model_dir=<workdir>/hf, the export of a training run).
    c.eval = ConfigDict(dict(
        benchmark="heldout",  # bfcl_multi_turn | tau2 | heldout
        policy="model",  # model | oracle (replays ground truth) | oracle_drop_last
        out_dir="",  # empty: <workdir>/eval/<benchmark>-<policy>
        # bfcl: base,miss_param,miss_func,long_context; tau2: airline,retail,telecom;
        # empty: all of the benchmark's
        categories="",
        limit=0,  # entries per category (0: all)
        trials=1,  # tau2: trials per task (pass^k for k <= trials)
        temperature=0.0, top_p=1.0,  # greedy by default (0: greedy)
        max_steps_per_turn=20,  # BFCL's per-turn step limit, used for every benchmark
        # 131072: BFCL long_context episodes reach ~73K tokens even for the ground truth
        max_new_tokens=4096, max_total_tokens=131072, max_concurrent_episodes=64,
        episode_timeout_s=900.0,
        test_path="",  # heldout: the synthesized test split (empty: data.test_path)
        # tau2's user simulator: an OpenAI-compatible chat-completions endpoint (policy
        # model needs one; the oracle plays against a scripted user)
        user_base_url="", user_model="", user_api_key_env="OPENAI_API_KEY",
        user_timeout_s=120.0, user_temperature=0.0,
    ))
    return c
