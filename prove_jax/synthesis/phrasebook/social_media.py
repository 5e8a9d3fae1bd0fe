"""How users ask for social_media's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "comment_on_post": (
        "comment {content} on {post_id}",
        "reply to {post_id} with {content}",
        "leave a comment on {post_id}[ saying {content}]",
        "write {content} under {post_id}",
    ),
    "create_post": (
        "post {content}",
        "publish a post saying {content}",
        "put up a new post[ that reads {content}]",
        "share an update with my followers: {content}",
    ),
    "delete_post": (
        "delete {post_id}",
        "take down {post_id}",
        "remove {post_id} from my profile",
        "get rid of {post_id}",
    ),
    "follow_user": (
        "follow {user_id}",
        "start following {user_id}",
        "add {user_id} to the people I follow",
    ),
    "get_post": (
        "show me {post_id} with its comments",
        "open {post_id}",
        "what are people commenting on {post_id}",
        "pull up {post_id} and how many likes it has",
    ),
    "get_timeline": (
        "show me the latest posts[ from {user_id}]",
        "read me the feed[ for {user_id}][ (latest {limit})]",
        "see what {user_id} has been posting lately",
        "catch me up on the timeline[ of {user_id}]",
    ),
    "get_user_profile": (
        "show me the profile of {user_id}",
        "show me my own profile",
        "how many followers does {user_id} have",
        "check the profile of {user_id} and whether we follow each other",
        "look up the account of {user_id} with its follower counts",
    ),
    "like_post": (
        "like {post_id}",
        "give {post_id} a like",
        "hit like on {post_id}",
    ),
    "list_connections": (
        "show the {relation} list[ of {user_id}]",
        "list the accounts in the {relation} list[ for {user_id}][ (first {limit})]",
        "see who is in the {relation} list[ of {user_id}]",
    ),
    "repost": (
        "share {post_id} with my followers",
        "boost {post_id} to my followers",
        "reshare {post_id}",
        "pass {post_id} along to everyone who follows me",
    ),
    "search_posts": (
        "search posts[ for {query}][ tagged {hashtag}]",
        "find posts[ by {author_id}][ about {query}]",
        "look for anything[ with the hashtag {hashtag}][ from {author_id}]",
        "see what's being said[ about {query}][ under the hashtag {hashtag}][ (newest {limit})]",
    ),
    "search_users": (
        "find users matching {query}",
        "search for accounts[ like {query}]",
        "look up {query} on here[ (top {limit})]",
        "find people who match {query} by name, bio or location",
    ),
    "unfollow_user": (
        "unfollow {user_id}",
        "stop following {user_id}",
        "take {user_id} out of the people I follow",
    ),
    "unlike_post": (
        "unlike {post_id}",
        "remove my like from {post_id}",
        "take back my like on {post_id}",
    ),
    "update_profile": (
        "update my profile[ with the name {display_name}][, setting my bio to {bio}]",
        "edit my profile[ so my location is {location}][, with my website as {website}]",
        "refresh my profile details[: name {display_name}][, bio {bio}][, location {location}]"
        "[, website {website}]",
        "tweak my account info[, putting {location} as my location][, putting {bio} as my bio]",
    ),
}
