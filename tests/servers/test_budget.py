"""Domain behaviour of the budget server: spent/remaining follow the expenses, rules on months
and goals are enforced, failures change nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from servers.budget import DOMAIN
from servers.core import money
from servers.core.runtime import Runtime
from servers.core.world import make_world
from tests.servers import money_ops
from tests.servers.common import (
    assert_world_varies,
    digest,
    fails,
    ok,
    row_where,
    rows_where,
    runtime_fixture,
    state,
)
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


def _dec(x: float) -> Decimal:
    return Decimal(repr(x))


def _budget(rt: Runtime, category_id: str, month: str = "2026-06") -> dict:
    out = rt.call("list_budgets", {"month": month, "category_id": category_id})
    assert out.ok and out.payload["total"] == 1, out
    return out.payload["budgets"][0]


def _budgeted(rt: Runtime, month: str = "2026-06") -> list[str]:
    """The categories with a budget in `month` (which ones varies by seed)."""
    return [b["category_id"] for b in rows_where(rt, "budgets", month=month)]


def _category(rt: Runtime, name: str) -> str:
    return row_where(rt, "categories", name=name)["category_id"]


def _any_category(rt: Runtime) -> str:
    return state(rt)["categories"].ids()[0]


TRAVEL, GIFTS = "Travel", "Gifts & Donations"  # never budgeted by the month


def test_world_varies_by_seed():
    assert_world_varies("budget", {"expenses": None, "budgets": None,
                                   "savings_goals": "status"})


def test_expenses_drive_budget_spent_and_remaining(rt):
    dining, groceries_id = _budgeted(rt)[:2]
    before = _budget(rt, dining)
    added = ok(rt, "add_expense", {"amount": 41.25, "merchant": "Casa Azure",
                                    "category_id": dining, "date": "2026-06-10"})
    assert added["budget"]["budget_id"] == before["budget_id"]
    assert added["budget"]["spent"] == pytest.approx(before["spent"] + 41.25)
    assert added["budget"]["remaining"] == pytest.approx(before["remaining"] - 41.25)
    exp_id = added["expense"]["expense_id"]
    # recategorising moves the amount from one budget to the other
    groceries = _budget(rt, groceries_id)
    ok(rt, "update_expense", {"expense_id": exp_id, "category_id": groceries_id})
    assert _budget(rt, dining)["spent"] == pytest.approx(before["spent"])
    assert _budget(rt, groceries_id)["spent"] == pytest.approx(groceries["spent"] + 41.25)
    gone = ok(rt, "delete_expense", {"expense_id": exp_id})
    assert gone["budget"]["spent"] == pytest.approx(groceries["spent"])
    missing = rt.call("delete_expense", {"expense_id": exp_id})
    assert not missing.ok and exp_id in missing.error


def test_expense_without_budget_and_default_date(rt):
    out = ok(rt, "add_expense", {"amount": 60, "merchant": "Petal & Stem Florist",
                                  "category_id": _category(rt, GIFTS)})
    assert out["budget"] is None and out["expense"]["date"] == "2026-06-15"


@pytest.mark.parametrize("date, needle", [("2026-06-16", "future"), ("2026-02-30", "valid"),
                                          ("2024-01-10", "year ago")])
def test_bad_expense_dates_change_nothing(rt, date, needle):
    before = digest(rt)
    out = rt.call("add_expense", {"amount": 5, "merchant": "Cafe",
                                  "category_id": _any_category(rt), "date": date})
    assert not out.ok and needle in out.error and digest(rt) == before


def test_update_expense_needs_a_change(rt):
    out = rt.call("update_expense", {"expense_id": state(rt)["expenses"].ids()[0]})
    assert not out.ok and "nothing to change" in out.error


def test_budget_rules(rt):
    cat, travel = _budgeted(rt, "2026-05")[0], _category(rt, TRAVEL)  # budgeted May and June
    existing = _budget(rt, cat)
    before = digest(rt)
    dup = rt.call("create_budget", {"category_id": cat, "month": "2026-06", "limit": 300})
    assert not dup.ok and existing["budget_id"] in dup.error and digest(rt) == before
    past = rt.call("create_budget", {"category_id": travel, "month": "2026-05", "limit": 300})
    assert not past.ok and "out of range" in past.error
    far = rt.call("create_budget", {"category_id": travel, "month": "2027-07", "limit": 300})
    assert not far.ok and "out of range" in far.error
    old = _budget(rt, cat, "2026-05")
    for tool, args in (("update_budget_limit", {"budget_id": old["budget_id"], "limit": 999}),
                       ("delete_budget", {"budget_id": old["budget_id"]})):
        out = rt.call(tool, args)
        assert not out.ok and "has ended" in out.error and digest(rt) == before
    made = ok(rt, "create_budget", {"category_id": travel, "month": "2027-06",
                                     "limit": 900})
    assert (made["spent"], made["remaining"], made["status"]) == (0, 900, "on_track")
    raised = ok(rt, "update_budget_limit", {"budget_id": existing["budget_id"],
                                             "limit": existing["spent"] - 1})
    assert raised["status"] == "over_budget" and raised["remaining"] == pytest.approx(-1)


def test_summary_matches_expenses(rt):
    summary = ok(rt, "get_spending_summary", {"month": "2026-05"})
    listed = ok(rt, "list_expenses", {"month": "2026-05", "limit": 1})
    assert summary["total_spent"] == listed["total_amount"]  # exact, not approximately
    assert summary["expense_count"] == listed["total"]
    assert sum(_dec(c["spent"]) for c in summary["categories"]) == _dec(summary["total_spent"])
    spent = [c["spent"] for c in summary["categories"]]
    assert spent == sorted(spent, reverse=True)
    over = {b["category_id"] for b in ok(rt, "list_budgets", {
        "month": "2026-05", "status": "over_budget"})["budgets"]}
    assert set(summary["over_budget_category_ids"]) == over
    april = ok(rt, "get_spending_summary", {"month": "2026-04"})
    assert summary["previous_month_total"] == april["total_spent"]


def test_savings_goal_rules(rt):
    goal = next(g for g in ok(rt, "list_savings_goals", {"status": "active"})["goals"]
                if g["remaining"] > 10)
    gid, remaining = goal["goal_id"], goal["remaining"]
    before = digest(rt)
    over = rt.call("contribute_to_savings_goal", {"goal_id": gid, "amount": remaining + 1})
    assert not over.ok and "at most" in over.error and digest(rt) == before
    too_much = rt.call("contribute_to_savings_goal", {"goal_id": gid, "action": "withdraw",
                                                      "amount": goal["saved_amount"] + 1})
    assert not too_much.ok and digest(rt) == before
    done = ok(rt, "contribute_to_savings_goal", {"goal_id": gid, "amount": remaining})
    assert done["status"] == "completed" and done["remaining"] == 0
    again = rt.call("contribute_to_savings_goal", {"goal_id": gid, "amount": 1})
    assert not again.ok and "completed" in again.error
    back = ok(rt, "contribute_to_savings_goal", {"goal_id": gid, "action": "withdraw",
                                                  "amount": 10})
    assert back["status"] == "active" and back["remaining"] == pytest.approx(10)


def test_state_has_enough_to_find():
    for seed in range(4):
        state = Runtime(DOMAIN, default_seed=seed).session(None).state
        assert len(state["expenses"]) >= 150 and len(state["budgets"]) >= 20
        assert len(state["categories"]) >= 12 and len(state["savings_goals"]) >= 6
        june = [b for b in state["budgets"].rows() if b["month"] == "2026-06"]
        assert len(june) >= 8


# ------------------------------------------------------------------ exact money


def test_many_small_expenses_add_up_exactly(rt):
    cat = _budgeted(rt)[-1]
    before = _budget(rt, cat)
    for _ in range(30):
        ok(rt, "add_expense", {"amount": 0.1, "merchant": "Clip & Style Salon",
                               "category_id": cat, "date": "2026-06-12"})
    after = _budget(rt, cat)
    assert _dec(after["spent"]) == _dec(before["spent"]) + 3  # 30 x 0.1, no float drift
    assert _dec(after["remaining"]) == _dec(after["limit"]) - _dec(after["spent"])
    assert after["currency"] == "EUR"


def test_amounts_finer_than_the_currency_are_refused(rt):
    fails(rt, "add_expense", {"amount": 4.999, "merchant": "Cafe",
                              "category_id": _any_category(rt)},
          "amount 4.999 has more decimals than EUR allows (2)")
    fails(rt, "create_budget", {"category_id": _category(rt, TRAVEL), "month": "2026-07",
                                "limit": 0.5},
          "limit 0.5 is out of range", "at least 0.90 EUR")
    rt10 = Runtime(DOMAIN, default_seed=10)
    goal = state(rt10)["savings_goals"].ids()[0]
    fails(rt10, "contribute_to_savings_goal", {"goal_id": goal, "amount": 99.5},
          "more decimals than JPY allows (0)")


def test_goal_monthly_needed_rounds_half_to_even():
    rt = Runtime(DOMAIN, default_seed=10)  # yen: whole units, so the rounding shows
    for goal in ok(rt, "list_savings_goals", {})["goals"]:
        assert goal["currency"] == "JPY" and isinstance(goal["monthly_needed"], int)
        row = state(rt)["savings_goals"].get(goal["goal_id"])
        due = int(row["target_date"][:4]) * 12 + int(row["target_date"][5:7])
        months = max(due - (2026 * 12 + 6), 1)
        exact = Decimal(goal["remaining"]) / months
        assert abs(goal["monthly_needed"] - exact) <= Decimal("0.5")
        assert goal["monthly_needed"] == int(exact.to_integral_value(money.ROUNDING))


def _makers() -> dict:
    day = lambda rng: f"2026-0{rng.choice([5, 6])}-{rng.randint(1, 15):02d}"
    return {
        "add_expense": lambda rng, s: {"amount": money_ops.amount(rng, s, 1, 120),
                                       "merchant": "Shop",
                                       "category_id": rng.choice(s["categories"].ids()),
                                       "date": day(rng)},
        "update_expense": lambda rng, s: {"expense_id": rng.choice(s["expenses"].ids()),
                                          "amount": money_ops.amount(rng, s, 1, 120)},
        "delete_expense": lambda rng, s: {"expense_id": rng.choice(s["expenses"].ids())},
        "update_budget_limit": lambda rng, s: {"budget_id": rng.choice(s["budgets"].ids()),
                                               "limit": money_ops.amount(rng, s, 50, 900)},
        "contribute_to_savings_goal": lambda rng, s: {
            "goal_id": rng.choice(s["savings_goals"].ids()),
            "amount": money_ops.amount(rng, s, 1, 300),
            "action": rng.choice(["deposit", "deposit", "withdraw"])},
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_budgets_and_goals_reconcile_after_1000_random_operations(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, cur = state(rt), make_world(seed).currency
    saved = {g["goal_id"]: g["saved_amount"] for g in s["savings_goals"].rows()}
    done, failed = money_ops.run_ops(rt, _makers(), 1000, seed)
    assert len(done) > 200 and failed > 20
    for tool, args, _ in done:  # each goal holds its opening plus deposits minus withdrawals
        if tool == "contribute_to_savings_goal":
            sign = 1 if args["action"] == "deposit" else -1
            saved[args["goal_id"]] += sign * money_ops.minor(args["amount"], cur)
    assert saved == {g["goal_id"]: g["saved_amount"] for g in s["savings_goals"].rows()}
    for month in ("2026-05", "2026-06"):
        summary = ok(rt, "get_spending_summary", {"month": month})
        mine = [e["amount"] for e in s["expenses"].rows() if e["date"][:7] == month]
        assert money_ops.minor(summary["total_spent"], cur) == sum(mine)
        assert sum(money_ops.minor(c["spent"], cur) for c in summary["categories"]) == sum(mine)
        for b in ok(rt, "list_budgets", {"month": month})["budgets"]:
            spent = sum(e["amount"] for e in s["expenses"].rows()
                        if e["date"][:7] == month and e["category_id"] == b["category_id"])
            assert money_ops.minor(b["spent"], cur) == spent
            assert money_ops.minor(b["remaining"], cur) == money_ops.minor(b["limit"], cur) - spent
