"""How users word selectors and extra values (issue 23 item 2): times as a person says them,
fields with their own preposition, no "whose sent at is '2026-...'" and no "X as the Y"."""

import random

from prove_jax.synthesis.dialogue import ArgSpec, StepSpec
from prove_jax.synthesis.verbalize import render_arg, slot_text, step_phrase
from prove_jax.synthesis.wording import (
    bool_clause,
    has_clause,
    literal_clause,
    qualify,
    said_amount,
    said_literal,
    spoken_choice,
    via_phrase,
    when,
)


def test_times_read_as_a_person_says_them():
    assert when("2026-05-25T18:45+01:00") == "May 25 at 6:45 pm"
    assert when("2026-01-03T00:05:00Z") == "January 3 at 12:05 am"
    assert when("2026-07-01T12:00:30") == "July 1 at 12:00:30 pm"
    assert when("2026-06-06") == "June 6"
    assert when("2026-13-01") is None
    assert when("Morning run") is None
    assert when(20260606) is None


def test_selector_pairs_use_the_words_a_person_uses():
    assert qualify([("subject", "Budget"), ("sent_at", "2026-05-25T18:45+01:00")]) == \
        "'Budget' sent on May 25 at 6:45 pm"
    assert qualify([("amount", 17.62)]) == "for 17.62"
    assert qualify([("total", 2019.6)]) == "for 2019.60"  # not "for 2019.6"
    assert qualify([("price", 25.0)]) == "for 25"
    assert qualify([("city", "Tokyo"), ("status", "on_track")]) == "in Tokyo that is on track"
    assert qualify([("city", "Tokyo"), ("color", "red")]) == "in Tokyo whose color is 'red'"
    assert qualify([("counterparty_name", "Alice Xu"), ("note", "rent share")]) == \
        "with Alice Xu for 'rent share'"
    assert qualify([("start", "2026-07-01T15:00+10:00")]) == "starting on July 1 at 3:00 pm"
    # after a noun phrase that already names the record, a label field is not a name again
    assert qualify([("description", "Weekly sync")], named_first=False) == \
        "described as 'Weekly sync'"


def test_extra_values_carry_their_own_link_word():
    rng = random.Random(0)
    assert literal_clause("sort", "'newest'", rng) == "sorted by 'newest'"
    assert literal_clause("cc", "'a@b.com'", rng) == "copying 'a@b.com'"
    assert literal_clause("priority", "'high'", rng) in ("with the priority 'high'",
                                                         "priority 'high'")


def test_an_entity_with_a_namesake_is_told_apart_by_its_time():
    arg = ArgSpec("event_id", "evt_1", "entity", "event", "Morning run",
                  pairs=[("start", "2026-06-03T07:00+01:00")], label_field="title")
    texts = {slot_text(arg, random.Random(s)) for s in range(8)}
    assert texts <= {"the event 'Morning run' starting on June 3 at 7:00 am",
                     "my event 'Morning run' starting on June 3 at 7:00 am"}
    assert all("whose" not in t and "2026" not in t for t in texts)


def test_a_step_never_says_a_value_as_the_field_name():
    step = StepSpec("list_emails", "email", "List emails in a folder.", True,
                    [ArgSpec("limit", 5, "literal"), ArgSpec("sort", "newest", "literal")])
    for seed in range(20):
        text = step_phrase(step, random.Random(seed))
        assert " as the " not in text and " set to " not in text and ", with with" not in text
        assert "5" in text and "'newest'" in text


def test_an_entity_left_open_for_a_clarification_reads_as_a_vague_noun():
    step = StepSpec("delete_expense", "budget", "Delete an expense.", False,
                    [ArgSpec("expense_id", "exp_k7qm2x", "withheld")])
    for seed in range(6):
        text = step_phrase(step, random.Random(seed))
        assert "an expense" in text and "exp_k7qm2x" not in text


def test_a_yes_no_argument_the_call_leaves_out_is_said_at_its_default():
    email = ArgSpec("email_id", "msg_k7qm2x", "entity", "email", "Plans", label_field="subject")
    step = StepSpec("mark_as_read", "email", "Mark a message read or unread.", False, [email],
                    defaults={"read": True})
    texts = {step_phrase(step, random.Random(seed)) for seed in range(12)}
    assert all("'Plans'" in t and "unread" not in t and "not read" not in t for t in texts)
    assert any(t.endswith("as read") or t.endswith("to read") for t in texts)


def test_yes_no_extras_read_as_words_a_person_uses():
    assert bool_clause("overwrite", True) == "replacing what is there"
    assert bool_clause("reply_all", False) == "to the sender only"
    assert bool_clause("dry_run", True) == "with dry run on"  # no words of its own yet


def test_an_address_is_said_through_its_owner():
    back = ArgSpec("to", ["ana@x.com"], "back", "@email", via="contact")
    assert slot_text(back, random.Random(0)) == "that contact"
    named = ArgSpec("to", ["ana@x.com"], "entity", "@email", "Ana Silva", via="member",
                    label_field="name")
    assert slot_text(named, random.Random(0)) == "the member 'Ana Silva'"


def test_a_record_named_through_another_says_how_they_are_linked():
    assert via_phrase("event", "reminder", "that reminder") == "the event that reminder is for"
    assert via_phrase("device", "automation", "the automation 'Coffee ready'") == \
        "the device the automation 'Coffee ready' controls"
    assert via_phrase("seller", "listing", "that listing") == "the seller of that listing"
    # a venue's place on the map is the venue itself
    assert via_phrase("place", "restaurant", "that restaurant") == "that restaurant"
    # a rep, not a person the record is about: "owned by the same rep as the deal 'X'"
    assert via_phrase("owner", "deal", "the deal 'API tier'") == \
        "the same rep as the deal 'API tier'"


def test_a_date_or_a_local_time_is_given_in_words_and_an_offset_stays_exact():
    assert said_literal("2026-06-23") == "June 23"
    assert said_literal("2026-07-02T10:00") == "July 2 at 10:00 am"
    assert said_literal("2026-07-02T10:00+02:00") == "'2026-07-02T10:00+02:00'"
    assert said_literal(40.0) == "40"
    stay = StepSpec("book_hotel", "travel_booking", "Book a hotel.", False,
                    [ArgSpec("check_in", "2026-06-23", "literal"),
                     ArgSpec("check_out", "2026-06-30", "literal")])
    text = step_phrase(stay, random.Random(0))
    assert "June 23" in text and "June 30" in text and "2026" not in text


def test_an_enum_code_the_schema_lists_is_said_in_words():
    rng = random.Random(0)
    shown = ArgSpec("reason", "suspicious_activity", "literal", choice=True)
    assert slot_text(shown, rng) == "suspicious activity"
    hidden = ArgSpec("reason", "suspicious_activity", "literal")  # stripped: the code itself
    assert slot_text(hidden, rng) == "'suspicious_activity'"
    assert spoken_choice("sort", "price_asc") == "lowest price first"
    assert spoken_choice("sort_by", "price_high") == "highest price first"
    assert spoken_choice("order", "date_desc") == "newest first"
    assert spoken_choice("condition", "like_new") == "like new"  # not a sort order
    assert spoken_choice("reason", "defective_or_not_as_described") == \
        "defective or not as described"
    assert spoken_choice("side", "buy") == "buy"  # "on the buy side", not "the 'buy' side"
    assert spoken_choice("account", "Checking") is None and spoken_choice("unit", "kg") is None
    assert spoken_choice("currency", "USD") is None and spoken_choice("limit", 3) is None


def test_times_of_day_and_sums_read_as_a_person_says_them():
    assert said_literal("19:38") == "7:38 pm" and said_literal("00:05") == "12:05 am"
    assert said_literal("25:10") == "'25:10'"  # no time of day: said as it is
    assert said_literal("2026-07") == "July 2026"  # a budget's month, not "for '2026-07'"
    assert said_literal("2026-13") == "'2026-13'"
    assert said_amount("amount", 71.7) == "71.70" and said_amount("max_price", 9.5) == "9.50"
    assert said_amount("amount", 60.0) is None and said_amount("quantity", 2.5) is None
    # a budget's limit is a sum, not a page size: no "at most 75 of them"
    assert not has_clause("limit", 75.0) and has_clause("limit", 10)
    assert literal_clause("limit", "75", random.Random(0), 75.0) == "with the limit 75"
    # a range's bound says which side it is on, not "with the close date to May 17"
    assert literal_clause("close_date_to", "May 17", random.Random(0), "2026-05-17") == \
        "with the close date on or before May 17"
    assert literal_clause("amount_from", "20", random.Random(0), 20) == \
        "with the amount at least 20"


def test_a_path_is_a_file_or_a_folder_and_an_extra_record_says_what_it_is_for():
    rng = random.Random(0)
    folder = ArgSpec("destination", "/home/u/reports", "back")
    assert all("folder" in slot_text(folder, random.Random(s)) for s in range(8))
    file = ArgSpec("path", "/home/u/notes/q2.md", "back", "@path")
    assert all("file" in slot_text(file, random.Random(s)) for s in range(8))
    deal = ArgSpec("deal_id", "dl_1", "entity", "deal", "Support renewal", label_field="name")
    assert render_arg(deal, rng, extra=True).startswith("for ")  # not a dangling ", the deal"


def test_a_step_never_asks_what_its_own_words_already_say():
    meeting = ArgSpec("meeting_id", "mtg_1", "selector", "meeting",
                      pairs=[("topic", "Sprint planning"), ("start", "2026-06-19T10:00")])
    ask = StepSpec("get_meeting", "video_meeting", "Get a meeting.", True, [meeting])
    texts = {step_phrase(ask, random.Random(s), questions=True) for s in range(40)}
    assert all("when" not in t for t in texts) and len(texts) > 1
    # "reschedule" only with the new start: the old one beside it would read as the new
    agenda = ArgSpec("agenda", "Review the Q3 numbers.", "literal")
    change = StepSpec("update_meeting", "video_meeting", "Update a meeting.", False,
                      [meeting, agenda])
    assert all("reschedule" not in step_phrase(change, random.Random(s)) for s in range(40))


def test_lower_and_upper_bounds_read_as_bounds_not_field_names():
    assert literal_clause("min_stars", "4", random.Random(0)) == "with at least 4 stars"
    assert literal_clause("min_price", "20", random.Random(0)) == "priced at least 20"
    assert literal_clause("open_at", "June 15 at 2:00 pm", random.Random(0)) == \
        "open at June 15 at 2:00 pm"
    assert literal_clause("max_seats", "6", random.Random(0)) == "with the seats at most 6"


def test_a_folder_or_account_named_through_a_record_reads_without_a_trailing_preposition():
    assert via_phrase("folder", "email", "the email 'Plans'") == \
        "the same folder as the email 'Plans'"
    assert via_phrase("account", "card", "the card ending in 0676") == \
        "the account linked to the card ending in 0676"
