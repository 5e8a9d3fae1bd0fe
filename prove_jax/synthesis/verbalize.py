"""The template verbalizer: deterministic, offline, varied. It turns a DialogueSpec into the
system prompt and the user turns. Every value the model cannot look up itself (free text,
amounts, dates, enum choices, and ids a user holds) is stated, a calendar date in words; entities
reached through a look-up are named by their label; values an earlier call returns are
referred back to ("that payment") or singled out by what distinguishes them in that output.
"""

from __future__ import annotations

import random
import re

from prove_jax.synthesis import phrases as P
from prove_jax.synthesis.dialogue import ArgSpec, DialogueSpec, StepSpec
from prove_jax.synthesis.phrasebook import fill, kept_slots, phrasings, slots
from prove_jax.synthesis.schemas import LABEL_FIELDS, humanize
from prove_jax.synthesis.wording import (
    ANSWER_NOUNS,
    BOOKED,
    DATED,
    VAGUE,
    bool_clause,
    has_clause,
    literal_clause,
    named_by_owner,
    qualify,
    render_value,
    said,
    said_amount,
    said_literal,
    spoken_choice,
    via_phrase,
)

__all__ = [
    "TemplateVerbalizer",
    "intent",
    "is_question",
    "render_arg",
    "render_value",
    "slot_text",
]


def _noun(a: ArgSpec) -> str:
    """What the user calls the entity: its kind ("account" for `from_account_id`), else the
    argument's name without its `_id`."""
    if a.kind and not a.kind.startswith("@"):
        return kind_noun(a.kind)
    value = a.value[0] if isinstance(a.value, list) and len(a.value) == 1 else a.value
    if a.kind in ("@path", None) and isinstance(value, str) and value.startswith("/"):
        # "that same folder", not "that same destination" / "the path you just found"
        name = value.rstrip("/").rsplit("/", 1)[-1]
        # '.config' is a folder, '.bashrc' a file: a hidden name says nothing, a suffix does
        return "file" if "." in name.lstrip(".") or name in _DOTFILES else "folder"
    if a.kind == "@path":  # one left open: "copy a file", not "copy a source"
        return "file"
    if a.kind in _VALUE_NOUNS:
        return _VALUE_NOUNS[a.kind]
    base = a.arg[:-4] if a.arg.endswith("_ids") else a.arg[:-3] if a.arg.endswith("_id") \
        else a.arg
    if base != a.arg:  # "a store", not "a from store": the role is said by its link word
        base = re.sub(r"^(?:from|to|source|target|destination|new|old|parent)_", "", base)
    return humanize(base)


_DOTFILES = frozenset((".bashrc", ".gitignore", ".profile", ".env", ".zshrc"))
# values a person reaches through their owner by naming the owner ("email Umar Lopez")
_SAID_AS_OWNER = frozenset({"@email", "@phone"})
_VALUE_NOUNS = {"@email": "email address", "@phone": "phone number", "@symbol": "stock"}
# Kinds a user finds rather than owns: "my listing" would be wrong for someone else's
NOT_OWNED = frozenset({"place", "listing", "post", "product", "store", "hotel", "restaurant",
                       "user", "member", "issue", "sprint", "project", "channel", "center",
                       "seller", "owner", "flight"})
_KIND_NOUNS = {"saved": "saved place", "worklog": "work log"}  # kinds whose name reads badly


def kind_noun(kind: str) -> str:
    """A record kind as a noun: "scheduled transfer", "saved place"."""
    return _KIND_NOUNS.get(kind, humanize(kind))


# Labels that read as a phrase after the noun rather than as a quoted name
_LABEL_PHRASES = {"last4": "ending in {}", "hotel_name": "at {}", "store_name": "at {}",
                  "flight_number": "on flight {}", "destination_name": "to {}",
                  "merchant": "at {}", "counterparty_name": "with {}",
                  "symbol": "for {}"}  # an order or a position named by its ticker


def _called(field: str | None, label: str, noun: str = "") -> str:
    """The entity's label after its noun: "'Everyday Checking'", "ending in 4080"; a store
    named by its own `store_name` is "the store 'Golden Books'", not "the store at ..."."""
    phrase = _LABEL_PHRASES.get(field or "") if (field or "").split("_")[0] != noun else None
    return phrase.format(label) if phrase else render_value(label)


BARE = frozenset(("first_name", "last_name"))  # said as a person's name is, unquoted


def slot_text(a: ArgSpec, rng: random.Random) -> str | None:
    """How one stated value reads in a phrasing's slot (phrasebook): a reference as a noun
    phrase that carries its noun, any other value bare; None when the user does not state
    it (withheld for a clarification, or left vague)."""
    noun = _noun(a)
    if a.how in ("withheld", "vague"):
        # which one is left open ("delete an expense"): the assistant has to ask
        if a.arg in VAGUE and not a.arg.endswith(("_id", "_ids")):
            return VAGUE[a.arg]  # "move a file to another folder", not "... to a file"
        return _some(noun, a.arg.endswith("_ids")) if a.kind or a.arg.endswith(
            ("_id", "_ids")) else None
    if a.how == "literal":
        if a.arg in BARE and isinstance(a.value, str):  # "add Priya Rivera", not "'Priya' 'Rivera'"
            return a.value
        if (amount := said_amount(a.arg, a.value)) is not None:
            return amount  # "71.70", with its cents
        if a.choice and (words := spoken_choice(a.arg, a.value)) is not None:
            return words  # "because suspicious activity", not "because 'suspicious_activity'"
        return said_literal(a.value)
    if a.how == "id":
        # "folder 'archive'", not "folder 'archive' (Archive)"
        label = f" ({a.label})" if a.label and a.label.lower() != str(a.value).lower() else ""
        return f"{noun} {render_value(a.value)}{label}"
    if a.how == "entity":
        called = _called(a.label_field, a.label, noun if not a.via else "")
        # the record whose name the user says: the entity's own, or one that points at it
        mine = a.owned if a.owned is not None else (a.via or a.kind) not in NOT_OWNED
        det = rng.choice(("the", "my")) if mine else "the"
        if not a.via:
            named = f"{det} {noun} {called}"
            return f"{named} {qualify(a.pairs, named_first=False)}" if a.pairs else named
        if (named := named_by_owner(noun, a.via, [(a.label_field, a.label)])) is not None:
            return named
        owner = f"{det} {kind_noun(a.via)} {called}"
        if a.pairs:
            owner += " " + qualify(a.pairs, named_first=False)
        if a.kind in _SAID_AS_OWNER:  # "email the user 'Umar Lopez'"
            return owner
        return via_phrase(noun, kind_noun(a.via), owner)
    if a.how == "selector":
        if len(a.pairs) == 1 and a.pairs[0][0] in LABEL_FIELDS and not a.via:
            field, value = a.pairs[0]  # its name: "the budget 'Food'"
            name = _called(field, value, noun) if isinstance(value, str) else said(value)
            return f"the {noun} {name}"
        if a.via and a.kind in _SAID_AS_OWNER:  # "email the member 'Samir Horvath'"
            return f"the {kind_noun(a.via)} {qualify(a.pairs)}"
        if a.via and (named := named_by_owner(noun, a.via, a.pairs)) is not None:
            return named
        if (booked := BOOKED.get((noun, a.via))) and qualify(a.pairs).startswith(("for ", "on ")):
            return f"{booked} {qualify(a.pairs)}"  # "the hotel I booked for 729"
        if a.via:
            return via_phrase(noun, kind_noun(a.via), f"the {kind_noun(a.via)} {qualify(a.pairs)}")
        return f"the {noun} {qualify(a.pairs)}"
    if a.how == "back":
        if a.via and a.kind in _SAID_AS_OWNER:  # "email that contact"
            return f"that {kind_noun(a.via)}"
        if a.via:
            return via_phrase(noun, kind_noun(a.via), f"that {kind_noun(a.via)}")
        return rng.choice(P.BACK_MADE if a.made else P.BACK).format(noun=noun)
    return None


def _some(noun: str, many: bool) -> str:
    """'an expense', 'some members': an entity the request leaves open."""
    if many:
        return f"some {noun}s"
    vowel = noun[:1] in "aeiou" and not noun.startswith(("us", "uni", "eu"))  # "a user"
    return f"{'an' if vowel else 'a'} {noun}"


def render_arg(a: ArgSpec, rng: random.Random, extra: bool = False) -> str | None:
    """One stated value as a clause of its own ("the amount set to 25", "the account 'X'"):
    for arguments a phrasing has no slot for, and for the generic wording. An `extra` record
    beside a phrasing's own says what it is for ("..., for the deal 'X'"), not a bare name."""
    text = slot_text(a, rng) if a.how not in ("withheld", "vague") else None
    if text is None:
        return None
    if a.how != "literal":  # a reference: its role says where it goes ("to the account 'X'")
        role = _ROLES.get(a.arg.split("_", 1)[0]) or _CONTAINERS.get(a.via or a.kind or "") \
            or ("for" if extra else None)
        return f"{role} {text}" if role else text
    if isinstance(a.value, bool):  # "replacing what is there", "with auto record on"
        return bool_clause(a.arg, a.value)
    return literal_clause(a.arg, text, rng, a.value)


# a record that holds others (or a person), where a phrasing has no slot for it: "..., in the
# calendar 'Work'", "for the account 'GreenAnalytics'", not a dangling ", the calendar 'Work'"
_CONTAINERS = {**{k: "in" for k in ("calendar", "folder", "channel", "list", "project", "home",
                                    "room", "watchlist", "directory", "sprint", "board",
                                    "conversation", "category")},
               "account": "for", "store": "at", "payment_method": "paying with",
               **{k: "with" for k in ("contact", "member", "user")}}
_ROLES = {"from": "from", "source": "from", "to": "to", "target": "to", "destination": "to",
          "parent": "under", "owner": "owned by"}  # "owned by the same rep as the deal 'X'"


_FIRST_SENTENCE = re.compile(r"^(.+?)(?:\.\s|;\s|\.$|$)", re.S)


_CLAUSE = re.compile(r":\s|\s\(|;\s|\s[-–—]\s|,\s(?:e\.g\.|like|such as)\s")


def intent(step: StepSpec, rng: random.Random) -> str:
    """What the user asks for: the tool's description in the user's voice (its first clause),
    or its name read as a verb phrase ("freeze_card" -> "freeze the card")."""
    if not step.server:  # a request no server serves (phrases.OUT_OF_SCOPE): as written, never
        return _lower(step.description.strip().rstrip("."))  # "Could you out of scope?"
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
            if not step.read_only:  # a noun phrase: the tool's name reads as the request
                return _from_name(words) or text
            text = "show me " + text
        return text
    return _from_name(words) or f"run {words[0] if words else step.tool}"


def _from_name(words: list[str]) -> str | None:
    """`freeze card` -> 'freeze the card'."""
    if len(words) < 2:
        return None
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


# "1 stars", "1 shares": a count of one takes the singular
_ONE = re.compile(r"(?<![\d.,])\b1 (star|share|guest|room|bag|minute|night|passenger|unit"
                  r"|item|portion|seat|ticket|point|hour|day|week|ride)s\b")


def _one_of(text: str) -> str:
    return _ONE.sub(r"1 \1", text)


_QUESTION = re.compile(r"^(which|what|what's|how|when|where|who|is|are|do|does)\b")


def is_question(phrase: str) -> bool:
    """"what's in my basket" asks rather than requests: it stands as a sentence of its own."""
    return bool(_QUESTION.match(phrase))


def step_phrase(step: StepSpec, rng: random.Random, questions: bool = False) -> str:
    """One step as the user asks for it: one of the tool's own phrasings with the values in
    its slots (the rest appended), else the generic wording from its description. A
    question ("what's in my basket") only where `questions` allows it: a turn of one step."""
    ways = [w for w in phrasings(step.server, step.tool) if questions or not is_question(w)]
    rng.shuffle(ways)
    texts = {a.arg: t for a in step.args if (t := slot_text(a, rng)) is not None}
    # a default that is on reads as a choice ("upcoming ones only"); one that is off goes
    # unsaid: "... only if it overlaps nothing" for a call that sets nothing
    texts.update({arg: said(v) for arg, v in step.defaults.items() if v})
    spill = None  # a way that leaves values to append: only where none has slots for all
    for way in ways:
        text = fill(way, texts)
        if text is None:
            continue
        if (_WHEN.search(way) and DATED.search(text)) or (_PAID.search(way)
                                                          and _FOR_AMOUNT.search(text)):
            continue  # "tell me when the meeting starting on June 19 ... is" answers itself
        if _MAKES_NEW.search(way) and any(a.how != "literal" for a in step.args
                                          if a.arg in _NEW_PATHS.get(step.tool, ())):
            continue  # touch on a file already found: "bump its timestamp", not "make a blank file"
        used = kept_slots(way, texts)
        rest = [r for a in step.args if a.arg not in used
                and (r := render_arg(a, rng, extra=True)) is not None]
        if rest and not slots(way):  # "show me my own profile" says no one else's
            continue
        if not rest:
            return _one_of(text)
        # "search for stocks, searching for 'Netflix'" when "look up the ticker for 'Netflix'"
        # has the slot: appended values after a comma only as a last resort
        spill = spill or _one_of(f"{text}, {_join(rest)}")
    if spill is not None:
        return spill
    args = [r for r in (render_arg(a, rng) for a in step.args) if r]
    head = intent(step, rng)
    if not args:
        return head
    return _one_of(f"{head}, {_join(args)}")  # after a comma, as the extras above


_WHEN = re.compile(r"\bwhen\b")
_PAID = re.compile(r"\b(?:paid|cost|how much)\b")  # "what I paid for the order for 267"
_FOR_AMOUNT = re.compile(r"\bfor \d")
# tools whose call makes the path new only when the user names a new one
_NEW_PATHS = {"touch": ("path",)}
_MAKES_NEW = re.compile(r"\b(?:create|blank|empty|new)\b")


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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
            if turn.supply.how == "entity":
                return rng.choice(P.SUPPLY_ENTITY).format(thing=slot_text(turn.supply, rng))
            arg, value = turn.supply.arg, turn.supply.value
            if isinstance(value, bool):
                return rng.choice(P.SUPPLY_CLAUSE).format(clause=bool_clause(arg, value))
            text = slot_text(turn.supply, rng)  # as a request says it: "buy", "June 23"
            if arg in ANSWER_NOUNS:  # "the message is 'Hi'"
                return rng.choice(P.SUPPLY).format(arg=ANSWER_NOUNS[arg], value=text)
            if has_clause(arg, value):  # "Oh right, copying 'ana@x.com'", not "the cc is ..."
                return rng.choice(P.SUPPLY_CLAUSE).format(
                    clause=literal_clause(arg, text, rng, value))
            return rng.choice(P.SUPPLY).format(arg=humanize(arg), value=text)
        if turn.role == "insist":  # never the same insistence twice in a conversation
            asked = sum(x.role == "insist" for x in spec.turns[:t])
            return P.INSIST[(spec.persona + asked) % len(P.INSIST)]
        phrases = [step_phrase(s, rng, questions=len(turn.steps) == 1) for s in turn.steps]
        if len(phrases) == 1 and is_question(phrases[0]):
            body = _cap(phrases[0]) + "?"
        elif len(phrases) == 1:
            body = _cap(rng.choice(P.ONE_STEP).format(s=phrases[0]))
        else:
            rest = phrases[1] + "".join(rng.choice(P.CONNECTORS) + p for p in phrases[2:])
            body = rng.choice(P.MANY_STEPS).format(s1=phrases[0], rest=rest)
        if turn.follow_up:
            return rng.choice(P.FOLLOW_OPENERS) + _lower(body)
        opener = rng.choice(P.FIRST_OPENERS)
        if rng.random() < 0.3:
            line = rng.choice(P.PERSONA_LINES).format(persona=P.PERSONAS[spec.persona])
            opener += _lower(line) if opener.endswith(", ") else line
        if opener.endswith(", "):
            return _cap(opener + _lower(body))
        return _cap(opener + body)

    async def render(self, spec: DialogueSpec, rng: random.Random,
                     steps: list | None = None) -> tuple[str, list[str]]:
        system = self.system_prompt(spec, rng)
        return system, [self.turn(spec, t, rng) for t in range(len(spec.turns))]
