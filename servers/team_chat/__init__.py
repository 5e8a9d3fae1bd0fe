"""team_chat: a team chat workspace (member directory, public and private channels, direct
messages, threads, message search; messages keep the reactions they were seeded with).

The user is the world's principal. Every world person is a member whose member id is their
world person id (e.g. 'p_waqgg5'), with the same name and email, so someone found on crm or email
can be looked up here by name. Tools live in channels.py and messages.py; importing them
registers them on DOMAIN.
"""

from __future__ import annotations

from servers.team_chat import channels, messages  # noqa: F401 - registers the tools
from servers.team_chat.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("search_members", {"query": "Hiro Bauer"}),
    ("search_members", {"channel_id": "ch_0004", "limit": 10}),
    ("list_channels", {"kind": "public"}),
    ("list_channels", {"kind": "dm", "joined_only": True, "query": "pedro"}),
    ("get_channel_history", {"channel_id": "ch_0004", "limit": 10}),
    ("get_channel_history", {"channel_id": "ch_0004", "parent_message_id": "msg_0493"}),
    ("create_channel", {"name": "q3-planning", "is_private": True,
                        "topic": "Q3 planning with the product leads",
                        "member_ids": ["p_004", "p_008"]}),
    ("invite_to_channel", {"channel_id": "ch_0004", "member_ids": ["p_004", "p_005"]}),
    ("invite_to_channel", {"channel_id": "ch_0006", "member_ids": ["p_001"]}),
    ("post_message", {"channel_id": "ch_0004", "text": "Staging is back up after maintenance."}),
    ("post_message", {"channel_id": "ch_0004", "text": "Submitted mine already.",
                      "parent_message_id": "msg_0144"}),
    ("send_direct_message", {"member_id": "p_004", "text": "Hi Hiro, do you have 10 minutes "
                             "today to go over the Atlas migration?"}),
    ("edit_message", {"message_id": "msg_0312", "text": "The new dashboard is live, feedback "
                      "welcome in this thread."}),
    ("search_messages", {"query": "staging", "channel_id": "ch_0004"}),
    ("search_messages", {"query": "dashboard", "sender_id": "p_001", "limit": 5}),
    ("delete_message", {"message_id": "msg_0493"}),
    ("leave_channel", {"channel_id": "ch_0006"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
