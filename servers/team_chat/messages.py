"""team_chat tools about messages: history and threads, posting, direct messages, edits,
deletions and search."""

from __future__ import annotations

from typing import Annotated

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.team_chat.common import (
    DOMAIN,
    ChannelId,
    DeleteResult,
    Message,
    MessageId,
    MessageList,
    SearchResult,
    Text,
    can_read,
    clean_text,
    me,
    message_out,
    now,
    readable_channel,
    visible_message,
)


def _newest_first(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda m: (m["sent_at"], m["message_id"]), reverse=True)


def _own(s: State, message_id: str, action: str) -> Row:
    msg = visible_message(s, message_id)
    if msg["sender_id"] != me(s):
        sender = s["members"].get(msg["sender_id"])["name"]
        raise ToolError(f"message {message_id!r} was sent by {sender}; you can only {action} "
                        "your own messages")
    return msg


def _insert(s: State, channel_id: str, text: str, parent_id: str | None) -> Message:
    row = s["messages"].insert({
        "message_id": s.next_id("msg"), "channel_id": channel_id, "sender_id": me(s),
        "text": text, "sent_at": now(s), "edited_at": None, "parent_message_id": parent_id,
        "reactions": []})
    return message_out(s, row)


@DOMAIN.tool(read_only=True)
def get_channel_history(
        s: State, channel_id: ChannelId,
        parent_message_id: Annotated[str | None, Arg(
            "Show the replies in this message's thread (oldest first) instead of the channel's "
            "top-level messages")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> MessageList:
    """Read a channel's or DM's messages, newest first (thread replies are counted in
    reply_count; pass parent_message_id to read a thread)."""
    ch = readable_channel(s, channel_id)
    if parent_message_id is not None:
        parent = s["messages"].get(parent_message_id)
        if parent["channel_id"] != channel_id:
            raise ToolError(f"message {parent_message_id!r} is in channel "
                            f"{parent['channel_id']!r}, not {channel_id!r}")
        rows = sorted(s["messages"].rows(lambda m: m["parent_message_id"] == parent_message_id),
                      key=lambda m: (m["sent_at"], m["message_id"]))
    else:
        rows = _newest_first(s["messages"].rows(
            lambda m: m["channel_id"] == channel_id and m["parent_message_id"] is None))
    pg = paging.page(rows, limit, cursor, key="message_id")
    return {"channel_id": channel_id, "channel_name": ch["name"],
            "messages": [message_out(s, m) for m in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def post_message(
        s: State, channel_id: ChannelId, text: Text,
        parent_message_id: Annotated[str | None, Arg(
            "Reply in the thread of this top-level message of the same channel")] = None
) -> Message:
    """Post a message to a channel or DM, or reply in a thread. Any public channel accepts
    posts; private channels and DMs only from their members."""
    ch = readable_channel(s, channel_id)
    body = clean_text(text)
    if parent_message_id is not None:
        parent = s["messages"].get(parent_message_id)
        if parent["channel_id"] != channel_id:
            raise ToolError(f"message {parent_message_id!r} is in channel "
                            f"{parent['channel_id']!r}; reply in that channel")
        if parent["parent_message_id"] is not None:
            raise ToolError(f"message {parent_message_id!r} is itself a reply; reply to the "
                            f"thread's first message {parent['parent_message_id']!r}")
    return _insert(s, ch["channel_id"], body, parent_message_id)


@DOMAIN.tool(read_only=False)
def send_direct_message(
        s: State,
        member_id: Annotated[str, Arg("Recipient's member id, e.g. 'p_waqgg5' (from "
                                      "search_members)")],
        text: Text) -> Message:
    """Send a direct message to one person, opening the DM conversation if there is none yet;
    the result's channel_id is the DM's id."""
    other = s["members"].get(member_id)
    uid = me(s)
    if member_id == uid:
        raise ToolError("you cannot send a direct message to yourself; give another member id")
    body = clean_text(text)
    pair = sorted([uid, member_id])
    dm = next(iter(s["channels"].rows(lambda c: c["kind"] == "dm"
                                      and set(c["member_ids"]) == set(pair))), None)
    if dm is None:
        dm = s["channels"].insert({"channel_id": s.next_id("dm"), "name": other["name"],
                                   "kind": "dm", "topic": "", "created_by": uid,
                                   "created_at": now(s)[:10], "member_ids": pair})
    return _insert(s, dm["channel_id"], body, None)


@DOMAIN.tool(read_only=False)
def edit_message(s: State, message_id: MessageId, text: Text) -> Message:
    """Change the text of one of your own messages."""
    msg = _own(s, message_id, "edit")
    body = clean_text(text)
    if body == msg["text"]:
        raise ToolError(f"message {message_id!r} already has exactly this text; nothing to edit")
    return message_out(s, s["messages"].update(message_id, text=body, edited_at=now(s)))


@DOMAIN.tool(read_only=False)
def delete_message(s: State, message_id: MessageId) -> DeleteResult:
    """Delete one of your own messages; deleting a thread's first message deletes its replies
    too."""
    msg = _own(s, message_id, "delete")
    replies = s["messages"].rows(lambda m: m["parent_message_id"] == message_id)
    for r in replies:
        s["messages"].delete(r["message_id"])
    s["messages"].delete(message_id)
    return {"message_id": message_id, "channel_id": msg["channel_id"], "deleted": True,
            "removed_replies": len(replies)}


@DOMAIN.tool(read_only=True)
def search_messages(
        s: State,
        query: Annotated[str, Arg("Words that must all appear in the message "
                                  "(case-insensitive)", min_length=1)],
        channel_id: Annotated[str | None, Arg("Only in this channel or DM, e.g. 'ch_k7zua4'")
                              ] = None,
        sender_id: Annotated[str | None, Arg("Only messages from this member, e.g. 'p_waqgg5'")
                             ] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> SearchResult:
    """Search messages in every conversation you can read (public channels, your private
    channels and DMs), newest first."""
    if channel_id is not None:
        readable_channel(s, channel_id)
    if sender_id is not None:
        s["members"].get(sender_id)
    words = query.lower().split()
    if not words:
        raise ToolError("query must not be blank; give one or more words")
    readable = [c["channel_id"] for c in s["channels"].rows(lambda c: can_read(s, c))]
    rows = _newest_first(s["messages"].rows(
        lambda m: m["channel_id"] in readable
        and (channel_id is None or m["channel_id"] == channel_id)
        and (sender_id is None or m["sender_id"] == sender_id)
        and all(w in m["text"].lower() for w in words)))
    pg = paging.page(rows, limit, cursor, key="message_id")
    return {"messages": [message_out(s, m) for m in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}
