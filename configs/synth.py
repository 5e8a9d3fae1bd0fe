"""Data synthesis (issue 6, REFERENCE.md §2): the paper's knobs, with its defaults.

    python -m launch.synthesize --config=configs/synth.py \
        --config.num_examples=13500 --config.seed=0 --config.out_dir=runs/synth

Raw probabilities are set so that the KEPT mix lands on the paper's 80.6% normal multi-turn /
11.1% clarification / 8.3% abstention (stats.json reports the measured mix against
kind_mix): a missing-value query becomes a clarification when its gap is in the first user
turn (missing_first_turn), a mid-conversation follow-up otherwise; the missing-function
variant is an abstention when the hidden tool is the first one needed.
"""

from ml_collections import ConfigDict


def get_config() -> ConfigDict:
    c = ConfigDict()
    c.num_examples = 13_500  # examples kept after validation; generation runs until then
    c.seed = 0
    c.out_dir = "runs/synth"
    c.servers = ""  # comma-separated; empty = every available server
    c.transport = "inprocess"  # inprocess | stdio | http (http needs urls)
    c.urls = ConfigDict()  # server name -> http URL, e.g. c.urls.banking = "http://h:8765/mcp"
    c.concurrency = 64  # conversations in flight (AioPool size)
    c.context_refresh_k = 40  # conversations per sampling context (one world seed per block)
    c.context_gets_per_kind = 3  # get-tool calls per entity kind when sampling a context
    c.reference_date = "2026-06-15"  # "today" in every world
    c.info_levels = ConfigDict(dict(complete=0.6, missing=0.2, minimal=0.2))
    c.missing_first_turn = 1.0  # share of missing-value gaps in the first user turn
    c.p_name_held = 0.75  # chains naming held ids (orders, bookings) instead of quoting them
    c.user_turns = ConfigDict(dict(min=2, max=3, decay=0.5))  # P(n) ∝ decay ** (n - min)
    c.distractors = ConfigDict(dict(p=0.4, min_tools=3, max_tools=8))
    c.p_enum_strip = 0.3
    c.p_unsatisfiable = 0.05
    c.p_missing_function = 0.14  # hide a needed action (abstention when it is the first)
    # p_workflow: share of chains drawn from goal patterns (prove_jax/synthesis/workflows.py)
    c.chain = ConfigDict(dict(min_len=2, max_len=5, p_cross_server=1.0, p_optional_arg=0.25,
                              max_retries=3, max_regenerate=3, p_workflow=0.5))
    c.kind_mix = ConfigDict(dict(normal=0.806, clarification=0.111, abstention=0.083))
    # held while keeping rows: a kind above its share by more than the slack (a share of
    # num_examples, at least 3 rows) waits for the others (drop reason kind_quota)
    c.enforce_kind_mix = True
    c.kind_mix_slack = 0.004
    # drop_internal_ids: rows whose turns quote an id no user holds ('pm_mef9qc') are dropped
    c.validation = ConfigDict(dict(max_error_frac=0.3, jaccard=0.70, drop_internal_ids=True))
    c.test_frac = 0.05  # share of world seeds (blocks) held out for the test split
    c.overgenerate = 1.15  # expected tries per kept example (progress-bar estimate only)
    # Teacher LLM (OpenAI-compatible /v1/chat/completions); empty url = template verbalizer.
    c.teacher = ConfigDict(dict(url="", model="", api_key_env="", timeout_s=60.0,
                                temperature=0.7, label_graph=False))
    c.graph_cache_dir = ""  # empty = <out_dir>/graph_cache
    c.progress = True
    return c
