"""Requests name records the way a person knows them (issue 23, item 2), from session 22's
readings: a record named through another whose label is the target's own name, a store by its
name, a hidden folder as a folder, no question holding its own answer, no dangling "and the
...", values that fit the rest of the call, a choice left to ask."""

from __future__ import annotations

import random
import re

from prove_jax.synthesis.dialogue import ArgSpec, StepSpec
from prove_jax.synthesis.phrasebook import fill, phrasings
from prove_jax.synthesis.verbalize import slot_text, step_phrase


def test_an_owner_named_by_the_targets_own_name_names_the_target():
    # "the hotel the reservation at Hotel Amber is at" says Hotel Amber twice over
    hotel = ArgSpec("place_id", "pl_qew3pb", "entity", "place", "Hotel Amber",
                    label_field="hotel_name", via="reservation")
    product = ArgSpec("product_id", "prd_qew3pb", "entity", "product", "Water Bottle",
                      label_field="product_name", via="item")
    # a selector: the cart line singled out by its name, or the store by the reservation's
    # other fields, which do not change which store it is
    line = ArgSpec("product_id", "prd_qew3pb", "selector", "product", via="item",
                   pairs=[("name", "Water Bottle")])
    store = ArgSpec("store_id", "st_qew3pb", "selector", "store", via="reservation",
                    pairs=[("product_name", "Dune"), ("store_name", "Maple Books")])
    for seed in range(8):
        text = slot_text(hotel, random.Random(seed))
        assert text == "Hotel Amber (the hotel I booked)", text
        assert slot_text(product, random.Random(seed)) == "the product 'Water Bottle'"
        assert slot_text(line, random.Random(seed)) == "the product 'Water Bottle'"
        assert slot_text(store, random.Random(seed)).startswith("Maple Books (the store")
    priced = ArgSpec("place_id", "pl_qew3pb", "selector", "place", via="reservation",
                     pairs=[("total", 729)])
    assert slot_text(priced, random.Random(0)) == "the hotel I booked for 729"
    # an owner named otherwise keeps the link: "the event that reminder is for"
    event = ArgSpec("event_id", "evt_qew3pb", "entity", "event", "Call mom", label_field="title",
                    via="reminder")
    assert "is for" in slot_text(event, random.Random(0))



def test_touching_a_file_already_found_does_not_ask_to_make_it():
    found = ArgSpec("path", "/home/a/notes/ideas.md", "back", "@path")
    touch = StepSpec("touch", "filesystem", "Create an empty file or update its time.", False,
                     [found])
    texts = {step_phrase(touch, random.Random(s)) for s in range(16)}
    assert texts and not any(re.search(r"\b(create|blank|empty)\b", t) for t in texts), texts
    new = ArgSpec("path", "/home/a/notes/todo.md", "literal")
    made = StepSpec("touch", "filesystem", "Create an empty file.", False, [new])
    assert any("blank" in step_phrase(made, random.Random(s)) or "create" in
               step_phrase(made, random.Random(s)) for s in range(16))



def test_a_hidden_folder_is_a_folder_and_a_question_does_not_hold_its_answer():
    config = ArgSpec("destination", "/home/a/.config", "back", "@path")
    bashrc = ArgSpec("path", "/home/a/.bashrc", "back", "@path")
    for seed in range(6):
        assert "folder" in slot_text(config, random.Random(seed))
        assert "file" in slot_text(bashrc, random.Random(seed))
    # the order singled out by its total: "what I paid for the order for 267" answers itself
    order = ArgSpec("order_id", "ord_qew3pb", "selector", "order", pairs=[("total", 267)])
    get = StepSpec("get_order", "shopping", "One order.", True, [order])
    texts = {step_phrase(get, random.Random(s), questions=True) for s in range(24)}
    assert len(texts) >= 2 and not any("paid" in t for t in texts), texts
    named = ArgSpec("order_id", "ord_qew3pb", "id", "order", label="ord_qew3pb")
    assert any("paid" in step_phrase(StepSpec("get_order", "shopping", "One order.", True,
                                              [named]), random.Random(s), questions=True)
               for s in range(24))



def test_a_later_detail_does_not_hang_on_an_and_when_the_one_before_is_left_out():
    # "update the listing 'X' and the description 'Y'" read as if 'Y' were a second listing
    cases = [("marketplace", "update_listing", "description"), ("crm", "update_contact", "phone"),
             ("crm", "update_deal", "close_date"), ("calendar", "move_event", "end"),
             ("issue_tracker", "update_issue", "priority"), ("social_media", "update_profile",
                                                             "bio"),
             ("trading", "search_symbols", "max_price"), ("crm", "update_task", "status")]
    for server, tool, arg in cases:
        ways = phrasings(server, tool)
        assert ways, (server, tool)
        for way in ways:
            values = {a: f"'{a.upper()}'" for a in re.findall(r"\{(\w+)", way) if "[" not in
                      way.split("{" + a)[0].rsplit("]", 1)[-1] or a == arg}
            text = fill(way, values)
            if text is not None and f"'{arg.upper()}'" in text:
                assert not re.search(rf"' and [^']*'{arg.upper()}'", text), text



def test_a_store_named_by_its_own_name_and_a_listed_folder_read_as_such():
    store = ArgSpec("store_id", "pl_qew3pb", "entity", "store", "Golden Books",
                    label_field="store_name")
    named = ArgSpec("store_id", "pl_qew3pb", "selector", "store",
                    pairs=[("store_name", "Golden Books")])
    for seed in range(4):
        assert slot_text(store, random.Random(seed)).endswith("store 'Golden Books'")
        assert slot_text(named, random.Random(seed)) == "the store 'Golden Books'"
    # a reservation is still "at" its store
    stay = ArgSpec("reservation_id", "res_qew3pb", "entity", "reservation", "Golden Books",
                   label_field="store_name")
    assert "reservation at Golden Books" in slot_text(stay, random.Random(0))
    folder = ArgSpec("paths", ["/home/a/photos"], "selector", "@path",
                     pairs=[("path", "photos")])
    assert "folder" in slot_text(folder, random.Random(0))



def test_a_renamed_file_keeps_its_name_and_type():
    from prove_jax.synthesis.textbanks import renamed

    names = {renamed("/home/a/notes/ideas.md", k) for k in range(4)}
    assert len(names) == 4 and all(n.startswith("ideas_") and n.endswith(".md") for n in names)
    assert renamed("/home/a/.gitignore", 1) == ".gitignore_v2"
    assert renamed("/home/a/photos/", 0) == "photos_old"



def test_a_new_address_lies_in_its_citys_country():
    from prove_jax.synthesis.records import Filled
    from prove_jax.synthesis.textbanks import fitting

    city = {"city": Filled("Tokyo", "generated")}
    assert fitting("country", city, random.Random(0)) == "Japan"
    assert fitting("postal_code", city, random.Random(0)) == "100-0005"
    assert fitting("country", {"city": Filled("Springfield", "context")}, random.Random(0)) is None
    path = {"path": Filled("/home/a/notes/ideas.md", "derived")}
    assert fitting("new_name", path, random.Random(0)).endswith(".md")



def test_a_crm_owner_without_a_slot_is_said_as_who_owns_the_record():
    from prove_jax.synthesis.verbalize import render_arg

    rep = ArgSpec("owner_id", "p_qew3pb", "back", "owner", via="deal")
    assert render_arg(rep, random.Random(0), extra=True) == "owned by the same rep as that deal"



def test_a_choice_left_to_ask_keeps_the_tools_own_wording():
    # "place a buy or sell order, the stock 'BA' and quantity 3" read the tool's description
    side = ArgSpec("side", "buy", "withheld")
    qty, stock = ArgSpec("quantity", 3, "literal"), ArgSpec("symbol", "BA", "literal")
    ask = StepSpec("place_order", "trading", "Place a buy or sell order.", False,
                   [side, qty, stock])
    texts = {step_phrase(ask, random.Random(s)) for s in range(8)}
    assert texts == {"place an order for 3 shares of 'BA'"}, texts
    # said: a phrasing with a slot for it, never the one that leaves it out
    said = StepSpec("place_order", "trading", "Place a buy or sell order.", False,
                    [ArgSpec("side", "buy", "literal", choice=True), qty, stock])
    assert all("buy" in step_phrase(said, random.Random(s)) for s in range(16))


def test_namesakes_are_told_apart_by_when_and_a_coordinate_is_never_half_asked():
    from types import SimpleNamespace

    from prove_jax.synthesis.gaps import gap_args
    from prove_jax.synthesis.records import Filled, StepRecord
    from prove_jax.synthesis.schemas import single_out
    from prove_jax.synthesis.wording import bool_clause, qualify

    june = {"budget_id": "bud_aaaaa2", "name": "Travel", "month": "2026-06", "status": "ok"}
    july = {"budget_id": "bud_bbbbb2", "name": "Travel", "month": "2026-07",
            "status": "near_limit"}
    pairs = single_out(july, [june, july])
    assert pairs == [("name", "Travel"), ("month", "2026-07")]  # not "that is near limit"
    assert qualify(pairs) == "'Travel' for July 2026"
    node = SimpleNamespace(required=["lat", "lon", "radius_m"],
                           properties={a: {"type": "number"} for a in ("lat", "lon", "radius_m")})
    filled = {"lat": Filled(19.75, "generated"), "lon": Filled(10.22, "generated"),
              "radius_m": Filled(500, "generated")}
    step = StepRecord(node=node, name="search_nearby", filled=filled, payload={},
                      args={a: f.value for a, f in filled.items()})
    assert gap_args(step, [step]) == ["radius_m"]  # "use 10.22 for the lon" is no gap
    assert bool_clause("only_repeated", True) == "only the lines that repeat"


def test_a_charge_reads_without_its_sign_and_links_read_as_people_say_them():
    from prove_jax.synthesis.wording import qualify, via_phrase

    # "the transaction at Willow Bistro for -1762" came out of a reading check
    assert qualify([("merchant", "Willow Bistro"), ("amount", -1762)]) == \
        "at Willow Bistro for 1762"
    assert via_phrase("product", "review", "that review") == "the product that review is about"
    assert via_phrase("device", "code", "that code") == "the lock that code opens"
    ways = phrasings("budget", "contribute_to_savings_goal")
    assert len(ways) >= 3 and not any("a {action}" in w for w in ways)  # never "a withdraw"


def test_a_payees_nickname_is_a_short_form_of_its_name():
    from prove_jax.synthesis.records import Filled
    from prove_jax.synthesis.textbanks import fitting

    def nick(name: str) -> str | None:
        return fitting("nickname", {"name": Filled(name, "generated")}, random.Random(0))
    assert (nick("City Power & Light"), nick("Samir Wang"), nick("RedTextiles GmbH")) == \
        ("City Power", "Samir", "RedTextiles")


def test_a_request_no_server_serves_is_said_as_written():
    from prove_jax.synthesis.phrases import OUT_OF_SCOPE

    # its tool name read as a verb phrase gave "Could you out of scope?" (a reading check)
    for text in OUT_OF_SCOPE:
        spec = StepSpec("out_of_scope", "", text, False, [])
        said = {step_phrase(spec, random.Random(seed)) for seed in range(20)}
        assert said == {text[0].lower() + text[1:].rstrip(".")}, said


def test_one_record_listed_twice_is_no_namesake():
    from prove_jax.synthesis.schemas import naming

    lamp = {"device_id": "dev_aaaaa2", "name": "Floor Lamp", "status": "online"}
    label = ("name", "Floor Lamp")
    assert naming(lamp, [lamp, dict(lamp)], label) == [label]  # in two device groups
    other = {**lamp, "device_id": "dev_bbbbb2", "status": "offline"}  # a true namesake
    assert naming(lamp, [lamp, other], label) == [label, ("status", "online")]
