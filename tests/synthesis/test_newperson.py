"""A person a write creates is said by name and reached at an address of their own (the
reading check found "put 'Priya' 'Rivera' in as a new contact ..., reachable at the person
'Yusuf Haddad'")."""

from __future__ import annotations

import random

from prove_jax.synthesis.context import Context, Entity
from prove_jax.synthesis.dialogue import ArgSpec
from prove_jax.synthesis.newperson import own_email
from prove_jax.synthesis.records import Filled, StepRecord
from prove_jax.synthesis.verbalize import slot_text


def _filled(account: Entity | None) -> dict[str, Filled]:
    out = {"first_name": Filled("Priya", "generated"), "last_name": Filled("Rivera", "generated"),
           "email": Filled("yusuf.haddad@northlogistics.com", "context", "@email")}
    if account is not None:
        out["account_id"] = Filled(account.key, "context", "account", account)
    return out


def test_a_new_contact_gets_an_address_at_their_employer_in_their_own_name():
    ctx = Context("crm", 0)
    account = Entity("account", "co_gfphbs", "account_id", {"name": "RedTextiles GmbH"})
    filled = _filled(account)
    own_email(filled, ctx)
    assert filled["email"] == Filled("priya.rivera@redtextiles.com", "generated")


def test_without_an_employer_the_worlds_own_domain_is_used_and_no_name_changes_nothing():
    ctx = Context("crm", 0)
    ctx.by_name["email"] = ["a@harbor.io", "b@harbor.io", "c@other.com"]
    filled = _filled(None)
    own_email(filled, ctx)
    assert filled["email"].value == "priya.rivera@harbor.io"
    lone = {"email": Filled("yusuf.haddad@northlogistics.com", "context", "@email")}
    own_email(lone, ctx)
    assert lone["email"].value == "yusuf.haddad@northlogistics.com"


def test_a_persons_name_is_said_bare_other_text_quoted():
    rng = random.Random(0)
    assert slot_text(ArgSpec("first_name", "Priya", "literal"), rng) == "Priya"
    assert slot_text(ArgSpec("title", "Office Manager", "literal"), rng) == "'Office Manager'"


def test_the_sender_of_a_found_email_keeps_their_address_name_and_employer():
    # save an email's sender as a contact: the address, the name beside it in the message,
    # and the account whose domain it is (not a made-up person at another company)
    ctx = Context("crm", 0)
    red = Entity("account", "co_red001", "account_id", {"name": "RedCapital Inc"})
    other = Entity("account", "co_blu002", "account_id", {"name": "BlueTextiles GmbH"})
    ctx.entities["account"] = {e.key: e for e in (red, other)}
    mail = {"email_id": "msg_1", "from_name": "Olivia Ahmed",
            "from_email": "olivia.ahmed@redcapital.com", "subject": "Intro"}
    step = StepRecord(None, "get_email", {}, {}, mail)
    filled = {"first_name": Filled("Priya", "generated"),
              "last_name": Filled("Rivera", "generated"),
              "email": Filled(mail["from_email"], "derived", "@email", None, 0),
              "account_id": Filled(other.key, "context", "account", other)}
    own_email(filled, ctx, [step])
    assert filled["email"].value == "olivia.ahmed@redcapital.com"
    assert (filled["first_name"].value, filled["last_name"].value) == ("Olivia", "Ahmed")
    assert filled["account_id"].value == "co_red001"
