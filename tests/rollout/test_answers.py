"""The oracle's final answer reports what the tools returned, read from the context the
request carries, not the names of the tools it called ("Done. I took care of that using
get_size, cd." taught a model to stop without answering)."""

import json

from prove_jax.rollout.answers import summarize, tool_results

PAYMENTS = {"payments": [
    {"payment_id": "pay_1", "note": "rent share", "amount": 12.5, "status": "completed"},
    {"payment_id": "pay_2", "note": "dinner", "amount": 30, "status": "pending"},
    {"payment_id": "pay_3", "note": "groceries", "amount": 8, "status": "pending"},
    {"payment_id": "pay_4", "note": "taxi", "amount": 9, "status": "pending"}]}


def _context(*results: object) -> str:
    blocks = "".join(f"\n<tool_response>\n{json.dumps(r)}\n</tool_response>" for r in results)
    return f"<|im_start|>user\nPay Ana<|im_end|>\n<|im_start|>user{blocks}<|im_end|>\n"


def test_only_the_turns_own_last_results_are_read():
    ctx = _context({"old": 1}, PAYMENTS, {"order_id": "ord_1", "status": "cancelled"})
    assert [json.loads(r) for r in tool_results(ctx, 2)] == \
        [PAYMENTS, {"order_id": "ord_1", "status": "cancelled"}]
    assert tool_results(ctx, 0) == []


def test_a_listing_is_reported_by_count_and_its_first_items():
    assert summarize([json.dumps(PAYMENTS)]) == (
        "Here is what I found: 4 payments: 'rent share' (status completed, amount 12.5); "
        "'dinner' (status pending, amount 30); 'groceries' (status pending, amount 8) "
        "and 1 more.")
    assert summarize([json.dumps({"payments": []})]) == \
        "Here is what I found: no payments found."


def test_a_record_a_call_returned_is_reported_with_its_facts():
    order = {"order_id": "ord_1", "name": "Order 7116", "status": "cancelled", "total": 30.5}
    assert summarize([json.dumps(order)]) == "Done: 'Order 7116' (status cancelled, total 30.5)."
    failed = {"error": {"message": "card is frozen"}}
    assert summarize([json.dumps(failed)]) == "Sorry, that did not work: card is frozen."
    assert summarize([]) == "Done. Is there anything else you need?"
