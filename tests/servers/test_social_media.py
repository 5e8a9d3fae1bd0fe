"""Domain behaviour of the social_media server (seed 0): accounts from the world, follows,
posting rules, likes, reposts and deletion cascades."""

from __future__ import annotations

from servers.core import ids
from servers.core.runtime import Runtime
from servers.core.world import make_world
from servers.social_media import DOMAIN
from tests.servers.common import assert_world_varies, fails, ok, runtime_fixture, state

rt = runtime_fixture(DOMAIN)


def _user(rt: Runtime) -> str:
    return state(rt).var("user_id")


def _not_followed_poster(rt: Runtime) -> str:
    """Someone with posts whom the user does not follow."""
    s, me = state(rt), _user(rt)
    followed = {f["followee_id"] for f in s["follows"].rows() if f["follower_id"] == me}
    return next(p["author_id"] for p in s["posts"].rows()
                if p["author_id"] not in followed and p["author_id"] != me)


def _likeable_post(rt: Runtime) -> str:
    """An original post by someone else that the user has neither liked nor reposted."""
    s, me = state(rt), _user(rt)
    reposted = {p["repost_of"] for p in s["posts"].rows() if p["author_id"] == me}
    return next(p["post_id"] for p in s["posts"].rows()
                if p["repost_of"] is None and p["author_id"] != me
                and me not in p["liked_by"] and p["post_id"] not in reposted)


def test_world_varies_by_seed():
    assert_world_varies("social_media", {"posts": None, "follows": None, "comments": None})


def test_accounts_are_the_worlds_people(rt):
    world = make_world(0)
    users = {u["user_id"]: u for u in state(rt)["users"].rows()}
    assert len(users) == len(world.people)
    for p in world.people:  # user id = the world person's (sealed) id
        user = users[ids.opaque(0, p.id)]
        assert user["display_name"] == p.name and user["username"] == p.username
    me = ok(rt, "get_user_profile", {})
    assert me["user_id"] == _user(rt) and me["is_me"] and me["following_count"] >= 20
    found = ok(rt, "search_users", {"query": world.people[3].name})["users"]
    assert found[0]["user_id"] == ids.opaque(0, world.people[3].id)


def test_follow_and_unfollow_change_counts_and_home_timeline(rt):
    target = _not_followed_poster(rt)
    assert not ok(rt, "get_user_profile", {"user_id": target})["is_following"]
    before = ok(rt, "get_user_profile", {"user_id": target})["follower_count"]
    home = {p["author_id"] for p in ok(rt, "get_timeline", {"limit": 100})["posts"]}
    assert target not in home
    out = ok(rt, "follow_user", {"user_id": target})
    assert out["is_following"] and out["follower_count"] == before + 1
    fails(rt, "follow_user", {"user_id": target}, "already follow")
    fails(rt, "follow_user", {"user_id": _user(rt)}, "cannot follow yourself")
    theirs = ok(rt, "get_timeline", {"user_id": target})["total"]
    home_total = ok(rt, "get_timeline", {})["total"]
    assert theirs > 0 and ok(rt, "unfollow_user", {"user_id": target})["follower_count"] == before
    assert ok(rt, "get_timeline", {})["total"] == home_total - theirs
    fails(rt, "unfollow_user", {"user_id": target}, "do not follow")


def test_post_parses_tags_and_mentions_and_refuses_bad_ones(rt):
    post = ok(rt, "create_post", {"content": "Sunset at the harbor with @HiroBau86 #Travel "
                                              "#travel #photo"})
    assert post["hashtags"] == ["Travel", "photo"] and post["mentions"] == ["hirobau86"]
    assert post["author_id"] == _user(rt) and post["like_count"] == 0
    found = ok(rt, "search_posts", {"hashtag": "#PHOTO"})["posts"]
    assert [p["post_id"] for p in found] == [post["post_id"]]
    fails(rt, "create_post", {"content": "hi @nobody_here_123"}, "@nobody_here_123")
    fails(rt, "create_post", {"content": "   "}, "blank")
    fails(rt, "create_post", {"content": post["content"].upper()}, post["post_id"])


def test_like_unlike_and_repost_rules(rt):
    target = _likeable_post(rt)
    liked = ok(rt, "like_post", {"post_id": target})
    assert liked["liked_by_me"]
    fails(rt, "like_post", {"post_id": target}, "already liked")
    assert ok(rt, "unlike_post", {"post_id": target})["like_count"] == \
        liked["like_count"] - 1
    fails(rt, "unlike_post", {"post_id": target}, "not liked")
    rp = ok(rt, "repost", {"post_id": target})
    assert rp["repost_of"] == target and rp["author_id"] == _user(rt)
    assert rp["content"] == ok(rt, "get_post", {"post_id": target})["post"]["content"]
    fails(rt, "repost", {"post_id": target}, rp["post_id"])
    # Likes, comments and reposts go to the original, and the error says which one that is.
    fails(rt, "like_post", {"post_id": rp["post_id"]}, target)
    fails(rt, "comment_on_post", {"post_id": rp["post_id"], "content": "x"}, target)
    detail = ok(rt, "get_post", {"post_id": rp["post_id"]})
    assert detail["original"]["post_id"] == target
    assert detail["original"]["reposted_by_me"]


def test_delete_post_only_own_and_cascades(rt):
    s = state(rt)
    other = next(p for p in s["posts"].rows() if p["author_id"] != _user(rt))
    fails(rt, "delete_post", {"post_id": other["post_id"]}, "only delete your own")
    mine = ok(rt, "create_post", {"content": "Testing the cascade #test"})["post_id"]
    ok(rt, "comment_on_post", {"post_id": mine, "content": "first!"})
    before_posts, before_comments = len(s["posts"]), len(s["comments"])
    out = ok(rt, "delete_post", {"post_id": mine})
    assert out == {"post_id": mine, "deleted": True, "removed_comments": 1,
                   "removed_reposts": 0}
    assert len(s["posts"]) == before_posts - 1 and len(s["comments"]) == before_comments - 1
    fails(rt, "get_post", {"post_id": mine}, mine)


def test_update_profile_validates_and_keeps_other_fields(rt):
    before = ok(rt, "get_user_profile", {})
    fails(rt, "update_profile", {}, "nothing to update")
    fails(rt, "update_profile", {"website": "cedar.com"}, "http")
    after = ok(rt, "update_profile", {"location": "Lisbon", "website": ""})
    assert after["location"] == "Lisbon" and after["website"] is None
    assert after["bio"] == before["bio"] and after["display_name"] == before["display_name"]
