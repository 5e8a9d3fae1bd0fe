"""The initial workspace of the team_chat server, built from the shared world: every person is a
member (member id = world person id, same name and email), 16 to 27 channels (public and
private, a seed's subset of a pool; the user in some), 7 to 14 direct-message conversations
with the user, about 500 to 800 messages with threads and reactions.

The rng is drawn from in a fixed order, so a seed always yields the same state.
"""

from __future__ import annotations

import random

from servers.core import ids as shown
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

# The workspace-wide channels every member is in, then a pool of topical channels of which a
# seed keeps a subset: name, kind, topic.
EVERYONE = [
    ("general", "public", "Company-wide announcements and work-based matters"),
    ("random", "public", "Non-work banter and water cooler conversation"),
    ("announcements", "public", "Official news from the leadership team"),
]
TOPICAL = [
    ("engineering", "public", "Builds, deploys, code review and architecture"),
    ("design", "public", "Design critiques, Figma links and UX research"),
    ("product", "public", "Roadmap, specs and product decisions"),
    ("sales", "public", "Deals, pipeline and customer wins"),
    ("marketing", "public", "Campaigns, content calendar and brand"),
    ("support", "public", "Customer tickets that need a second pair of eyes"),
    ("data-science", "public", "Experiments, dashboards and model reviews"),
    ("hiring", "public", "Open roles, referrals and interview loops"),
    ("ops", "public", "Facilities, IT and office logistics"),
    ("incident-response", "public", "Production incidents: status, owner, next update"),
    ("book-club", "public", "Monthly book picks and discussion"),
    ("running-club", "public", "Group runs and race sign-ups"),
    ("travel", "public", "Travel tips, bookings and expense questions"),
    ("frontend", "public", "Web app, components and the design system"),
    ("security", "public", "Security reviews, phishing reports and access requests"),
    ("partnerships", "public", "Partner deals, integrations and co-marketing"),
    ("pets", "public", "Photos of the office's unofficial mascots"),
    ("project-atlas", "private", "Atlas migration: milestones and blockers"),
    ("project-nova", "private", "Nova launch war room"),
    ("leadership", "private", "Leadership team discussions"),
    ("offsite-2026", "private", "Planning the September offsite"),
    ("finance-approvals", "private", "Budget and expense approvals"),
    ("customer-escalations", "private", "Escalated customer accounts"),
    ("board-prep", "private", "Preparing the quarterly board meeting"),
    ("project-orion", "private", "Orion pilot with two design partners"),
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


def _sorted_as_shown(world: World, member_ids: list[str]) -> list[str]:
    """Member ids in the order of the ids a policy sees (the state shows sealed ids): the
    tools keep member lists sorted, so a left and rejoined channel is as it was."""
    return sorted(member_ids, key=lambda pid: shown.opaque(world.seed, pid))


def _pick_channels(rng: random.Random) -> list[tuple[str, str, str, bool | None]]:
    """The seed's channels as (name, kind, topic, whether the user is in it; None for a
    workspace-wide one): the workspace-wide ones, then a subset of the topical pool in pool
    order. Of each kind at least one topical channel has the user and one does not, so every
    world has a channel to leave, one to join and a private one that stays hidden."""
    public = [c for c in TOPICAL if c[1] == "public"]
    private = [c for c in TOPICAL if c[1] == "private"]
    kept = (rng.sample(public, rng.randint(10, len(public)))
            + rng.sample(private, rng.randint(3, len(private))))
    joined = {name: rng.random() < 0.65 for name, _, _ in kept}
    for kind in ("public", "private"):
        first, second = [name for name, k, _ in kept if k == kind][:2]  # sampled: any two
        joined[first], joined[second] = True, False
    return ([(*c, None) for c in EVERYONE]
            + [(*c, joined[c[0]]) for c in TOPICAL if c[0] in joined])


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
    for name, kind, topic, user_in in _pick_channels(rng):
        if user_in is None:  # workspace-wide
            ids = _sorted_as_shown(world, [p.id for p in people])
        else:
            ids = sorted(rng.sample(others, rng.randint(6, 24)))
            ids = _sorted_as_shown(world, [user.id, *ids] if user_in else ids)
        channels.append({"channel_id": f"ch_{len(channels) + 1:04d}", "name": name,
                         "kind": kind, "topic": topic,
                         "created_by": ids[rng.randrange(len(ids))],
                         "created_at": days_ago(world, rng.randint(90, 900))[:10],
                         "member_ids": ids})
    n_dms = rng.randint(7, 14)
    for j, other in enumerate(sorted(rng.sample(others, n_dms))):
        channels.append({"channel_id": f"dm_{j + 1:04d}", "name": world.person(other).name,
                         "kind": "dm", "topic": "", "created_by": user.id,
                         "created_at": days_ago(world, rng.randint(30, 400))[:10],
                         "member_ids": _sorted_as_shown(world, [user.id, other])})
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
        for _ in range(rng.randint(6, 20)):
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
