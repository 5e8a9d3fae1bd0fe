"""banking: the generated initial state (accounts, cards, payees, transactions, schedules).

Everything comes from the world and the `rng` passed in, so one seed gives one state in any
process. Balances are set directly; the transaction history is what a statement would show.
Amounts are drawn as USD-like magnitudes, then scaled to the world's one currency and stored
as integer minor units (servers.core.money) just before loading.
"""

from __future__ import annotations

import datetime as dt
import random

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


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    partner = world.people[1]
    employer = world.company(user.company_id).name
    s.set_var("user_id", user.id)
    cur = world.currency
    money.remember_currency(s, cur)

    def minor(usd: float) -> int:
        return money.seed(round(usd, 2), cur)

    accounts = s.table("accounts", key="account_id", kind="account",
                       hint="use list_accounts to see account ids")

    def last4() -> str:
        return f"{rng.randint(0, 9999):04d}"

    def opened(lo: int, hi: int) -> str:
        return (TODAY - dt.timedelta(days=rng.randint(lo, hi))).isoformat()

    acct = [  # id, name, type, balance (USD-like), credit limit, rate, status
        ("acc_001", "Everyday Checking", "checking", rng.uniform(2500, 6500), None, 0.01),
        ("acc_002", f"Joint Checking (with {partner.first_name})", "checking",
         rng.uniform(1200, 4000), None, 0.01),
        ("acc_003", "High-Yield Savings", "savings", rng.uniform(9000, 26000), None, 4.1),
        ("acc_004", "Emergency Fund", "savings", rng.uniform(5000, 12000), None, 3.5),
        ("acc_005", "Travel Account", "checking", rng.uniform(400, 2200), None, 0.0),
        ("acc_006", "Rewards Visa", "credit", -rng.uniform(600, 2400), 8000.0, 22.99),
        ("acc_007", "Travel Mastercard", "credit", -rng.uniform(150, 900), 12000.0,
         19.49),
        ("acc_008", "Holiday Savings", "savings", 0.0, None, 2.0),
    ]
    # one currency per world: every account is in it
    accounts.load([{"account_id": a, "name": n, "type": t, "currency": cur,
                    "balance": minor(b), "credit_limit": None if lim is None else minor(lim),
                    "interest_rate": r,
                    "number_last4": last4(), "routing_number": OWN_ROUTING,
                    "status": "closed" if a == "acc_008" else "open",
                    "opened_on": opened(400, 3000)} for a, n, t, b, lim, r in acct])

    cards = s.table("cards", key="card_id", kind="card", hint="use list_cards to see card ids")
    card_rows = [  # id, account, kind, network, status, virtual, expires, holder
        ("card_01", "acc_001", "debit", "Visa", "active", False, "2029-04", user.name),
        ("card_02", "acc_001", "debit", "Visa", "cancelled", False, "2027-11", user.name),
        ("card_03", "acc_002", "debit", "Visa", "active", False, "2028-08", partner.name),
        ("card_04", "acc_005", "debit", "Mastercard", "active", False, "2028-02", user.name),
        ("card_05", "acc_006", "credit", "Visa", "active", False, "2029-09", user.name),
        ("card_06", "acc_006", "credit", "Visa", "active", True, "2027-06", user.name),
        ("card_07", "acc_007", "credit", "Mastercard", "frozen", False, "2028-12", user.name),
        ("card_08", "acc_007", "credit", "Mastercard", "expired", False, "2026-03", user.name),
    ]
    cards.load([{"card_id": c, "account_id": a, "kind": k, "network": n, "last4": last4(),
                 "cardholder": h, "expires": e, "status": st, "is_virtual": v,
                 "freeze_reason": "suspicious_activity" if st == "frozen" else None}
                for c, a, k, n, st, v, e, h in card_rows])

    payees = s.table("payees", key="payee_id", kind="payee",
                     hint="use list_payees to see payee ids")
    routings = sorted(BANKS)
    payee_rows = []
    for i, (name, category, nick) in enumerate(BUSINESS_PAYEES):
        routing = rng.choice(routings)
        payee_rows.append({"payee_id": f"pye_{i + 1:03d}", "name": name, "kind": "business",
                           "category": category, "bank_name": BANKS[routing],
                           "routing_number": routing, "account_last4": last4(),
                           "email": None, "nickname": nick, "person_id": None,
                           "added_on": opened(60, 1500)})
    for j, p in enumerate(world.people[1:15]):
        routing = rng.choice(routings)
        payee_rows.append({"payee_id": f"pye_{len(BUSINESS_PAYEES) + j + 1:03d}",
                           "name": p.name, "kind": "person", "category": "transfer",
                           "bank_name": BANKS[routing], "routing_number": routing,
                           "account_last4": last4(), "email": p.email, "nickname": None,
                           "person_id": p.id, "added_on": opened(20, 900)})
    payees.load(payee_rows)
    s.set_var("__seq_pye", len(payee_rows))
    people_payees = [r for r in payee_rows if r["kind"] == "person"]

    # ------------------------------------------------------------------ transactions
    home = [p for p in world.places if p.city == user.city]
    dining = [p.name for p in home if p.kind in ("restaurant", "cafe")]
    stores = [p.name for p in home if p.kind == "store"]
    europe = [p for p in world.places if p.kind in ("restaurant", "cafe", "store", "hotel")
              and p.city in ("Lisbon", "Berlin", "Paris", "Madrid", "Amsterdam")]
    away = [p.name for p in world.places if p.kind == "hotel" and p.city != user.city]
    rows: list[Row] = []
    pay = round(rng.uniform(2300, 3400), 2)
    for day in range(3, 120, 14):
        rows.append(_plain(world, day, "acc_001", f"Payroll deposit - {employer}", "income",
                           pay, "deposit", memo="salary"))
    rent = round(rng.uniform(1500, 2400), 2)
    bills = {"pye_002": (60, 140), "pye_003": (25, 60), "pye_004": (45, 80),
             "pye_005": (35, 70), "pye_006": (90, 160), "pye_007": (39, 59)}
    for month_day in (14, 45, 75, 106):
        rows.append(_plain(world, month_day, "acc_001", "Bill payment - "
                           "Lakeside Property Management", "housing", -rent, "bill_payment",
                           payee_id="pye_001", memo="rent"))
        for pid, (lo, hi) in bills.items():
            name = next(r["name"] for r in payee_rows if r["payee_id"] == pid)
            cat = next(r["category"] for r in payee_rows if r["payee_id"] == pid)
            rows.append(_plain(world, month_day - rng.randint(1, 6), "acc_001",
                               f"Bill payment - {name}", cat, -rng.uniform(lo, hi),
                               "bill_payment", payee_id=pid, rng=rng))
        save = float(rng.choice([300, 400, 500]))
        rows.append(_plain(world, month_day, "acc_001", "Transfer to High-Yield Savings",
                           "transfer", -save, "transfer_out", other="acc_003"))
        rows.append(_plain(world, month_day, "acc_003", "Transfer from Everyday Checking",
                           "transfer", save, "transfer_in", other="acc_001"))
        card_pay = round(rng.uniform(400, 1500), 2)
        rows.append(_plain(world, month_day - 8, "acc_001", "Payment to Rewards Visa",
                           "transfer", -card_pay, "transfer_out", other="acc_006"))
        rows.append(_plain(world, month_day - 8, "acc_006", "Payment received - thank you",
                           "transfer", card_pay, "transfer_in", other="acc_001"))
        for acc, rate, bal in (("acc_003", 4.1, 15000), ("acc_004", 3.5, 8000)):
            rows.append(_plain(world, month_day - 13, acc, "Interest payment", "interest",
                               bal * rate / 1200 * rng.uniform(0.9, 1.1), "interest"))
        for k, (merchant, price) in enumerate(SUBSCRIPTIONS):  # on the virtual card
            rows.append({**_card_purchase(rng, world, month_day - 3 - 4 * k, "acc_006",
                                          "card_06", "subscriptions", merchant, 1, 1),
                         "amount": -price})
    rows.append(_plain(world, 100, "acc_007", "Annual card fee", "fees", -95.0, "fee"))
    for i in range(45):  # everyday debit card use
        day = rng.randint(0, 119)
        card = "card_02" if day > 100 else "card_01"
        cat = rng.choice(["groceries"] * 4 + ["dining"] * 3 + ["transport"] * 2 + ["health"])
        merchant = rng.choice(dining if cat == "dining" else MERCHANTS[cat])
        low, high = {"groceries": (18, 140), "dining": (9, 75), "transport": (3, 60),
                     "health": (8, 90)}[cat]
        rows.append(_card_purchase(rng, world, day, "acc_001", card, cat, merchant, low, high))
        if i % 9 == 0:
            rows.append({**_plain(world, day, "acc_001", "ATM withdrawal", "cash",
                                  -float(rng.choice([40, 60, 100, 200])), "atm_withdrawal",
                                  rng=rng), "card_id": card})
    for _ in range(14):  # joint household spending
        day = rng.randint(0, 119)
        cat = rng.choice(["groceries", "groceries", "shopping", "dining"])
        merchant = rng.choice(stores + MERCHANTS["shopping"] if cat == "shopping"
                              else dining if cat == "dining" else MERCHANTS["groceries"])
        rows.append(_card_purchase(rng, world, day, "acc_002", "card_03", cat, merchant,
                                   15, 180))
    for day in range(4, 120, 7):  # the weekly household transfer (sch_0005)
        rows.append(_plain(world, day, "acc_001", "Transfer to " + acct[1][1], "transfer",
                           -250.0, "transfer_out", other="acc_002", memo="household"))
        rows.append(_plain(world, day, "acc_002", "Transfer from Everyday Checking",
                           "transfer", 250.0, "transfer_in", other="acc_001", memo="household"))
    for _ in range(36):  # credit card spending
        day = rng.randint(0, 119)
        cat = rng.choice(["dining", "shopping", "shopping", "entertainment", "travel",
                          "groceries"])
        pool = {"dining": dining, "shopping": stores + MERCHANTS["shopping"],
                "travel": away + MERCHANTS["travel"]}.get(cat) or MERCHANTS[cat]
        low, high = {"travel": (90, 650), "shopping": (15, 320)}.get(cat, (10, 120))
        rows.append(_card_purchase(rng, world, day, "acc_006", "card_05", cat,
                                   rng.choice(pool), low, high))
    # always something still pending (today and yesterday)
    rows.append(_card_purchase(rng, world, 0, "acc_001", "card_01", "dining",
                               rng.choice(dining), 8, 40))
    rows.append(_card_purchase(rng, world, 1, "acc_006", "card_05", "shopping",
                               rng.choice(stores), 20, 150))
    refund_src = next((r for r in rows if r["card_id"] == "card_05"
                       and r["category"] == "shopping" and r["status"] == "posted"), None)
    if refund_src is not None:  # a partial return credited back to the card
        rows.append({**refund_src, "posted_at": days_ago(world, 2, rng),
                     "description": f"Refund - {refund_src['merchant']}",
                     "amount": round(-refund_src["amount"] / 2, 2), "type": "refund"})
    for _ in range(12):  # older travel card spending (that card is frozen / expired now)
        day = rng.randint(20, 119)
        card = "card_08" if day > 80 else "card_07"
        rows.append(_card_purchase(rng, world, day, "acc_007", card, "travel",
                                   rng.choice(away + MERCHANTS["travel"]), 60, 700))
    for _ in range(12):  # euro account, spent on European trips
        day = rng.randint(3, 119)
        place = rng.choice(europe)
        cat = {"restaurant": "dining", "cafe": "dining", "store": "shopping",
               "hotel": "travel"}[place.kind]
        rows.append(_card_purchase(rng, world, day, "acc_005", "card_04", cat,
                                   f"{place.name}, {place.city}", 6, 220))
    for _ in range(8):  # paying friends back
        day = rng.randint(1, 119)
        friend = rng.choice(people_payees)
        rows.append(_plain(world, day, "acc_001", f"Transfer to {friend['name']}", "transfer",
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

    # ------------------------------------------------------------------ disputes
    disputes = s.table("disputes", key="dispute_id", kind="dispute",
                       hint="use list_disputes to see dispute ids")
    old = [r for r in txns.rows() if r["type"] == "card_purchase" and r["status"] == "posted"
           and r["account_id"] in ("acc_006", "acc_007") and r["posted_at"] < "2026-05-20"]
    picked = rng.sample(old, 3)
    reasons = ["duplicate_charge", "merchant_not_received", "incorrect_amount"]
    statuses = ["under_review", "resolved_refunded", "rejected"]
    for i, (t, reason, status) in enumerate(zip(picked, reasons, statuses, strict=True)):
        dispute_id = f"dsp_{i + 1:04d}"
        disputes.load([{"dispute_id": dispute_id, "transaction_id": t["transaction_id"],
                        "account_id": t["account_id"], "amount": -t["amount"],
                        "reason": reason, "details": "", "status": status,
                        "opened_at": _shift(t["posted_at"], rng.randint(2, 9))}])
        txns.load([{**t, "dispute_id": dispute_id}])
    s.set_var("__seq_dsp", 3)

    # ------------------------------------------------------------------ scheduled transfers
    sched = s.table("scheduled_transfers", key="scheduled_transfer_id",
                    kind="scheduled transfer",
                    hint="use list_scheduled_transfers to see scheduled transfer ids")
    plans = [  # from, to account, payee, amount, frequency, next (or last) date, status, memo
        ("acc_001", "acc_003", None, 400.0, "monthly", "2026-07-01", "active", "savings"),
        ("acc_001", "acc_004", None, 150.0, "monthly", "2026-07-01", "active", "emergency"),
        ("acc_001", None, "pye_001", rent, "monthly", "2026-07-01", "active", "rent"),
        ("acc_001", "acc_006", None, 500.0, "monthly", "2026-06-28", "active", "card payment"),
        ("acc_001", "acc_002", None, 250.0, "weekly", "2026-06-19", "active", "household"),
        ("acc_001", None, "pye_004", 59.99, "monthly", "2026-06-25", "active", "internet"),
        ("acc_001", None, "pye_007", 49.0, "monthly", "2026-07-03", "active", "gym"),
        ("acc_001", None, "pye_008", 312.45, "monthly", "2026-07-10", "active", "loan"),
        ("acc_001", None, "pye_009", 389.0, "monthly", "2026-07-12", "active", "car loan"),
        ("acc_003", "acc_004", None, 1000.0, "once", "2026-08-01", "active", "top-up"),
        ("acc_002", None, "pye_006", 128.5, "monthly", "2026-06-30", "active", "insurance"),
    ]
    friends = rng.sample(people_payees, 9)
    for f in friends[:3]:
        plans.append(("acc_001", None, f["payee_id"], float(rng.choice([30, 50, 75, 120])),
                      "once", (TODAY + dt.timedelta(days=rng.randint(3, 40))).isoformat(),
                      "active", rng.choice(["birthday gift", "trip share", "concert tickets"])))
    for f in friends[3:6]:
        plans.append(("acc_001", None, f["payee_id"], float(rng.choice([20, 45, 90])), "once",
                      (TODAY - dt.timedelta(days=rng.randint(5, 80))).isoformat(),
                      "completed", rng.choice(["dinner", "rent share", "gift"])))
    for f in friends[6:9]:
        plans.append(("acc_001", None, f["payee_id"], float(rng.choice([25, 60, 200])),
                      rng.choice(["once", "monthly"]),
                      (TODAY + dt.timedelta(days=rng.randint(3, 60))).isoformat(),
                      "cancelled", rng.choice(["lessons", "loan repayment", "trip deposit"])))
    sched.load([{"scheduled_transfer_id": f"sch_{i + 1:04d}", "from_account_id": src,
                 "to_account_id": to, "payee_id": pid, "amount": minor(amount),
                 "currency": cur, "frequency": freq,
                 "next_date": date if status == "active" else None,
                 "last_run_on": date if status == "completed" else None,
                 "end_date": None, "memo": memo, "status": status,
                 "created_at": clock.stamp(clock.local(
                     dt.date.fromisoformat(min(date, TODAY.isoformat()))
                     - dt.timedelta(days=rng.randint(3, 200)), dt.time(9), world.tz))}
                for i, (src, to, pid, amount, freq, date, status, memo) in enumerate(plans)])
    s.set_var("__seq_sch", len(plans))
