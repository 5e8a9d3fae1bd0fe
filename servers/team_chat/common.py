"""team_chat: the domain object, output shapes, argument types and helpers shared by the tool
modules (channels.py: members and channels; messages.py: messages and search)."""

from __future__ import annotations

from typing import Annotated, TypedDict

from servers.core.clock import tick
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.team_chat.seed import build

DOMAIN = Domain("team_chat", "A team chat workspace: member directory, public and private "
                "channels (joining, inviting, leaving), direct messages, threads and message "
                "search.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"messages": ("sent_at", "edited_at"), "channels": ("created_at",)}

MAX_TEXT = 4000


class Member(TypedDict):
    member_id: str
    name: str
    email: str
    display_name: str
    title: str
    company: str
    city: str
    timezone: str
    status_text: str
    presence: str
    is_you: bool


class MemberList(TypedDict):
    members: list[Member]
    total: int
    next_cursor: str | None


class Channel(TypedDict):
    channel_id: str
    name: str
    kind: str
    topic: str
    member_count: int
    is_member: bool
    dm_member_id: str | None
    created_at: str
    last_message_at: str | None


class ChannelList(TypedDict):
    channels: list[Channel]
    total: int
    next_cursor: str | None


class Reaction(TypedDict):
    emoji: str
    count: int
    member_ids: list[str]


class Message(TypedDict):
    message_id: str
    channel_id: str
    channel_name: str
    sender_id: str
    sender_name: str
    text: str
    sent_at: str
    edited_at: str | None
    parent_message_id: str | None
    reply_count: int
    reactions: list[Reaction]


class MessageList(TypedDict):
    channel_id: str
    channel_name: str
    messages: list[Message]
    total: int
    next_cursor: str | None


class SearchResult(TypedDict):
    messages: list[Message]
    total: int
    next_cursor: str | None


class InviteResult(TypedDict):
    channel: Channel
    added_member_ids: list[str]


class DeleteResult(TypedDict):
    message_id: str
    channel_id: str
    deleted: bool
    removed_replies: int


ChannelId = Annotated[str, Arg("Channel id, e.g. 'ch_k7zua4' or a direct-message id 'dm_wu377c' "
                               "(from list_channels)")]
MessageId = Annotated[str, Arg("Message id, e.g. 'msg_sahuvt' (from get_channel_history or "
                               "search_messages)")]
Text = Annotated[str, Arg(f"Message text, at most {MAX_TEXT} characters", min_length=1,
                          max_length=MAX_TEXT)]
Limit = Annotated[int, Arg("At most this many results", minimum=1, maximum=200)]


def me(s: State) -> str:
    return s.var("user_id")


def now(s: State) -> str:
    return tick(s)


def member_out(s: State, m: Row) -> Member:
    return {**m, "is_you": m["member_id"] == me(s)}


def channel_out(s: State, ch: Row) -> Channel:
    cid = ch["channel_id"]
    times = [m["sent_at"] for m in s["messages"].rows(lambda m: m["channel_id"] == cid)]
    dm_other = None
    if ch["kind"] == "dm":
        dm_other = next((m for m in ch["member_ids"] if m != me(s)), me(s))
    return {"channel_id": cid, "name": ch["name"], "kind": ch["kind"], "topic": ch["topic"],
            "member_count": len(ch["member_ids"]), "is_member": me(s) in ch["member_ids"],
            "dm_member_id": dm_other, "created_at": ch["created_at"],
            "last_message_at": max(times) if times else None}


def can_read(s: State, ch: Row) -> bool:
    return ch["kind"] == "public" or me(s) in ch["member_ids"]


def readable_channel(s: State, channel_id: str) -> Row:
    """The channel, if the user may read it: public, or one they belong to."""
    ch = s["channels"].get(channel_id)
    if not can_read(s, ch):
        raise ToolError(f"channel {channel_id!r} (#{ch['name']}) is private and you are not a "
                        "member; ask one of its members to invite you")
    return ch


def message_out(s: State, m: Row) -> Message:
    ch = s["channels"].get(m["channel_id"])
    mid = m["message_id"]
    replies = s["messages"].rows(lambda r: r["parent_message_id"] == mid)
    return {"message_id": mid, "channel_id": m["channel_id"], "channel_name": ch["name"],
            "sender_id": m["sender_id"], "sender_name": s["members"].get(m["sender_id"])["name"],
            "text": m["text"], "sent_at": m["sent_at"], "edited_at": m["edited_at"],
            "parent_message_id": m["parent_message_id"], "reply_count": len(replies),
            "reactions": [{"emoji": r["emoji"], "count": len(r["member_ids"]),
                           "member_ids": list(r["member_ids"])} for r in m["reactions"]]}


def visible_message(s: State, message_id: str) -> Row:
    msg = s["messages"].get(message_id)
    readable_channel(s, msg["channel_id"])
    return msg


def clean_text(text: str) -> str:
    body = text.strip()
    if not body:
        raise ToolError("text must not be blank; write the message")
    return body
