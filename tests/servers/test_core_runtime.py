"""servers/core/runtime.py: the session registry (open, the session limit, reset, close) and
all-or-nothing calls, on the toy domain and on one real server."""

from __future__ import annotations

import pytest

from servers.core import ids
from servers.core.errors import SessionError
from servers.core.runtime import DEFAULT_SESSION, MAX_SESSIONS, Runtime
from servers.registry import load_domain
from tests.servers.common import examples
from tests.servers.toy_domain import TOY


def _digest(rt: Runtime, session_id: str | None = None) -> str:
    return rt.session(session_id).state.digest()


def _fresh_digest(seed: int) -> str:
    return Runtime(TOY, default_seed=seed).session(None).state.digest()


def test_seeds_give_different_worlds_and_the_same_seed_the_same_one():
    assert _fresh_digest(3) == _fresh_digest(3)
    assert _fresh_digest(3) != _fresh_digest(4)


def test_the_default_limit_is_shared_by_every_runtime():
    assert Runtime(TOY).max_sessions == MAX_SESSIONS


def test_at_the_session_limit_open_is_refused_and_nothing_else_changes():
    rt = Runtime(TOY, max_sessions=3)  # the default session counts: two more fit
    rt.open(1, "a")
    rt.open(2, "b")
    assert rt.call("add", {"amount": 5}, "a").ok
    before = {sid: _digest(rt, sid) for sid in rt.sessions}
    with pytest.raises(SessionError, match=r"too many open sessions \(3\); close some first"):
        rt.open(9, "c")
    assert {sid: _digest(rt, sid) for sid in rt.sessions} == before  # same ids, same states
    assert rt.session("a").seed == 1 and rt.session("b").seed == 2
    with pytest.raises(SessionError, match="unknown or closed session 'c'"):
        rt.session("c")
    rt.close("b")
    assert rt.open(9, "c").seed == 9  # closing one frees a place
    assert _digest(rt, "c") == _fresh_digest(9)


def test_open_refuses_a_duplicate_id_and_generates_distinct_ids():
    rt = Runtime(TOY)
    with pytest.raises(SessionError, match="'default' is already open"):
        rt.open(0, DEFAULT_SESSION)
    ids = {rt.open(0).id for _ in range(5)}
    assert len(ids) == 5 and DEFAULT_SESSION not in ids


def test_reset_equals_a_fresh_session_and_leaves_others_alone():
    rt = Runtime(TOY)
    rt.open(3, "a")
    rt.open(5, "b")
    for sid in ("a", "b"):
        assert rt.call("reshuffle", {}, sid).ok
        assert rt.call("add", {"amount": 2.5}, sid).ok
    b_before = _digest(rt, "b")
    assert _digest(rt, "a") != _fresh_digest(3)
    session = rt.reset("a", 3)
    assert (session.id, session.seed) == ("a", 3)
    assert _digest(rt, "a") == _fresh_digest(3)
    assert _digest(rt, "b") == b_before
    rt.reset("a", 4)  # a reset may change the seed
    assert rt.session("a").seed == 4 and _digest(rt, "a") == _fresh_digest(4)
    rt.reset(None, 6)  # the default session too
    assert _digest(rt) == _fresh_digest(6) and _digest(rt, "b") == b_before


def test_reset_and_close_of_an_unknown_session_fail_clearly():
    rt = Runtime(TOY)
    with pytest.raises(SessionError, match="unknown or closed session 'zz'; open one first"):
        rt.reset("zz", 0)
    with pytest.raises(SessionError, match="default session cannot be closed; reset it"):
        rt.close(None)
    rt.open(0, "a")
    rt.close("a")
    with pytest.raises(SessionError, match="unknown or closed session 'a'"):
        rt.close("a")


def test_reset_of_a_real_server_after_every_example_equals_a_fresh_session():
    domain = load_domain("banking")
    rt = Runtime(domain)
    rt.open(11, "s")
    for tool, args in examples("banking"):
        rt.call(tool, args, "s")
    assert _digest(rt, "s") != Runtime(domain, default_seed=11).session(None).state.digest()
    rt.reset("s", 11)
    assert _digest(rt, "s") == Runtime(domain, default_seed=11).session(None).state.digest()


def test_sessions_of_one_seed_share_no_rows():
    rt = Runtime(TOY)
    rt.open(0, "a")
    rt.open(0, "b")
    assert rt.call("reshuffle", {}, "a").ok
    assert _digest(rt, "b") == _fresh_digest(0) == _digest(rt)


# ----------------------------------------------------------------------------- calls
def _items(seed: int, *numbers: int) -> list[str]:
    """The toy world's built items 'it_N', as sealed at `seed`."""
    return [ids.opaque(seed, f"it_{n}") for n in numbers]


@pytest.mark.parametrize("fail", ["tool_error", "crash"])
def test_a_failed_call_leaves_the_session_exactly_as_it_was(fail):
    rt = Runtime(TOY)
    assert rt.call("add", {"amount": 1}, None).ok  # earlier work must survive
    before = _digest(rt)
    order = rt.call("list_items", {}).payload["ids"]
    out = rt.call("reshuffle", {"fail": fail})
    assert not out.ok
    assert _digest(rt) == before
    assert rt.call("list_items", {}).payload["ids"] == order == _items(0, 1, 2, 3, 4, 5)
    assert rt.session(None).state.var("total") == 1.0


def test_a_successful_call_commits_and_its_journal_is_gone():
    rt = Runtime(TOY)
    assert rt.call("reshuffle", {}).ok
    after = _digest(rt)
    assert not rt.call("reshuffle", {}).ok  # item 2 is gone now: NotFound, rolled back
    assert _digest(rt) == after
    assert rt.call("list_items", {}).payload["ids"] == [*_items(0, 1, 3, 4, 5),
                                                        ids.opaque(0, "new_1")]


def test_integer_and_float_arguments_give_the_same_state():
    one, two = Runtime(TOY), Runtime(TOY)
    assert one.call("add", {"amount": 250}).payload == {"total": 250.0}
    assert two.call("add", {"amount": 250.0}).ok
    assert _digest(one) == _digest(two)
    assert type(one.session(None).state.var("total")) is float


def test_calls_go_to_their_own_session():
    rt = Runtime(TOY)
    rt.open(0, "a")
    assert rt.call("add", {"amount": 3}, "a").ok
    assert rt.session("a").state.var("total") == 3.0
    assert rt.session(None).state.var("total") == 0.0
