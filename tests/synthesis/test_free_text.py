"""Free text fits the tool (issue 23 item 2): a product review reads like a review, a comment
on a post like a comment, a contact's title like a job title. Before, a review body was an
email's ("Hi, just checking in on this"), a comment repeated another post, and a contact's
new title was an event's ("Lunch with the team")."""

from __future__ import annotations

import random

from prove_jax.synthesis.generators import TEXT, TOOL_TEXT, check_value, gen_text
from servers.registry import TOOL_COUNTS, load_domain


def _schemas() -> dict[str, dict]:
    """tool name -> input properties, over every server."""
    out: dict[str, dict] = {}
    for server in TOOL_COUNTS:
        for name, tool in load_domain(server).tools.items():
            out.setdefault(name, {}).update(tool.input_schema.get("properties", {}))
    return out


def test_every_tool_bank_names_a_real_argument_and_fits_its_schema():
    props = _schemas()
    for (tool, arg), bank in TOOL_TEXT.items():
        assert arg in props.get(tool, {}), f"{tool}.{arg} is no argument"
        assert len(bank) >= 4 and all(check_value(t, props[tool][arg]) for t in bank), tool


def test_a_tool_with_a_bank_draws_from_it_and_others_from_the_argument_bank():
    schema = {"type": "string", "minLength": 1}
    review = {gen_text("body", schema, random.Random(s), "write_review") for s in range(20)}
    assert review <= set(TOOL_TEXT[("write_review", "body")]) and len(review) >= 3
    email = {gen_text("body", schema, random.Random(s), "send_email") for s in range(20)}
    assert email <= set(TEXT["body"]) and not email & review


def test_a_new_title_is_an_edit_of_the_old_one():
    from prove_jax.synthesis.context import Entity
    from prove_jax.synthesis.records import Filled
    from prove_jax.synthesis.values import _current_label

    desk = Entity("listing", "lst_aaaaa2", "listing_id", {"listing_id": "lst_aaaaa2",
                                                          "title": "Standing desk"})
    assert _current_label({"listing_id": Filled("lst_aaaaa2", "context", "listing", desk)},
                          "title") == ("listing", "Standing desk")
    offer = {"offer_id": "off_aaaaa2", "listing_id": "lst_aaaaa2", "title": "My offer"}
    # an id taken from a record that points at it: that record's title is not the listing's
    assert _current_label({"listing_id": Filled("lst_aaaaa2", "derived", "listing",
                                                element=offer)}, "title") is None
    # a contact's title is a job title: no edit of their name ('Rafael Costa (updated)')
    rafael = Entity("contact", "p_aaaaa2", "contact_id", {"contact_id": "p_aaaaa2",
                                                          "name": "Rafael Costa"})
    assert _current_label({"contact_id": Filled("p_aaaaa2", "context", "contact", rafael)},
                          "title") is None


def test_every_budget_category_has_merchants_that_fit_it():
    from prove_jax.synthesis.textbanks import MERCHANTS
    from servers.budget.data import CATEGORIES

    assert {name for _, name, _, _ in CATEGORIES} == set(MERCHANTS)
