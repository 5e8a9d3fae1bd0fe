"""The initial mailbox of the email server, built from the shared world: folders (2 to 5
custom ones, a seed's pick), contacts, 40 to 64 received and 5 to 12 sent messages (some
received ones answered in the same thread) and 1 to 4 drafts: how many varies with the seed.

The rng is drawn from in a fixed order, so a seed always yields the same state.
"""

from __future__ import annotations

import datetime as dt
import random

from servers.core import money
from servers.core.state import Row, State
from servers.core.world import REFERENCE_DATE, World, days_ago

SYSTEM_FOLDERS = ["inbox", "sent", "drafts", "archive", "trash"]
# the custom folders a seed picks from (in this order); mail a template files under a folder
# the seed lacks stays in the inbox
CUSTOM_FOLDERS = ["projects", "receipts", "travel", "newsletters", "family"]
# inbox mail with this label goes to this custom folder, when the seed has it, most times
FILED_BY_LABEL = {"newsletters": "newsletters", "personal": "family"}


# subject, body, labels, folder, attachments; {first} is the user's first name, {me} the
# sender's first name, {company} the sender's company, {place} a place in the user's city.
INBOUND = [
    ("Q3 planning: draft agenda", "Hi {first},\n\nAhead of Thursday's planning session, here is "
     "the draft agenda: 1) Q2 recap, 2) hiring plan, 3) roadmap priorities. Anything to add?"
     "\n\nBest,\n{me}", ["work"], "inbox", []),
    ("Invoice INV-{num} from {company}", "Hello,\n\nPlease find attached invoice INV-{num} for "
     "{amount}, due on {due}.\n\nKind regards,\n{me}\n{company}", ["finance"], "receipts",
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
    ("Receipt for your order #{num}", "Thanks for your order #{num} ({amount}). It will "
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


def _pick_custom_folders(rng: random.Random) -> dict[str, str]:
    """The seed's custom folders, name -> folder id, in CUSTOM_FOLDERS order."""
    kept = set(rng.sample(CUSTOM_FOLDERS, rng.randint(2, len(CUSTOM_FOLDERS))))
    names = [name for name in CUSTOM_FOLDERS if name in kept]
    return {name: f"folder_{i + 1:04d}" for i, name in enumerate(names)}


def _folder_of(rng: random.Random, folder: str, labels: list[str],
               custom: dict[str, str]) -> str:
    """Where a received message is filed: its template's folder if the seed has it (else the
    inbox); inbox mail with a label the seed files away goes there three times in four."""
    if folder != "inbox":
        return custom.get(folder, "inbox")
    for label in labels:
        target = FILED_BY_LABEL.get(label)
        if target in custom and rng.random() < 0.75:
            return custom[target]
    return "inbox"


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_email", user.email)
    s.set_var("user_name", user.name)
    folders = s.table("folders", key="folder_id", kind="folder",
                      hint="use list_folders to see folder ids")
    folders.load([{"folder_id": f, "name": f.capitalize(), "kind": "system"}
                  for f in SYSTEM_FOLDERS])
    custom = _pick_custom_folders(rng)
    folders.load([{"folder_id": fid, "name": name.capitalize(), "kind": "custom"}
                  for name, fid in custom.items()])
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

    n_inbound = rng.randint(40, 64)
    for i in range(n_inbound):
        subject, body, labels, folder, files = INBOUND[i % len(INBOUND)]
        sender = rng.choice(others)
        company = companies[sender.company_id]
        fill = {"first": user.first_name, "me": sender.first_name, "company": company.name,
                "place": rng.choice(local).name, "city": rng.choice(away),
                "industry": company.industry.capitalize(), "num": str(rng.randint(1000, 9999)),
                # invoices and receipts in the world's one currency (servers.core.money)
                "amount": money.fmt(money.seed(round(rng.uniform(40, 4800), 2), world.currency),
                                    world.currency),
                "due": (REFERENCE_DATE + dt.timedelta(days=rng.randint(5, 30))).isoformat()}
        from_email, from_name = sender.email, sender.name
        if "newsletters" in labels or subject.startswith("Receipt"):
            from_email = f"{'news' if 'newsletters' in labels else 'orders'}@{company.domain}"
            from_name = company.name
        age = 1 + (i * 45) // n_inbound  # newest first: days 1..45 ago
        folder_id = _folder_of(rng, folder, labels, custom)
        if folder_id == "inbox" and age > 35:
            folder_id = "archive"
        if rng.random() < 0.09:
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
                and r["folder_id"] != "trash"][::rng.randint(2, 4)][:rng.randint(6, 12)]
    for src in answered:
        src["is_read"] = True  # still generation time: rows are not in the state yet
        name = src["from_name"].split()[0]
        add(thread_id=src["thread_id"], folder_id="sent", from_email=user.email,
            from_name=user.name, to=[src["from_email"]], subject=f"Re: {src['subject']}",
            body=rng.choice(REPLIES).format(name=name) + f"\n\n{user.first_name}",
            sent_at=_shift(src["sent_at"], rng.choice([35, 90, 240])), is_read=True,
            labels=[], in_reply_to=src["email_id"])
    for i in range(rng.randint(5, 12)):
        subject, body, labels = OUTBOUND[i % len(OUTBOUND)]
        to, other = rng.sample(others, 2)
        fill = {"name": to.first_name, "other": other.name, "first": user.first_name}
        add(folder_id="sent", from_email=user.email, from_name=user.name, to=[to.email],
            cc=[other.email] if "Intro" in subject else [], subject=subject.format(**fill),
            body=body.format(**fill), sent_at=days_ago(world, 2 + 4 * i, rng), is_read=True,
            labels=list(labels), attachments=[{"filename": "Review_slides.pptx",
                                               "mime_type": "application/vnd.ms-powerpoint",
                                               "size_kb": 3120}] if "Slides" in subject else [])
    emails = s.table("emails", key="email_id", kind="email",
                     hint="use list_emails or search_emails to see email ids")
    emails.load(rows)
    s.set_var("__seq_msg", len(rows))
    drafts = []
    for i, (subject, body, labels) in enumerate(OUTBOUND[:rng.randint(1, 4)]):
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
