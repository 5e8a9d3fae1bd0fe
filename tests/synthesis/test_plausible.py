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
