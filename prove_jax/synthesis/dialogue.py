"""CONTINUATION: the shape of the conversation around an executed chain. The chain's steps are
split over 2-3 user turns (follow-ups); a "missing" query withholds one value the user must
give (a clarification turn follows); the missing-function variant hides a needed tool (the
user asks for it anyway: abstention when it is the first thing asked, otherwise the truth ends
before it); the unsatisfiable variant asks for something no offered tool does.

Output: a DialogueSpec (what each user turn asks for and how each value is stated) for a
verbalizer, and the truth (steps, edges, kind) with the user turn at which each step becomes
possible (the credential check needs it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from prove_jax.synthesis.gaps import gap_options
from prove_jax.synthesis.graph import ToolNode
from prove_jax.synthesis.held import user_holds
from prove_jax.synthesis.records import Filled, Plan, StepRecord
from prove_jax.synthesis.references import (
    name_on_owner,
    owner_holds_one,
    seen_selector,
    singles_out,
)
from prove_jax.synthesis.schemas import key_of, naming, single_out

__all__ = ["ArgSpec", "DialogueSpec", "Shaped", "StepSpec", "TurnSpec", "foreign_spec",
           "shape"]


@dataclass
class ArgSpec:
    arg: str
    value: Any
    how: str  # literal | id | entity | selector | back | withheld | vague
    kind: str | None = None
    label: str | None = None  # id / entity: what the entity is called
    pairs: list[tuple[str, Any]] = field(default_factory=list)  # selector: what singles it out
    entity_id: str | None = None
    via: str | None = None  # named through another kind's record ("the seller of the listing
    # 'Vespa'", "the account of that order")
    label_field: str | None = None  # id / entity: the field `label` comes from ("last4")
    owned: bool | None = None  # entity: the record says whether it is the user's (is_mine)
    made: bool = False  # back: the record came from a write ("the order you just placed")
    choice: bool = False  # literal: an enum value the offered schema lists (said in words)


@dataclass
class StepSpec:
    tool: str
    server: str
    description: str
    read_only: bool
    args: list[ArgSpec]
    index: int | None = None  # its step in the truth (None: not a truth step)
    # yes/no arguments the call leaves out, at their default ("mark it as read")
    defaults: dict[str, bool] = field(default_factory=dict)


@dataclass
class TurnSpec:
    role: str  # request | supply | insist
    steps: list[StepSpec] = field(default_factory=list)
    supply: ArgSpec | None = None
    follow_up: bool = False
    supply_step: int | None = None  # the truth step the supplied value is for


@dataclass
class DialogueSpec:
    turns: list[TurnSpec]
    persona: int
    services: list[str]
    today: str
    kind: str


@dataclass
class Shaped:
    kind: str
    info: str  # the information level actually realized
    steps: list[StepRecord]  # the truth, in order
    step_turn: list[int]
    spec: DialogueSpec
    hidden: str | None = None  # node key of the tool hidden from the offered set
    intended: list[dict] = field(default_factory=list)  # abstention: the calls asked for
    gap: dict | None = None  # missing info: {"step", "arg", "value"} withheld, then supplied


def _unambiguous(arg: str, f: Filled, steps: list[StepRecord], at: int) -> ArgSpec:
    """A back-reference that would not single its entity out: named by what tells it apart
    among everything shown ("the one whose name is 'Food'"), else by its value."""
    pairs = seen_selector(f, steps, at)
    if pairs:
        return ArgSpec(arg, f.value, "selector", f.kind, pairs=pairs)
    return ArgSpec(arg, f.value, "literal", f.kind)


def arg_spec(arg: str, f: Filled, steps: list[StepRecord], at: int | None = None) -> ArgSpec:
    """How the user states one value (see verbalize.render_arg); `at` is the index of the
    step it is for (default: after the last). A back-reference that would not single out
    one entity among everything shown so far names it by what tells it apart, or by value."""
    at = len(steps) if at is None else at
    if f.source == "derived":
        source = steps[f.from_step] if f.from_step is not None else None
        if source is not None and source.lookup and f.entity is not None and f.entity.label:
            said = naming(f.element, f.others or [f.element], f.entity.label) \
                if isinstance(f.element, dict) else None
            mine = f.element.get("is_mine") if isinstance(f.element, dict) else None
            # found through a record that points at it: "the seller of the listing 'Vespa'"
            via = f.entity.kind if f.entity.kind != f.kind else None
            return ArgSpec(arg, f.value, "entity", f.kind, f.entity.label[1],
                           pairs=(said or [])[1:], entity_id=f.entity.key,
                           label_field=f.entity.label[0],
                           owned=mine if isinstance(mine, bool) else None, via=via)
        owner = key_of(f.element) if isinstance(f.element, dict) else None
        via = owner[1] if owner and owner[1] != f.kind and not owner[1].startswith("@") \
            else None
        if via and (named := name_on_owner(f)):  # "the category 'Groceries'"
            return ArgSpec(arg, f.value, "selector", f.kind, pairs=named, via=via)
        if f.siblings > 1 and f.element is not None:
            pairs = single_out(f.element, f.others or [])
            # the pairs single the owner record out among its siblings, so only the
            # owner's own ambiguity is left to rule out
            if pairs and (via is None or owner_holds_one(f)):
                return ArgSpec(arg, f.value, "selector", f.kind, pairs=pairs, via=via)
            return _unambiguous(arg, f, steps, at) if pairs else \
                ArgSpec(arg, f.value, "literal", f.kind)
        if not singles_out(f, steps, at, via):
            return _unambiguous(arg, f, steps, at)
        made = source is not None and source.node is not None and not source.node.read_only
        return ArgSpec(arg, f.value, "back", f.kind, via=via, made=made)
    if f.source == "context" and f.kind and not f.kind.startswith("@") and \
            isinstance(f.value, str) and f.entity is not None:
        label = f.entity.label or (None, None)
        return ArgSpec(arg, f.value, "id", f.kind, label[1], entity_id=f.entity.key,
                       label_field=label[0])
    return ArgSpec(arg, f.value, "literal", f.kind, choice=f.source == "enum")


def step_spec(step: StepRecord, steps: list[StepRecord], withheld: str | None = None
              ) -> StepSpec:
    at = next((i for i, s in enumerate(steps) if s is step), len(steps))
    args = [ArgSpec(a, f.value, "withheld") if a == withheld else arg_spec(a, f, steps, at)
            for a, f in step.filled.items()]
    n = step.node
    defaults = {a: p["default"] for a, p in n.properties.items()
                if a not in step.filled and isinstance(p.get("default"), bool)}
    return StepSpec(n.name, n.server, n.description, n.read_only, args, at, defaults)


# Actions other offered tools of their server can do as well: hiding one would make "no
# tool can do that" the wrong answer (a reading check found "retitle a file" abstained on
# with mv offered). rename: mv; mv: cp then rm; rmdir: rm; touch: write_file; move_event:
# update_event's start; send_email: create_draft then send_draft; set_device_power: set_light
# for a light; clear_cart: remove_from_cart; send_direct_message: post_message in the DM.
REPLACEABLE = frozenset((
    "filesystem.rename", "filesystem.mv", "filesystem.rmdir", "filesystem.touch",
    "calendar.move_event", "email.send_email", "iot_devices.set_device_power",
    "shopping.clear_cart", "team_chat.send_direct_message"))


def _by_name(spec: StepSpec) -> StepSpec | None:
    """A hidden tool's step with its records called by their names: no call follows, so no
    look-up has to find them, and a user never says 'dev_hwtr3a' for 'Living Room Blinds'.
    None when a record has no name to call it by."""
    for i, a in enumerate(spec.args):
        if a.how not in ("id", "literal"):
            continue
        internal = [v for v in (a.value if isinstance(a.value, list) else [a.value])
                    if isinstance(v, str) and not user_holds(v)]
        if not internal:
            continue
        if a.how != "id" or not a.label or isinstance(a.value, list):
            return None
        spec.args[i] = ArgSpec(a.arg, a.value, "entity", a.kind, a.label,
                               entity_id=a.entity_id, label_field=a.label_field)
    return spec


MAX_ASKS_PER_TURN = 3  # a person asks for two or three things at once, not five


def request_turns(asks: int, n_turns: int, max_turns: int) -> int:
    """Request turns for `asks` actions when one more turn follows them (the answer to a
    clarification, the hidden action asked for): the plan's turns less that one, more where
    a turn would hold over MAX_ASKS_PER_TURN asks and the run allows more turns."""
    need = -(-asks // MAX_ASKS_PER_TURN)
    return max(1, min(max(n_turns - 1, need), max_turns - 1, asks))


def _split(items: list[int], n: int, rng: random.Random) -> list[list[int]]:
    """`items` cut into n contiguous non-empty parts, none longer than MAX_ASKS_PER_TURN
    where n parts can hold them all."""
    n = max(1, min(n, len(items)))
    for _ in range(8):
        cuts = sorted(rng.sample(range(1, len(items)), n - 1))
        bounds = [0, *cuts, len(items)]
        parts = [items[bounds[i]:bounds[i + 1]] for i in range(n)]
        if max(map(len, parts)) <= MAX_ASKS_PER_TURN or len(items) > n * MAX_ASKS_PER_TURN:
            break
    return parts


def _turns(parts: list[list[int]], steps: list[StepRecord], gap: tuple[int, str] | None,
           gap_part: int) -> tuple[list[TurnSpec], list[int]]:
    """Request turns for the parts (plus the supply turn after the gap's part), and the turn
    index at which each truth step can first be made."""
    turns: list[TurnSpec] = []
    step_turn = [0] * len(steps)
    for p, part in enumerate(parts):
        chain_ids = [i for i in part if not steps[i].lookup]
        specs = [step_spec(steps[i], steps, gap[1] if gap and gap[0] == i else None)
                 for i in chain_ids]
        turns.append(TurnSpec("request", specs, follow_up=p > 0))
        for i in part:
            step_turn[i] = len(turns) - 1
        if gap is not None and p == gap_part:
            step, arg = gap
            f = steps[step].filled[arg]
            supply = ArgSpec(arg, f.value, "literal", f.kind, choice=f.source == "enum") \
                if f.user_sourced \
                else arg_spec(arg, f, steps, step)  # an entity by its name
            turns.append(TurnSpec("supply", supply=supply, supply_step=step))
            for i in part:
                # the gap's step and what comes after it in the part; from the look-up on
                # when the user names the entity only now
                if i >= step or (not f.user_sourced and i >= f.from_step):
                    step_turn[i] = len(turns) - 1
    return turns, step_turn


def _with_lookups(parts: list[list[int]], steps: list[StepRecord]) -> list[list[int]]:
    """Each chain step's part also holds the look-ups right before it (they serve it)."""
    out = []
    for part in parts:
        full: list[int] = []
        for i in part:
            j = i
            while j > 0 and steps[j - 1].lookup:
                j -= 1
            full.extend(range(j, i + 1))
        out.append(full)
    return out


def shape(plan: Plan, steps: list[StepRecord], min_chain: int, max_turns: int,
          rng: random.Random, services: list[str], today: str) -> Shaped | str:
    """The dialogue around executed `steps`, or the reason it cannot be made. Where the row
    strips enums from the offered schemas, an enum value is said as its code: the words
    alone ("suspicious activity") would leave the code to a guess."""
    shaped = _shape(plan, steps, min_chain, max_turns, rng, services, today)
    if plan.enum_strip and not isinstance(shaped, str):
        for turn in shaped.spec.turns:
            for a in [x for s in turn.steps for x in s.args] + [turn.supply] * bool(turn.supply):
                a.choice = False
    return shaped


def _shape(plan: Plan, steps: list[StepRecord], min_chain: int, max_turns: int,
           rng: random.Random, services: list[str], today: str) -> Shaped | str:
    chain_ids = [i for i, s in enumerate(steps) if not s.lookup]
    spec = DialogueSpec([], plan.persona, services, today, "normal")
    if plan.variant == "missing_function":
        if not chain_ids:
            return "chain_too_short"
        h = min(plan.hide_pos, len(chain_ids) - 1)
        # only an action is hidden: a question another offered read could still answer in
        # part ("tell me about the place X" with search_places offered) is no abstention,
        # and refusing it would teach the wrong habit; nor one another offered tool can do
        actions = [k for k in range(h, len(chain_ids)) if not steps[chain_ids[k]].node.read_only]
        h = next((k for k in actions if steps[chain_ids[k]].node.key not in REPLACEABLE), None)
        if h is None:
            return "hidden_tool_replaceable" if actions else "hidden_tool_reads"
        hidden = steps[chain_ids[h]]
        asked = _by_name(step_spec(hidden, steps))
        if asked is None:
            return "hidden_step_unnamed"
        if h == 0:
            spec.kind = "abstention"
            spec.turns = [TurnSpec("request", [asked])]
            spec.turns += [TurnSpec("insist") for _ in range(max(plan.n_turns, 2) - 1)]
            return Shaped("abstention", plan.info, [], [], spec, hidden.node.key,
                          [hidden.call()])
        truth = steps[:chain_ids[h - 1] + 1]
        if any(s.node.key == hidden.node.key for s in truth):
            return "hidden_tool_needed_earlier"
        # the asked-for hidden action takes the last turn; the others hold at most
        # MAX_ASKS_PER_TURN asks each where the turns allow
        parts = _with_lookups(_split(chain_ids[:h], request_turns(h, plan.n_turns, max_turns),
                                     rng), truth)
        turns, step_turn = _turns(parts, truth, None, -1)
        turns.append(TurnSpec("request", [asked], follow_up=True))
        spec.turns = turns
        return Shaped("normal", plan.info, truth, step_turn, spec, hidden.node.key)
    if len(chain_ids) < min_chain:
        return "chain_too_short"
    info, kind = plan.info, "normal"
    if info == "missing":
        first = plan.missing_first or max_turns < 3 or len(chain_ids) < 2
        for attempt in (first, not first):
            # the supply turn follows the gap's: the requests take the other turns, with
            # at most MAX_ASKS_PER_TURN asks each where the turns allow
            n_parts = request_turns(len(chain_ids), plan.n_turns, max_turns) if attempt else 2
            if not attempt and (max_turns < 3 or len(chain_ids) < 2):
                continue
            parts = _split(chain_ids, n_parts, rng)
            target = parts[0] if attempt else parts[-1]
            options = gap_options(target, steps)
            if not options and attempt and n_parts > 1:
                # the first turn takes the steps up to the earliest one with something to
                # ask about, where it holds no more asks than a person makes at once
                ask = next((k for k, i in enumerate(chain_ids[:MAX_ASKS_PER_TURN])
                            if gap_options([i], steps)), None)
                if ask is not None and ask + 1 < len(chain_ids):
                    parts = [chain_ids[:ask + 1],
                             *_split(chain_ids[ask + 1:], n_parts - 1, rng)]
                    options = gap_options(parts[0], steps)
            if options:
                gap = rng.choice(options)
                parts = _with_lookups(parts, steps)
                turns, step_turn = _turns(parts, steps, gap, 0 if attempt else len(parts) - 1)
                kind = "clarification" if attempt else "normal"
                spec.turns, spec.kind = turns, kind
                step, arg = gap
                f = steps[step].filled[arg]
                withheld = {"step": step, "arg": arg, "value": f.value}
                if not f.user_sourced:  # named, then looked up: what the user says
                    withheld["label"] = f.entity.label[1]
                return Shaped(kind, "missing" if attempt else "missing_followup", steps,
                              step_turn, spec, gap=withheld)
        info = "complete_fallback"
    parts = _with_lookups(_split(chain_ids, plan.n_turns, rng), steps)
    spec.turns, step_turn = _turns(parts, steps, None, -1)
    return Shaped(kind, info, steps, step_turn, spec)


HELD_VALUES = frozenset(("@email", "@phone", "@symbol"))  # said as is; a drawn path may misfit


def foreign_spec(node: ToolNode, filled: dict[str, Filled] | None) -> StepSpec:
    """What an unsatisfiable request asks for: a foreign tool's intent, records by their names
    in the foreign server's world, values where the user could give them, never an id."""
    args = []
    for arg in node.required:
        f = (filled or {}).get(arg)
        label = f.entity.label if f is not None and f.entity is not None else None
        if f is not None and f.kind and not f.kind.startswith("@") and label and label[1]:
            args.append(ArgSpec(arg, f.value, "entity", f.kind, label[1], label_field=label[0],
                                entity_id=f.entity.key))
        elif f is not None and f.kind in HELD_VALUES and isinstance(f.value, str):
            args.append(ArgSpec(arg, f.value, "literal", f.kind))  # "email 'ana@x.com' ..."
        elif f is None or f.kind is not None:
            args.append(ArgSpec(arg, None, "vague", f.kind if f else None))
        else:
            # no schema is offered for it: an enum value in words, as a person knows it
            args.append(ArgSpec(arg, f.value, "literal", choice=f.source == "enum"))
    return StepSpec(node.name, node.server, node.description, node.read_only, args)
