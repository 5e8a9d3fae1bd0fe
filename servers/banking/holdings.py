"""banking: which accounts and cards a world holds, drawn per seed (servers.banking.data builds
the rest of the state around them)."""

from __future__ import annotations

import random

# The user's accounts, in id order: `core` ones exist in every world, the others are drawn
# per seed and one or two of those drawn are closed (balance zero, cards cancelled).
# role, name, type, balance range (USD-like; owed on a credit account), credit limit, rate
ACCOUNTS = [
    ("main", "Everyday Checking", "checking", (2500, 6500), None, 0.01),
    ("joint", "Joint Checking (with {partner})", "checking", (1200, 4000), None, 0.01),
    ("savings", "High-Yield Savings", "savings", (9000, 26000), None, 4.1),
    ("emergency", "Emergency Fund", "savings", (5000, 12000), None, 3.5),
    ("travel", "Travel Account", "checking", (400, 2200), None, 0.0),
    ("rewards", "Rewards Visa", "credit", (600, 2400), 8000.0, 22.99),
    ("travel_card", "Travel Mastercard", "credit", (150, 900), 12000.0, 19.49),
    ("holiday", "Holiday Savings", "savings", (300, 2500), None, 2.0),
    ("cashback", "Cashback Mastercard", "credit", (80, 700), 5000.0, 24.99),
    ("house", "Home Down Payment", "savings", (8000, 40000), None, 3.9),
    ("student", "Student Checking", "checking", (100, 900), None, 0.0),
]
CORE_ACCOUNTS = ("main", "savings", "rewards")
BILLS = {  # biller -> monthly amount range (USD-like), for those the user has
    "City Power & Light": (60, 140), "Metro Water Authority": (25, 60),
    "Brightwave Internet": (45, 80), "Nimbus Mobile": (35, 70),
    "SafeHarbor Insurance": (90, 160), "Northside Fitness Club": (39, 59)}


def draw_accounts(rng: random.Random) -> tuple[list[tuple], set[str]]:
    """The accounts this world has (ACCOUNTS rows, in order) and the roles that are closed."""
    optional = [a for a in ACCOUNTS if a[0] not in CORE_ACCOUNTS]
    drawn = rng.sample(optional, rng.randint(2, 6))
    closed = {a[0] for a in rng.sample(drawn, rng.randint(1, 2))}
    kept = {a[0] for a in drawn} | set(CORE_ACCOUNTS)
    return [a for a in ACCOUNTS if a[0] in kept], closed


def expiry(rng: random.Random) -> str:
    return f"{rng.randint(2027, 2030)}-{rng.randint(1, 12):02d}"


def card_plan(rng: random.Random, role: str, kind: str, closed: bool) -> list[tuple]:
    """The cards of one account: (role of the card, network, status, virtual, expires)."""
    if kind == "savings":
        return []
    network = "Mastercard" if role in ("travel", "travel_card", "cashback") else "Visa"
    if closed:
        return [(role, network, "cancelled", False, expiry(rng))]
    if role == "main":  # the current debit card and the one it replaced
        return [("main", network, "active", False, expiry(rng)),
                ("main_old", network, "cancelled", False, "2027-11")]
    status = rng.choices(["active", "frozen"], weights=[3, 1])[0]
    plan = [(role, network, status, False, expiry(rng))]
    if role == "rewards":  # subscriptions run on a virtual card
        plan.append(("rewards_virtual", network, "active", True, expiry(rng)))
    if role == "joint" and rng.random() < 0.5:
        plan.append(("joint_own", network, "active", False, expiry(rng)))
    if role == "travel_card" and rng.random() < 0.7:
        plan.append(("travel_card_old", network, "expired", False,
                     f"2026-0{rng.randint(1, 5)}"))
    return plan
