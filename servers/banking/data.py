"""banking: the generated initial state (accounts, cards, payees, transactions, schedules).

Everything comes from the world and the `rng` passed in, so one seed gives one state in any
process. Balances are set directly; the transaction history is what a statement would show.
Amounts are drawn as USD-like magnitudes, then scaled to the world's one currency and stored
as integer minor units (servers.core.money) just before loading.
"""

from __future__ import annotations

import datetime as dt
import random

from servers.banking.holdings import BILLS, card_plan, draw_accounts
from servers.core import clock, money
from servers.core.state import Row, State
from servers.core.world import World, days_ago

TODAY = dt.date(2026, 6, 15)  # REFERENCE_DATE: "today" for every banking rule
DISPUTE_WINDOW_DAYS = 60

# Public ABA routing numbers of large US banks (all pass the ABA checksum).
BANKS = {"021000021": "JPMorgan Chase", "026009593": "Bank of America",
         "121000248": "Wells Fargo", "021000089": "Citibank", "091000022": "U.S. Bank",
         "051405515": "Capital One", "043000096": "PNC Bank", "031101266": "TD Bank",
         "011000138": "Bank of America (New England)", "071000013": "JPMorgan Chase (Illinois)"}
OWN_ROUTING = "322271627"  # the user's own bank

BUSINESS_PAYEES = [  # name, category, nickname
    ("Lakeside Property Management", "housing", "Rent"),
    ("City Power & Light", "utilities", "Electricity"),
    ("Metro Water Authority", "utilities", "Water"),
    ("Brightwave Internet", "utilities", "Internet"),
    ("Nimbus Mobile", "utilities", "Phone"),
    ("SafeHarbor Insurance", "bills", "Car insurance"),
    ("Northside Fitness Club", "health", "Gym"),
    ("Keystone Student Loans", "bills", "Student loan"),
    ("AutoFinance Direct", "bills", "Car loan"),
    ("County Tax Office", "bills", None),
]
MERCHANTS = {  # generic merchants per category (world places are added per city)
    "groceries": ["FreshMart", "Whole Harvest Market", "Corner Grocer", "Greenleaf Organics"],
    "transport": ["Metro Transit", "RideNow", "Shell Station #204", "CityPark Garage"],
    "shopping": ["Shopwell Online", "HomeGoods Depot", "PixelTech Store", "Urban Threads"],
    "entertainment": ["Cineplex Downtown", "Spotlight Live Tickets", "Arcade Alley"],
    "subscriptions": ["StreamFlix", "Tunely Premium", "CloudBox Storage", "NewsDaily Digital"],
    "health": ["CarePlus Pharmacy", "BrightSmile Dental", "Vision Center Optics"],
    "travel": ["SkyWays Airlines", "RailLink", "Horizon Car Rental"],
}
SUBSCRIPTIONS = [("StreamFlix", 15.49), ("Tunely Premium", 10.99), ("CloudBox Storage", 2.99)]


def _shift(stamp: str, days: int) -> str:
    return (dt.datetime.fromisoformat(stamp) + dt.timedelta(days=days)).isoformat(
        timespec="minutes")


def _card_purchase(rng: random.Random, world: World, day: int, account_id: str, card_id: str,
                   category: str, merchant: str, low: float, high: float) -> Row:
    return {"account_id": account_id, "posted_at": days_ago(world, day, rng),
            "description": f"Card purchase - {merchant}", "merchant": merchant,
            "category": category, "amount": -round(rng.uniform(low, high), 2),
            "type": "card_purchase", "status": "pending" if day <= 1 else "posted",
            "card_id": card_id, "payee_id": None, "counterparty_account_id": None,
            "memo": "", "dispute_id": None}


def _plain(world: World, day: int, account_id: str, description: str, category: str,
           amount: float, kind: str, *, rng: random.Random | None = None,
           payee_id: str | None = None, other: str | None = None, memo: str = "") -> Row:
    return {"account_id": account_id, "posted_at": days_ago(world, day, rng),
            "description": description, "merchant": None, "category": category,
            "amount": round(amount, 2), "type": kind, "status": "posted", "card_id": None,
            "payee_id": payee_id, "counterparty_account_id": other, "memo": memo,
            "dispute_id": None}


def _spend_days(rng: random.Random, status: str, lo: int = 0) -> int:
    """A purchase day: a frozen card was last used some days ago."""
    return rng.randint(max(lo, 10) if status == "frozen" else lo, 119)


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    partner = world.people[1]
    employer = world.company(user.company_id).name
    s.set_var("user_id", user.id)
    cur = world.currency
    money.remember_currency(s, cur)

    def minor(usd: float) -> int:
        return money.seed(round(usd, 2), cur)

    def last4() -> str:
        return f"{rng.randint(0, 9999):04d}"

    def opened(lo: int, hi: int) -> str:
        return (TODAY - dt.timedelta(days=rng.randint(lo, hi))).isoformat()

    # ------------------------------------------------------------------ accounts
    drawn, closed = draw_accounts(rng)
    acc = {role: f"acc_{i + 1:03d}" for i, (role, *_rest) in enumerate(drawn)}
    live = {role: acc[role] for role in acc if role not in closed}  # open accounts
    names = {}
    account_rows = []
    for role, name, kind, (lo, hi), limit, rate in drawn:
        names[role] = name.format(partner=partner.first_name)
        balance = 0.0 if role in closed else rng.uniform(lo, hi)
        account_rows.append({
            "account_id": acc[role], "name": names[role], "type": kind, "currency": cur,
            "balance": minor(-balance if kind == "credit" else balance),
            "credit_limit": None if limit is None else minor(limit), "interest_rate": rate,
            "number_last4": last4(), "routing_number": OWN_ROUTING,
            "status": "closed" if role in closed else "open", "opened_on": opened(400, 3000)})
    s.table("accounts", key="account_id", kind="account",
            hint="use list_accounts to see account ids").load(account_rows)

    # ------------------------------------------------------------------ cards
    card_rows = []
    for role, _name, kind, *_rest in drawn:
        for card_role, network, status, virtual, expires in card_plan(
                rng, role, kind, role in closed):
            card_rows.append({
                "card_id": f"card_{len(card_rows) + 1:02d}", "account_id": acc[role],
                "kind": "credit" if kind == "credit" else "debit", "network": network,
                "last4": last4(), "cardholder": partner.name if card_role == "joint"
                else user.name, "expires": expires, "status": status, "is_virtual": virtual,
                "freeze_reason": rng.choice(["suspicious_activity", "misplaced", "lost"])
                if status == "frozen" else None, "_role": card_role})
    card = {r["_role"]: r for r in card_rows if r["account_id"] in live.values()}
    s.table("cards", key="card_id", kind="card", hint="use list_cards to see card ids").load(
        [{k: v for k, v in r.items() if k != "_role"} for r in card_rows])

    # ------------------------------------------------------------------ payees
    routings = sorted(BANKS)
    # the landlord in every world, six to nine of the other billers
    billers = [BUSINESS_PAYEES[0], *sorted(rng.sample(BUSINESS_PAYEES[1:], rng.randint(6, 9)),
                                           key=BUSINESS_PAYEES.index)]
    friends = sorted(rng.sample(range(1, 30), rng.randint(14, 18)))
    payee_rows = []
    for name, category, nick in billers:
        routing = rng.choice(routings)
        payee_rows.append({"payee_id": f"pye_{len(payee_rows) + 1:03d}", "name": name,
                           "kind": "business", "category": category,
                           "bank_name": BANKS[routing], "routing_number": routing,
                           "account_last4": last4(), "email": None, "nickname": nick,
                           "person_id": None, "added_on": opened(60, 1500)})
    for p in (world.people[i] for i in friends):
        routing = rng.choice(routings)
        payee_rows.append({"payee_id": f"pye_{len(payee_rows) + 1:03d}",
                           "name": p.name, "kind": "person", "category": "transfer",
                           "bank_name": BANKS[routing], "routing_number": routing,
                           "account_last4": last4(), "email": p.email, "nickname": None,
                           "person_id": p.id, "added_on": opened(20, 900)})
    s.table("payees", key="payee_id", kind="payee",
            hint="use list_payees to see payee ids").load(payee_rows)
    s.set_var("__seq_pye", len(payee_rows))
    people_payees = [r for r in payee_rows if r["kind"] == "person"]
    biller = {r["name"]: r for r in payee_rows if r["kind"] == "business"}

    # ------------------------------------------------------------------ transactions
    home = [p for p in world.places if p.city == user.city]
    dining = [p.name for p in home if p.kind in ("restaurant", "cafe")]
    stores = [p.name for p in home if p.kind == "store"]
    europe = [p for p in world.places if p.kind in ("restaurant", "cafe", "store", "hotel")
              and p.city in ("Lisbon", "Berlin", "Paris", "Madrid", "Amsterdam")]
    away = [p.name for p in world.places if p.kind == "hotel" and p.city != user.city]
    main, savings, rewards = acc["main"], acc["savings"], acc["rewards"]
    rows: list[Row] = []

    def spend(role: str, day: int, category: str, merchant: str, low: float,
              high: float) -> None:
        c = card[role]
        rows.append(_card_purchase(rng, world, day, c["account_id"], c["card_id"], category,
                                   merchant, low, high))

    pay = round(rng.uniform(2300, 3400), 2)
    for day in range(3, 120, 14):
        rows.append(_plain(world, day, main, f"Payroll deposit - {employer}", "income",
                           pay, "deposit", memo="salary"))
    rent = round(rng.uniform(1500, 2400), 2)
    rent_payee = biller[BUSINESS_PAYEES[0][0]]
    interest = [(live[r], rate) for r, _n, kind, _b, _l, rate in drawn
                if kind == "savings" and r in live and rate > 0]
    for month_day in (14, 45, 75, 106):
        rows.append(_plain(world, month_day, main, "Bill payment - "
                           "Lakeside Property Management", "housing", -rent, "bill_payment",
                           payee_id=rent_payee["payee_id"], memo="rent"))
        for name, (lo, hi) in BILLS.items():
            if name in biller:
                rows.append(_plain(world, month_day - rng.randint(1, 6), main,
                                   f"Bill payment - {name}", biller[name]["category"],
                                   -rng.uniform(lo, hi), "bill_payment",
                                   payee_id=biller[name]["payee_id"], rng=rng))
        save = float(rng.choice([300, 400, 500]))
        rows.append(_plain(world, month_day, main, f"Transfer to {names['savings']}",
                           "transfer", -save, "transfer_out", other=savings))
        rows.append(_plain(world, month_day, savings, f"Transfer from {names['main']}",
                           "transfer", save, "transfer_in", other=main))
        for role in ("rewards", "travel_card", "cashback"):
            if role in live:
                card_pay = round(rng.uniform(150, 1500), 2)
                rows.append(_plain(world, month_day - 8, main, f"Payment to {names[role]}",
                                   "transfer", -card_pay, "transfer_out", other=live[role]))
                rows.append(_plain(world, month_day - 8, live[role],
                                   "Payment received - thank you", "transfer", card_pay,
                                   "transfer_in", other=main))
        for account_id, rate in interest:
            rows.append(_plain(world, month_day - 13, account_id, "Interest payment",
                               "interest", rng.uniform(3000, 15000) * rate / 1200,
                               "interest"))
        for k, (merchant, price) in enumerate(SUBSCRIPTIONS):  # on the virtual card
            rows.append({**_card_purchase(rng, world, month_day - 3 - 4 * k, rewards,
                                          card["rewards_virtual"]["card_id"], "subscriptions",
                                          merchant, 1, 1), "amount": -price})
    if "travel_card" in live:
        rows.append(_plain(world, 100, live["travel_card"], "Annual card fee", "fees", -95.0,
                           "fee"))
    for i in range(rng.randint(35, 55)):  # everyday debit card use
        day = rng.randint(0, 119)
        role = "main_old" if day > 100 else "main"
        cat = rng.choice(["groceries"] * 4 + ["dining"] * 3 + ["transport"] * 2 + ["health"])
        merchant = rng.choice(dining if cat == "dining" else MERCHANTS[cat])
        low, high = {"groceries": (18, 140), "dining": (9, 75), "transport": (3, 60),
                     "health": (8, 90)}[cat]
        spend(role, day, cat, merchant, low, high)
        if i % 9 == 0:
            rows.append({**_plain(world, day, main, "ATM withdrawal", "cash",
                                  -float(rng.choice([40, 60, 100, 200])), "atm_withdrawal",
                                  rng=rng), "card_id": card[role]["card_id"]})
    if "joint" in live:
        for _ in range(rng.randint(10, 18)):  # joint household spending
            role = rng.choice([r for r in ("joint", "joint_own") if r in card])
            day = _spend_days(rng, card[role]["status"])
            cat = rng.choice(["groceries", "groceries", "shopping", "dining"])
            merchant = rng.choice(stores + MERCHANTS["shopping"] if cat == "shopping"
                                  else dining if cat == "dining" else MERCHANTS["groceries"])
            spend(role, day, cat, merchant, 15, 180)
        for day in range(4, 120, 7):  # the weekly household transfer
            rows.append(_plain(world, day, main, f"Transfer to {names['joint']}", "transfer",
                               -250.0, "transfer_out", other=live["joint"], memo="household"))
            rows.append(_plain(world, day, live["joint"], f"Transfer from {names['main']}",
                               "transfer", 250.0, "transfer_in", other=main,
                               memo="household"))
    for _ in range(rng.randint(28, 44)):  # credit card spending
        day = _spend_days(rng, card["rewards"]["status"])
        cat = rng.choice(["dining", "shopping", "shopping", "entertainment", "travel",
                          "groceries"])
        pool = {"dining": dining, "shopping": stores + MERCHANTS["shopping"],
                "travel": away + MERCHANTS["travel"]}.get(cat) or MERCHANTS[cat]
        low, high = {"travel": (90, 650), "shopping": (15, 320)}.get(cat, (10, 120))
        spend("rewards", day, cat, rng.choice(pool), low, high)
    if "cashback" in live:
        for _ in range(rng.randint(6, 14)):
            cat = rng.choice(["groceries", "transport", "entertainment"])
            spend("cashback", _spend_days(rng, card["cashback"]["status"]), cat,
                  rng.choice(MERCHANTS[cat]), 8, 90)
    # always something still pending (today and yesterday)
    spend("main", 0, "dining", rng.choice(dining), 8, 40)
    rows.append(_card_purchase(rng, world, 1, rewards, card["rewards"]["card_id"], "shopping",
                               rng.choice(stores), 20, 150))
    refund_src = next((r for r in rows if r["card_id"] == card["rewards"]["card_id"]
                       and r["category"] == "shopping" and r["status"] == "posted"), None)
    if refund_src is not None:  # a partial return credited back to the card
        rows.append({**refund_src, "posted_at": days_ago(world, 2, rng),
                     "description": f"Refund - {refund_src['merchant']}",
                     "amount": round(-refund_src["amount"] / 2, 2), "type": "refund"})
    if "travel_card" in live:
        for _ in range(rng.randint(8, 16)):  # older travel card spending
            day = _spend_days(rng, card["travel_card"]["status"], 20)
            role = "travel_card_old" if day > 80 and "travel_card_old" in card else "travel_card"
            spend(role, day, "travel", rng.choice(away + MERCHANTS["travel"]), 60, 700)
    if "travel" in live:
        for _ in range(rng.randint(8, 16)):  # spent on European trips
            place = rng.choice(europe)
            cat = {"restaurant": "dining", "cafe": "dining", "store": "shopping",
                   "hotel": "travel"}[place.kind]
            spend("travel", _spend_days(rng, card["travel"]["status"], 3), cat,
                  f"{place.name}, {place.city}", 6, 220)
    for _ in range(rng.randint(5, 11)):  # paying friends back
        day = rng.randint(1, 119)
        friend = rng.choice(people_payees)
        rows.append(_plain(world, day, main, f"Transfer to {friend['name']}", "transfer",
                           -float(rng.choice([15, 20, 25, 35, 40, 60, 80, 120])), "transfer_out",
                           payee_id=friend["payee_id"], rng=rng,
                           memo=rng.choice(["dinner", "concert", "rent share", "gift",
                                            "taxi", "groceries"])))
    rows.sort(key=lambda r: (r["posted_at"], r["account_id"], r["description"]))
    txns = s.table("transactions", key="transaction_id", kind="transaction",
                   hint="use list_transactions or search_transactions to see transaction ids")
    txns.load([{"transaction_id": f"txn_{i + 1:05d}", **r, "amount": minor(r["amount"])}
               for i, r in enumerate(rows)])
    s.set_var("__seq_txn", len(rows))
    _disputes(s, rng, [a["account_id"] for a in account_rows if a["type"] == "credit"])
    _schedules(s, world, rng, live, biller, people_payees, rent)


def _disputes(s: State, rng: random.Random, credit_accounts: list[str]) -> None:
    """Two to six earlier disputes on older credit card charges, in any state."""
    disputes = s.table("disputes", key="dispute_id", kind="dispute",
                       hint="use list_disputes to see dispute ids")
    txns = s["transactions"]
    old = [r for r in txns.rows() if r["type"] == "card_purchase" and r["status"] == "posted"
           and r["account_id"] in credit_accounts and r["posted_at"] < "2026-05-20"]
    picked = sorted(rng.sample(old, rng.randint(2, 6)), key=lambda t: t["posted_at"])
    for i, t in enumerate(picked):
        dispute_id = f"dsp_{i + 1:04d}"
        disputes.load([{"dispute_id": dispute_id, "transaction_id": t["transaction_id"],
                        "account_id": t["account_id"], "amount": -t["amount"],
                        "reason": rng.choice(["duplicate_charge", "merchant_not_received",
                                              "incorrect_amount", "unrecognized_charge"]),
                        "details": "",
                        "status": rng.choice(["open", "under_review", "resolved_refunded",
                                              "rejected"]),
                        "opened_at": _shift(t["posted_at"], rng.randint(2, 9))}])
        txns.load([{**t, "dispute_id": dispute_id}])
    s.set_var("__seq_dsp", len(picked))


def _schedules(s: State, world: World, rng: random.Random, live: dict[str, str],
               biller: dict[str, Row], people_payees: list[Row], rent: float) -> None:
    """Standing orders between the open accounts and to the payees, then one-off payments to
    friends: upcoming, done and cancelled ones (at least 20 in all)."""
    main = live["main"]
    plans = [  # from, to account, payee, amount, frequency, next (or last) date, status, memo
        (main, live["savings"], None, 400.0, "monthly", "2026-07-01", "active", "savings"),
        (main, None, biller[BUSINESS_PAYEES[0][0]]["payee_id"], rent, "monthly", "2026-07-01",
         "active", "rent"),
        (main, live["rewards"], None, 500.0, "monthly", "2026-06-28", "active",
         "card payment")]
    for role, amount, freq, date, memo in (
            ("emergency", 150.0, "monthly", "2026-07-01", "emergency"),
            ("joint", 250.0, "weekly", "2026-06-19", "household"),
            ("holiday", 100.0, "monthly", "2026-07-02", "holiday fund"),
            ("house", 600.0, "monthly", "2026-07-01", "down payment")):
        if role in live:
            plans.append((main, live[role], None, amount, freq, date, "active", memo))
    for name, amount, date, memo in (
            ("Brightwave Internet", 59.99, "2026-06-25", "internet"),
            ("Northside Fitness Club", 49.0, "2026-07-03", "gym"),
            ("Keystone Student Loans", 312.45, "2026-07-10", "loan"),
            ("AutoFinance Direct", 389.0, "2026-07-12", "car loan"),
            ("SafeHarbor Insurance", 128.5, "2026-06-30", "insurance")):
        if name in biller:
            plans.append((main, None, biller[name]["payee_id"], amount, "monthly", date,
                          "active", memo))
    if "emergency" in live:
        plans.append((live["savings"], live["emergency"], None, 1000.0, "once", "2026-08-01",
                      "active", "top-up"))
    friends = rng.sample(people_payees, rng.randint(6, 10))
    upcoming, cancelled = friends[:rng.randint(2, 4)], friends[-rng.randint(2, 4):]
    for f in upcoming:
        plans.append((main, None, f["payee_id"], float(rng.choice([30, 50, 75, 120])),
                      "once", (TODAY + dt.timedelta(days=rng.randint(3, 40))).isoformat(),
                      "active", rng.choice(["birthday gift", "trip share", "concert tickets"])))
    for _ in range(max(rng.randint(8, 14), 20 - len(plans) - len(cancelled))):
        f = rng.choice(people_payees)  # a friend may have been paid more than once
        plans.append((main, None, f["payee_id"], float(rng.choice([20, 45, 90])), "once",
                      (TODAY - dt.timedelta(days=rng.randint(5, 80))).isoformat(),
                      "completed", rng.choice(["dinner", "rent share", "gift"])))
    for f in cancelled:
        plans.append((main, None, f["payee_id"], float(rng.choice([25, 60, 200])),
                      rng.choice(["once", "monthly"]),
                      (TODAY + dt.timedelta(days=rng.randint(3, 60))).isoformat(),
                      "cancelled", rng.choice(["lessons", "loan repayment", "trip deposit"])))
    cur = world.currency
    s.table("scheduled_transfers", key="scheduled_transfer_id", kind="scheduled transfer",
            hint="use list_scheduled_transfers to see scheduled transfer ids").load([
        {"scheduled_transfer_id": f"sch_{i + 1:04d}", "from_account_id": src,
         "to_account_id": to, "payee_id": pid, "amount": money.seed(round(amount, 2), cur),
         "currency": cur, "frequency": freq,
         "next_date": date if status == "active" else None,
         "last_run_on": date if status == "completed" else None,
         "end_date": None, "memo": memo, "status": status,
         "created_at": clock.stamp(clock.local(
             dt.date.fromisoformat(min(date, TODAY.isoformat()))
             - dt.timedelta(days=rng.randint(3, 200)), dt.time(9), world.tz))}
        for i, (src, to, pid, amount, freq, date, status, memo) in enumerate(plans)])
    s.set_var("__seq_sch", len(plans))
