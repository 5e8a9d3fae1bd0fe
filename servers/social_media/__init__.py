"""social_media: a microblogging network (profiles, follows, posts with hashtags and mentions,
home timeline, likes, reposts, comments, search).

The user is the world's principal; every world person has an account whose user id is their
world person id (e.g. 'p_waqgg5') and whose username is their world username. Tools live in
people.py and posts.py; importing them registers them on DOMAIN.
"""

from __future__ import annotations

from servers.social_media import people, posts  # noqa: F401 - registers the tools
from servers.social_media.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("get_user_profile", {}),
    ("search_users", {"query": "Hiro"}),
    ("get_user_profile", {"user_id": "p_004"}),
    ("update_profile", {"bio": "Data Scientist at CedarLogistics Co. Marathon runner.",
                        "website": "https://cedarlogistics.com"}),
    ("follow_user", {"user_id": "p_003"}),
    ("unfollow_user", {"user_id": "p_002"}),
    ("list_connections", {"relation": "following"}),
    ("list_connections", {"relation": "followers", "user_id": "p_004", "limit": 10}),
    ("get_timeline", {"limit": 10}),
    ("get_timeline", {"user_id": "p_004", "limit": 5}),
    ("search_posts", {"query": "coffee", "hashtag": "travel"}),
    ("search_posts", {"author_id": "p_002", "limit": 5}),
    ("create_post", {"content": "Lunch at Casa Azure with @hirobau86 was great #foodie #Berlin"}),
    ("get_post", {"post_id": "post_0155"}),
    ("like_post", {"post_id": "post_0011"}),
    ("unlike_post", {"post_id": "post_0003"}),
    ("repost", {"post_id": "post_0006"}),
    ("comment_on_post", {"post_id": "post_0011", "content": "Great read, thanks for "
                                                        "sharing."}),
    ("delete_post", {"post_id": "post_0004"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
