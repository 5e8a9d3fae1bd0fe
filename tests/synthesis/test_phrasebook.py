"""Every tool has at least three phrasings of its own, and each one fits its tool's schema."""

from __future__ import annotations

import re

import pytest

from prove_jax.synthesis.phrasebook import SLOT, fill, phrasings, slots
from servers.registry import TOOL_COUNTS, load_domain

_ID_LITERAL = re.compile(r"\b[a-z]{2,8}_[a-z0-9]{4,}\b")


@pytest.mark.parametrize("server", sorted(TOOL_COUNTS))
def test_every_tool_has_three_phrasings_that_fit_its_schema(server: str) -> None:
    for name, tool in load_domain(server).tools.items():
        props = tool.input_schema.get("properties", {})
        required = tool.input_schema.get("required", [])
        ways = phrasings(server, name)
        assert len(set(ways)) >= 3, f"{server}.{name}: {len(set(ways))} phrasings"
        for p in ways:
            where = f"{server}.{name}: {p!r}"
            assert p.lstrip("{[")[:1].islower() and p.rstrip()[-1:] not in ".?!;:,", where
            assert p.count("[") == p.count("]") and "[[" not in p, where
            assert not re.search(r"\[[^\]]*\[", p), where  # parts do not nest
            assert all(slots(part) for part in re.findall(r"\[([^\]]*)\]", p)), where
            assert set(slots(p)) <= set(props), where
            # every required value has its slot, but for one choice a way may leave to the
            # assistant to ask ("place an order for 3 shares of 'BA'": buy or sell?); a stated
            # value always takes a way with its slot (verbalize.step_phrase)
            unsaid = set(required) - set(slots(p))
            assert len(unsaid) <= 1 and all("enum" in props[a] or props[a].get("type") ==
                                            "integer" for a in unsaid), where
            assert name not in p and "the user" not in p.lower(), where
            assert not _ID_LITERAL.search(SLOT.sub("", p)), where


def test_fill_drops_optional_parts_and_refuses_a_missing_bare_slot() -> None:
    p = "send {to} an email titled {subject}[ saying {body}][ with {cc} in copy]"
    assert fill(p, {"to": "Dana", "subject": "'Hi'", "body": "'See you'"}) == \
        "send Dana an email titled 'Hi' saying 'See you'"
    assert fill(p, {"to": "Dana", "subject": "'Hi'"}) == "send Dana an email titled 'Hi'"
    assert fill(p, {"to": "Dana", "body": "'x'"}) is None


def test_a_yes_no_slot_says_words_not_true_or_false() -> None:
    p = "{locked?lock|unlock} {device_id}[ and {notify?tell me|stay quiet}]"
    assert fill(p, {"locked": "yes", "device_id": "the front door"}) == "lock the front door"
    assert fill(p, {"locked": "no", "device_id": "it", "notify": "yes"}) == \
        "unlock it and tell me"
    assert slots(p) == ["locked", "device_id", "notify"]
