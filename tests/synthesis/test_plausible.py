"""The plausibility filter (issue 23 item 1) drops truths no person would ask for: mail to
themself, a forward back to the email's sender, an offer on their own listing. In a default
1,500-row run, 130 of 1,868 generated rows did one of these before the machine learned to
retry with other values."""

from __future__ import annotations

from types import SimpleNamespace

from prove_jax.synthesis.plausible import implausible, implausible_call, user_of
from prove_jax.synthesis.records import StepRecord

SENT = {"email_id": "msg_aaaaa2", "folder_id": "sent", "from_email": "me@x.com",
        "to": ["ana@y.com"], "subject": "Hi"}
INBOX = {"email_id": "msg_bbbbb2", "folder_id": "inbox", "from_email": "bo@y.com",
         "to": ["me@x.com"], "subject": "Plans"}


def _step(tool: str, args: dict, payload: object, read_only: bool = False) -> StepRecord:
    node = SimpleNamespace(name=tool, read_only=read_only)
    return StepRecord(node=node, name=tool, args=args, filled={}, payload=payload)


def _listed() -> StepRecord:
    return _step("list_emails", {}, {"emails": [SENT, INBOX]}, read_only=True)


def test_the_user_is_known_from_what_they_sent_or_a_profile_marked_is_me():
    assert user_of([_listed()]) == {"me@x.com"}
    profile = {"user_id": "p_ccccc2", "email": "me@z.com", "is_me": True}
    assert user_of([], [profile]) == {"p_ccccc2", "me@z.com"}
    assert user_of([_step("get_email", {}, INBOX, read_only=True)]) == set()


def test_mail_to_themself_or_back_to_the_sender_is_dropped():
    to_me = _step("send_email", {"to": ["me@x.com"], "subject": "x"}, {"ok": True})
    assert "send_email: to is the user" in implausible([_listed(), to_me])
    back = _step("forward_email", {"email_id": "msg_bbbbb2", "to": ["bo@y.com"]}, {"ok": True})
    assert "back to its sender" in implausible([_listed(), back])
    on = _step("forward_email", {"email_id": "msg_bbbbb2", "to": ["cy@y.com"]}, {"ok": True})
    assert implausible([_listed(), on]) is None
    # a read may name the user: "emails from me" is a fine question
    mine = _step("search_emails", {"to": ["me@x.com"]}, {"emails": []}, read_only=True)
    assert implausible([_listed(), mine]) is None


def test_an_offer_on_the_users_own_listing_is_dropped_and_the_fault_is_named():
    mine = {"listing_id": "lst_aaaaa2", "title": "Desk", "is_mine": True}
    shown = [_step("list_my_listings", {}, {"listings": [mine]}, read_only=True)]
    assert implausible_call("make_offer", False, {"listing_id": "lst_aaaaa2", "amount": 5},
                            shown, set())[0] == "listing_id"
    theirs = [_step("search_listings", {}, {"listings": [{**mine, "is_mine": False}]}, True)]
    assert implausible_call("make_offer", False, {"listing_id": "lst_aaaaa2"}, theirs,
                            set()) is None


def test_undoing_what_the_chain_just_made_is_dropped_but_acting_on_what_it_used_is_not():
    budget = {"budget_id": "bud_aaaaa2", "category_id": "cat_aaaaa2", "limit": 300}
    made = _step("set_budget", {"category_id": "cat_aaaaa2", "limit": 300}, budget)
    undo = _step("delete_budget", {"budget_id": "bud_aaaaa2"}, {"deleted": True})
    assert "undoes what the chain made" in implausible([made, undo])
    cart = {"items": [{"item_id": "itm_aaaaa2", "quantity": 1}], "total": 5}
    added = _step("add_to_cart", {"product_id": "prd_aaaaa2"}, cart)
    assert implausible_call("remove_from_cart", False, {"item_id": "itm_aaaaa2"}, [added],
                            set())[0] == "item_id"
    # paying a payee, then removing them: the payment is what the write made, not the payee
    paid = _step("pay_payee", {"payee_id": "pye_aaaaa2", "amount": 5},
                 {"transaction_id": "txn_aaaaa2", "payee_id": "pye_aaaaa2"})
    assert implausible([paid, _step("remove_payee", {"payee_id": "pye_aaaaa2"}, {})]) is None
    # a read showed the budget: deleting it is what the user asked for
    seen = _step("get_budget", {"budget_id": "bud_aaaaa2"}, budget, read_only=True)
    assert implausible([seen, undo]) is None


def test_an_expense_goes_under_a_category_the_world_files_its_merchant_under():
    world = [{"expense_id": "exp_aaaaa2", "merchant": "Metro Transit", "category_id": "cat_03"},
             {"expense_id": "exp_aaaaa3", "merchant": "Metro Transit", "category_id": "cat_09"}]
    fare = {"merchant": "Metro Transit", "amount": 3.5}
    assert implausible_call("add_expense", False, {**fare, "category_id": "cat_04"}, [], set(),
                            world) == ("category_id",
                                       "add_expense: Metro Transit is never filed under cat_04")
    for fits in ("cat_03", "cat_09"):
        assert implausible_call("add_expense", False, {**fare, "category_id": fits}, [], set(),
                                world) is None
    # a merchant the world has no expense at: nothing to go by
    assert implausible_call("add_expense", False, {"merchant": "Corner Bakery",
                                                   "category_id": "cat_04"}, [], set(),
                            world) is None


def test_refiling_an_expense_follows_its_merchant_and_a_refusal_names_no_way_to_pay():
    groceries = [{"expense_id": "exp_aaaaa2", "merchant": "Corner Grocer",
                  "category_id": "cat_01"}]
    shown = [_step("list_expenses", {}, {"expenses": groceries}, read_only=True)]
    move = {"expense_id": "exp_aaaaa2", "category_id": "cat_03"}
    assert implausible_call("update_expense", False, move, shown, set()) == (
        "category_id", "update_expense: Corner Grocer is never filed under cat_03")
    assert implausible_call("update_expense", False, {**move, "category_id": "cat_01"},
                            shown, set()) is None
    decline = {"request_id": "req_aaaaa2", "action": "decline", "method_id": "pm_aaaaa2"}
    assert implausible_call("respond_to_request", False, decline, [], set()) == (
        "action", "respond_to_request: declines and names a way to pay")
    assert implausible_call("respond_to_request", False, {**decline, "action": "pay"}, [],
                            set()) is None
    assert implausible_call("respond_to_request", False, {"request_id": "req_aaaaa2",
                                                          "action": "decline"}, [], set()) is None


def test_reversing_the_chains_own_call_on_the_same_records_is_dropped():
    unfollow = _step("unfollow_user", {"user_id": "u_aaaaa2"}, {"following": False})
    assert implausible_call("follow_user", False, {"user_id": "u_aaaaa2"}, [unfollow],
                            set()) == ("user_id", "follow_user: reverses unfollow_user on "
                                                  "u_aaaaa2")
    assert implausible_call("follow_user", False, {"user_id": "u_bbbbb2"}, [unfollow],
                            set()) is None
    # another watcher of the same issue is a different record
    add = _step("add_watcher", {"issue_id": "WEB-6", "user_id": "u_aaaaa2"}, {})
    assert implausible_call("remove_watcher", False, {"issue_id": "WEB-6",
                                                      "user_id": "u_bbbbb2"}, [add],
                            set()) is None
    assert implausible_call("remove_watcher", False, {"issue_id": "WEB-6",
                                                      "user_id": "u_aaaaa2"}, [add],
                            set())[0] == "issue_id"


def test_acting_on_what_the_chain_removed_or_left_is_dropped():
    left = _step("leave_channel", {"channel_id": "ch_aaaaa2"}, {"left": True})
    assert implausible_call("post_message", False, {"channel_id": "ch_aaaaa2", "text": "Hi"},
                            [left], set())[0] == "channel_id"
    assert implausible_call("post_message", False, {"channel_id": "ch_bbbbb2", "text": "Hi"},
                            [left], set()) is None
    # removing a watcher leaves the issue: commenting on it is fine
    unwatch = _step("remove_watcher", {"issue_id": "WEB-6", "user_id": "u_aaaaa2"}, {})
    assert implausible_call("add_comment", False, {"issue_id": "WEB-6", "body": "x"},
                            [unwatch], set()) is None


def test_making_a_file_or_joining_then_removing_it_is_dropped():
    made = _step("touch", {"path": "/home/a/notes.txt"}, {"path": "/home/a/notes.txt",
                                                         "size": 0})
    assert implausible_call("rm", False, {"path": "/home/a/notes.txt"}, [made],
                            set())[0] == "path"
    assert implausible_call("rm", False, {"path": "/home/a/old.txt"}, [made], set()) is None
    invited = _step("invite_to_channel", {"channel_id": "ch_aaaaa2", "member_ids": ["p_1"]},
                    {"channel_id": "ch_aaaaa2", "name": "pets"})
    assert implausible_call("leave_channel", False, {"channel_id": "ch_aaaaa2"}, [invited],
                            set())[0] == "channel_id"


def test_a_rating_whose_words_disagree_with_its_stars_is_dropped():
    rate = {"order_id": "ord_aaaaa2", "rating": 1, "comment": "Arrived hot and on time."}
    assert implausible_call("rate_order", False, rate, [], set()) == \
        ("comment", "rate_order: its words and its rating disagree")
    assert implausible_call("rate_order", False, {**rate, "rating": 5}, [], set()) is None
    mixed = {"rating": 2, "comment": "Tasty, but delivery was slow."}  # both: no tone
    assert implausible_call("rate_order", False, mixed, [], set()) is None
    review = {"product_id": "prd_aaaaa2", "title": "Great value",
              "body": "Broke after two weeks, quite disappointed."}
    assert implausible_call("write_review", False, review, [], set())[0] == "body"


def test_marking_its_own_new_email_or_reusing_a_moved_path_is_dropped():
    sent = _step("send_email", {"to": ["ana@y.com"]}, {"email_id": "msg_ddddd2"})
    assert "just wrote" in implausible_call("mark_as_read", False, {"email_id": "msg_ddddd2"},
                                            [sent], set())[1]
    assert implausible_call("mark_as_read", False, {"email_id": "msg_bbbbb2"}, [sent],
                            set()) is None
    # replying to one's own forward ("Fwd: Request: dashboard access"), a reading found
    fwd = _step("forward_email", {"email_id": "msg_bbbbb2", "to": ["bo@y.com"]},
                {"email_id": "msg_eeeee2", "subject": "Fwd: Request"})
    reply = {"email_id": "msg_eeeee2", "body": "Can we move this to next week?"}
    assert "just wrote" in implausible_call("reply_to_email", False, reply, [fwd], set())[1]
    assert implausible_call("reply_to_email", False, {**reply, "email_id": "msg_bbbbb2"},
                            [fwd], set()) is None
    moved = _step("rename", {"path": "/home/me/cv.md", "new_name": "old_cv.md"}, {"ok": True})
    assert implausible_call("mkdir", False, {"path": "/home/me/cv.md"}, [moved], set())[0] == \
        "path"
    assert implausible_call("mkdir", False, {"path": "/home/me/new"}, [moved], set()) is None


def test_prose_goes_into_notes_not_into_code_or_data_files():
    todo = {"content": "TODO: review the budget"}
    assert implausible_call("write_file", False, {**todo, "path": "/p/requirements.txt"},
                            [], set())[0] == "content"
    assert implausible_call("append_file", False, {**todo, "path": "/p/app.py"}, [], set())
    assert implausible_call("write_file", False, {**todo, "path": "/p/notes.md"}, [],
                            set()) is None


def test_wishing_for_a_product_the_chain_just_rated_low_is_dropped():
    review = {"product_id": "prd_aaaaa2", "rating": 2, "title": "Meh", "body": "It broke."}
    rated = _step("write_review", review, {"review_id": "rev_aaaaa2"})
    assert implausible_call("add_to_wishlist", False, {"product_id": "prd_aaaaa2"}, [rated],
                            set())[0] == "product_id"
    liked = _step("write_review", {**review, "rating": 5}, {"review_id": "rev_aaaaa3"})
    assert implausible_call("add_to_wishlist", False, {"product_id": "prd_aaaaa2"}, [liked],
                            set()) is None
    assert implausible_call("add_to_wishlist", False, {"product_id": "prd_bbbbb2"}, [rated],
                            set()) is None
    assert implausible_call("remove_from_wishlist", False, {"product_id": "prd_aaaaa2"},
                            [rated], set()) is None  # taking it off is what a person does


def test_a_company_is_not_saved_as_a_person():
    company = {"first_name": "PioneerMedia", "last_name": "Ltd", "email": "orders@pioneermedia.com"}
    assert implausible_call("create_contact", False, company, [], set())[0] == "email"
    role = {"first_name": "Ana", "last_name": "Silva", "email": "orders@pioneermedia.com"}
    assert implausible_call("create_contact", False, role, [], set())[0] == "email"
    person = {"first_name": "Ana", "last_name": "Silva", "email": "ana.silva@pioneermedia.com"}
    assert implausible_call("create_contact", False, person, [], set()) is None


def test_a_new_record_does_not_start_at_the_stage_a_relationship_ends_in():
    person = {"first_name": "Ana", "last_name": "Silva", "email": "ana.silva@pioneermedia.com"}
    churned = {**person, "lifecycle_stage": "churned"}
    assert implausible_call("create_contact", False, churned, [], set())[0] == "lifecycle_stage"
    lead = {**person, "lifecycle_stage": "lead"}
    assert implausible_call("create_contact", False, lead, [], set()) is None
    # an existing contact may well churn
    assert implausible_call("update_contact", False, {"contact_id": "ct_aaaaa2",
                                                      "lifecycle_stage": "churned"}, [],
                            set()) is None


def test_changing_a_record_the_chain_just_made_is_dropped_but_one_it_found_is_not():
    budgets = _step("list_budgets", {}, {"budgets": [{"budget_id": "bud_aaaaa2", "limit": 50}]},
                    read_only=True)
    made = _step("create_budget", {"category_id": "cat_aaaaa2", "limit": 60},
                 {"budget_id": "bud_bbbbb2", "limit": 60})
    change_new = {"budget_id": "bud_bbbbb2", "limit": 31.98}
    assert implausible_call("update_budget_limit", False, change_new, [budgets, made],
                            set())[0] == "budget_id"
    change_old = {"budget_id": "bud_aaaaa2", "limit": 31.98}
    assert implausible_call("update_budget_limit", False, change_old, [budgets, made],
                            set()) is None
    # an invitee added to an event the user named: the event was not made here
    event = {"event_id": "evt_aaaaa2", "title": "Sync"}
    found = _step("search_events", {"query": "Sync"}, {"events": [event]}, read_only=True)
    added = _step("add_attendees", {"event_id": "evt_aaaaa2", "emails": ["a@x.com"]}, event)
    assert implausible_call("update_event", False, {"event_id": "evt_aaaaa2", "title": "Q"},
                            [found, added], set()) is None


def test_the_same_note_drafted_then_sent_again_is_dropped():
    draft = _step("create_draft", {"to": ["theo@x.com"], "body": "Hi, just checking in."},
                  {"email_id": "draft_aaaaa2"})
    again = {"to": ["theo@x.com"], "subject": "Follow-up", "body": "Hi, just checking in."}
    assert implausible_call("send_email", False, again, [draft], set())[0] == "body"
    assert implausible_call("send_email", False, {**again, "to": ["ana@x.com"]}, [draft],
                            set()) is None
