"""social_media: the domain object, output shapes, argument types and helpers shared by the
tool modules (people.py: profiles and follows; posts.py: posts, likes, reposts, comments)."""

from __future__ import annotations

import re
from typing import Annotated, TypedDict

from servers.core.clock import tick
from servers.core.domain import Domain
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import Row, State
from servers.social_media.seed import build

DOMAIN = Domain("social_media", "A microblogging network: profiles, follows, posts with hashtags "
                "and mentions, home timeline, likes, reposts, comments and search.", build)
# fields stamped from the session clock: left out of clock-free state comparisons
DOMAIN.clock_fields = {"posts": ("created_at",), "comments": ("created_at",),
                        "follows": ("since",)}

MAX_POST = 280
HASHTAG_RE = re.compile(r"#(\w+)")
MENTION_RE = re.compile(r"@(\w+)")


class UserSummary(TypedDict):
    user_id: str
    username: str
    display_name: str
    bio: str
    location: str
    verified: bool
    is_following: bool
    follows_you: bool


class UserList(TypedDict):
    users: list[UserSummary]
    total: int
    next_cursor: str | None


class Profile(TypedDict):
    user_id: str
    username: str
    display_name: str
    bio: str
    location: str
    website: str | None
    joined_at: str
    verified: bool
    follower_count: int
    following_count: int
    post_count: int
    is_me: bool
    is_following: bool
    follows_you: bool


class Connections(TypedDict):
    user_id: str
    relation: str
    users: list[UserSummary]
    total: int
    next_cursor: str | None


class FollowResult(TypedDict):
    user_id: str
    username: str
    display_name: str
    is_following: bool
    follower_count: int


class Post(TypedDict):
    post_id: str
    author_id: str
    author_username: str
    author_name: str
    content: str
    hashtags: list[str]
    mentions: list[str]
    created_at: str
    repost_of: str | None
    like_count: int
    repost_count: int
    comment_count: int
    liked_by_me: bool
    reposted_by_me: bool


class PostList(TypedDict):
    posts: list[Post]
    total: int
    next_cursor: str | None


class Comment(TypedDict):
    comment_id: str
    post_id: str
    author_id: str
    author_username: str
    content: str
    created_at: str


class PostDetail(TypedDict):
    post: Post
    original: Post | None
    comments: list[Comment]


class DeleteResult(TypedDict):
    post_id: str
    deleted: bool
    removed_comments: int
    removed_reposts: int


UserId = Annotated[str, Arg("User id, e.g. 'p_waqgg5' (from search_users or a post's author_id)")]
PostId = Annotated[str, Arg("Post id, e.g. 'post_cjyvcf' (from get_timeline or search_posts)")]


def me(s: State) -> str:
    return s.var("user_id")


def now(s: State) -> str:
    return tick(s)


def follows(s: State, follower_id: str, followee_id: str) -> bool:
    return f"{follower_id}>{followee_id}" in s["follows"]


def following_ids(s: State, user_id: str) -> list[str]:
    return [f["followee_id"] for f in s["follows"].rows(lambda f: f["follower_id"] == user_id)]


def follower_ids(s: State, user_id: str) -> list[str]:
    return [f["follower_id"] for f in s["follows"].rows(lambda f: f["followee_id"] == user_id)]


def user_summary(s: State, u: Row) -> UserSummary:
    uid = me(s)
    return {"user_id": u["user_id"], "username": u["username"],
            "display_name": u["display_name"], "bio": u["bio"], "location": u["location"],
            "verified": u["verified"], "is_following": follows(s, uid, u["user_id"]),
            "follows_you": follows(s, u["user_id"], uid)}


def newest_first(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r["created_at"], r["post_id"]), reverse=True)


def post_out(s: State, p: Row) -> Post:
    """A post as the API shows it; a repost shows the original's text, tags and counts."""
    uid = me(s)
    author = s["users"].get(p["author_id"])
    shown = s["posts"].get(p["repost_of"]) if p["repost_of"] else p
    target = shown["post_id"]
    reposts = s["posts"].rows(lambda r: r["repost_of"] == target)
    comments = s["comments"].rows(lambda c: c["post_id"] == target)
    return {"post_id": p["post_id"], "author_id": p["author_id"],
            "author_username": author["username"], "author_name": author["display_name"],
            "content": shown["content"], "hashtags": list(shown["hashtags"]),
            "mentions": [s["users"].get(m)["username"] for m in shown["mentions"]],
            "created_at": p["created_at"], "repost_of": p["repost_of"],
            "like_count": len(shown["liked_by"]), "repost_count": len(reposts),
            "comment_count": len(comments), "liked_by_me": uid in shown["liked_by"],
            "reposted_by_me": any(r["author_id"] == uid for r in reposts)}


def original_post(s: State, post_id: str, action: str) -> Row:
    """The post to like/comment/repost; a repost id is refused with the original's id."""
    post = s["posts"].get(post_id)
    if post["repost_of"]:
        raise ToolError(f"post {post_id!r} is a repost of {post['repost_of']!r}; {action} the "
                        f"original post {post['repost_of']!r} instead")
    return post


def parse_content(s: State, content: str) -> tuple[str, list[str], list[str]]:
    """(stripped text, hashtags, mentioned user ids); unknown @usernames are an error."""
    text = content.strip()
    if not text:
        raise ToolError("content must not be blank; write the text of the post")
    if len(text) > MAX_POST:
        raise ToolError(f"content is {len(text)} characters; posts are limited to {MAX_POST}")
    tags: list[str] = []
    for tag in HASHTAG_RE.findall(text):
        if tag.lower() not in [t.lower() for t in tags]:
            tags.append(tag)
    by_name = {u["username"].lower(): u["user_id"] for u in s["users"].rows()}
    mentions: list[str] = []
    for name in MENTION_RE.findall(text):
        uid = by_name.get(name.lower())
        if uid is None:
            raise ToolError(f"no user with username '@{name}'; use search_users to find the "
                            "right username, or remove the mention")
        if uid not in mentions:
            mentions.append(uid)
    return text, tags, mentions
