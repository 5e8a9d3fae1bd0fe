"""email: the user's mailbox: folders, messages with labels and attachments, drafts, contacts.

Correspondents are the world's people (and billing/newsletter senders at world companies), so a
task can go from an email to a calendar invite or a payment to the same person.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Annotated, TypedDict

from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.core.world import REFERENCE_DATE, World, days_ago

SYSTEM_FOLDERS = ["inbox", "sent", "drafts", "archive", "trash"]
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
LABEL_RE = re.compile(r"[a-z0-9][a-z0-9 _-]{0,29}")
MAX_RECIPIENTS, MAX_LABELS, MAX_CUSTOM_FOLDERS = 50, 10, 20


class Folder(TypedDict):
    folder_id: str
    name: str
    kind: str
    total: int
    unread: int


class FolderList(TypedDict):
    folders: list[Folder]


class Attachment(TypedDict):
    filename: str
    mime_type: str
    size_kb: int


class EmailSummary(TypedDict):
    email_id: str
    thread_id: str
    folder_id: str
    from_email: str
    from_name: str
    to: list[str]
    subject: str
    snippet: str
    sent_at: str
    is_read: bool
    labels: list[str]
    has_attachments: bool


class Email(TypedDict):
    email_id: str
    thread_id: str
    folder_id: str
    from_email: str
    from_name: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    sent_at: str
    is_read: bool
    labels: list[str]
    attachments: list[Attachment]
    in_reply_to: str | None


class EmailList(TypedDict):
    folder_id: str
    emails: list[EmailSummary]
    total: int
    unread: int


class SearchResult(TypedDict):
    emails: list[EmailSummary]
    total: int


class DraftList(TypedDict):
    drafts: list[EmailSummary]
    total: int


class MoveOut(TypedDict):
    email_id: str
    from_folder: str
    to_folder: str


class ReadOut(TypedDict):
    email_id: str
    is_read: bool
    changed: bool


class LabelOut(TypedDict):
    email_id: str
    labels: list[str]


class DeleteOut(TypedDict):
    email_id: str
    result: str
    folder_id: str | None


class Contact(TypedDict):
    contact_id: str
    name: str
    email: str
    company: str
    title: str
    phone: str


class ContactList(TypedDict):
    contacts: list[Contact]
    total: int


# ----------------------------------------------------------------------------- generation
# subject, body, labels, folder, attachments; {first} is the user's first name, {me} the
# sender's first name, {company} the sender's company, {place} a place in the user's city.
INBOUND = [
    ("Q3 planning: draft agenda", "Hi {first},\n\nAhead of Thursday's planning session, here is "
     "the draft agenda: 1) Q2 recap, 2) hiring plan, 3) roadmap priorities. Anything to add?"
     "\n\nBest,\n{me}", ["work"], "inbox", []),
    ("Invoice INV-{num} from {company}", "Hello,\n\nPlease find attached invoice INV-{num} for "
     "{amount} EUR, due on {due}.\n\nKind regards,\n{me}\n{company}", ["finance"], "receipts",
     [("INV-{num}.pdf", "application/pdf", 84)]),
    ("Lunch at {place} this week?", "Hey {first},\n\nWant to grab lunch at {place} on "
     "Wednesday or Thursday? Around 12:30 works for me.\n\n{me}", ["personal"], "inbox", []),
    ("Contract draft for review", "Hi {first},\n\nAttached is the draft services agreement "
     "with {company}. Legal needs comments by Friday.\n\nThanks,\n{me}", ["work", "important"],
     "projects", [("Services_Agreement_v3.docx", "application/vnd.openxmlformats-officedocument"
                   ".wordprocessingml.document", 212)]),
    ("Photos from the weekend", "Hi {first}!\n\nHere are the photos from Saturday. The one at "
     "{place} came out great.\n\n{me}", ["personal"], "inbox",
     [("IMG_2041.jpg", "image/jpeg", 2380), ("IMG_2044.jpg", "image/jpeg", 2114)]),
    ("Meeting notes: vendor review", "Hi all,\n\nNotes from today's vendor review: pricing is "
     "fixed for 12 months, onboarding starts in July, {me} owns the follow-up.\n\n{me}",
     ["work"], "projects", []),
    ("Request: dashboard access", "Hi {first},\n\nCould you give me read access to the "
     "analytics dashboard? I need it for the {company} report.\n\nThank you,\n{me}", ["work"],
     "inbox", []),
    ("Your trip to {city}: itinerary", "Hi {first},\n\nYour itinerary for {city} is attached. "
     "Check-in opens 24 hours before departure.\n\n{me}\n{company} Travel", ["travel"], "travel",
     [("Itinerary_{city}.pdf", "application/pdf", 146)]),
    ("Quick question about the {company} account", "Hi {first},\n\nDo you know who owns the "
     "{company} renewal now? The customer asked for a call next week.\n\n{me}", ["work"],
     "inbox", []),
    ("{industry} weekly: top stories", "This week in {industry}: funding rounds, three new "
     "product launches and an interview with {company}'s CEO.\n\nUnsubscribe at any time.",
     ["newsletters"], "inbox", []),
    ("Dinner on Friday at {place}", "Hi {first},\n\nI booked a table for us at {place} on "
     "Friday at 19:30. See you there!\n\n{me}", ["personal"], "inbox", []),
    ("Budget proposal for H2", "Hi {first},\n\nI've put the H2 budget proposal in the attached "
     "sheet. Marketing is up 8%, travel is flat.\n\n{me}", ["work", "finance"], "inbox",
     [("H2_budget.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
       58)]),
    ("Welcome to the team, {first}!", "Hi {first},\n\nGreat to have you working with us on the "
     "{company} project. Let me know if you need anything.\n\n{me}", ["work"], "archive", []),
    ("Conference in {city}: speaker slot", "Dear {first},\n\nWe'd love to have you speak at the "
     "{industry} summit in {city} in September. Could you confirm by the end of the month?"
     "\n\nBest regards,\n{me}", ["work", "travel"], "inbox", []),
    ("Receipt for your order #{num}", "Thanks for your order #{num} ({amount} EUR). It will "
     "ship within 2 business days.\n\n{company}", ["finance"], "receipts",
     [("Receipt_{num}.pdf", "application/pdf", 41)]),
    ("Can we move our call?", "Hi {first},\n\nSomething came up; could we move our call to "
     "tomorrow afternoon? Sorry for the short notice.\n\n{me}", ["work"], "inbox", []),
]
OUTBOUND = [
    ("Follow-up on our call", "Hi {name},\n\nThanks for the call today. As discussed, I'll send "
     "the revised proposal by Wednesday.\n\nBest,\n{first}", ["work"]),
    ("Slides for Thursday", "Hi {name},\n\nAttached are the slides for Thursday's review. "
     "Feedback welcome.\n\n{first}", ["work"]),
    ("Coffee next week?", "Hi {name},\n\nAre you free for a coffee next week? Tuesday or "
     "Wednesday morning would suit me.\n\n{first}", ["personal"]),
    ("Intro: {name} and {other}", "Hi {name},\n\nI'd like to introduce you to {other}, who "
     "leads the data work at their company. I think you two should talk.\n\n{first}", ["work"]),
]
REPLIES = ["Thanks, {name}! Looks good to me.", "Thanks for sending this over. I'll review it "
           "and get back to you by Friday.", "Sounds good, {name}. Thursday works for me.",
           "Done, you should have access now.", "Great, see you then!"]


def _shift(when: str, minutes: int) -> str:
    t = dt.datetime.fromisoformat(when) + dt.timedelta(minutes=minutes)
    return t.isoformat(timespec="minutes")


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_email", user.email)
    s.set_var("user_name", user.name)
    s.set_var("clock", 0)
    folders = s.table("folders", key="folder_id", kind="folder",
                      hint="use list_folders to see folder ids")
    folders.load([{"folder_id": f, "name": f.capitalize(), "kind": "system"}
                  for f in SYSTEM_FOLDERS])
    custom = {"projects": "folder_0001", "receipts": "folder_0002", "travel": "folder_0003"}
    folders.load([{"folder_id": fid, "name": name.capitalize(), "kind": "custom"}
                  for name, fid in custom.items()])
    s.set_var("__seq_folder", len(custom))
    others = list(world.people[1:])
    companies = {c.id: c for c in world.companies}
    s.table("contacts", key="contact_id", kind="contact",
            hint="use search_contacts to find contacts").load([
                {"contact_id": p.id, "name": p.name, "email": p.email,
                 "company": companies[p.company_id].name, "title": p.title, "phone": p.phone}
                for p in others])
    local = [pl for pl in world.places if pl.city == user.city and pl.kind == "restaurant"]
    away = [c.name for c in world.cities if c.name != user.city]
    rows: list[Row] = []

    def add(**row: object) -> Row:
        full = {"email_id": f"msg_{len(rows) + 1:04d}", "cc": [], "attachments": [],
                "in_reply_to": None, **row}
        full.setdefault("thread_id", f"thr_{len(rows) + 1:04d}")
        rows.append(full)
        return full

    for i in range(50):
        subject, body, labels, folder, files = INBOUND[i % len(INBOUND)]
        sender = rng.choice(others)
        company = companies[sender.company_id]
        fill = {"first": user.first_name, "me": sender.first_name, "company": company.name,
                "place": rng.choice(local).name, "city": rng.choice(away),
                "industry": company.industry.capitalize(), "num": str(rng.randint(1000, 9999)),
                "amount": f"{rng.uniform(40, 4800):.2f}",
                "due": (REFERENCE_DATE + dt.timedelta(days=rng.randint(5, 30))).isoformat()}
        from_email, from_name = sender.email, sender.name
        if "newsletters" in labels or subject.startswith("Receipt"):
            from_email = f"{'news' if 'newsletters' in labels else 'orders'}@{company.domain}"
            from_name = company.name
        age = 1 + (i * 45) // 50  # newest first: days 1..45 ago
        folder_id = custom.get(folder, folder)
        if folder_id == "inbox" and age > 35:
            folder_id = "archive"
        if i % 11 == 10:
            folder_id = "trash"
        to = [user.email]
        cc = [p.email for p in rng.sample(others, rng.choice([0, 0, 1, 2])) if p is not sender]
        add(folder_id=folder_id, from_email=from_email, from_name=from_name, to=to, cc=cc,
            subject=subject.format(**fill), body=body.format(**fill),
            sent_at=days_ago(world, age, rng),
            is_read=rng.random() > (0.8 if age <= 7 else 0.35 if age <= 20 else 0.0),
            labels=list(labels), attachments=[{"filename": f.format(**fill), "mime_type": m,
                                               "size_kb": k} for f, m, k in files])
    # the user answered some of the personal messages (same thread, a few hours later)
    answered = [r for r in rows if r["from_email"] in {p.email for p in others}
                and r["folder_id"] != "trash"][::3][:10]
    for src in answered:
        src["is_read"] = True  # still generation time: rows are not in the state yet
        name = src["from_name"].split()[0]
        add(thread_id=src["thread_id"], folder_id="sent", from_email=user.email,
            from_name=user.name, to=[src["from_email"]], subject=f"Re: {src['subject']}",
            body=rng.choice(REPLIES).format(name=name) + f"\n\n{user.first_name}",
            sent_at=_shift(src["sent_at"], rng.choice([35, 90, 240])), is_read=True,
            labels=[], in_reply_to=src["email_id"])
    for i in range(8):
        subject, body, labels = OUTBOUND[i % len(OUTBOUND)]
        to, other = rng.sample(others, 2)
        fill = {"name": to.first_name, "other": other.name, "first": user.first_name}
        add(folder_id="sent", from_email=user.email, from_name=user.name, to=[to.email],
            cc=[other.email] if "Intro" in subject else [], subject=subject.format(**fill),
            body=body.format(**fill), sent_at=days_ago(world, 2 + 5 * i, rng), is_read=True,
            labels=list(labels), attachments=[{"filename": "Review_slides.pptx",
                                               "mime_type": "application/vnd.ms-powerpoint",
                                               "size_kb": 3120}] if "Slides" in subject else [])
    emails = s.table("emails", key="email_id", kind="email",
                     hint="use list_emails or search_emails to see email ids")
    emails.load(rows)
    s.set_var("__seq_msg", len(rows))
    drafts = []
    for i, (subject, body, labels) in enumerate(OUTBOUND[:3]):
        to, other = rng.sample(others, 2)
        fill = {"name": to.first_name, "other": other.name, "first": user.first_name}
        drafts.append({"email_id": f"draft_{i + 1:04d}",
                       "thread_id": f"thr_{len(rows) + i + 1:04d}", "folder_id": "drafts",
                       "from_email": user.email, "from_name": user.name,
                       "to": [to.email], "cc": [], "subject": subject.format(**fill),
                       "body": body.format(**fill), "sent_at": days_ago(world, 1 + i, rng),
                       "is_read": True, "labels": list(labels), "attachments": [],
                       "in_reply_to": None})
    emails.load(drafts)
    s.set_var("__seq_draft", len(drafts))
    s.set_var("__seq_thr", len(rows) + len(drafts))  # new threads get fresh ids


DOMAIN = Domain("email", "Email: folders, messages, labels, drafts and contacts.", build)


# ----------------------------------------------------------------------------- helpers
def _now(s: State) -> str:
    """A fixed clock that moves one minute per message written, so replays agree."""
    tick = s.var("clock") + 1
    s.set_var("clock", tick)
    when = dt.datetime.combine(REFERENCE_DATE, dt.time(9, 0)) + dt.timedelta(minutes=tick)
    return when.isoformat(timespec="minutes")


def _summary(row: Row) -> EmailSummary:
    snippet = " ".join(row["body"].split())
    return {"email_id": row["email_id"], "thread_id": row["thread_id"],
            "folder_id": row["folder_id"], "from_email": row["from_email"],
            "from_name": row["from_name"], "to": row["to"], "subject": row["subject"],
            "snippet": snippet[:100] + ("…" if len(snippet) > 100 else ""),
            "sent_at": row["sent_at"], "is_read": row["is_read"], "labels": row["labels"],
            "has_attachments": bool(row["attachments"])}


def _full(row: Row) -> Email:
    return {k: row[k] for k in Email.__annotations__}  # a fixed key order


def _newest(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r["sent_at"], r["email_id"]), reverse=True)


def _addresses(s: State, to: list[str], cc: list[str] | None) -> tuple[list[str], list[str]]:
    """Validated, lower-cased recipients; no one twice across to and cc."""
    seen: list[str] = []
    out: list[list[str]] = []
    for field, group in (("to", to), ("cc", cc or [])):
        clean = []
        for addr in group:
            a = addr.strip().lower()
            if not EMAIL_RE.fullmatch(a):
                raise ToolError(f"{field}: {addr!r} is not a valid email address "
                                "(name@domain.com); use search_contacts to look one up")
            if a in seen:
                raise ToolError(f"{field}: {a} is listed twice; give each recipient once")
            seen.append(a)
            clean.append(a)
        out.append(clean)
    if len(seen) > MAX_RECIPIENTS:
        raise ToolError(f"{len(seen)} recipients; at most {MAX_RECIPIENTS} per message")
    return out[0], out[1]


def _new_message(s: State, folder_id: str, to: list[str], cc: list[str], subject: str,
                 body: str, *, thread_id: str | None = None, in_reply_to: str | None = None,
                 attachments: list | None = None, labels: list[str] | None = None) -> Row:
    prefix = "draft" if folder_id == "drafts" else "msg"
    new_id = s.next_id(prefix)
    return s["emails"].insert({
        "email_id": new_id, "thread_id": thread_id or s.next_id("thr"), "folder_id": folder_id,
        "from_email": s.var("user_email"), "from_name": s.var("user_name"), "to": to, "cc": cc,
        "subject": subject, "body": body, "sent_at": _now(s), "is_read": True,
        "labels": labels or [], "attachments": attachments or [], "in_reply_to": in_reply_to})


def _not_draft(row: Row, action: str) -> None:
    if row["folder_id"] == "drafts":
        raise ToolError(f"{row['email_id']} is an unsent draft; you cannot {action} it "
                        "(send it with send_draft first)")


def _label(label: str) -> str:
    name = label.strip().lower()
    if not LABEL_RE.fullmatch(name):
        raise ToolError(f"label {label!r} is not valid: use 1-30 letters, digits, spaces, '-' "
                        "or '_', starting with a letter or digit")
    return name


EmailId = Annotated[str, Arg("Email id, e.g. 'msg_0012' (from list_emails or search_emails)")]
Recipients = Annotated[list[str], Arg("Recipient email addresses", min_length=1,
                                      max_length=MAX_RECIPIENTS)]
Cc = Annotated[list[str] | None, Arg("Cc email addresses", max_length=MAX_RECIPIENTS)]
Subject = Annotated[str, Arg("Subject line", min_length=1, max_length=200)]
Body = Annotated[str, Arg("Message text", min_length=1, max_length=20000)]
Limit = Annotated[int, Arg("At most this many, newest first", minimum=1, maximum=100)]


# ----------------------------------------------------------------------------- tools
@DOMAIN.tool(read_only=True)
def list_folders(s: State) -> FolderList:
    """List mail folders (system and custom) with total and unread counts."""
    out = []
    for f in s["folders"].rows():
        inside = s["emails"].rows(lambda r, f=f: r["folder_id"] == f["folder_id"])
        out.append({**f, "total": len(inside),
                    "unread": sum(1 for r in inside if not r["is_read"])})
    return {"folders": out}


@DOMAIN.tool(read_only=True)
def list_emails(
        s: State,
        folder_id: Annotated[str, Arg("Folder id: inbox, sent, drafts, archive, trash or a "
                                      "custom folder id from list_folders")] = "inbox",
        unread_only: Annotated[bool, Arg("Only unread messages")] = False,
        label: Annotated[str | None, Arg("Only messages with this label")] = None,
        limit: Limit = 20,
        offset: Annotated[int, Arg("Skip this many (for paging)", minimum=0)] = 0) -> EmailList:
    """List messages in a folder, newest first."""
    s["folders"].get(folder_id)
    want = label.strip().lower() if label else None
    inside = [r for r in s["emails"].rows() if r["folder_id"] == folder_id]
    rows = [r for r in inside if (not unread_only or not r["is_read"])
            and (want is None or want in r["labels"])]
    page = _newest(rows)[offset:offset + limit]
    return {"folder_id": folder_id, "emails": [_summary(r) for r in page], "total": len(rows),
            "unread": sum(1 for r in inside if not r["is_read"])}


@DOMAIN.tool(read_only=True)
def get_email(s: State, email_id: EmailId) -> Email:
    """Get one message in full: body, recipients, attachments (does not mark it read)."""
    return _full(s["emails"].get(email_id))


@DOMAIN.tool(read_only=True)
def search_emails(
        s: State,
        query: Annotated[str | None, Arg("Words to find in subject or body (case-insensitive)",
                                         max_length=200)] = None,
        from_email: Annotated[str | None, Arg("Sender address or name, or part of either, e.g. "
                                              "'@bluelabs.com'")] = None,
        folder_id: Annotated[str | None, Arg("Only this folder (default: all but trash)")
                             ] = None,
        date_from: Annotated[str | None, Arg("Sent on or after this day, 'YYYY-MM-DD'")] = None,
        date_to: Annotated[str | None, Arg("Sent on or before this day, 'YYYY-MM-DD'")] = None,
        has_attachments: Annotated[bool | None, Arg("Only messages with (true) or without "
                                                    "(false) attachments")] = None,
        limit: Limit = 20) -> SearchResult:
    """Search messages by text, sender, folder, date range and attachments; give at least one
    criterion. Trash is searched only when folder_id is 'trash'."""
    if folder_id is not None:
        s["folders"].get(folder_id)
    if all(v is None for v in (query, from_email, folder_id, date_from, date_to,
                               has_attachments)):
        raise ToolError("give at least one search criterion (query, from_email, folder_id, "
                        "date_from, date_to or has_attachments)")
    lo, hi = _day(date_from, "date_from"), _day(date_to, "date_to")
    if lo and hi and hi < lo:
        raise ToolError(f"date_to {hi} is before date_from {lo}")
    words = (query or "").lower().split()
    sender = (from_email or "").strip().lower()
    rows = [r for r in s["emails"].rows()
            if (r["folder_id"] == folder_id if folder_id else r["folder_id"] != "trash")
            and all(w in f"{r['subject']} {r['body']}".lower() for w in words)
            and (sender in r["from_email"] or sender in r["from_name"].lower())
            and (lo is None or r["sent_at"][:10] >= lo)
            and (hi is None or r["sent_at"][:10] <= hi)
            and (has_attachments is None or bool(r["attachments"]) == has_attachments)]
    rows = _newest(rows)
    return {"emails": [_summary(r) for r in rows[:limit]], "total": len(rows)}


def _day(value: str | None, field: str) -> str | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise ToolError(f"{field} {value!r} is not a valid date; use 'YYYY-MM-DD'") from None


@DOMAIN.tool(read_only=False)
def send_email(s: State, to: Recipients, subject: Subject, body: Body, cc: Cc = None) -> Email:
    """Send a new message; a copy goes to the sent folder."""
    to_, cc_ = _addresses(s, to, cc)
    return _full(_new_message(s, "sent", to_, cc_, subject, body))


def _re(subject: str, prefix: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


@DOMAIN.tool(read_only=False)
def reply_to_email(
        s: State, email_id: EmailId, body: Body,
        reply_all: Annotated[bool, Arg("Also reply to the other recipients and cc")] = False
        ) -> Email:
    """Reply to a message in the same thread (to its sender; to its recipients if the user
    sent it)."""
    src = s["emails"].get(email_id)
    _not_draft(src, "reply to")
    me = s.var("user_email")
    mine = src["from_email"] == me
    to = list(src["to"]) if mine else [src["from_email"]]
    cc: list[str] = []
    if reply_all:
        to += [a for a in src["to"] if a not in to and a != me]
        cc = [a for a in src["cc"] if a not in to and a != me]
    to = [a for a in to if a != me] or to
    quoted = "\n".join(f"> {line}" for line in src["body"].splitlines())
    text = f"{body}\n\nOn {src['sent_at'].replace('T', ' ')}, {src['from_name']} wrote:\n{quoted}"
    row = _new_message(s, "sent", to, cc, _re(src["subject"], "Re:"), text,
                       thread_id=src["thread_id"], in_reply_to=email_id)
    if not src["is_read"]:
        s["emails"].update(email_id, is_read=True)  # answering a message means it was read
    return _full(row)


@DOMAIN.tool(read_only=False)
def forward_email(
        s: State, email_id: EmailId, to: Recipients,
        note: Annotated[str, Arg("Text to put above the forwarded message", max_length=5000)
                        ] = "") -> Email:
    """Forward a message, with its attachments, to other people."""
    src = s["emails"].get(email_id)
    _not_draft(src, "forward")
    to_, _ = _addresses(s, to, None)
    header = (f"---------- Forwarded message ----------\nFrom: {src['from_name']} "
              f"<{src['from_email']}>\nDate: {src['sent_at'].replace('T', ' ')}\n"
              f"Subject: {src['subject']}\nTo: {', '.join(src['to'])}\n\n")
    body = (f"{note}\n\n" if note else "") + header + src["body"]
    row = _new_message(s, "sent", to_, [], _re(src["subject"], "Fwd:"), body,
                       attachments=list(src["attachments"]))
    return _full(row)


@DOMAIN.tool(read_only=False)
def create_draft(s: State, to: Recipients, subject: Subject, body: Body, cc: Cc = None
                 ) -> Email:
    """Save a message as a draft without sending it (send it later with send_draft)."""
    to_, cc_ = _addresses(s, to, cc)
    return _full(_new_message(s, "drafts", to_, cc_, subject, body))


@DOMAIN.tool(read_only=True)
def list_drafts(s: State, limit: Limit = 20) -> DraftList:
    """List unsent drafts, newest first."""
    rows = _newest(s["emails"].rows(lambda r: r["folder_id"] == "drafts"))
    return {"drafts": [_summary(r) for r in rows[:limit]], "total": len(rows)}


@DOMAIN.tool(read_only=False)
def send_draft(s: State, draft_id: Annotated[str, Arg(
        "Draft id, e.g. 'draft_0002' (from list_drafts)")]) -> Email:
    """Send a draft; it leaves the drafts folder and appears in sent with a new email id."""
    draft = s["emails"].get(draft_id)
    if draft["folder_id"] != "drafts":
        raise ToolError(f"{draft_id} is not a draft (it is in {draft['folder_id']}); use "
                        "list_drafts to see draft ids")
    s["emails"].delete(draft_id)
    row = _new_message(s, "sent", draft["to"], draft["cc"], draft["subject"], draft["body"],
                       thread_id=draft["thread_id"], attachments=list(draft["attachments"]),
                       labels=list(draft["labels"]))
    return _full(row)


@DOMAIN.tool(read_only=False)
def move_email(
        s: State, email_id: EmailId,
        folder_id: Annotated[str, Arg("Target folder id: inbox, archive, trash or a custom "
                                      "folder id from list_folders")]) -> MoveOut:
    """Move a message to another folder (e.g. archive it, or restore it from trash)."""
    row = s["emails"].get(email_id)
    s["folders"].get(folder_id)
    _not_draft(row, "move")
    if folder_id in ("drafts", "sent"):
        raise ToolError(f"messages cannot be moved into {folder_id}; pick inbox, archive, "
                        "trash or a custom folder")
    if row["folder_id"] == folder_id:
        raise ToolError(f"{email_id} is already in {folder_id}")
    src = row["folder_id"]
    s["emails"].update(email_id, folder_id=folder_id)
    return {"email_id": email_id, "from_folder": src, "to_folder": folder_id}


@DOMAIN.tool(read_only=False)
def mark_as_read(
        s: State, email_id: EmailId,
        read: Annotated[bool, Arg("true: mark read; false: mark unread")] = True) -> ReadOut:
    """Mark a message read or unread."""
    row = s["emails"].get(email_id)
    changed = row["is_read"] != read
    if changed:
        s["emails"].update(email_id, is_read=read)
    return {"email_id": email_id, "is_read": read, "changed": changed}


LabelArg = Annotated[str, Arg("Label name, e.g. 'important' (1-30 letters, digits, spaces, "
                              "'-', '_')", min_length=1, max_length=30)]


@DOMAIN.tool(read_only=False)
def add_label(s: State, email_id: EmailId, label: LabelArg) -> LabelOut:
    """Add a label to a message (labels are lower-case; at most 10 per message)."""
    row = s["emails"].get(email_id)
    name = _label(label)
    if name in row["labels"]:
        raise ToolError(f"{email_id} already has label {name!r}")
    if len(row["labels"]) >= MAX_LABELS:
        raise ToolError(f"{email_id} already has {MAX_LABELS} labels; remove one first")
    row = s["emails"].update(email_id, labels=[*row["labels"], name])
    return {"email_id": email_id, "labels": row["labels"]}


@DOMAIN.tool(read_only=False)
def remove_label(s: State, email_id: EmailId, label: LabelArg) -> LabelOut:
    """Remove a label from a message."""
    row = s["emails"].get(email_id)
    name = label.strip().lower()
    if name not in row["labels"]:
        have = ", ".join(row["labels"]) or "none"
        raise ToolError(f"{email_id} has no label {name!r}; its labels: {have}")
    row = s["emails"].update(email_id, labels=[x for x in row["labels"] if x != name])
    return {"email_id": email_id, "labels": row["labels"]}


@DOMAIN.tool(read_only=False)
def delete_email(s: State, email_id: EmailId) -> DeleteOut:
    """Delete a message: it moves to trash; a message already in trash, or a draft, is
    deleted permanently."""
    row = s["emails"].get(email_id)
    if row["folder_id"] in ("trash", "drafts"):
        s["emails"].delete(email_id)
        return {"email_id": email_id, "result": "deleted_permanently", "folder_id": None}
    s["emails"].update(email_id, folder_id="trash")
    return {"email_id": email_id, "result": "moved_to_trash", "folder_id": "trash"}


@DOMAIN.tool(read_only=True)
def search_contacts(
        s: State,
        query: Annotated[str, Arg("Part of a name, email or company (case-insensitive)",
                                  min_length=1, max_length=100)],
        limit: Annotated[int, Arg("At most this many", minimum=1, maximum=100)] = 20
        ) -> ContactList:
    """Find contacts by name, email address or company."""
    q = query.strip().lower()
    found = [c for c in s["contacts"].rows()
             if q in c["name"].lower() or q in c["email"] or q in c["company"].lower()]
    found.sort(key=lambda c: c["name"])
    return {"contacts": found[:limit], "total": len(found)}


@DOMAIN.tool(read_only=False)
def create_folder(s: State, name: Annotated[str, Arg("Folder name", min_length=1,
                                                     max_length=40)]) -> Folder:
    """Create a custom folder to file messages into (with move_email)."""
    clean = " ".join(name.split())
    if not clean:
        raise ToolError("folder name must not be blank")
    taken = {f["name"].lower(): f["folder_id"] for f in s["folders"].rows()}
    if clean.lower() in taken or clean.lower() in SYSTEM_FOLDERS:
        raise ToolError(f"a folder named {clean!r} already exists "
                        f"({taken.get(clean.lower(), clean.lower())})")
    if len(s["folders"].rows(lambda f: f["kind"] == "custom")) >= MAX_CUSTOM_FOLDERS:
        raise ToolError(f"at most {MAX_CUSTOM_FOLDERS} custom folders")
    row = s["folders"].insert({"folder_id": s.next_id("folder"), "name": clean,
                               "kind": "custom"})
    return {**row, "total": 0, "unread": 0}


# Calls that succeed in this order on a fresh session (seed 0).
EXAMPLES: list[tuple[str, dict]] = [
    ("list_folders", {}),
    ("list_emails", {"folder_id": "inbox", "unread_only": True, "limit": 10}),
    ("get_email", {"email_id": "msg_0003"}),
    ("search_emails", {"query": "budget", "from_email": "clearmotors.com", "folder_id": "inbox",
                       "date_from": "2026-06-01", "date_to": "2026-06-15",
                       "has_attachments": True}),
    ("search_contacts", {"query": "patel"}),
    ("send_email", {"to": ["nikolai.patel@cedarlogistics.com"],
                    "cc": ["amara.okafor@silverenergy.com"],
                    "subject": "Roadmap review on Thursday",
                    "body": "Hi Nikolai,\n\nCan you bring the H2 roadmap draft?\n\nOscar"}),
    ("reply_to_email", {"email_id": "msg_0003", "body": "Thursday works for me!",
                        "reply_all": True}),
    ("forward_email", {"email_id": "msg_0012", "to": ["nikolai.patel@cedarlogistics.com"],
                       "note": "FYI, the H2 budget sheet is attached."}),
    ("create_draft", {"to": ["hana.anderson@cedarlogistics.com"], "subject": "Offsite venues",
                      "body": "Hi Hana,\n\nTwo venue options for the offsite: ..."}),
    ("list_drafts", {"limit": 10}),
    ("send_draft", {"draft_id": "draft_0004"}),
    ("create_folder", {"name": "Clients"}),
    ("move_email", {"email_id": "msg_0009", "folder_id": "folder_0004"}),
    ("mark_as_read", {"email_id": "msg_0003", "read": True}),
    ("add_label", {"email_id": "msg_0009", "label": "follow-up"}),
    ("remove_label", {"email_id": "msg_0009", "label": "follow-up"}),
    ("delete_email", {"email_id": "msg_0010"}),
]
