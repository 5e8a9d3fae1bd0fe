"""The initial workspace of the team_chat server, built from the shared world: every person is a
member (member id = world person id, same name and email), ~22 channels (public and private),
direct-message conversations with the user, ~400 messages with threads and reactions.

The rng is drawn from in a fixed order, so a seed always yields the same state.
"""

from __future__ import annotations

import random

from servers.core.state import Row, State
from servers.core.world import World, days_ago

TIMEZONES = {"Lisbon": "Europe/Lisbon", "Berlin": "Europe/Berlin", "Paris": "Europe/Paris",
             "Madrid": "Europe/Madrid", "Amsterdam": "Europe/Amsterdam",
             "London": "Europe/London", "New York": "America/New_York",
             "San Francisco": "America/Los_Angeles", "Tokyo": "Asia/Tokyo",
             "Singapore": "Asia/Singapore", "Toronto": "America/Toronto",
             "Sydney": "Australia/Sydney"}
STATUSES = ["", "", "", "In a meeting", "Working remotely", "On vacation", "Out sick",
            "Focusing", "Commuting", "At a conference"]

# name, kind, topic, membership: "all" (everyone), "user" (the user and some others),
# "others" (some others, not the user)
CHANNELS = [
    ("general", "public", "Company-wide announcements and work-based matters", "all"),
    ("random", "public", "Non-work banter and water cooler conversation", "all"),
    ("announcements", "public", "Official news from the leadership team", "all"),
    ("engineering", "public", "Builds, deploys, code review and architecture", "user"),
    ("design", "public", "Design critiques, Figma links and UX research", "user"),
    ("product", "public", "Roadmap, specs and product decisions", "user"),
    ("sales", "public", "Deals, pipeline and customer wins", "others"),
    ("marketing", "public", "Campaigns, content calendar and brand", "user"),
    ("support", "public", "Customer tickets that need a second pair of eyes", "user"),
    ("data-science", "public", "Experiments, dashboards and model reviews", "user"),
    ("hiring", "public", "Open roles, referrals and interview loops", "user"),
    ("ops", "public", "Facilities, IT and office logistics", "others"),
    ("incident-response", "public", "Production incidents: status, owner, next update", "user"),
    ("book-club", "public", "Monthly book picks and discussion", "user"),
    ("running-club", "public", "Group runs and race sign-ups", "others"),
    ("travel", "public", "Travel tips, bookings and expense questions", "user"),
    ("project-atlas", "private", "Atlas migration: milestones and blockers", "user"),
    ("project-nova", "private", "Nova launch war room", "user"),
    ("leadership", "private", "Leadership team discussions", "others"),
    ("offsite-2026", "private", "Planning the September offsite", "user"),
    ("finance-approvals", "private", "Budget and expense approvals", "user"),
    ("customer-escalations", "private", "Escalated customer accounts", "others"),
]

# {first}: a first name to address; {place}: a restaurant or cafe; {city}, {company}, {day}
MESSAGES = [
    "Morning all! Quick reminder that the weekly sync moved to {day} at 10:00.",
    "Has anyone seen the latest numbers from {company}? They look better than expected.",
    "I'm pushing the release to {day}; QA found two blockers in checkout.",
    "@{first} can you take a look at the PR when you get a chance?",
    "Lunch at {place} today around 12:30, who's in?",
    "Heads up: the staging environment will be down for maintenance tonight.",
    "Great job on the demo yesterday everyone!",
    "Can someone share the slides from the {company} meeting?",
    "I'll be in {city} next week if anyone wants to meet up.",
    "The new dashboard is live, feedback welcome.",
    "Reminder: expense reports for May are due on {day}.",
    "We just closed the deal with {company}!",
    "Does anyone have a good contact at {company}?",
    "I wrote up the notes from today's retro, they're in the shared drive.",
    "Who owns the onboarding docs? A few links are broken.",
    "Interview loop for the senior role is scheduled for {day}.",
    "Thanks @{first} for jumping on that customer issue so quickly.",
    "Coffee at {place} is back to normal hours, finally.",
    "Can we push our 1:1 to {day}? Something came up.",
    "Draft of the Q3 plan is ready for review, comments by {day} please.",
    "The build is green again, thanks for the quick fix.",
    "Booked a table at {place} for the team dinner on {day}.",
    "Anyone up for a run after work on {day}?",
    "Reading list for next month: 'Thinking in Systems'. Thoughts?",
    "I'm out of office on {day}, ping {first} for anything urgent.",
    "Incident resolved: API latency back to normal. Postmortem to follow.",
    "New hire starting on {day}, please say hi!",
    "Which hotel do people usually book in {city}?",
]
REPLIES = ["On it!", "Thanks, will do.", "Count me in.", "Sounds good to me.", "+1",
           "Done, take a look.", "Can we discuss in the sync?", "Good call.",
           "I can help with that.", "Thanks for the heads up!", "Let's do it.",
           "Sorry, can't make it this time."]
DM_LINES = ["Hey, do you have a minute to chat about the proposal?",
            "Sure, give me 10 minutes.", "Thanks for your help today!",
            "Can you send me the link to the doc?", "Here you go, let me know if it works.",
            "Are we still on for {day}?", "Yes, see you then.",
            "Quick question about the {company} account.", "Happy to help, what's up?"]
EMOJIS = ["thumbsup", "heart", "tada", "eyes", "white_check_mark", "joy", "fire", "rocket",
          "pray", "clap", "raised_hands", "100", "smile", "thinking_face", "wave", "coffee",
          "sparkles", "muscle", "ok_hand", "bulb", "warning", "x", "star", "heavy_plus_sign"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


def _text(template: str, world: World, rng: random.Random, city: str,
          audience: list[str]) -> str:
    """Fill a template; {first} is someone from `audience` (the conversation's members)."""
    food = [p.name for p in world.places if p.city == city and p.kind in ("restaurant", "cafe")]
    return template.format(first=world.person(rng.choice(audience)).first_name,
                           place=rng.choice(food), city=rng.choice(world.cities).name,
                           company=rng.choice(world.companies).name, day=rng.choice(DAYS))


def _reactions(rng: random.Random, members: list[str]) -> list[Row]:
    out = []
    for emoji in rng.sample(EMOJIS, rng.choice([0, 0, 1, 1, 2, 3])):
        out.append({"emoji": emoji,
                    "member_ids": sorted(rng.sample(members, min(len(members),
                                                                 rng.randint(1, 5))))})
    return out


def _at(stamp: str, hour: int, minute: int) -> str:
    """Another time of day on a stamp's day, keeping its UTC offset."""
    return f"{stamp[:11]}{hour:02d}:{minute:02d}{stamp[16:]}"


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_id", user.id)
    s.set_var("workspace", f"{world.company(user.company_id).name} Community")
    people = list(world.people)
    others = [p.id for p in people[1:]]
    s.table("members", key="member_id", kind="member",
            hint="use search_members to find member ids").load([
        {"member_id": p.id, "name": p.name, "email": p.email, "display_name": p.username,
         "title": p.title, "company": world.company(p.company_id).name, "city": p.city,
         "timezone": TIMEZONES[p.city], "status_text": rng.choice(STATUSES),
         "presence": rng.choice(["active", "active", "away"])} for p in people])

    channels: list[Row] = []
    for i, (name, kind, topic, who) in enumerate(CHANNELS):
        if who == "all":
            ids = [p.id for p in people]
        else:
            ids = sorted(rng.sample(others, rng.randint(6, 24)))
            if who == "user":
                ids = sorted([user.id, *ids])
        channels.append({"channel_id": f"ch_{i + 1:04d}", "name": name, "kind": kind,
                         "topic": topic, "created_by": ids[rng.randrange(len(ids))],
                         "created_at": days_ago(world, rng.randint(90, 900))[:10],
                         "member_ids": ids})
    s.set_var("__seq_ch", len(channels))
    for j, other in enumerate(sorted(rng.sample(others, 10))):
        channels.append({"channel_id": f"dm_{j + 1:04d}", "name": world.person(other).name,
                         "kind": "dm", "topic": "", "created_by": user.id,
                         "created_at": days_ago(world, rng.randint(30, 400))[:10],
                         "member_ids": sorted([user.id, other])})
    s.set_var("__seq_dm", 10)
    s.table("channels", key="channel_id", kind="channel",
            hint="use list_channels to see channel ids").load(channels)

    # Messages, oldest first per conversation; ids are assigned in global time order below.
    drafts: list[Row] = []
    for ch in channels:
        members = ch["member_ids"]
        if ch["kind"] == "dm":
            start = rng.randint(1, 20)
            for k in range(rng.randint(3, 8)):
                sender = members[(k + rng.randint(0, 1)) % 2]
                drafts.append({"channel_id": ch["channel_id"], "sender_id": sender,
                               "text": _text(rng.choice(DM_LINES), world, rng, user.city,
                                             members),
                               "sent_at": _at(days_ago(world, start, None), 9 + k,
                                              rng.randint(0, 59)), "replies": [],
                               "reactions": []})
            continue
        for _ in range(rng.randint(10, 18)):
            sender = user.id if (user.id in members and rng.random() < 0.15) else \
                rng.choice([m for m in members if m != user.id])
            when = days_ago(world, rng.randint(1, 30), rng)
            replies = [(rng.choice(members), rng.choice(REPLIES))
                       for _ in range(rng.choice([0, 0, 0, 1, 2, 3]))]
            drafts.append({"channel_id": ch["channel_id"], "sender_id": sender,
                           "text": _text(rng.choice(MESSAGES), world, rng,
                                         world.person(sender).city,
                                         [m for m in members if m != sender]),
                           "sent_at": when, "replies": replies,
                           "reactions": _reactions(rng, members)})
    drafts.sort(key=lambda d: (d["sent_at"], d["channel_id"]))
    rows: list[Row] = []
    for d in drafts:
        parent = {"message_id": f"msg_{len(rows) + 1:04d}", "channel_id": d["channel_id"],
                  "sender_id": d["sender_id"], "text": d["text"], "sent_at": d["sent_at"],
                  "edited_at": None, "parent_message_id": None, "reactions": d["reactions"]}
        rows.append(parent)
        minute = int(d["sent_at"][14:16])
        for k, (sender, text) in enumerate(d["replies"]):
            rows.append({"message_id": f"msg_{len(rows) + 1:04d}",
                         "channel_id": d["channel_id"], "sender_id": sender, "text": text,
                         "sent_at": (d["sent_at"][:14] + f"{min(59, minute + 5 + k):02d}"
                                     + d["sent_at"][16:]),  # same hour, same offset
                         "edited_at": None, "parent_message_id": parent["message_id"],
                         "reactions": []})
    s.table("messages", key="message_id", kind="message",
            hint="use get_channel_history or search_messages to see message ids").load(rows)
    s.set_var("__seq_msg", len(rows))
