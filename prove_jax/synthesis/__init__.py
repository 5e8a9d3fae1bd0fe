"""Data synthesis (issue 6, REFERENCE.md §2): conversations grounded in live server state,
their ground truth executed on a real session and verified by replay.

    graph.py      tool dependency graph (explicit / implicit edges), cached by schema hash
    context.py    live-state sampling context per (server, world seed)
    plan.py       QUERY: the example's knobs and tool chain, from its own rng
    values.py     argument filling (earlier outputs, context, enums, generators.py)
    lookups.py    look-up steps for the minimal information level
    alternatives.py  other reads that surface what a read step is for, probed live, verified
    machine.py    TURN -> EXECUTE -> RESPONSE (recovery) -> CONTINUATION on a live session
    dialogue.py   the conversation's shape: follow-ups, clarification, abstention
    verbalize.py  template verbalizer (phrases.py); teacher.py: LLM verbalizer and labeler
    example.py    one example end to end; validate.py replay checks; dedup.py near-dups
    writer.py     the dataset directory; run.py the asyncio driver; revalidate.py the
                  independent check on fresh server processes

Entry point: `python -m launch.synthesize --config=configs/synth.py`.
"""

from prove_jax.synthesis.run import SynthResult, synthesize, synthesize_with
from prove_jax.synthesis.settings import SynthConfig

__all__ = ["SynthConfig", "SynthResult", "synthesize", "synthesize_with"]
