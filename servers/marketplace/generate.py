"""marketplace: listings, offers, conversations and reviews generated from the shared world.

Sellers and buyers are the world's people in their world cities; the user (the world's
principal) sells a few things, has bought a few, and has offers and chats going both ways.
"""

from __future__ import annotations

import random

from servers.core import money
from servers.core.state import Row, State
from servers.core.world import World, days_ago

# title, category, typical price in USD, description
CATALOG = [
    ("iPhone 13 128GB, blue", "electronics", 420, "Battery health 88%, always in a case. "
     "Charger not included."),
    ("Sony WH-1000XM4 headphones", "electronics", 160, "Noise cancelling, with carry case "
     "and cable."),
    ("Nintendo Switch OLED", "electronics", 240, "White console, two joy-cons, dock and "
     "one game."),
    ("Dell 27-inch 4K monitor", "electronics", 210, "No dead pixels, stand and HDMI cable "
     "included."),
    ("iPad Air (4th gen) 64GB", "electronics", 330, "Wi-Fi model with a smart folio cover."),
    ("Canon EOS M50 camera kit", "electronics", 450, "15-45mm lens, two batteries, 32GB "
     "card."),
    ("Kindle Paperwhite", "electronics", 70, "Waterproof model, light scratches on the "
     "back."),
    ("MacBook Air M1 8GB/256GB", "electronics", 560, "Space grey, 210 battery cycles, "
     "original box."),
    ("IKEA Kallax shelf 4x4", "furniture", 90, "White, disassembled and ready to go."),
    ("Mid-century oak dining table", "furniture", 380, "Seats six, a few marks on the top."),
    ("Leather armchair", "furniture", 260, "Cognac brown leather, very comfortable."),
    ("Electric standing desk", "furniture", 300, "160x80 top, memory presets, quiet "
     "motors."),
    ("Queen bed frame with slats", "furniture", 150, "Solid pine, no mattress."),
    ("Patagonia down jacket (M)", "clothing", 120, "Navy, worn one winter."),
    ("Levi's 501 jeans (32/32)", "clothing", 35, "Classic stonewash, barely worn."),
    ("Nike Air Max 90 (EU 42)", "clothing", 75, "Worn a handful of times, original box."),
    ("Wool winter coat (L)", "clothing", 95, "Charcoal grey, dry-cleaned."),
    ("Harry Potter hardcover box set", "books", 85, "All seven books, like new."),
    ("Calculus textbook, 8th edition", "books", 40, "Some highlighting in the first "
     "chapters."),
    ("Vintage National Geographic lot", "books", 60, "50 issues from the 1980s."),
    ("Road bike Trek Domane AL 2", "sports", 650, "56cm frame, serviced last month."),
    ("Yoga mat and blocks set", "sports", 30, "Mat is 6mm thick, two cork blocks."),
    ("Wilson tennis racket", "sports", 65, "Grip size 3, fresh strings."),
    ("4-person camping tent", "sports", 110, "Used on two trips, all poles and pegs."),
    ("Snowboard 156cm with bindings", "sports", 220, "Freshly waxed, medium bindings."),
    ("KitchenAid stand mixer", "home", 260, "Red, with whisk, hook and paddle."),
    ("Dyson V8 cordless vacuum", "home", 180, "New battery fitted this year."),
    ("Nespresso Vertuo machine", "home", 85, "Descaled, with a milk frother."),
    ("Le Creuset dutch oven 24cm", "home", 170, "Volcanic orange, no chips."),
    ("LEGO Millennium Falcon 75257", "toys", 140, "Complete with instructions, no box."),
    ("Wooden train set", "toys", 45, "Over 80 pieces with a storage bag."),
    ("Baby stroller Bugaboo Fox", "toys", 480, "Includes bassinet and rain cover."),
    ("Yamaha acoustic guitar F310", "music", 120, "New strings, with a soft case."),
    ("Casio digital piano PX-S1100", "music", 420, "88 weighted keys, stand included."),
    ("Vinyl record collection (40 LPs)", "music", 200, "Mostly 70s rock and jazz."),
    ("Fender Frontman 20G amp", "music", 80, "Works perfectly, small scuff on the corner."),
    ("Vespa Primavera 125 scooter", "vehicles", 2900, "2019, 8,400 km, two helmets."),
    ("Xiaomi electric scooter Pro 2", "vehicles", 290, "Range about 35 km, new tyres."),
    ("Dutch city bike", "vehicles", 180, "Three gears, lights and a rear rack."),
    ("Pokemon card binder (200 cards)", "collectibles", 150, "Includes a few holo "
     "rares."),
    ("Vintage Omega Seamaster watch", "collectibles", 1400, "1968, recently serviced."),
    ("Signed football jersey", "collectibles", 240, "With certificate of authenticity."),
    ("Antique brass telescope", "collectibles", 320, "Decorative, on a wooden tripod."),
    ("Polaroid SX-70 camera", "collectibles", 210, "Tested with new film, works well."),
]
CONDITIONS = ["new", "like_new", "like_new", "good", "good", "good", "fair"]

ASK = ["Hi! Is the {title} still available?", "Hello, could I see the {title} this week?",
       "Hi, does the {title} have any damage not in the photos?",
       "Hey, would you ship the {title} or is it pick-up only?"]
REPLY = ["Yes, it's still available.", "Sure, any evening after 6 works for me in {city}.",
         "No damage apart from what's in the description.",
         "Pick-up only, I'm in {city} city centre."]
FOLLOW = ["Great, thanks!", "Perfect, I'll let you know tomorrow.",
          "Thanks, I'll think about it.", "Could you send a couple more photos?"]
OFFER_NOTES = ["Would you take this?", "Can pick up today.", "Cash on pick-up.",
               "Is this price OK for you?", ""]
REVIEW_TEXT = {5: ["Great seller, item exactly as described.", "Smooth and friendly, "
                   "highly recommended.", "Fast replies and an easy pick-up."],
               4: ["Good item, pick-up was a bit late.", "As described, fair price."],
               3: ["Item OK but had more wear than shown.", "Took a while to respond."],
               2: ["Item not quite as described."], 1: ["Never showed up for pick-up."]}


def _price(rng: random.Random, base: float, cur: str) -> int:
    """Asking prices people actually type, in minor units of `cur`: whole units of the
    currency, multiples of 5 above 50 (the USD-like base scaled first)."""
    raw = money.seed(round(base * rng.uniform(0.75, 1.2), 2), cur)
    unit = 10 ** money.digits(cur)
    step = 5 * unit if raw > 50 * unit else unit
    return max(money.divide(raw, step) * step, unit)


def _whole(minor: int, cur: str) -> int:
    """An amount rounded to whole units of the currency (half to even), as offers are."""
    unit = 10 ** money.digits(cur)
    return money.divide(minor, unit) * unit


def _message(s: State, conv_id: str, sender: str, text: str, when: str) -> None:
    s["messages"].insert({"message_id": s.next_id("msg"), "conversation_id": conv_id,
                          "sender_id": sender, "text": text, "sent_at": when})


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user.id
    s.set_var("user_id", user)
    cur = world.currency
    money.remember_currency(s, cur)
    people = list(world.people[1:])
    sellers = s.table("sellers", key="seller_id", kind="seller",
                      hint="seller ids come from search_listings or get_listing")
    sellers.load([{"seller_id": p.id, "name": p.name, "city": p.city,
                   "member_since": days_ago(world, rng.randint(120, 2400))[:10]}
                  for p in world.people])
    listings = s.table("listings", key="listing_id", kind="listing",
                       hint="use search_listings or list_my_listings to see listing ids")
    offers = s.table("offers", key="offer_id", kind="offer",
                     hint="use list_offers to see offer ids")
    s.table("conversations", key="conversation_id", kind="conversation",
            hint="use list_conversations to see conversation ids")
    s.table("messages", key="message_id", kind="message")
    reviews = s.table("reviews", key="review_id", kind="review")

    items = rng.sample(CATALOG, rng.randint(36, len(CATALOG)))  # what is for sale this seed
    ages = sorted((rng.randint(1, 75) for _ in items), reverse=True)  # ids in time order
    n_user = rng.randint(5, 7)  # listings the user sells
    rows = []
    for i, ((title, category, base, desc), age) in enumerate(zip(items, ages, strict=True)):
        seller = world.user if i % 5 == 3 and sum(r["seller_id"] == user for r in rows) < n_user \
            else rng.choice(people)
        when = days_ago(world, age, rng)
        rows.append({"listing_id": f"lst_{i + 1:04d}", "title": title, "description": desc,
                     "category": category, "condition": rng.choice(CONDITIONS),
                     "price": _price(rng, base, cur), "city": seller.city, "seller_id": seller.id,
                     "status": "active", "buyer_id": None, "sold_price": None,
                     "created_at": when, "updated_at": when})
    listings.load(rows)
    s.set_var("__seq_lst", len(rows))
    age_of = {r["listing_id"]: a for r, a in zip(rows, ages, strict=True)}

    def ago(listing: Row, days: int) -> str:
        """`days` ago, but never before the listing was posted."""
        return days_ago(world, max(1, min(days, age_of[listing["listing_id"]])), rng)

    mine = [r for r in rows if r["seller_id"] == user]
    theirs = [r for r in rows if r["seller_id"] != user]  # oldest first
    older = theirs[:20]
    rng.shuffle(older)
    n_bought, n_sold, n_gone = rng.randint(3, 5), rng.randint(2, 5), rng.randint(1, 3)
    bought = older[:n_bought]
    sold_elsewhere = older[n_bought:n_bought + n_sold]
    gone = older[n_bought + n_sold:n_bought + n_sold + n_gone]
    open_for_user = older[n_bought + n_sold + n_gone:] + theirs[20:]
    # a repeat seller: the user bought twice from the seller of their latest purchase
    repeat = sellers.get(bought[-1]["seller_id"])
    listings.update(bought[-2]["listing_id"], seller_id=repeat["seller_id"],
                    city=repeat["city"])
    bought = [listings.get(r["listing_id"]) for r in bought]

    def offer(listing: Row, buyer: str, frac: float, status: str, days: int) -> Row:
        created = ago(listing, days)
        return offers.insert({
            "offer_id": s.next_id("off"), "listing_id": listing["listing_id"],
            "buyer_id": buyer, "seller_id": listing["seller_id"],
            "amount": _whole(money.times(listing["price"], frac), cur),
            "message": rng.choice(OFFER_NOTES),
            "status": status, "created_at": created,
            "responded_at": None if status == "pending" else created})

    def sell(listing: Row, o: Row) -> None:
        listings.update(listing["listing_id"], status="sold", buyer_id=o["buyer_id"],
                        sold_price=o["amount"], updated_at=o["created_at"])

    # The user's purchases: an accepted offer each; one already reviewed.
    for listing in bought:
        sell(listing, offer(listing, user, rng.uniform(0.85, 0.95), "accepted", 10))
    first = bought[0]
    reviews.insert({"review_id": "rev_0001", "seller_id": first["seller_id"],
                    "reviewer_id": user, "listing_id": first["listing_id"], "rating": 5,
                    "comment": REVIEW_TEXT[5][0], "created_at": ago(first, 7)})
    for listing in sold_elsewhere:
        buyer = rng.choice([p.id for p in people if p.id != listing["seller_id"]])
        sell(listing, offer(listing, buyer, 1.0, "accepted", rng.randint(2, 20)))
    for listing in gone:
        listings.update(listing["listing_id"], status="removed",
                        updated_at=ago(listing, rng.randint(1, 10)))
    # The user's own listings: one sold, one removed, the rest active with incoming offers.
    sold_mine, removed_mine, active_mine = mine[0], mine[1], mine[2:]
    sell(sold_mine, offer(sold_mine, rng.choice(people).id, 0.9, "accepted", 12))
    listings.update(removed_mine["listing_id"], status="removed",
                    updated_at=ago(removed_mine, 5))
    for listing in active_mine:
        for buyer in rng.sample(people, rng.randint(2, 4)):
            offer(listing, buyer.id, rng.uniform(0.6, 0.95),
                  rng.choice(["pending", "pending", "declined"]), rng.randint(1, 6))
    # The user's own offers on other people's active listings.
    n_pending = rng.randint(2, 6)
    for k, listing in enumerate(open_for_user[:rng.randint(8, 12)]):
        offer(listing, user, rng.uniform(0.7, 0.95), "pending" if k < n_pending else "declined",
              rng.randint(1, 8))

    # Conversations: the user asking sellers, buyers asking the user, and each purchase.
    chats = [(r, user, r["seller_id"]) for r in [*bought, *open_for_user[:rng.randint(14, 18)]]]
    for listing in active_mine:
        for o in offers.rows(lambda x, lid=listing["listing_id"]: x["listing_id"] == lid)[:2]:
            chats.append((listing, o["buyer_id"], user))
    for n, (listing, buyer, seller) in enumerate(chats):
        conv_id = f"conv_{n + 1:04d}"
        k = rng.randrange(len(ASK))
        lines = [(buyer, ASK[k].format(title=listing["title"])),
                 (seller, REPLY[k].format(city=sellers.get(seller)["city"]))]
        if rng.random() < 0.6:
            lines.append((buyer, rng.choice(FOLLOW)))
        days = rng.randint(1, 12)
        stamps = sorted(ago(listing, days) for _ in lines)
        for (sender, text), when in zip(lines, stamps, strict=True):
            _message(s, conv_id, sender, text, when)
        s["conversations"].insert({
            "conversation_id": conv_id, "listing_id": listing["listing_id"],
            "buyer_id": buyer, "seller_id": seller, "last_message_at": stamps[-1],
            "unread": 0 if lines[-1][0] == user else rng.choice([0, 1])})
    s.set_var("__seq_conv", len(chats))

    # Reviews other buyers left for sellers (including the user as a seller).
    for n in range(2, rng.randint(36, 52)):
        seller = rng.choice([world.user, *people[:25]])
        reviewer = rng.choice([p for p in people if p.id != seller.id])
        rating = rng.choice([5, 5, 5, 4, 4, 3, 2, 1] if n % 9 else [5])
        reviews.insert({"review_id": f"rev_{n:04d}", "seller_id": seller.id,
                        "reviewer_id": reviewer.id, "listing_id": None, "rating": rating,
                        "comment": rng.choice(REVIEW_TEXT[rating]),
                        "created_at": days_ago(world, rng.randint(15, 400), rng)})
    s.set_var("__seq_rev", len(reviews))
    s.commit()  # generation is not undoable
