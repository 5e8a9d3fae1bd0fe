"""email: the user's mailbox: folders, messages with labels and attachments, drafts, contacts.

Correspondents are the world's people (and billing/newsletter senders at world companies), so a
task can go from an email to a calendar invite or a payment to the same person.
Modules: seed (initial mailbox), common (domain, shared helpers), browse, compose, organize,
extras.
"""

from __future__ import annotations

import importlib

from servers.email.common import DOMAIN

# Importing a module registers its tools; this order is their order in tools/list.
for _module in ("browse", "compose", "organize", "extras"):
    importlib.import_module(f"servers.email.{_module}")

__all__ = ["DOMAIN", "EXAMPLES"]

# Calls that succeed in this order on a fresh session (seed 0).
EXAMPLES: list[tuple[str, dict]] = [
    ("list_folders", {}),
    ("list_emails", {"folder_id": "inbox", "unread_only": True, "limit": 10}),
    ("get_email", {"email_id": "msg_0003"}),
    ("search_emails", {"query": "budget", "from_email": "harborcapital.com", "folder_id": "inbox",
                       "date_from": "2026-06-01", "date_to": "2026-06-15",
                       "has_attachments": True}),
    ("search_contacts", {"query": "patel"}),
    ("send_email", {"to": ["nikolai.patel@cedarlogistics.com"],
                    "cc": ["amara.okafor@silverenergy.com"],
                    "subject": "Roadmap review on Thursday",
                    "body": "Hi Nikolai,\n\nCan you bring the H2 roadmap draft?\n\nOscar"}),
    ("reply_to_email", {"email_id": "msg_0003", "body": "Thursday works for me!",
                        "reply_all": True}),
    ("forward_email", {"email_id": "msg_0012", "to": ["nikolai.patel@cedarlogistics.com"],
                       "note": "FYI, the H2 budget sheet is attached."}),
    ("create_draft", {"to": ["hana.anderson@cedarlogistics.com"], "subject": "Offsite venues",
                      "body": "Hi Hana,\n\nTwo venue options for the offsite: ..."}),
    ("list_drafts", {"limit": 10}),
    ("send_draft", {"draft_id": "draft_0003"}),
    ("create_folder", {"name": "Clients"}),
    ("move_email", {"email_id": "msg_0009", "folder_id": "folder_0004"}),
    ("mark_as_read", {"email_id": "msg_0003", "read": True}),
    ("add_label", {"email_id": "msg_0009", "label": "follow-up"}),
    ("remove_label", {"email_id": "msg_0009", "label": "follow-up"}),
    ("delete_email", {"email_id": "msg_0010"}),
]
