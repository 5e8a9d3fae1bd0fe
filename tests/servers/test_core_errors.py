"""servers/core/errors.py: every failure a caller can cause reaches the caller as a result of
the right kind with a message naming the cause (never an exception out of the runtime)."""

from __future__ import annotations

import pytest

from servers.core.app import ERROR_KIND_KEY, error_result
from servers.core.runtime import Runtime
from tests.servers.toy_domain import TOY


@pytest.mark.parametrize("name,args,session,kind,message", [
    ("no_such_tool", {}, None, "unknown_tool",
     "unknown tool 'no_such_tool' on server 'toy'; available tools: list_items, get_item, add, "
     "reshuffle"),
    ("add", {"amount": "5"}, None, "schema_error",
     "add: argument 'amount' must be a number, got a string '5'"),
    ("add", {"amount": float("nan")}, None, "schema_error",
     "add: argument 'amount' must be a finite number, got nan"),
    ("add", {"amount": 10 ** 400}, None, "schema_error",  # was an OverflowError out of call
     "add: argument 'amount' must be a finite number, got an integer beyond "
     "1.8e+308"),
    ("add", {"amount": 1}, "gone", "session_error",
     "unknown or closed session 'gone'; open one first"),
    ("get_item", {"item_id": "it_9"}, None, "execution_error",
     "get_item: no item with id 'it_9'; list_items shows the ids"),
    ("reshuffle", {"fail": "tool_error"}, None, "execution_error",
     "reshuffle: refused on purpose"),
    ("reshuffle", {"fail": "crash"}, None, "execution_error",
     "reshuffle: internal error (RuntimeError: boom)"),
])
def test_failures_come_back_as_outcomes_of_their_kind(name, args, session, kind, message):
    rt = Runtime(TOY)
    out = rt.call(name, args, session)
    assert (out.ok, out.payload, out.kind, out.error) == (False, None, kind, message)


def test_a_schema_error_is_reported_before_the_session_is_looked_up():
    out = Runtime(TOY).call("add", {"amount": True}, "gone")
    assert out.kind == "schema_error"


def test_success_has_kind_ok_and_no_error():
    out = Runtime(TOY).call("add", {"amount": 2})
    assert (out.ok, out.kind, out.error, out.payload) == (True, "ok", None, {"total": 2.0})


def test_the_mcp_error_result_carries_the_kind():
    result = error_result("add: bad", "schema_error")
    assert result.is_error
    assert result.content[0].text == "add: bad"
    assert result.meta[ERROR_KIND_KEY] == "schema_error"
