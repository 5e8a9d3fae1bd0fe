"""The plausibility filter (issue 23 item 1): a chain can be valid on the servers yet be
something no person would ask for. A row whose truth does one of these is dropped
("implausible"):
- a message, email, forward or invitation addressed to the user themself (the address an
  email the user sent or drafted is from, a profile marked `is_me`);
- a forward that goes back to the email's own sender;
- an offer or a message about a listing that is the user's own;
- an expense filed under a category the world never files its merchant under (a transit
  fare as Housing);
- undoing what the chain itself just made or changed (set a budget, then delete it; add an
  item to the cart, then remove it), reversing its own call (unfollow a user, then follow
  them), or acting on what it removed or left (leave a channel, then post in it): a walk over
  the tools, not a goal.
- a rating whose words disagree with its stars, or a title with its body (1 star and "Arrived
  hot and on time."; "Great value" over "Broke after two weeks");
- a message written twice: the same body to the same people, drafted and then sent (a person
  sends the draft);
- marking read or unread, or replying to, an email the chain itself just sent, forwarded or
  drafted;
- a file the chain moved, renamed or deleted, used again at its old path (mkdir over a
  renamed note);
- a sentence of prose written into a code or data file (a TODO into requirements.txt);
- wishing for a product the chain itself just rated 2 stars or fewer;
- changing a record the chain itself just made (create a budget, then set its limit);
- a record made at the stage a relationship ends in (a new contact already churned);
- a person made of a company ("PioneerMedia Ltd" from orders@pioneermedia.com): a contact whose
  last name is a legal form, or whose address is a role's (orders@, info@).
The user's identity comes from what the conversation's own steps returned, so the check needs
no server knowledge beyond these field names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from prove_jax.synthesis.records import StepRecord
from prove_jax.synthesis.references import every_string
from prove_jax.synthesis.schemas import key_of, walk_records
from prove_jax.synthesis.textbanks import LEGAL_FORMS

__all__ = ["implausible", "implausible_call", "user_of"]

RECIPIENTS = ("to", "cc", "bcc", "recipient", "recipients", "attendees", "invitees",
              "participants", "emails")
OWN_FOLDERS = ("sent", "drafts")
OFFER_TOOLS = ("make_offer", "send_message")
UNDO_PREFIXES = ("delete", "remove", "cancel", "unlike", "unfollow", "unsave", "clear", "leave",
                 "rm")
# first words that reverse each other: follow then unfollow the same user is no goal
OPPOSITES = (("add", "remove"), ("join", "leave"), ("lock", "unlock"), ("like", "unlike"),
             ("follow", "unfollow"), ("freeze", "unfreeze"), ("enable", "disable"),
             ("archive", "unarchive"), ("save", "unsave"), ("mute", "unmute"))


# Words that give a review or comment its tone (the text banks' own wording)
_GOOD = ("great", "perfect", "love", "recommend", "on time", "as described", "as expected",
         "well deserved", "better than", "fits well", "solid", "would buy again", "excellent",
         "congrats", "highly", "delicious", "tasty")
_BAD = ("slow", "small for", "disappointed", "broke", "not worth", "stopped working",
        "nothing more", "cold", "late", "rude", "never again")
RATINGS = ("rating", "stars", "score")
PATH_GONE = ("rm", "rename", "mv", "move", "move_file", "delete_file")  # old path is free
# Files whose content is code or data, not notes: a sentence does not belong in them
CODE_FILES = (".py", ".json", ".yml", ".yaml", ".csv", ".toml", ".js", ".ts", ".lock",
              ".gitignore", "requirements.txt", ".cfg", ".ini", ".sh")


# a refusal that names how to pay ("decline the request, paying from 'Mastercard'")
DECLINES = frozenset(("decline", "reject", "deny"))
ROLE_ADDRESSES = frozenset(("orders", "info", "support", "billing", "sales", "hello", "team",
                            "admin", "noreply", "no-reply", "contact", "office", "help"))
PAYING = ("method_id", "payment_method_id", "account_id", "from_account_id")
# stages a relationship ends in: a record made today cannot start there (a new contact
# "at stage churned")
ENDED_STAGES = {"lifecycle_stage": "churned", "stage": "closed_lost"}
MAKES = ("create", "add", "new")
UPDATES = ("update", "set", "edit", "rename", "change")


def _tone(text: str) -> int:
    """+1 for praise, -1 for complaint, 0 for neither or both ("Tasty, but slow")."""
    words = " " + " ".join(re.findall(r"[a-z]+", text.lower())) + " "
    return any(f" {w} " in words for w in _GOOD) - any(f" {w} " in words for w in _BAD)


def _tones(args: dict) -> set[int]:
    """The tones a call's rating and texts take (0 left out)."""
    out = set()
    for arg, value in args.items():
        if arg in RATINGS and isinstance(value, int) and not isinstance(value, bool):
            out.add(1 if value >= 4 else -1 if value <= 2 else 0)
        elif isinstance(value, str) and " " in value:
            out.add(_tone(value))
    return out - {0}


def _reverses(tool: str, other: str) -> bool:
    """Does `tool` reverse `other` ("unfollow_user" after "follow_user", "remove_from_cart"
    after "add_to_cart")?"""
    head, _, rest = tool.partition("_")
    other_head, _, other_rest = other.partition("_")
    if (head, other_head) not in OPPOSITES and (other_head, head) not in OPPOSITES:
        return False
    strip = {"to", "from", "in", "on", "of"}
    return [w for w in rest.split("_") if w not in strip] == \
        [w for w in other_rest.split("_") if w not in strip]


def _made(step: StepRecord) -> set[str]:
    """The records a write returned as what it made or changed: the payload itself, or the
    items of its lists (a cart's lines), not records it only mentions (a payment's payee)."""
    payload = step.payload
    if not isinstance(payload, dict):
        return set()
    key = key_of(payload)
    if key is not None:
        return {payload[key[0]]} if isinstance(payload[key[0]], str) else set()
    out = set()
    for value in payload.values():
        for item in value if isinstance(value, list) else [value]:
            k = key_of(item) if isinstance(item, dict) else None
            if k is not None and isinstance(item[k[0]], str):
                out.add(item[k[0]])
    return out


def _strings(value: Any) -> Iterator[str]:
    for v in value if isinstance(value, list) else [value]:
        if isinstance(v, str):
            yield v


def _records(steps: list[StepRecord]) -> Iterator[dict]:
    for step in steps:
        yield from walk_records(step.payload)


def user_of(steps: list[StepRecord], records: Iterable[dict] = ()) -> set[str]:
    """The user's own addresses and ids, as the steps' outputs (and any other `records`, a
    sampled context's) show them."""
    out: set[str] = set()
    for r in (*_records(steps), *records):
        if r.get("folder_id") in OWN_FOLDERS and isinstance(r.get("from_email"), str):
            out.add(r["from_email"])
        if r.get("is_me") is True:
            out |= {v for k, v in r.items() if isinstance(v, str) and
                    (k.endswith("_id") or k == "email")}
    return out


def _created(steps: list[StepRecord]) -> set[str]:
    """Ids of records the steps' writes made: returned by a write, and neither given to it
    nor shown by any step before it (a new budget, not the event an invitee was added to)."""
    out: set[str] = set()
    seen: set[str] = set()
    for step in steps:
        given = set(every_string(step.args))
        if not step.node.read_only:
            out |= _made(step) - seen - given
        seen |= given | set(every_string(step.payload))
    return out


def implausible_call(tool: str, read_only: bool, args: dict, shown: list[StepRecord],
                     me: set[str], world: Iterable[dict] = ()) -> tuple[str, str] | None:
    """(argument at fault, why) when a call of `tool` with `args`, after `shown`, is one no
    person would ask for; None when nothing is found. `world`: other records the world is
    known to hold (a sampled context's), beside those the steps showed."""
    if read_only:
        return None
    merchant, category = args.get("merchant"), args.get("category_id")
    known = [*_records(shown), *world]
    if merchant is None and isinstance(args.get("expense_id"), str):
        # refiling an expense: its merchant is the record's ("Corner Grocer" under Transport)
        merchant = next((r.get("merchant") for r in known
                         if r.get("expense_id") == args["expense_id"]), None)
    if isinstance(merchant, str) and isinstance(category, str):
        filed = {r["category_id"] for r in known
                 if r.get("merchant") == merchant and isinstance(r.get("category_id"), str)}
        if filed and category not in filed:
            return "category_id", f"{tool}: {merchant} is never filed under {category}"
    last, email = args.get("last_name"), args.get("email")
    company = isinstance(last, str) and last.lower().strip(".") in LEGAL_FORMS
    role = "first_name" in args and isinstance(email, str) \
        and email.split("@")[0].lower() in ROLE_ADDRESSES
    if company or role:
        return "email", f"{tool}: a company saved as a person ({args.get('first_name')} {last})"
    if tool.startswith(MAKES):
        for arg, ended in ENDED_STAGES.items():
            if args.get(arg) == ended:
                return arg, f"{tool}: a new record already {ended}"
    if args.get("action") in DECLINES and any(a in args for a in PAYING):
        return "action", f"{tool}: declines and names a way to pay"
    if len(_tones(args)) > 1:
        # the text drawn last is redrawn (a rating or a title stays)
        arg = [a for a, v in args.items() if isinstance(v, str) and _tone(v)][-1]
        return arg, f"{tool}: its words and its rating disagree"
    path, content = args.get("path"), args.get("content")
    if isinstance(path, str) and isinstance(content, str) and " " in content.strip() \
            and path.endswith(CODE_FILES):
        return "content", f"{tool}: writes prose into the code or data file {path}"
    for arg in RECIPIENTS:
        to_me = me.intersection(_strings(args.get(arg)))
        if to_me:
            return arg, f"{tool}: {arg} is the user ({sorted(to_me)[0]})"
    records = list(_records(shown))
    email = args.get("email_id")
    if "forward" in tool and isinstance(email, str):
        senders = {r.get("from_email") for r in records if r.get("email_id") == email}
        if senders.intersection(_strings(args.get("to"))):
            return "to", f"{tool}: forwards {email} back to its sender"
    body, to = args.get("body"), args.get("to")
    if isinstance(body, str) and to and any(not s.node.read_only and s.args.get("body") == body
                                            and s.args.get("to") == to for s in shown):
        return "body", f"{tool}: writes again what the chain already wrote to {to}"
    if tool.startswith(UNDO_PREFIXES):
        made = set().union(set(), *(_made(s) for s in shown if not s.node.read_only))
        for arg, value in args.items():
            if (arg.endswith("_id") or arg == "path") and isinstance(value, str) \
                    and value in made:
                return arg, f"{tool}: undoes what the chain made or changed ({value})"
    if tool.startswith(UPDATES):
        # made, then changed at once: a person says the value when making it (a budget
        # created at 60, then set to 31.98)
        created = _created(shown)
        for arg, value in args.items():
            if arg.endswith("_id") and isinstance(value, str) and value in created:
                return arg, f"{tool}: changes {value}, which the chain itself just made"
    if tool.startswith(("mark_", "reply")) and isinstance(email, str) and any(
            email in _made(s) for s in shown if not s.node.read_only):
        return "email_id", f"{tool}: acts on the email the chain itself just wrote"
    for step in shown:
        if step.node.name in PATH_GONE and not step.node.read_only and isinstance(path, str) \
                and path in (step.args.get("path"), step.args.get("source")):
            return "path", f"{tool}: uses {path}, which {step.node.name} moved or removed"
        if not step.node.read_only and _reverses(tool, step.node.name):
            # on the same records: every id both calls take is equal (the same watcher
            # of the same issue, not another watcher)
            shared = [a for a in args if a.endswith(("_id", "_ids")) and a in step.args]
            if shared and all(args[a] == step.args[a] for a in shared):
                return shared[0], f"{tool}: reverses {step.node.name} on {args[shared[0]]}"
        gone = step.node.name.startswith(UNDO_PREFIXES) and not step.node.read_only
        if gone:  # acting on what the chain itself removed or left (post in a channel it left)
            # the record it removed is the one its name says (delete_event: the event), not
            # every id it took (remove_watcher leaves the issue in place)
            key = step.node.name.rsplit("_", 1)[-1] + "_id"
            taken = [a for a, v in args.items() if a.endswith("_id") and isinstance(v, str)
                     and step.args.get(key) == v]
            if taken:
                return taken[0], f"{tool}: acts on {args[taken[0]]}, which " \
                    f"{step.node.name} removed"
    product = args.get("product_id")
    if tool.startswith(("add", "save")) and "wish" in tool and isinstance(product, str) and any(
            not s.node.read_only and s.args.get("product_id") == product
            and isinstance(s.args.get("rating"), int) and s.args["rating"] <= 2 for s in shown):
        return "product_id", f"{tool}: wishes for {product}, which the chain just rated low"
    listing = args.get("listing_id")
    if tool in OFFER_TOOLS and isinstance(listing, str) and any(
            r.get("listing_id") == listing and r.get("is_mine") is True for r in records):
        return "listing_id", f"{tool}: about the user's own listing {listing}"
    return None


def implausible(steps: list[StepRecord]) -> str | None:
    """Why the truth is something no person would ask for (None: nothing found)."""
    me = user_of(steps)
    for i, step in enumerate(steps):
        found = implausible_call(step.node.name, step.node.read_only, step.args, steps[:i], me)
        if found is not None:
            return found[1]
    return None
