"""Small builders for the JSON form of calls and truths used across the reward tests."""

from __future__ import annotations

from typing import Any


def call(name: str, outcome: str = "ok", **arguments: Any) -> dict:
    """A model call in the JSON form."""
    return {"name": name, "arguments": arguments, "outcome": outcome}


def tc(name: str, **arguments: Any) -> dict:
    """A ground-truth call in the JSON form."""
    return {"name": name, "arguments": arguments}


def as_model(truth_call: dict, outcome: str = "ok") -> dict:
    """The model call that reproduces a truth call exactly."""
    return {"name": truth_call["name"], "arguments": truth_call["arguments"], "outcome": outcome}


# A 4-call banking chain: account -> balance -> transfer -> email (each step depends on the one
# before it). n_gt = 4, budget B = 4 + ceil(0.5 * 4) = 6.
ACCOUNT = tc("get_account", user="ana")
BALANCE = tc("get_balance", account_id="A1")
TRANSFER = tc("transfer", src="A1", dst="B2", amount=50)
EMAIL = tc("send_email", to="ana@x.com", body={"amount": 50, "tags": ["paid", "rent"]})
CHAIN = {"steps": [[ACCOUNT], [BALANCE], [TRANSFER], [EMAIL]],
         "edges": [[0, 1], [1, 2], [2, 3]], "kind": "normal"}
