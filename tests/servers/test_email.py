"""Domain behaviour of the email server (seed 0): sending, threads, drafts, trash, labels."""

from __future__ import annotations

from servers.core.runtime import Runtime
from servers.email import DOMAIN
from tests.servers.common import (
    assert_world_varies,
    digest,
    ok,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)

USER = "oscar.ito@cedarlogistics.com"  # world.user at seed 0


rt = runtime_fixture(DOMAIN)


def _inbox_email(rt: Runtime) -> str:
    return row_where(rt, "emails", folder_id="inbox")["email_id"]


def test_world_varies_by_seed():
    assert_world_varies("email", {"emails": "is_read", "folders": "kind"})


def _count(rt: Runtime, folder_id: str) -> int:
    folders = ok(rt, "list_folders", {})["folders"]
    return next(f["total"] for f in folders if f["folder_id"] == folder_id)


def test_mailbox_is_populated_from_the_world(rt):
    s = state(rt)
    assert len(s["emails"]) >= 40 and len(s["contacts"]) >= 20
    contacts = {c["email"] for c in s["contacts"].rows()}
    inbound = s["emails"].rows(lambda r: r["from_email"] != USER)
    assert sum(r["from_email"] in contacts for r in inbound) >= 30
    assert ok(rt, "list_emails", {"unread_only": True})["emails"]


def test_send_validates_addresses_and_files_a_copy_in_sent(rt):
    before = digest(rt)
    bad = rt.call("send_email", {"to": ["nikolai.patel@cedarlogistics"], "subject": "Hi",
                                 "body": "x"})
    assert not bad.ok and "not a valid email address" in bad.error
    dup = rt.call("send_email", {"to": ["a@x.com"], "cc": ["A@x.com"], "subject": "Hi",
                                 "body": "x"})
    assert not dup.ok and "twice" in dup.error
    assert digest(rt) == before
    n_sent = _count(rt, "sent")
    msg = ok(rt, "send_email", {"to": ["Nikolai.Patel@CedarLogistics.com"], "subject": "Hi",
                                 "body": "See you."})
    assert msg["to"] == ["nikolai.patel@cedarlogistics.com"] and msg["folder_id"] == "sent"
    assert msg["from_email"] == USER and _count(rt, "sent") == n_sent + 1


def test_reply_all_stays_in_thread_and_excludes_the_user(rt):
    eid = next(r["email_id"] for r in rows_where(rt, "emails", is_read=False)
               if r["cc"] and r["folder_id"] != "trash")
    src = ok(rt, "get_email", {"email_id": eid})
    assert not src["is_read"] and src["cc"]
    reply = ok(rt, "reply_to_email", {"email_id": eid, "body": "Sure!", "reply_all": True})
    assert reply["thread_id"] == src["thread_id"] and reply["in_reply_to"] == eid
    assert reply["subject"] == "Re: " + src["subject"]
    assert reply["to"] == [src["from_email"]] and reply["cc"] == src["cc"]
    assert USER not in reply["to"] + reply["cc"]
    assert ok(rt, "get_email", {"email_id": eid})["is_read"]
    again = ok(rt, "reply_to_email", {"email_id": reply["email_id"], "body": "PS"})
    assert again["subject"] == reply["subject"]  # no "Re: Re:"
    assert again["to"] == reply["to"]  # replying to one's own message goes to its recipients


def test_send_draft_moves_it_out_of_drafts_once(rt):
    drafts = ok(rt, "list_drafts", {})["drafts"]
    draft = drafts[0]
    sent = ok(rt, "send_draft", {"draft_id": draft["email_id"]})
    assert sent["folder_id"] == "sent" and sent["thread_id"] == draft["thread_id"]
    assert sent["subject"] == draft["subject"]
    left = ok(rt, "list_drafts", {})
    assert left["total"] == len(drafts) - 1
    before = digest(rt)
    again = rt.call("send_draft", {"draft_id": draft["email_id"]})
    assert not again.ok and draft["email_id"] in again.error
    not_draft = rt.call("send_draft", {"draft_id": _inbox_email(rt)})
    assert not not_draft.ok and "not a draft" in not_draft.error
    assert digest(rt) == before


def test_delete_goes_to_trash_then_removes_for_good(rt):
    n_inbox, n_trash = _count(rt, "inbox"), _count(rt, "trash")
    eid = _inbox_email(rt)
    subject = state(rt)["emails"].get(eid)["subject"]
    first = ok(rt, "delete_email", {"email_id": eid})
    assert first["result"] == "moved_to_trash"
    assert (_count(rt, "inbox"), _count(rt, "trash")) == (n_inbox - 1, n_trash + 1)
    hits = ok(rt, "search_emails", {"query": subject})["emails"]
    assert eid not in [h["email_id"] for h in hits]  # trash is not searched by default
    hits = ok(rt, "search_emails", {"query": subject, "folder_id": "trash"})["emails"]
    assert eid in [h["email_id"] for h in hits]
    second = ok(rt, "delete_email", {"email_id": eid})
    assert second["result"] == "deleted_permanently" and _count(rt, "trash") == n_trash
    gone = rt.call("get_email", {"email_id": eid})
    assert not gone.ok and eid in gone.error


def test_labels_and_custom_folders(rt):
    eid = _inbox_email(rt)
    ok(rt, "add_label", {"email_id": eid, "label": "Follow-up"})
    tagged = ok(rt, "list_emails", {"folder_id": "inbox", "label": "follow-up"})["emails"]
    assert [e["email_id"] for e in tagged] == [eid]
    dup = rt.call("add_label", {"email_id": eid, "label": "follow-up"})
    assert not dup.ok and "already has label" in dup.error
    missing = rt.call("remove_label", {"email_id": eid, "label": "urgent"})
    assert not missing.ok and "its labels" in missing.error
    folder = ok(rt, "create_folder", {"name": "Clients"})
    clash = rt.call("create_folder", {"name": "clients"})
    assert not clash.ok and folder["folder_id"] in clash.error
    ok(rt, "move_email", {"email_id": eid, "folder_id": folder["folder_id"]})
    inside = ok(rt, "list_emails", {"folder_id": folder["folder_id"]})
    assert [e["email_id"] for e in inside["emails"]] == [eid]
    into_sent = rt.call("move_email", {"email_id": eid, "folder_id": "sent"})
    assert not into_sent.ok and "cannot be moved into sent" in into_sent.error


def test_forward_keeps_attachments_and_quotes_the_original(rt):
    eid = next(r["email_id"] for r in state(rt)["emails"].rows() if r["attachments"])
    src = ok(rt, "get_email", {"email_id": eid})
    assert src["attachments"]
    fwd = ok(rt, "forward_email", {"email_id": eid, "to": ["a.b@example.com"]})
    assert fwd["attachments"] == src["attachments"]
    assert fwd["subject"] == "Fwd: " + src["subject"] and src["body"] in fwd["body"]
    assert fwd["thread_id"] != src["thread_id"]



def test_invoices_and_receipts_quote_the_world_currency():
    for seed, cur in ((0, "EUR"), (10, "JPY")):
        mails = Runtime(DOMAIN, default_seed=seed).session(None).state["emails"].rows()
        money_mails = [m for m in mails if m["subject"].startswith(("Invoice", "Receipt"))]
        assert money_mails and all(f" {cur}" in m["body"] for m in money_mails)
