"""How users ask for team_chat's tools (see prove_jax/synthesis/phrasebook/__init__.py)."""

PHRASES: dict[str, tuple[str, ...]] = {
    "create_channel": (
        "create a channel named {name}[ about {topic}]",
        "set up a new channel called {name}[ with {member_ids} in it]",
        "start a channel {name}[ for {topic}][ and add {member_ids}]",
        "open a channel named {name}[ with the topic {topic}]",
    ),
    "delete_message": (
        "delete {message_id}",
        "remove {message_id} from the conversation",
        "take down {message_id}",
        "unsend {message_id}",
    ),
    "edit_message": (
        "edit {message_id} to say {text}",
        "change {message_id} so it reads {text}",
        "fix {message_id}[ so it says {text}]",
        "reword {message_id} as {text}",
    ),
    "get_channel_history": (
        "show me the latest messages in {channel_id}[ (just the first {limit})]",
        "catch me up on {channel_id}",
        "read me what's been said in {channel_id}",
        "open the thread of {parent_message_id} in {channel_id}",
    ),
    "invite_to_channel": (
        "add {member_ids} to {channel_id}",
        "invite {member_ids} to {channel_id}",
        "bring {member_ids} into {channel_id}",
        "let {member_ids} join {channel_id}",
    ),
    "leave_channel": (
        "leave {channel_id}",
        "take me out of {channel_id}",
        "get me off {channel_id}",
        "remove myself from {channel_id}",
    ),
    "list_channels": (
        "list the channels",
        "show me my {kind} conversations",
        "find channels matching {query}",
        "show me every channel[ matching {query}][ (just the first {limit})]",
    ),
    "post_message": (
        "post {text} in {channel_id}",
        "post a message in {channel_id}[ saying {text}]",
        "reply to {parent_message_id} in {channel_id} with {text}",
        "write {text} in {channel_id}[ in the thread of {parent_message_id}]",
    ),
    "search_members": (
        "find {query} in the directory",
        "look up {query}[ among the members of {channel_id}]",
        "list the members of {channel_id}",
        "search the people directory for {query}[ (just the first {limit})]",
        "show me everyone in the workspace",
    ),
    "search_messages": (
        "search messages for {query}[ in {channel_id}]",
        "find messages mentioning {query}[ from {sender_id}]",
        "look for where someone said {query}[ in {channel_id}]",
        "find what {sender_id} wrote about {query}",
    ),
    "send_direct_message": (
        "send {member_id} a direct message saying {text}",
        "message {member_id} directly[ with {text}]",
        "privately tell {member_id} {text}",
        "write to {member_id} in a DM[ saying {text}]",
    ),
}
