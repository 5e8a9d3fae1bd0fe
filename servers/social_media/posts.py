"""social_media tools about posts: write, read, delete, timelines, search, likes, reposts and
comments."""

from __future__ import annotations

import re
from typing import Annotated

from servers.core import paging
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.social_media.common import (
    DOMAIN,
    MAX_POST,
    Comment,
    DeleteResult,
    Post,
    PostDetail,
    PostId,
    PostList,
    following_ids,
    me,
    newest_first,
    now,
    original_post,
    parse_content,
    post_out,
)

Content = Annotated[str, Arg(f"Text, at most {MAX_POST} characters; #hashtags and @usernames "
                             "in it become tags and mentions", min_length=1,
                             max_length=MAX_POST)]


def _comment_out(s: State, c: dict) -> Comment:
    return {**c, "author_username": s["users"].get(c["author_id"])["username"]}


@DOMAIN.tool(read_only=False)
def create_post(s: State, content: Content) -> Post:
    """Publish a post as the signed-in user. Hashtags (#tag) and mentions (@username) are taken
    from the text; every mentioned username must exist."""
    text, tags, mentions = parse_content(s, content)
    uid = me(s)
    dup = s["posts"].rows(lambda p: p["author_id"] == uid and p["repost_of"] is None
                          and p["content"].lower() == text.lower())
    if dup:
        raise ToolError(f"you already posted exactly this text as {dup[0]['post_id']!r}; "
                        "change the text or repost instead")
    row = s["posts"].insert({"post_id": s.next_id("post"), "author_id": uid, "content": text,
                             "hashtags": tags, "mentions": mentions, "created_at": now(s),
                             "repost_of": None, "liked_by": []})
    return post_out(s, row)


@DOMAIN.tool(read_only=True)
def get_post(s: State, post_id: PostId) -> PostDetail:
    """Get one post with its counts and all its comments (oldest first); for a repost, the
    original post is included too."""
    post = s["posts"].get(post_id)
    target = post["repost_of"] or post_id
    comments = sorted(s["comments"].rows(lambda c: c["post_id"] == target),
                      key=lambda c: (c["created_at"], c["comment_id"]))
    original = post_out(s, s["posts"].get(target)) if post["repost_of"] else None
    return {"post": post_out(s, post), "original": original,
            "comments": [_comment_out(s, c) for c in comments]}


@DOMAIN.tool(read_only=False)
def delete_post(s: State, post_id: Annotated[str, Arg(
        "Id of one of your own posts or reposts, e.g. 'post_r2vc2a' (from get_timeline)")]
                ) -> DeleteResult:
    """Delete one of your own posts (its comments and others' reposts of it go too), or undo
    one of your reposts by deleting it."""
    post = s["posts"].get(post_id)
    if post["author_id"] != me(s):
        author = s["users"].get(post["author_id"])["username"]
        raise ToolError(f"post {post_id!r} was written by @{author}; you can only delete your "
                        "own posts (get_timeline with your user id lists them)")
    comments = s["comments"].rows(lambda c: c["post_id"] == post_id)
    reposts = s["posts"].rows(lambda p: p["repost_of"] == post_id)
    for c in comments:
        s["comments"].delete(c["comment_id"])
    for p in reposts:
        s["posts"].delete(p["post_id"])
    s["posts"].delete(post_id)
    return {"post_id": post_id, "deleted": True, "removed_comments": len(comments),
            "removed_reposts": len(reposts)}


@DOMAIN.tool(read_only=True)
def get_timeline(
        s: State,
        user_id: Annotated[str | None, Arg(
            "Show this user's posts and reposts, e.g. 'p_waqgg5'; omit for your home timeline "
            "(your posts and those of accounts you follow)")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> PostList:
    """Read the home timeline, or one user's posts, newest first (reposts included)."""
    if user_id is not None:
        s["users"].get(user_id)
        authors = [user_id]
    else:
        authors = [me(s), *following_ids(s, me(s))]
    rows = newest_first(s["posts"].rows(lambda p: p["author_id"] in authors))
    pg = paging.page(rows, limit, cursor, key="post_id")
    return {"posts": [post_out(s, p) for p in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=True)
def search_posts(
        s: State,
        query: Annotated[str | None, Arg(
            "Words that must all appear in the post text (case-insensitive)")] = None,
        hashtag: Annotated[str | None, Arg("Only posts with this hashtag, with or without '#', "
                                           "e.g. 'travel'")] = None,
        author_id: Annotated[str | None, Arg("Only posts by this user, e.g. 'p_waqgg5'")] = None,
        limit: paging.Limit = 20, cursor: paging.Cursor = None) -> PostList:
    """Search original posts (not reposts) by keywords, hashtag and/or author, newest first."""
    if query is None and hashtag is None and author_id is None:
        raise ToolError("give at least one of query, hashtag or author_id")
    if author_id is not None:
        s["users"].get(author_id)
    words = query.lower().split() if query is not None else []
    if query is not None and not words:
        raise ToolError("query must not be blank; give one or more words")
    tag = None
    if hashtag is not None:
        tag = hashtag.strip().lstrip("#").lower()
        if not re.fullmatch(r"\w+", tag):
            raise ToolError(f"hashtag {hashtag!r} is not a single word; give e.g. 'travel'")

    def match(p: dict) -> bool:
        return (p["repost_of"] is None
                and all(w in p["content"].lower() for w in words)
                and (tag is None or tag in [t.lower() for t in p["hashtags"]])
                and (author_id is None or p["author_id"] == author_id))

    rows = newest_first(s["posts"].rows(match))
    pg = paging.page(rows, limit, cursor, key="post_id")
    return {"posts": [post_out(s, p) for p in pg.rows], "total": len(rows),
            "next_cursor": pg.next_cursor}


@DOMAIN.tool(read_only=False)
def like_post(s: State, post_id: PostId) -> Post:
    """Like a post (the original, not a repost of it); returns the post with its new like
    count."""
    post = original_post(s, post_id, "like")
    if me(s) in post["liked_by"]:
        raise ToolError(f"you already liked post {post_id!r}")
    return post_out(s, s["posts"].update(post_id, liked_by=[*post["liked_by"], me(s)]))


@DOMAIN.tool(read_only=False)
def unlike_post(s: State, post_id: PostId) -> Post:
    """Remove your like from a post you liked earlier; returns the post with its new like
    count."""
    post = original_post(s, post_id, "unlike")
    if me(s) not in post["liked_by"]:
        raise ToolError(f"you have not liked post {post_id!r}, so there is nothing to undo")
    liked = [u for u in post["liked_by"] if u != me(s)]
    return post_out(s, s["posts"].update(post_id, liked_by=liked))


@DOMAIN.tool(read_only=False)
def repost(s: State, post_id: PostId) -> Post:
    """Repost (share) a post to your followers; returns the new repost, whose repost_of is the
    original's id. Delete the repost with delete_post to undo it."""
    post = original_post(s, post_id, "repost")
    uid = me(s)
    mine = s["posts"].rows(lambda p: p["repost_of"] == post_id and p["author_id"] == uid)
    if mine:
        raise ToolError(f"you already reposted post {post_id!r} as {mine[0]['post_id']!r}")
    row = s["posts"].insert({"post_id": s.next_id("post"), "author_id": uid, "content": "",
                             "hashtags": [], "mentions": [], "created_at": now(s),
                             "repost_of": post["post_id"], "liked_by": []})
    return post_out(s, row)


@DOMAIN.tool(read_only=False)
def comment_on_post(
        s: State, post_id: PostId,
        content: Annotated[str, Arg(f"Comment text, at most {MAX_POST} characters",
                                    min_length=1, max_length=MAX_POST)]) -> Comment:
    """Reply to a post with a comment."""
    original_post(s, post_id, "comment on")
    text = content.strip()
    if not text:
        raise ToolError("content must not be blank; write the comment text")
    row = s["comments"].insert({"comment_id": s.next_id("cmt"), "post_id": post_id,
                                "author_id": me(s), "content": text, "created_at": now(s)})
    return _comment_out(s, row)
