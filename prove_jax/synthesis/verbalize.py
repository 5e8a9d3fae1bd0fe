"""The template verbalizer: deterministic, offline, varied. It turns a DialogueSpec into the
system prompt and the user turns. Every value the model cannot look up itself (free text,
amounts, dates, enum choices, and for the complete level the ids) is stated verbatim; entities
reached through a look-up are named by their label; values an earlier call returns are
referred back to ("that payment") or singled out by what distinguishes them in that output.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from prove_jax.synthesis import phrases as P
from prove_jax.synthesis.dialogue import ArgSpec, DialogueSpec, StepSpec, TurnSpec
from prove_jax.synthesis.schemas import humanize

__all__ = ["TemplateVerbalizer", "intent", "must_mention", "render_arg", "render_value"]


def render_value(value: Any) -> str:
    """A value as it appears in text; strings quoted so the model can copy them exactly."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"' if "'" in value else f"'{value}'"
    if isinstance(value, list):
        return ", ".join(render_value(v) for v in value)
    return json.dumps(value)


def _raw(value: Any) -> list[str]:
    """The verbatim strings a turn must contain for `value` to count as stated."""
    if isinstance(value, list):
        return [s for v in value for s in _raw(v)]
    if isinstance(value, str):
        return [value]
    return [render_value(value)]


def must_mention(turn: TurnSpec) -> list[str]:
    """Everything a rendering of `turn` has to state verbatim (the teacher is checked on it)."""
    out: list[str] = []
    if turn.supply is not None:
        out += _raw(turn.supply.value)
    for step in turn.steps:
        for a in step.args:
            if a.how in ("literal", "id"):
                out += _raw(a.value)
            elif a.how == "entity" and a.label:
                out.append(a.label)
            elif a.how == "selector":
                out += [s for _, v in a.pairs for s in _raw(v)]
    return out


def _noun(a: ArgSpec) -> str:
    base = a.arg[:-4] if a.arg.endswith("_ids") else a.arg[:-3] if a.arg.endswith("_id") \
        else a.arg
    return humanize(base)


def render_arg(a: ArgSpec, rng: random.Random) -> str | None:
    noun = _noun(a)
    if a.how == "withheld":
        return None
    if a.how == "literal":
        v = render_value(a.value)
        return rng.choice((f"{humanize(a.arg)} {v}", f"{humanize(a.arg)} {v}",
                           f"{v} as the {humanize(a.arg)}", f"the {humanize(a.arg)} set to {v}"))
    if a.how == "id":
        label = f" ({a.label})" if a.label and a.label != a.value else ""
        return f"{noun} {render_value(a.value)}{label}"
    if a.how == "entity":
        return rng.choice((f"the {noun} {render_value(a.label)}",
                           f"{noun}: the one called {render_value(a.label)}"))
    if a.how == "selector":
        what = " and ".join(f"{humanize(f)} is {render_value(v)}" for f, v in a.pairs)
        if a.via:
            return f"{noun}: the one of the {humanize(a.via)} whose {what}"
        return f"{noun}: the one whose {what}"
    if a.how == "back":
        if a.via:
            return f"{noun}: the one of that {humanize(a.via)}"
        return f"{noun}: {rng.choice(P.BACK)}"
    return None  # vague: an unsatisfiable request leaves out what it cannot name


_FIRST_SENTENCE = re.compile(r"^(.+?)(?:\.\s|;\s|\.$|$)", re.S)


_CLAUSE = re.compile(r":\s|\s\(|;\s|\s[-–—]\s|,\s(?:e\.g\.|like|such as)\s")


def intent(step: StepSpec, rng: random.Random) -> str:
    """What the user asks for: the tool's description in the user's voice (its first clause),
    or its name read as a verb phrase ("freeze_card" -> "freeze the card")."""
    m = _FIRST_SENTENCE.match(step.description.strip())
    text = m.group(1).strip() if m else ""
    cut = _CLAUSE.search(text)
    if cut and cut.start() >= 12:
        text = text[:cut.start()]
    text = " ".join(text.split())
    words = humanize(step.tool).split()
    if text and (len(words) < 2 or rng.random() < 0.75):
        text = _first_person(text)
        first = text.split()[0].lower()
        text = text[0].lower() + text[1:] if not text[:2].isupper() else text
        if first not in P.VERBS and first != (words[0] if words else ""):
            text = ("show me " if step.read_only else "handle this: ") + text  # a noun phrase
        return text
    if len(words) < 2:
        return f"run {words[0] if words else step.tool}"
    if words[1] in _PREPOSITIONS:
        return " ".join(words)
    return f"{words[0]} the {' '.join(words[1:])}"


_PREPOSITIONS = frozenset(("to", "from", "for", "on", "in", "by", "with", "as", "into", "at",
                          "between", "of", "about", "over", "out", "up", "off"))
_SUBJECT = {"has": "have", "is": "am", "was": "was", "does": "do"}


def _first_person(text: str) -> str:
    """Descriptions speak of "the user"; the user speaks of themselves."""
    text = re.sub(r"\bthe user's\b", "my", text, flags=re.I)

    def subject(m: re.Match) -> str:
        verb = m.group(1).lower()
        if verb in _SUBJECT:
            return "I " + _SUBJECT[verb]
        return "I " + (verb[:-1] if verb.endswith("s") else verb)
    text = re.sub(r"\bthe user (has|is|was|does|\w+ed|sent|made|\w+s|can)\b",
                  subject, text, flags=re.I)
    return re.sub(r"\bthe user\b", "me", text, flags=re.I)


def step_phrase(step: StepSpec, rng: random.Random) -> str:
    args = [r for r in (render_arg(a, rng) for a in step.args) if r]
    head = intent(step, rng)
    if not args:
        return head
    joined = args[0] if len(args) == 1 else ", ".join(args[:-1]) + " and " + args[-1]
    return rng.choice(P.STEP_FORMS).format(intent=head, args=joined)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower(text: str) -> str:
    """Lower-case the first letter unless it is the pronoun I."""
    return text if re.match(r"I\b", text) else text[:1].lower() + text[1:]


class TemplateVerbalizer:
    name = "template"

    def system_prompt(self, spec: DialogueSpec, rng: random.Random) -> str:
        services = [humanize(s) for s in spec.services]
        joined = services[0] if len(services) == 1 else \
            ", ".join(services[:-1]) + " and " + services[-1]
        return rng.choice(P.SYSTEM).format(services=joined, today=spec.today)

    def turn(self, spec: DialogueSpec, t: int, rng: random.Random) -> str:
        turn = spec.turns[t]
        if turn.role == "supply":
            return rng.choice(P.SUPPLY).format(arg=humanize(turn.supply.arg),
                                               value=render_value(turn.supply.value))
        if turn.role == "insist":  # never the same insistence twice in a conversation
            said = sum(x.role == "insist" for x in spec.turns[:t])
            return P.INSIST[(spec.persona + said) % len(P.INSIST)]
        phrases = [step_phrase(s, rng) for s in turn.steps]
        if len(phrases) == 1:
            body = _cap(rng.choice(P.ONE_STEP).format(s=phrases[0]))
        else:
            rest = phrases[1] + "".join(rng.choice(P.CONNECTORS) + p for p in phrases[2:])
            body = rng.choice(P.MANY_STEPS).format(s1=phrases[0], rest=rest)
        if turn.follow_up:
            return rng.choice(P.FOLLOW_OPENERS) + _lower(body)
        opener = rng.choice(P.FIRST_OPENERS)
        if rng.random() < 0.3:
            opener += rng.choice(P.PERSONA_LINES).format(persona=P.PERSONAS[spec.persona])
        if opener.endswith(", "):
            return _cap(opener + _lower(body))
        return _cap(opener + body)

    async def render(self, spec: DialogueSpec, rng: random.Random) -> tuple[str, list[str]]:
        system = self.system_prompt(spec, rng)
        return system, [self.turn(spec, t, rng) for t in range(len(spec.turns))]
