"""The initial network of the social_media server, built from the shared world: every person
has an account (user id = world person id, username = world username), follows (the user
follows 20 to 32 people), 110 to 190 posts with hashtags and mentions, likes, up to 32 reposts
and 70 to 150 comments over the last two months: how many of each varies with the seed.

The rng is drawn from in a fixed order, so a seed always yields the same state.
"""

from __future__ import annotations

import random
import re

from servers.core.state import Row, State
from servers.core.world import Person, World, days_ago

INTERESTS = ["Coffee addict.", "Runner and amateur photographer.", "Building things that last.",
             "Opinions are my own.", "Reading too many books at once.", "Weekend hiker.",
             "Learning Japanese, slowly.", "Dog person.", "Always up for a good podcast.",
             "Ex-founder, still curious.", "Home cook, terrible baker.", "Cyclist."]

# {place}: a restaurant or cafe in the author's city; {spot}: a landmark there; {company}: the
# author's company; {city}: the author's city; {other}: a mention of another user.
POSTS = [
    "Just tried {place} in {city} and the food was fantastic. Highly recommend! #foodie",
    "Big week at {company}: we shipped the new onboarding flow. Proud of the team #productlaunch",
    "We're hiring engineers at {company} in {city}. DM me if you're curious #hiring",
    "Morning run along the river in {city}, 10k done before work #running",
    "Hot take: most dashboards should be a single number and a sentence. #data",
    "Great conversation with {other} about pricing experiments today #startups",
    "Working from {place} today. Good coffee, fast wifi #remotework #coffee",
    "Reading 'Thinking in Systems' again. Still the best book on feedback loops #books",
    "Heading to the {city} tech conference next month, who else is going? #conference",
    "Our team at {company} cut cloud costs by 30% this quarter. Thread soon #engineering",
    "If you're in {city}, the view from {spot} at sunset is unreal #travel",
    "New blog post on how we run design critiques at {company} #design",
    "Shoutout to {other} for the brilliant talk on model evaluation #AI",
    "Trying to use less plastic at the office: refill stations are up! #sustainability",
    "Anyone have recommendations for a good project management tool? #productivity",
    "Weekend plan: farmers market, long lunch at {place}, early night #weekend",
    "LLM agents are only as good as the tools you give them #AI",
    "Landed in {city}! Coffee recommendations near the center? #travel #coffee",
    "Three lessons from our first year at {company}: hire slowly, ship weekly, listen more "
    "#startups",
    "Finally finished the marathon training block. Race day in two weeks #running",
    "The best meetings are the ones that could have been a doc. #productivity",
    "Loved the new exhibition at {spot} #art",
    "Our quarterly numbers are out: revenue up 18% year over year at {company} #business",
    "Pair programming with {other} today, learned three new shortcuts #engineering",
    "Data quality is a product, not a chore #data",
    "Back in {city} after two weeks away. First stop: {place} #travel",
    "Book club pick for June: 'The Design of Everyday Things' #books #design",
    "Cooking dinner for friends tonight, trying a new curry recipe #foodie",
    "Grateful for mentors like {other} who make time for juniors #career",
    "Launch day! Try what we built at {company} and tell us what you think #productlaunch",
]
COMMENTS = ["Totally agree!", "Congrats, well deserved!", "Great point, thanks for sharing.",
            "Adding this to my list.", "Where can I read more about this?", "Love this!",
            "Same experience here.", "Interesting, hadn't thought of it that way.",
            "See you there!", "This is so helpful, thank you.", "Count me in.",
            "Ha, relatable.", "Would love to hear more in a thread.", "Nice one!"]
VERIFIED_TITLES = {"CTO", "Marketing Manager", "Researcher"}


def _places_in(world: World, city: str, kinds: tuple[str, ...]) -> list[str]:
    return [p.name for p in world.places if p.city == city and p.kind in kinds]


def _user_row(world: World, p: Person, rng: random.Random) -> Row:
    company = world.company(p.company_id)
    website = f"https://{company.domain}" if rng.random() < 0.3 else None
    return {"user_id": p.id, "username": p.username, "display_name": p.name,
            "bio": f"{p.title} at {company.name}. {rng.choice(INTERESTS)}", "location": p.city,
            "website": website, "joined_at": days_ago(world, rng.randint(200, 2500), rng)[:10],
            "verified": p.title in VERIFIED_TITLES and rng.random() < 0.7}


def _post_text(world: World, author: Person, rng: random.Random) -> tuple[str, str | None]:
    """(content, mentioned person id or None)."""
    template = rng.choice(POSTS)
    other = None
    if "{other}" in template:
        other = rng.choice([p for p in world.people if p.id != author.id])
    food = _places_in(world, author.city, ("restaurant", "cafe"))
    text = template.format(place=rng.choice(food),
                           spot=rng.choice(_places_in(world, author.city, ("landmark",))),
                           city=author.city,
                           company=world.company(author.company_id).name,
                           other=f"@{other.username}" if other else "")
    return text, other.id if other else None


def _at(stamp: str, hour: int, minute: int) -> str:
    """Another time of day on a stamp's day, keeping its UTC offset."""
    return f"{stamp[:11]}{hour:02d}:{minute:02d}{stamp[16:]}"


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_id", user.id)
    people = list(world.people)
    others = [p.id for p in people[1:]]
    s.table("users", key="user_id", kind="user",
            hint="use search_users to find user ids").load(
        [_user_row(world, p, rng) for p in people])

    edges: list[tuple[str, str]] = [(user.id, o)
                                    for o in sorted(rng.sample(others, rng.randint(20, 32)))]
    edges += [(o, user.id) for o in sorted(rng.sample(others, rng.randint(16, 34)))]
    for p in people[1:]:
        for o in sorted(rng.sample([q.id for q in people if q.id != p.id], rng.randint(2, 12))):
            if o != user.id:
                edges.append((p.id, o))
    follows = s.table("follows", key="follow_id", kind="follow",
                      hint="use list_connections to see who follows whom")
    seen: dict[str, Row] = {}
    for a, b in edges:
        seen.setdefault(f"{a}>{b}", {"follow_id": f"{a}>{b}", "follower_id": a,
                                     "followee_id": b,
                                     "since": days_ago(world, rng.randint(30, 600))[:10]})
    follows.load(list(seen.values()))

    # Posts oldest first, so post ids grow with time; every 8th post is the user's own.
    days = sorted((rng.randint(1, 60) for _ in range(rng.randint(110, 190))), reverse=True)
    posts: list[Row] = []
    written: set[tuple[str, str]] = set()  # membership only: no author posts the same text twice
    for i, d in enumerate(days):
        author = user if i % 8 == 3 else rng.choice(people[1:])
        text, mentioned = _post_text(world, author, rng)
        while (author.id, text) in written:
            text, mentioned = _post_text(world, author, rng)
        written.add((author.id, text))
        tags: list[str] = []
        for t in re.findall(r"#(\w+)", text):
            if t not in tags:
                tags.append(t)
        likers = sorted(rng.sample([p.id for p in people if p.id != author.id],
                                   rng.randint(0, 14)))
        posts.append({"post_id": f"post_{i + 1:04d}", "author_id": author.id, "content": text,
                      "hashtags": tags, "mentions": [mentioned] if mentioned else [],
                      "created_at": days_ago(world, d, rng), "repost_of": None,
                      "liked_by": likers})
    n = len(posts)
    # Reposts of earlier posts (a few by the user), a day or so after the original.
    for j in range(rng.randint(10, 32)):
        orig = posts[rng.randrange(n - 10)]
        reposter = user.id if j % 5 == 0 else rng.choice(others)
        if reposter == orig["author_id"] or any(
                p["repost_of"] == orig["post_id"] and p["author_id"] == reposter for p in posts):
            continue
        posts.append({"post_id": f"post_{len(posts) + 1:04d}", "author_id": reposter,
                      "content": "", "hashtags": [], "mentions": [],
                      "created_at": _at(orig["created_at"], 22, 30), "repost_of":
                      orig["post_id"], "liked_by": []})
    s.table("posts", key="post_id", kind="post",
            hint="use get_timeline or search_posts to see post ids").load(posts)
    s.set_var("__seq_post", len(posts))

    originals = [p for p in posts if p["repost_of"] is None]
    comments: list[Row] = []
    for k in range(rng.randint(70, 150)):
        post = rng.choice(originals)
        author = user.id if k % 9 == 4 else rng.choice(others)
        comments.append({"comment_id": f"cmt_{k + 1:04d}", "post_id": post["post_id"],
                         "author_id": author, "content": rng.choice(COMMENTS),
                         "created_at": _at(post["created_at"], rng.randint(22, 23),
                                           rng.randint(0, 59))})
    comments.sort(key=lambda c: (c["created_at"], c["comment_id"]))
    s.table("comments", key="comment_id", kind="comment",
            hint="use get_post to see a post's comments").load(comments)
    s.set_var("__seq_cmt", len(comments))
