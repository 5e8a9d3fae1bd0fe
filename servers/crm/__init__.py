"""crm: a sales CRM (accounts, contacts, deals through pipeline stages, activities, tasks).

Accounts are the world's companies and contacts the world's people (contact id = person id,
e.g. 'p_waqgg5', so the same person is addressable on email and team_chat). The user is the
world's principal, who sells with the colleagues at their company (the sales reps).
Tools live in contacts.py, deals.py and activities.py; importing them registers them.
Contacts and accounts added in a session get ids 'ct_0001' and 'acct_0001' (they are not
world people or companies).
"""

from __future__ import annotations

from servers.crm import activities, contacts, deals  # noqa: F401 - registers the tools
from servers.crm.common import DOMAIN

# Calls that succeed in this order on a fresh session (seed 0): used by the contract tests and
# as documentation of each tool's use.
EXAMPLES: list[tuple[str, dict]] = [
    ("search_contacts", {"query": "greensoftware"}),
    ("get_contact", {"contact_id": "p_004"}),
    ("update_contact", {"contact_id": "p_004", "title": "VP Engineering",
                        "phone": "+44 7700 900123"}),
    ("search_accounts", {"industry": "media", "type": "customer"}),
    ("create_account", {"name": "Harbor Analytics", "domain": "harbor-analytics.io",
                        "industry": "data", "city": "Lisbon", "employees": 120,
                        "annual_revenue": 2500000}),
    ("create_contact", {"first_name": "Mia", "last_name": "Chen",
                        "email": "mia.chen@harbor-analytics.io", "account_id": "acct_0001",
                        "title": "Head of Data", "phone": "+351 912 345 678"}),
    ("list_deals", {"stage": "open", "owner_id": "p_001", "sort": "amount_desc"}),
    ("get_deal", {"deal_id": "dl_0018"}),
    ("create_deal", {"account_id": "co_004", "name": "GreenSoftware - Analytics add-on",
                     "amount": 45000, "close_date": "2026-09-30",
                     "primary_contact_id": "p_004", "next_step": "Book technical demo"}),
    ("update_deal_stage", {"deal_id": "dl_0018", "stage": "closed_won"}),
    ("update_deal_stage", {"deal_id": "dl_0010", "stage": "closed_lost",
                           "lost_reason": "competitor"}),
    ("update_deal", {"deal_id": "dl_0008", "amount": 95000, "close_date": "2026-08-31",
                     "next_step": "Security review with IT"}),
    ("log_activity", {"kind": "call", "subject": "Pricing follow-up call",
                      "contact_id": "p_009", "deal_id": "dl_0008", "duration_minutes": 20,
                      "outcome": "connected", "body": "Agreed to a 3-year term."}),
    ("create_task", {"title": "Send revised proposal to Felix", "due_date": "2026-06-19",
                     "assignee_id": "p_006", "contact_id": "p_009", "deal_id": "dl_0008",
                     "priority": "high"}),
    ("list_tasks", {"status": "overdue", "assignee_id": "p_026"}),
    ("update_task", {"task_id": "tsk_0021", "status": "completed"}),
    ("get_pipeline_summary", {"close_date_from": "2026-06-15", "close_date_to": "2026-09-30"}),
]

__all__ = ["DOMAIN", "EXAMPLES"]
