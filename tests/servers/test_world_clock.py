"""One world clock (#19 item 2): every server's sessions start at the world's now, in the home
city's zone; clock-derived fields can be left out of a state comparison."""

from __future__ import annotations

import datetime as dt

import pytest

from servers.core.app import control
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.registry import available, load_domain

SEEDS = (0, 3, 11)


@pytest.fixture(scope="module")
def runtimes() -> dict[str, Runtime]:
    return {name: Runtime(load_domain(name)) for name in available()}


def test_the_seeds_have_different_home_zones():
    assert len({make_world(seed).home.tz for seed in SEEDS}) > 1


@pytest.mark.parametrize("seed", SEEDS)
def test_every_server_starts_its_sessions_at_the_worlds_now(runtimes, seed):
    world = make_world(seed)
    expected = world.now.isoformat(timespec="minutes")
    assert dt.datetime.fromisoformat(expected).utcoffset() == world.now.utcoffset()
    for name, runtime in runtimes.items():
        opened = control(runtime, "_session_open", {"seed": seed}, None)
        assert opened["now"] == expected, name
        snap = control(runtime, "_session_snapshot", {}, opened["session_id"])
        assert snap["now"] == expected, name
        reset = control(runtime, "_session_reset", {"seed": seed}, opened["session_id"])
        assert reset["now"] == expected, name
        control(runtime, "_session_close", {}, opened["session_id"])


def _issue_tracker_after(order: list[str]) -> Runtime:
    """An issue tracker session that raised the priority of the given issues in that order."""
    runtime = Runtime(load_domain("issue_tracker"))
    for issue_id in order:
        assert runtime.call("update_issue", {"issue_id": issue_id, "priority": "highest"}).ok
    return runtime


def test_states_that_differ_only_in_write_order_compare_equal_without_clock_fields():
    first = Runtime(load_domain("issue_tracker")).session(None).state
    a, b = sorted(first["issues"].ids())[:2]
    ab, ba = _issue_tracker_after([a, b]), _issue_tracker_after([b, a])
    sa, sb = ab.session(None).state, ba.session(None).state
    assert sa.digest() != sb.digest()  # the stamps tell the order apart
    assert ab.domain.without_clock(sa) == ba.domain.without_clock(sb)
    snap_a = control(ab, "_session_snapshot", {"clock_free": True}, None)
    snap_b = control(ba, "_session_snapshot", {"clock_free": True}, None)
    assert "clock_free_hash" not in control(ab, "_session_snapshot", {}, None)
    assert snap_a["hash"] != snap_b["hash"]
    assert snap_a["clock_free_hash"] == snap_b["clock_free_hash"]


def test_a_different_write_is_not_hidden_by_leaving_the_clock_out():
    first = Runtime(load_domain("issue_tracker")).session(None).state
    a, b = sorted(first["issues"].ids())[:2]
    one, other = _issue_tracker_after([a]), _issue_tracker_after([b])
    assert one.domain.without_clock(one.session(None).state) != \
        other.domain.without_clock(other.session(None).state)


def test_every_server_declares_only_tables_it_has():
    for name in available():
        domain = load_domain(name)
        state = Runtime(domain).session(None).state
        assert set(domain.clock_fields) <= set(state.tables), name
