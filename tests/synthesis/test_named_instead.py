"""A value an earlier output holds that nothing shown tells apart is named, not quoted: a task
list shows each task's contact and owner as bare person ids, so "the person of that task"
is two people and the user would have had to quote 'p_r4tw9b'. Where the world knows the
contact's name, the user says it and a look-up finds it (issue 23: users name what they
know)."""

from __future__ import annotations

from prove_jax.synthesis.context import Context
from prove_jax.synthesis.graph import build_graph
from prove_jax.synthesis.machine import named_instead
from prove_jax.synthesis.records import Filled, StepRecord
from tests.synthesis.toy import _tool

TASK = {"type": "object", "properties": {"task_id": {"type": "string"},
                                         "title": {"type": "string"},
                                         "contact_id": {"type": "string"},
                                         "owner_id": {"type": "string"}}}
TOOLS = {"crm": [
    _tool("list_tasks", True, {}, [], {"type": "object", "properties": {
        "tasks": {"type": "array", "items": TASK}}}, "List tasks."),
    _tool("update_contact", False, {"contact_id": {"type": "string"},
                                    "title": {"type": "string"}},
          ["contact_id"], {"type": "object"}, "Update a contact."),
]}
IDS = {1: "p_k7qm2x", 2: "p_r4tw9b"}  # sealed ids, as the servers make them
CONTACTS = [{"contact_id": IDS[k], "name": n} for k, n in ((1, "Olivia Ahmed"), (2, "Hiro Bauer"))]


def _tasks(with_owner: bool) -> list[dict]:
    out = []
    for k, title in ((1, "Send proposal"), (2, "Call about renewal")):
        task = {"task_id": f"tsk_{k}", "title": title, "contact_id": IDS[k]}
        if with_owner:
            task["owner_id"] = "p_z8mm3c"  # a sales rep: another person id on the record
        out.append(task)
    return out


def _run(with_owner: bool) -> tuple[list[str], dict[str, Filled]]:
    graph = build_graph(TOOLS)
    ctx = Context("crm", 0)
    ctx.add("search_contacts", {"contacts": CONTACTS}, listed=True)
    tasks = _tasks(with_owner)
    listed = StepRecord(graph.nodes["crm.list_tasks"], "list_tasks", {}, {},
                        {"tasks": tasks})
    filled = {"contact_id": Filled(IDS[2], "derived", "contact", None, 0, tasks[1], 2, tasks),
              "title": Filled("CTO", "generated")}
    return named_instead(filled, [listed], ctx), filled


def test_a_contact_only_quotable_from_a_task_list_is_named_instead():
    renamed, filled = _run(with_owner=True)
    assert renamed == ["contact_id"]
    f = filled["contact_id"]
    assert (f.source, f.value, f.from_step) == ("context", IDS[2], None)
    assert f.entity.label == ("name", "Hiro Bauer")  # the look-up will search this name
    assert filled["title"].source == "generated"


def test_a_value_the_user_can_point_at_stays_taken_from_the_output():
    # without the owner, "the contact of the task 'Call about renewal'" says it
    renamed, filled = _run(with_owner=False)
    assert renamed == [] and filled["contact_id"].source == "derived"


def test_a_contact_told_apart_only_by_its_tasks_status_is_named_instead():
    """Two tasks both titled 'Call': "the contact of the task 'Call' that is done" is a record
    told apart through another; the user says the contact's own name instead."""
    graph = build_graph(TOOLS)
    ctx = Context("crm", 0)
    ctx.add("search_contacts", {"contacts": CONTACTS}, listed=True)
    tasks = [{"task_id": f"tsk_{k}", "title": "Call", "status": s, "contact_id": IDS[k]}
             for k, s in ((1, "open"), (2, "done"))]
    listed = StepRecord(graph.nodes["crm.list_tasks"], "list_tasks", {}, {}, {"tasks": tasks})
    filled = {"contact_id": Filled(IDS[2], "derived", "contact", None, 0, tasks[1], 2, tasks)}
    assert named_instead(filled, [listed], ctx) == ["contact_id"]
    assert filled["contact_id"].entity.label == ("name", "Hiro Bauer")


def test_a_ticker_found_through_a_trade_is_said_as_it_is():
    """"the stock traded in the trade for 575.98" was the reading check's; a ticker is the
    user's to say, so the call no longer waits for the trade list."""
    from prove_jax.synthesis.graph import build_graph as graph_of
    from tests.synthesis.toy import _tool

    trade = {"type": "object", "properties": {"trade_id": {"type": "string"},
                                              "symbol": {"type": "string"},
                                              "total": {"type": "number"}}}
    tools = {"trading": [
        _tool("list_trades", True, {}, [], {"type": "object", "properties": {
            "trades": {"type": "array", "items": trade}}}, "List trades."),
        _tool("get_quote", True, {"symbol": {"type": "string"}}, ["symbol"],
              {"type": "object"}, "Quote a stock."),
    ]}
    graph = graph_of(tools)
    trades = [{"trade_id": "trd_k7qm2x", "symbol": "NFLX", "total": 575.98},
              {"trade_id": "trd_r4tw9b", "symbol": "AAPL", "total": 120.5}]
    listed = StepRecord(graph.nodes["trading.list_trades"], "list_trades", {}, {},
                        {"trades": trades})
    filled = {"symbol": Filled("NFLX", "derived", "@symbol", None, 0, trades[0], 2, trades)}
    assert named_instead(filled, [listed], Context("trading", 0)) == ["symbol"]
    assert (filled["symbol"].source, filled["symbol"].from_step) == ("context", None)
