"""The resolution check on free text (issue 23 item 2): a teacher's turn may name a record the
way a person does ("my checking account") as long as the records shown so far leave one
reading; dropped values, ambiguous names and leaked withheld values send the turn back to the
template."""

from __future__ import annotations

from types import SimpleNamespace

from prove_jax.synthesis.dialogue import ArgSpec, StepSpec, TurnSpec
from prove_jax.synthesis.records import StepRecord
from prove_jax.synthesis.textcheck import spellings, unresolved_text


def _accounts(*names: str) -> list[StepRecord]:
    rows = [{"account_id": f"acc_{c}aaaa2", "name": n} for c, n in zip("abc", names, strict=False)]
    node = SimpleNamespace(name="list_accounts", read_only=True)
    return [StepRecord(node=node, name="list_accounts", args={}, filled={},
                       payload={"accounts": rows})]


def _get(arg: ArgSpec) -> TurnSpec:
    return TurnSpec("request", [StepSpec("get_account", "banking", "Get an account.", True,
                                         [arg], index=1)])


CHECKING = ArgSpec("account_id", "acc_aaaaa2", "entity", "account", "Everyday Checking",
                   entity_id="acc_aaaaa2", label_field="name")


def test_a_record_may_be_named_by_a_word_only_it_has():
    steps = _accounts("Everyday Checking", "Holiday Savings")
    assert unresolved_text("Show me my checking account.", _get(CHECKING), steps) is None
    assert unresolved_text("What's in 'Everyday Checking'?", _get(CHECKING), steps) is None
    assert "not named" in unresolved_text("Show me my savings.", _get(CHECKING), steps)
    two = _accounts("Everyday Checking", "Premium Checking")  # "checking" fits both now
    assert "not named" in unresolved_text("Show me my checking account.", _get(CHECKING), two)
    assert unresolved_text("Show me the everyday one.", _get(CHECKING), two) is None


def test_values_in_any_spelling_and_withheld_values_left_out():
    assert {"june 23", "2026-06-23"} <= spellings("2026-06-23")
    assert {"7500", "7500.00"} <= spellings(7500.0)
    since = ArgSpec("date_from", "2026-06-23", "literal")
    search = TurnSpec("request", [StepSpec("search_emails", "email", "Search.", True, [since],
                                           index=0)])
    assert unresolved_text("Find mail since June 23.", search, []) is None
    assert unresolved_text("Find mail since 2026-06-23.", search, []) is None
    assert "not stated" in unresolved_text("Find my recent mail.", search, [])
    amount = ArgSpec("amount", 7500.0, "withheld")
    pay = TurnSpec("request", [StepSpec("pay_payee", "banking", "Pay.", False, [amount],
                                        index=0)])
    assert unresolved_text("Please pay Rosa.", pay, []) is None
    assert "withheld" in unresolved_text("Please pay Rosa 7500.", pay, [])
