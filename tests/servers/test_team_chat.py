"""Domain behaviour of the team_chat server (seed 0): the directory mirrors the world, private
channels stay private, membership rules (joining, inviting, leaving), DMs, ownership of edits
and deletes, threads."""

from __future__ import annotations

import pytest

from servers.core import ids
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.team_chat import DOMAIN
from tests.servers.common import (
    assert_world_varies,
    fails,
    ok,
    ok_all,
    row_where,
    runtime_fixture,
    state,
)
from tests.servers.money_ops import SEEDS

rt = runtime_fixture(DOMAIN)


def _user(rt: Runtime) -> str:
    return state(rt).var("user_id")


def _private_not_joined(rt: Runtime) -> dict:
    return next(c for c in state(rt)["channels"].rows()
                if c["kind"] == "private" and _user(rt) not in c["member_ids"])


def _member_named(rt: Runtime, name: str) -> str:
    return row_where(rt, "members", name=name)["member_id"]


def test_world_varies_by_seed():
    assert_world_varies("team_chat", {"channels": "kind", "messages": None})


def test_directory_is_the_worlds_people_findable_by_name_and_email(rt):
    world = make_world(0)
    members = {m["member_id"]: m for m in state(rt)["members"].rows()}
    assert len(members) == len(world.people)
    for p in world.people:  # member id = the world person's (sealed) id
        member = members[ids.opaque(0, p.id)]
        assert (member["name"], member["email"]) == (p.name, p.email)
    hiro = world.people[3]
    hiro_id = ids.opaque(0, hiro.id)
    by_name = ok(rt, "search_members", {"query": hiro.name.upper()})["members"]
    assert [m["member_id"] for m in by_name] == [hiro_id]
    by_email = ok(rt, "search_members", {"query": hiro.email})["members"]
    assert by_email[0]["member_id"] == hiro_id
    me = ok(rt, "search_members", {"query": world.user.name})["members"][0]
    assert me["is_you"] and me["member_id"] == _user(rt)


def test_private_channels_are_hidden_from_non_members(rt):
    secret = _private_not_joined(rt)
    listed = {c["channel_id"] for c in ok_all(rt, "list_channels", {}, "channels")}
    assert secret["channel_id"] not in listed
    fails(rt, "get_channel_history", {"channel_id": secret["channel_id"]}, "private")
    fails(rt, "post_message", {"channel_id": secret["channel_id"], "text": "hi"}, "private")
    fails(rt, "invite_to_channel", {"channel_id": secret["channel_id"],
                                    "member_ids": [_user(rt)]}, "ask one of its members")
    hidden = state(rt)["messages"].rows(lambda m: m["channel_id"] == secret["channel_id"])
    word = hidden[0]["text"].split()[0]
    found = ok_all(rt, "search_messages", {"query": word}, "messages")
    assert secret["channel_id"] not in {m["channel_id"] for m in found}


def test_joining_and_inviting(rt):
    user = _user(rt)
    sales = next(c for c in state(rt)["channels"].rows()
                 if c["kind"] == "public" and user not in c["member_ids"])
    cid = sales["channel_id"]
    outsider = next(m for m in state(rt)["members"].ids() if m not in sales["member_ids"]
                    and m != user)
    fails(rt, "invite_to_channel", {"channel_id": cid, "member_ids": [outsider]},
           "join it first")
    joined = ok(rt, "invite_to_channel", {"channel_id": cid, "member_ids": [user]})
    assert joined["channel"]["is_member"]
    assert joined["channel"]["member_count"] == len(sales["member_ids"]) + 1
    fails(rt, "invite_to_channel", {"channel_id": cid, "member_ids": [outsider, user]},
           f"already in #{sales['name']}: {user}")
    ok(rt, "invite_to_channel", {"channel_id": cid, "member_ids": [outsider]})
    in_channel = ok_all(rt, "search_members", {"channel_id": cid}, "members")
    assert {user, outsider} <= {m["member_id"] for m in in_channel}


def test_create_channel_validates_name_and_uniqueness(rt):
    err = fails(rt, "create_channel", {"name": "Q3 Planning!"}, "invalid channel name")
    assert "'q3-planning'" in err
    fails(rt, "create_channel", {"name": "general"}, "already exists")
    hiro = _member_named(rt, make_world(0).people[3].name)
    ch = ok(rt, "create_channel", {"name": "#q3-planning", "is_private": True,
                                    "member_ids": [hiro, hiro]})
    assert ch["name"] == "q3-planning" and ch["kind"] == "private" and ch["member_count"] == 2


def test_direct_messages_reuse_one_conversation(rt):
    s, user = state(rt), _user(rt)
    dm_partners = {m for c in s["channels"].rows() if c["kind"] == "dm" for m in c["member_ids"]}
    new = next(m for m in s["members"].ids() if m not in dm_partners)
    first = ok(rt, "send_direct_message", {"member_id": new, "text": "Hi there"})
    n_channels = len(s["channels"])
    second = ok(rt, "send_direct_message", {"member_id": new, "text": "Are you free?"})
    assert second["channel_id"] == first["channel_id"] and len(s["channels"]) == n_channels
    history = ok(rt, "get_channel_history", {"channel_id": first["channel_id"]})["messages"]
    assert [m["text"] for m in history] == ["Are you free?", "Hi there"]
    existing = next(c for c in s["channels"].rows() if c["kind"] == "dm")
    partner = next(m for m in existing["member_ids"] if m != user)
    again = ok(rt, "send_direct_message", {"member_id": partner, "text": "ping"})
    assert again["channel_id"] == existing["channel_id"]
    fails(rt, "send_direct_message", {"member_id": user, "text": "me"}, "yourself")


def test_only_own_messages_can_be_edited_or_deleted(rt):
    s, user = state(rt), _user(rt)
    theirs = next(m for m in s["messages"].rows() if m["sender_id"] != user
                  and s["channels"].get(m["channel_id"])["kind"] == "public")
    fails(rt, "edit_message", {"message_id": theirs["message_id"], "text": "x"},
           "only edit your own")
    fails(rt, "delete_message", {"message_id": theirs["message_id"]}, "only delete your own")
    parent = next(m for m in s["messages"].rows() if m["sender_id"] == user
                  and m["parent_message_id"] is None
                  and s["messages"].rows(lambda r, i=m["message_id"]: r["parent_message_id"] == i))
    n_replies = len(s["messages"].rows(lambda r: r["parent_message_id"] == parent["message_id"]))
    edited = ok(rt, "edit_message", {"message_id": parent["message_id"], "text": "Updated."})
    assert edited["edited_at"] and edited["reply_count"] == n_replies
    before = len(s["messages"])
    out = ok(rt, "delete_message", {"message_id": parent["message_id"]})
    assert out["removed_replies"] == n_replies and len(s["messages"]) == before - 1 - n_replies


def test_threads(rt):
    cid = _joined(rt, "public")["channel_id"]
    elsewhere = next(m for m in state(rt)["messages"].rows() if m["channel_id"] != cid)
    reply = fails(rt, "post_message", {"channel_id": cid, "text": "x",
                                        "parent_message_id": elsewhere["message_id"]},
                   elsewhere["message_id"])
    assert "reply in that channel" in reply
    parent = ok(rt, "post_message", {"channel_id": cid, "text": "Deploy at 3pm?"})
    child = ok(rt, "post_message", {"channel_id": cid, "text": "Works for me",
                                     "parent_message_id": parent["message_id"]})
    fails(rt, "post_message", {"channel_id": cid, "text": "nested",
                                "parent_message_id": child["message_id"]}, "itself a reply")
    thread = ok(rt, "get_channel_history", {"channel_id": cid,
                                             "parent_message_id": parent["message_id"]})
    assert [m["message_id"] for m in thread["messages"]] == [child["message_id"]]


# ------------------------------------------------------------------ leave_channel


def _joined(rt: Runtime, kind: str) -> dict:
    """A channel of `kind` the user is in with others, other than #general."""
    me = state(rt).var("user_id")
    return next(c for c in state(rt)["channels"].rows()
                if c["kind"] == kind and me in c["member_ids"] and c["name"] != "general"
                and len(c["member_ids"]) > 1)


def _ids(channels: list[dict]) -> set[str]:
    return {c["channel_id"] for c in channels}


@pytest.mark.parametrize("seed", SEEDS)
def test_leaving_a_public_channel_drops_it_from_your_channels_and_you_can_rejoin(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    me = state(rt).var("user_id")
    ch = _joined(rt, "public")
    cid = ch["channel_id"]
    left = ok(rt, "leave_channel", {"channel_id": cid})
    assert not left["is_member"] and left["member_count"] == len(ch["member_ids"]) - 1
    assert cid not in _ids(ok_all(rt, "list_channels", {"joined_only": True}, "channels"))
    members = ok_all(rt, "search_members", {"channel_id": cid}, "members")
    assert me not in {m["member_id"] for m in members}
    assert ok(rt, "get_channel_history", {"channel_id": cid})["messages"]  # public: readable
    fails(rt, "leave_channel", {"channel_id": cid}, "not a member", cid)
    back = ok(rt, "invite_to_channel", {"channel_id": cid, "member_ids": [me]})["channel"]
    assert back["is_member"] and state(rt)["channels"].get(cid)["member_ids"] == \
        ch["member_ids"]


@pytest.mark.parametrize("seed", SEEDS)
def test_leaving_a_private_channel_makes_it_unreadable(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    ch = _joined(rt, "private")
    cid = ch["channel_id"]
    assert ok(rt, "get_channel_history", {"channel_id": cid})["channel_id"] == cid
    ok(rt, "leave_channel", {"channel_id": cid})
    assert cid not in _ids(ok_all(rt, "list_channels", {"kind": "private"}, "channels"))
    fails(rt, "get_channel_history", {"channel_id": cid}, "private and you are not a member")
    fails(rt, "post_message", {"channel_id": cid, "text": "hello?"}, "not a member")
    fails(rt, "invite_to_channel", {"channel_id": cid, "member_ids": [
        state(rt).var("user_id")]}, "ask one of its members to invite you")


@pytest.mark.parametrize("seed", SEEDS)
def test_leave_channel_refuses_general_dms_channels_you_are_not_in_and_the_last_member(seed):
    rt = Runtime(DOMAIN, default_seed=seed)
    s, me = state(rt), state(rt).var("user_id")
    general = next(c for c in s["channels"].rows() if c["name"] == "general")
    fails(rt, "leave_channel", {"channel_id": general["channel_id"]}, "#general",
          "workspace-wide")
    dm = next(c for c in s["channels"].rows() if c["kind"] == "dm")
    fails(rt, "leave_channel", {"channel_id": dm["channel_id"]}, "direct-message")
    outside = next(c for c in s["channels"].rows()
                   if c["kind"] == "public" and me not in c["member_ids"])
    fails(rt, "leave_channel", {"channel_id": outside["channel_id"]}, "not a member",
          outside["name"])
    fails(rt, "leave_channel", {"channel_id": "ch_9999"}, "no channel with id 'ch_9999'")
    alone = ok(rt, "create_channel", {"name": "solo-notes", "is_private": True})
    fails(rt, "leave_channel", {"channel_id": alone["channel_id"]}, "last member")
    ok(rt, "leave_channel", {"channel_id": ok(rt, "create_channel", {
        "name": "solo-public"})["channel_id"]})  # a public channel may be left empty
