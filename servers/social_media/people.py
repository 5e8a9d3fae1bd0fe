"""social_media tools about accounts: profiles, user search, follows."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.social_media.common import (
    DOMAIN,
    Connections,
    FollowResult,
    Profile,
    UserId,
    UserList,
    follower_ids,
    following_ids,
    follows,
    me,
    now,
    user_summary,
)


def _profile(s: State, user_id: str) -> Profile:
    u = s["users"].get(user_id)
    uid = me(s)
    posts = s["posts"].rows(lambda p: p["author_id"] == user_id and p["repost_of"] is None)
    return {**u, "follower_count": len(follower_ids(s, user_id)),
            "following_count": len(following_ids(s, user_id)), "post_count": len(posts),
            "is_me": user_id == uid, "is_following": follows(s, uid, user_id),
            "follows_you": follows(s, user_id, uid)}


@DOMAIN.tool(read_only=True)
def get_user_profile(s: State, user_id: Annotated[str | None, Arg(
        "User id, e.g. 'p_waqgg5' (from search_users); omit for your own profile")] = None
                     ) -> Profile:
    """Get a user's profile with follower, following and post counts and whether you follow
    each other. Without user_id, returns the signed-in user's own profile."""
    return _profile(s, me(s) if user_id is None else user_id)


@DOMAIN.tool(read_only=False)
def update_profile(
        s: State,
        display_name: Annotated[str | None, Arg("New display name", min_length=1,
                                                max_length=50)] = None,
        bio: Annotated[str | None, Arg("New bio (empty string clears it)", max_length=160)
                       ] = None,
        location: Annotated[str | None, Arg("New location, e.g. a city", max_length=30)] = None,
        website: Annotated[str | None, Arg("New website URL starting with http:// or https:// "
                                           "(empty string removes it)", max_length=100)] = None
) -> Profile:
    """Update the signed-in user's display name, bio, location or website; fields not given
    stay as they are."""
    changes: dict[str, str | None] = {}
    if display_name is not None:
        if not display_name.strip():
            raise ToolError("display_name must not be blank")
        changes["display_name"] = display_name.strip()
    if bio is not None:
        changes["bio"] = bio.strip()
    if location is not None:
        changes["location"] = location.strip()
    if website is not None:
        site = website.strip()
        if site and not site.startswith(("http://", "https://")):
            raise ToolError(f"website {website!r} must start with http:// or https://")
        changes["website"] = site or None
    if not changes:
        raise ToolError("nothing to update; give at least one of display_name, bio, location, "
                        "website")
    s["users"].update(me(s), **changes)
    return _profile(s, me(s))


@DOMAIN.tool(read_only=True)
def search_users(
        s: State,
        query: Annotated[str, Arg("Part of a name, username, bio or location "
                                  "(case-insensitive), e.g. 'Hiro' or 'Berlin'", min_length=1)],
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> UserList:
    """Find accounts by name, username, bio or location; returns user ids for the other
    tools."""
    q = query.strip().lower().lstrip("@")
    if not q:
        raise ToolError("query must not be blank; give part of a name or username")
    found = [u for u in s["users"].rows()
             if q in u["display_name"].lower() or q in u["username"].lower()
             or q in u["bio"].lower() or q in u["location"].lower()]
    # Name and username matches first: that is what someone searching a person means.
    found.sort(key=lambda u: (q not in (u["display_name"].lower() + " " + u["username"]),
                              u["display_name"]))
    pg = paging.page(found, limit, cursor, key="user_id")
    return {"users": [user_summary(s, u) for u in pg.rows], "total": len(found),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def follow_user(s: State, user_id: UserId) -> FollowResult:
    """Follow a user so their posts appear in your home timeline."""
    target = s["users"].get(user_id)
    uid = me(s)
    if user_id == uid:
        raise ToolError("you cannot follow yourself; give another user's id from search_users")
    if follows(s, uid, user_id):
        raise ToolError(f"you already follow @{target['username']} ({user_id})")
    s["follows"].insert({"follow_id": f"{uid}>{user_id}", "follower_id": uid,
                         "followee_id": user_id, "since": now(s)[:10]})
    return {"user_id": user_id, "username": target["username"],
            "display_name": target["display_name"], "is_following": True,
            "follower_count": len(follower_ids(s, user_id))}


@DOMAIN.tool(read_only=False)
def unfollow_user(s: State, user_id: UserId) -> FollowResult:
    """Stop following a user."""
    target = s["users"].get(user_id)
    uid = me(s)
    if not follows(s, uid, user_id):
        raise ToolError(f"you do not follow @{target['username']} ({user_id}); "
                        "list_connections with relation 'following' shows whom you follow")
    s["follows"].delete(f"{uid}>{user_id}")
    return {"user_id": user_id, "username": target["username"],
            "display_name": target["display_name"], "is_following": False,
            "follower_count": len(follower_ids(s, user_id))}


@DOMAIN.tool(read_only=True)
def list_connections(
        s: State,
        relation: Annotated[Literal["followers", "following"], Arg(
            "followers: accounts that follow the user; following: accounts the user follows")],
        user_id: Annotated[str | None, Arg(
            "Whose connections, e.g. 'p_waqgg5'; omit for your own")] = None,
        limit: paging.Limit = 20,
        cursor: paging.Cursor = None,
) -> Connections:
    """List a user's followers or the accounts they follow (yours if user_id is omitted)."""
    who = me(s) if user_id is None else user_id
    s["users"].get(who)
    ids = follower_ids(s, who) if relation == "followers" else following_ids(s, who)
    users = sorted((s["users"].get(i) for i in ids), key=lambda u: u["display_name"])
    pg = paging.page(users, limit, cursor, key="user_id")
    return {"user_id": who, "relation": relation,
            "users": [user_summary(s, u) for u in pg.rows], "total": len(users),
            "next_cursor": pg.next_cursor}
