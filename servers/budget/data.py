"""budget: the generated initial state (categories, monthly budgets, expenses, savings goals).

Everything comes from the world and the `rng` passed in, so one seed gives one state in any
process. Expenses run from March 2026 to "today" (2026-06-15). Amounts are drawn as USD-like
magnitudes and stored as integer minor units of the world's currency (servers.core.money).
"""

from __future__ import annotations

import datetime as dt
import random

from servers.core import money
from servers.core.state import Row, State
from servers.core.world import World

TODAY = dt.date(2026, 6, 15)  # REFERENCE_DATE
THIS_MONTH = TODAY.strftime("%Y-%m")
FIRST_DAY = dt.date(2026, 3, 1)

# id, name, group, typical monthly budget
CATEGORIES = [
    ("cat_01", "Groceries", "Essentials", 520), ("cat_02", "Dining Out", "Lifestyle", 300),
    ("cat_03", "Transport", "Essentials", 160), ("cat_04", "Housing", "Essentials", 2000),
    ("cat_05", "Utilities", "Essentials", 260), ("cat_06", "Entertainment", "Lifestyle", 120),
    ("cat_07", "Shopping", "Lifestyle", 250), ("cat_08", "Health", "Essentials", 100),
    ("cat_09", "Travel", "Lifestyle", 400), ("cat_10", "Subscriptions", "Lifestyle", 45),
    ("cat_11", "Education", "Goals & Giving", 80), ("cat_12", "Gifts & Donations",
                                                    "Goals & Giving", 100),
    ("cat_13", "Personal Care", "Lifestyle", 70), ("cat_14", "Fitness", "Lifestyle", 60),
]
# categories a user may budget (travel and gifts are too irregular to budget by the month)
BUDGETABLE = ["cat_01", "cat_02", "cat_03", "cat_04", "cat_05", "cat_06", "cat_07", "cat_08",
              "cat_10", "cat_11", "cat_13", "cat_14"]
MERCHANTS = {
    "cat_01": ["FreshMart", "Whole Harvest Market", "Corner Grocer", "Greenleaf Organics"],
    "cat_03": ["Metro Transit", "RideNow", "Shell Station #204", "CityPark Garage"],
    "cat_06": ["Cineplex Downtown", "Spotlight Live Tickets", "Arcade Alley", "Bookworm Club"],
    "cat_07": ["Shopwell Online", "HomeGoods Depot", "PixelTech Store", "Urban Threads"],
    "cat_08": ["CarePlus Pharmacy", "BrightSmile Dental", "Vision Center Optics"],
    "cat_09": ["SkyWays Airlines", "RailLink", "Horizon Car Rental"],
    "cat_11": ["LearnHub Online", "City Language School", "Bookworm Club"],
    "cat_13": ["Clip & Style Salon", "CarePlus Pharmacy", "Zen Day Spa"],
}
FIXED = [  # category, merchant, low, high, day of month, payment method
    ("cat_04", "Lakeside Property Management", 1500, 2400, 1, "bank_transfer"),
    ("cat_05", "City Power & Light", 60, 140, 6, "bank_transfer"),
    ("cat_05", "Brightwave Internet", 59.99, 59.99, 9, "bank_transfer"),
    ("cat_05", "Nimbus Mobile", 35, 70, 12, "card"),
    ("cat_10", "StreamFlix", 15.49, 15.49, 4, "card"),
    ("cat_10", "Tunely Premium", 10.99, 10.99, 8, "card"),
    ("cat_10", "CloudBox Storage", 2.99, 2.99, 12, "card"),
    ("cat_14", "Northside Fitness Club", 49, 49, 3, "card"),
]
VARIABLE = [  # category, weight, low, high
    ("cat_01", 10, 10, 80), ("cat_02", 8, 8, 60), ("cat_03", 6, 2.5, 30),
    ("cat_06", 3, 9, 60), ("cat_07", 4, 10, 110), ("cat_08", 2, 8, 90),
    ("cat_13", 2, 15, 60), ("cat_11", 1, 15, 90),
]


def _months() -> list[dt.date]:
    return [dt.date(2026, m, 1) for m in range(FIRST_DAY.month, TODAY.month + 1)]


def build(s: State, world: World, rng: random.Random) -> None:
    user = world.user
    s.set_var("user_id", user.id)
    money.remember_currency(s, world.currency)

    def minor(usd: float) -> int:
        return money.seed(round(usd, 2), world.currency)
    cats = s.table("categories", key="category_id", kind="category",
                   hint="use list_categories to see category ids")
    cats.load([{"category_id": c, "name": n, "group": g} for c, n, g, _ in CATEGORIES])

    home = [p for p in world.places if p.city == user.city]
    dining = [p.name for p in home if p.kind in ("restaurant", "cafe")]
    stores = [p.name for p in home if p.kind == "store"]
    away = [p for p in world.places if p.kind == "hotel" and p.city != user.city]
    rows: list[Row] = []

    def add(day: dt.date, cat: str, merchant: str, amount: float, method: str,
            note: str = "") -> None:
        rows.append({"date": day.isoformat(), "merchant": merchant, "amount": minor(amount),
                     "category_id": cat, "note": note, "payment_method": method})

    bills = [FIXED[0], *(f for f in FIXED[1:] if rng.random() < 0.7)]  # rent, and some bills
    for month in _months():
        for cat, merchant, low, high, day, method in bills:
            when = month.replace(day=day)
            if when <= TODAY:
                add(when, cat, merchant, rng.uniform(low, high), method)
    span = (TODAY - FIRST_DAY).days
    cats_w = [c for c, w, _, _ in VARIABLE for _ in range(w)]
    for _ in range(rng.randint(142, 200)):  # everyday spending, more or less of it
        cat = rng.choice(cats_w)
        low, high = next((lo, hi) for c, _, lo, hi in VARIABLE if c == cat)
        pool = {"cat_02": dining, "cat_07": stores + MERCHANTS["cat_07"]}.get(cat) \
            or MERCHANTS[cat]
        method = "cash" if rng.random() < 0.12 else "card"
        add(FIRST_DAY + dt.timedelta(days=rng.randint(0, span)), cat, rng.choice(pool),
            rng.uniform(low, high), method)
    for trip in rng.sample(away, rng.randint(1, 2)):  # trips in the period
        start = FIRST_DAY + dt.timedelta(days=rng.randint(20, 70))
        add(start - dt.timedelta(days=21), "cat_09", "SkyWays Airlines",
            rng.uniform(180, 650), "card", f"flights to {trip.city}")
        add(start, "cat_09", f"{trip.name}, {trip.city}", rng.uniform(300, 900), "card",
            f"{rng.randint(2, 5)} nights")
    for friend in rng.sample(world.people[1:20], rng.randint(3, 7)):
        add(FIRST_DAY + dt.timedelta(days=rng.randint(0, span)), "cat_12",
            rng.choice([*stores, "Bookworm Club", "Petal & Stem Florist"]),
            rng.uniform(20, 90), "card", f"birthday gift for {friend.name}")
    rows.sort(key=lambda r: (r["date"], r["merchant"], r["amount"]))
    expenses = s.table("expenses", key="expense_id", kind="expense",
                       hint="use list_expenses to see expense ids")
    expenses.load([{"expense_id": f"exp_{i + 1:04d}", **r} for i, r in enumerate(rows)])
    s.set_var("__seq_exp", len(rows))
    _budgets(s, world, rng)
    _goals(s, world, rng)


def _budgets(s: State, world: World, rng: random.Random) -> None:
    """Monthly budgets for eight to twelve categories, each from the month the user started
    it (March to June) on; 20 or more in all."""
    chosen = sorted(rng.sample(BUDGETABLE, rng.randint(8, 12)))
    months = _months()
    total = rng.randint(20, (len(months) - 1) * len(chosen))
    history = dict.fromkeys(chosen, 1)  # months budgeted, counting back from this one
    for _ in range(total - len(chosen)):
        cat = rng.choice([c for c in chosen if history[c] < len(months)])
        history[cat] += 1
    first = {cat: months[-history[cat]] for cat in chosen}
    typical = {c: t for c, _, _, t in CATEGORIES}
    brow = []
    for month in months:
        for cat in chosen:
            if month < first[cat]:
                continue
            limit = round(typical[cat] * rng.uniform(0.8, 1.2) / 5) * 5
            brow.append({"budget_id": f"bud_{len(brow) + 1:03d}", "category_id": cat,
                         "month": month.strftime("%Y-%m"),
                         "limit": money.seed(float(limit), world.currency),
                         "alert_threshold": rng.choice([75, 80, 80, 90]),
                         "created_on": (month - dt.timedelta(days=rng.randint(1, 6))
                                        ).isoformat()})
    s.table("budgets", key="budget_id", kind="budget",
            hint="use list_budgets to see budget ids").load(brow)
    s.set_var("__seq_bud", len(brow))


def _goals(s: State, world: World, rng: random.Random) -> None:
    """Six to eleven savings goals; the emergency fund is always one, some others are reached."""
    user = world.user
    dest = rng.choice([c for c in world.cities if c.name != user.city])
    friend = world.people[rng.randint(1, 20)]
    pool = [  # name, target, share saved, months until due
        (f"Trip to {dest.name}", round(rng.uniform(1800, 4000), -2), rng.uniform(0.2, 0.6), 4),
        ("New laptop", 1600, rng.uniform(0.3, 0.8), 3),
        ("Car down payment", 8000, rng.uniform(0.1, 0.4), 18),
        ("Home deposit", 40000, rng.uniform(0.05, 0.3), 36),
        (f"Wedding gift for {friend.name}", 300, rng.uniform(0.2, 0.6), 2),
        ("Holiday gifts", 800, rng.uniform(0.0, 0.3), 6),
        ("Online data course", 450, rng.uniform(0.3, 0.9), 1),
        ("New bike", round(rng.uniform(600, 1400), -1), rng.uniform(0.1, 0.7), 5),
        ("Concert festival pass", 350, rng.uniform(0.2, 0.8), 2),
        ("Wedding", 15000, rng.uniform(0.1, 0.5), 14),
    ]
    keen = rng.uniform(0.4, 0.9)  # how much this user plans ahead: the share of goals kept
    plans = [("Emergency fund", 12000, rng.uniform(0.4, 0.7), 10)]
    for name, target, share, due in pool:
        if rng.random() < keen:
            reached = rng.random() < 0.4 and target <= 4000  # a smaller goal may be done
            plans.append((name, target, 1.0 if reached else share, due))
    for goal in pool:  # and at least five goals besides the emergency fund
        if len(plans) < 6 and goal[0] not in {p[0] for p in plans}:
            plans.append(goal)
    s.table("savings_goals", key="goal_id", kind="savings goal",
            hint="use list_savings_goals to see goal ids").load([
        {"goal_id": f"goal_{i + 1:03d}", "name": name,
         "target_amount": money.seed(round(target, 2), world.currency),
         "saved_amount": money.seed(round(target * share, 2), world.currency),
         "target_date": _add_months(TODAY, due).replace(day=1).isoformat(),
         "status": "completed" if share >= 1 else "active",
         "created_on": (TODAY - dt.timedelta(days=rng.randint(30, 400))).isoformat()}
        for i, (name, target, share, due) in enumerate(plans)])


def _add_months(day: dt.date, months: int) -> dt.date:
    y, m = divmod(day.month - 1 + months, 12)
    return dt.date(day.year + y, m + 1, 1)
