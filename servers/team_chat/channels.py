"""team_chat tools about people and conversations: member directory, channel list, creating
channels, joining or inviting members, and leaving."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.team_chat.common import (
    DOMAIN,
    Channel,
    ChannelId,
    ChannelList,
    InviteResult,
    MemberList,
    can_read,
    channel_out,
    me,
    member_out,
    now,
    readable_channel,
)

GENERAL = "general"  # the workspace-wide channel everyone stays in (as Slack's #general)
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,79}")
MemberIds = Annotated[list[str], Arg("Member ids, e.g. ['p_waqgg5', 'p_bhgbja'] "
                                         "(from search_members)",
                                     min_length=1, max_length=50)]


def _check_members(s: State, member_ids: list[str]) -> list[str]:
    """Validated, de-duplicated member ids in the order given."""
    out: list[str] = []
    for mid in member_ids:
        s["members"].get(mid)
        if mid not in out:
            out.append(mid)
    return out


@DOMAIN.tool(read_only=True)
def search_members(
        s: State,
        query: Annotated[str | None, Arg(
            "Part of a name, email, display name, title or company (case-insensitive), e.g. "
            "'Hiro Bauer' or 'hiro.bauer@'; omit to list everyone")] = None,
        channel_id: Annotated[str | None, Arg(
            "Only members of this channel, e.g. 'ch_k7zua4' (from list_channels)")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> MemberList:
    """Look people up in the workspace directory (member ids, names, emails, titles, status);
    the result marks your own entry with is_you."""
    ids = None
    if channel_id is not None:
        ids = readable_channel(s, channel_id)["member_ids"]
    q = query.strip().lower().lstrip("@") if query is not None else ""
    if query is not None and not q:
        raise ToolError("query must not be blank; give part of a name or email, or omit it")

    def match(m: dict) -> bool:
        hay = " ".join([m["name"], m["email"], m["display_name"], m["title"], m["company"]])
        return (ids is None or m["member_id"] in ids) and q in hay.lower()

    found = s["members"].rows(match)
    # People whose name or email matches come before title/company matches.
    found.sort(key=lambda m: (q not in (m["name"] + " " + m["email"]).lower(), m["name"]))
    pg = paging.page(found, limit, cursor, key="member_id")
    return {"members": [member_out(s, m) for m in pg.rows], "total": len(found),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def list_channels(
        s: State,
        kind: Annotated[Literal["public", "private", "dm", "all"], Arg(
            "Which conversations: public or private channels, dm (direct messages), or all"
        )] = "all",
        joined_only: Annotated[bool, Arg("Only conversations you are a member of")] = False,
        query: Annotated[str | None, Arg("Part of the channel name (or DM partner's name)")
                         ] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> ChannelList:
    """List the channels and direct-message conversations you can see: every public channel,
    and the private channels and DMs you belong to."""
    q = query.strip().lower().lstrip("#") if query is not None else ""
    rows = s["channels"].rows(lambda c: can_read(s, c)
                              and (kind == "all" or c["kind"] == kind)
                              and (not joined_only or me(s) in c["member_ids"])
                              and q in c["name"].lower())
    rows.sort(key=lambda c: (c["kind"] == "dm", c["name"]))
    pg = paging.page(rows, limit, cursor, key="channel_id")
    return {"channels": [channel_out(s, c) for c in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def create_channel(
        s: State,
        name: Annotated[str, Arg("Channel name: lowercase letters, digits, '-' or '_', no "
                                 "spaces, e.g. 'q3-planning'", min_length=1, max_length=80)],
        is_private: Annotated[bool, Arg("Private (invite-only) instead of public")] = False,
        topic: Annotated[str, Arg("What the channel is for", max_length=250)] = "",
        member_ids: Annotated[list[str] | None, Arg(
            "Members to add besides you, e.g. ['p_waqgg5'] (from search_members)",
            max_length=50)] = None) -> Channel:
    """Create a public or private channel; you become its first member."""
    clean = name.strip().lstrip("#")
    if not NAME_RE.fullmatch(clean):
        hint = re.sub(r"[^a-z0-9_-]+", "-", clean.lower()).strip("-") or "team-updates"
        raise ToolError(f"invalid channel name {name!r}: use lowercase letters, digits, '-' or "
                        f"'_' without spaces, e.g. {hint!r}")
    taken = s["channels"].rows(lambda c: c["kind"] != "dm" and c["name"] == clean)
    if taken:
        raise ToolError(f"a channel named #{clean} already exists ({taken[0]['channel_id']}); "
                        "pick another name or invite people to that one")
    others = _check_members(s, member_ids or [])
    members = sorted({me(s), *others})
    row = s["channels"].insert({
        "channel_id": s.next_id("ch"), "name": clean,
        "kind": "private" if is_private else "public", "topic": topic.strip(),
        "created_by": me(s), "created_at": now(s)[:10], "member_ids": members})
    return channel_out(s, row)


@DOMAIN.tool(read_only=False)
def invite_to_channel(s: State, channel_id: ChannelId, member_ids: MemberIds) -> InviteResult:
    """Add members to a channel. You must belong to a private channel to invite to it; to join
    a public channel yourself, pass your own member id (search_members marks it is_you)."""
    ch = s["channels"].get(channel_id)
    if ch["kind"] == "dm":
        raise ToolError(f"{channel_id!r} is a direct-message conversation; people cannot be "
                        "added to it. Create a channel with create_channel instead")
    ids = _check_members(s, member_ids)
    uid = me(s)
    if uid not in ch["member_ids"] and (ch["kind"] == "private" or ids != [uid]):
        how = ("ask one of its members to invite you" if ch["kind"] == "private" else
               f"join it first by inviting yourself ({uid!r})")
        raise ToolError(f"you are not a member of #{ch['name']} ({channel_id}); {how}")
    already = [i for i in ids if i in ch["member_ids"]]
    if already:
        raise ToolError(f"already in #{ch['name']}: {', '.join(already)}; invite only people "
                        "who are not members yet (search_members with channel_id lists them)")
    row = s["channels"].update(channel_id, member_ids=sorted([*ch["member_ids"], *ids]))
    return {"channel": channel_out(s, row), "added_member_ids": ids}


@DOMAIN.tool(read_only=False)
def leave_channel(s: State, channel_id: ChannelId) -> Channel:
    """Leave a channel you belong to: it drops out of your joined channels, and a private one
    can no longer be read. Rejoin a public channel with invite_to_channel and your own member
    id; a private one needs a member to invite you back."""
    ch = s["channels"].get(channel_id)
    uid = me(s)
    if ch["kind"] == "dm":
        raise ToolError(f"{channel_id!r} is a direct-message conversation; it cannot be left")
    if uid not in ch["member_ids"]:
        raise ToolError(f"you are not a member of #{ch['name']} ({channel_id}); "
                        "list_channels with joined_only=true shows the channels you are in")
    if ch["name"] == GENERAL:
        raise ToolError(f"#{GENERAL} ({channel_id}) is the workspace-wide channel; every member "
                        "stays in it")
    if ch["kind"] == "private" and ch["member_ids"] == [uid]:
        raise ToolError(f"you are the last member of private channel #{ch['name']} "
                        f"({channel_id}); invite someone first, or it would be left empty")
    row = s["channels"].update(channel_id,
                               member_ids=[m for m in ch["member_ids"] if m != uid])
    return channel_out(s, row)
