"""Messaging tools: message sellers, reply in chats, list the chats."""

from __future__ import annotations

from typing import Annotated

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.marketplace import views as v
from servers.marketplace.common import DOMAIN
from servers.marketplace.schemas import ConversationList, SentMessage


@DOMAIN.tool(read_only=False)
def send_message(
        s: State, text: Annotated[str, Arg("Message text", min_length=1, max_length=1000)],
        listing_id: Annotated[str | None, Arg(
            "Message the seller of this listing (starts or continues that chat)")] = None,
        conversation_id: Annotated[str | None, Arg(
            "Reply in this conversation (from list_conversations)")] = None) -> SentMessage:
    """Message a seller about a listing, or reply in an existing conversation. Give exactly
    one of listing_id or conversation_id."""
    me = v.user_id(s)
    if (listing_id is None) == (conversation_id is None):
        raise ToolError("give exactly one of listing_id (to message a seller) or "
                        "conversation_id (to reply in a chat from list_conversations)")
    new = False
    if conversation_id is not None:
        conv = s["conversations"].get(conversation_id)
    else:
        listing = s["listings"].get(listing_id)
        if listing["seller_id"] == me:
            raise ToolError(f"listing {listing_id} is your own; to answer a buyer, reply with "
                            "the conversation_id from list_conversations")
        if listing["status"] == "removed" or (listing["status"] == "sold"
                                              and listing["buyer_id"] != me):
            raise ToolError(f"listing {listing_id} is {listing['status']}; its seller no "
                            "longer takes messages about it")
        conv = next((c for c in s["conversations"].rows()
                     if c["listing_id"] == listing_id and c["buyer_id"] == me), None)
        if conv is None:
            new = True
            conv = s["conversations"].insert({
                "conversation_id": s.next_id("conv"), "listing_id": listing_id,
                "buyer_id": me, "seller_id": listing["seller_id"], "unread": 0,
                "last_message_at": ""})
    when = v.tick(s)
    msg = s["messages"].insert({"message_id": s.next_id("msg"),
                                "conversation_id": conv["conversation_id"], "sender_id": me,
                                "text": text, "sent_at": when})
    s["conversations"].update(conv["conversation_id"], unread=0, last_message_at=when)
    return {"conversation_id": conv["conversation_id"], "new_conversation": new,
            "message": v.message(s, msg)}


@DOMAIN.tool(read_only=True)
def list_conversations(
        s: State,
        listing_id: Annotated[str | None, Arg("Only chats about this listing")] = None,
        unread_only: Annotated[bool, Arg("Only chats with unread messages")] = False,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> ConversationList:
    """List the user's chats with buyers and sellers, most recent first, with their messages."""
    if listing_id is not None:
        s["listings"].get(listing_id)
    rows = [c for c in s["conversations"].rows()
            if (listing_id is None or c["listing_id"] == listing_id)
            and (not unread_only or c["unread"] > 0)]
    rows.sort(key=lambda c: (c["last_message_at"], c["conversation_id"]), reverse=True)
    pg = paging.page(rows, limit, cursor, key="conversation_id")
    return {"conversations": [v.conversation(s, c) for c in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}
