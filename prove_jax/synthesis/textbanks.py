"""Free text that fits the tool, not only the argument's name (issue 23 item 2): a review body
is not an email body, a comment on a post is not another post, a contact's title is a job
title, a meeting is not called off because "found a better price". A reading check found
'Works as expected' as a listing's title, 'Lunch with the team' as a bug report and a guest
named 'Taxes'; every bank here answers one such misfit. generators.gen_text tries these
first, then the argument's own bank."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

__all__ = ["CITY_ADDRESS", "EDITS", "MERCHANTS", "PEOPLE", "TOOL_TEXT", "fitting", "renamed"]

# Full names for arguments that name a person (a guest, a passenger, a display name)
PEOPLE = ("Alex Morgan", "Sam Rivera", "Jordan Lee", "Priya Shah", "Mateo Okafor",
          "Yuki Tanaka", "Leila Novak", "Chris Walker", "Nadia Haddad")

_LISTING_TITLES = ("Vintage road bike", "Standing desk", "IKEA bookshelf, white",
                   "Kids' bike, 16 inch", "Espresso machine", "Grey sofa bed",
                   "Acoustic guitar with case")
_LISTING_TEXT = ("Lightly used, all parts included.", "Pick-up only, cash or transfer.",
                 "Barely used, no scratches.", "Works perfectly, selling because I moved.")
_EVENT_TITLES = ("Dentist appointment", "Lunch with the team", "Project sync",
                 "Quarterly review", "Yoga class", "Parent-teacher meeting", "Haircut")
_EVENT_TEXT = ("Agenda to follow.", "Bring the printed report.", "Dial-in link in the invite.",
               "Please review the slides beforehand.")
_MEETING_TOPICS = ("Project kickoff", "Weekly sync", "Budget review", "Design review",
                   "Candidate debrief")
_AGENDAS = ("Status updates and blockers.", "Review the Q3 numbers.",
            "Walk through the new designs.", "Agree on next steps.")
_CHAT = ("Standup moved to 10:30 today.", "Can someone review my PR?",
         "Reminder: all-hands at 3 pm.", "Thanks everyone for the help!",
         "I'll be out on Friday.")
_ISSUE_TITLES = ("Login page times out on slow networks", "Export to CSV drops the last row",
                 "Add dark mode to settings", "Crash when uploading large files",
                 "Search ignores accents")
_ISSUE_TEXT = ("Steps: open settings, click save; the page hangs.",
               "Acceptance: the report includes every row.",
               "Seen on Android 14 and iOS 17.", "Started after the last release.")
_MAIL_BODIES = ("Hi, just checking in on this. Thanks!", "Thanks for the update, looks good to me.",
                "Can we move this to next week?", "Please find my notes below. Talk soon.",
                "Sounds great, count me in.")
_DEAL_NAMES = ("Fleet analytics pilot", "Annual license renewal", "Onboarding package",
               "Support plan upgrade")
_TASK_NOTES = ("They prefer a call in the morning.", "Include the volume discount.",
               "Check the contract end date first.", "Loop in their finance lead.")
_ADDRESS_LABELS = ("Home", "Office", "Gym", "Mom's place", "Studio")

TOOL_TEXT: dict[tuple[str, str], tuple[str, ...]] = {
    ("write_review", "title"): ("Great value", "Works as expected", "Exactly as described",
                                "Not worth the price", "Stopped working after a week"),
    ("write_review", "body"): ("Better than I expected for the price. Highly recommend.",
                               "Solid build and fast delivery.", "Does the job, nothing more.",
                               "Broke after two weeks, quite disappointed.",
                               "Fits well and looks great. Would buy again."),
    ("rate_order", "comment"): ("Arrived hot and on time.", "Tasty, but delivery was slow.",
                                "Portions were small for the price.", "Perfect as always."),
    ("comment_on_post", "content"): ("Congrats, well deserved!", "Love this!",
                                     "Where is this? Looks great.", "Count me in!",
                                     "Great tip, thanks for sharing."),
    ("add_comment", "body"): ("Looks related to last week's deploy.",
                              "I can reproduce this on staging.",
                              "Fixed in the latest build, please verify.",
                              "Adding logs from the failing run."),
    ("update_contact", "title"): ("Head of Procurement", "Operations Manager", "CTO",
                                  "Account Executive", "Office Manager"),
    ("create_contact", "title"): ("Head of Procurement", "Operations Manager", "CTO",
                                  "Account Executive", "Office Manager"),
    # marketplace
    ("create_listing", "title"): _LISTING_TITLES,
    ("update_listing", "title"): _LISTING_TITLES,
    ("create_listing", "description"): _LISTING_TEXT,
    ("update_listing", "description"): _LISTING_TEXT,
    ("make_offer", "message"): ("Would you take a little less?", "Is the price negotiable?",
                                "I can pick it up this weekend.", "Would 20 less work for you?"),
    ("send_message", "text"): ("Is this still available?", "Could you hold it until Friday?",
                               "Can I come and see it tomorrow evening?",
                               "Does it come with the charger?"),
    # calendar and meetings
    ("create_event", "title"): _EVENT_TITLES,
    ("update_event", "title"): _EVENT_TITLES,
    ("create_event", "description"): _EVENT_TEXT,
    ("update_event", "description"): _EVENT_TEXT,
    ("schedule_meeting", "topic"): _MEETING_TOPICS,
    ("update_meeting", "topic"): _MEETING_TOPICS,
    ("start_instant_meeting", "topic"): _MEETING_TOPICS,
    ("schedule_meeting", "agenda"): _AGENDAS,
    ("update_meeting", "agenda"): _AGENDAS,
    ("cancel_meeting", "reason"): ("Something came up, let's reschedule.",
                                   "We covered this over email.", "The client cancelled.",
                                   "Moving this to next week."),
    # email
    ("forward_email", "note"): ("FYI, see below.", "Can you take a look at this?",
                                "Forwarding for your records.", "Thoughts?"),
    ("send_email", "body"): _MAIL_BODIES,
    ("reply_to_email", "body"): _MAIL_BODIES,
    ("create_draft", "body"): _MAIL_BODIES,
    # team chat
    ("post_message", "text"): _CHAT,
    ("edit_message", "text"): _CHAT,
    ("send_direct_message", "text"): ("Do you have a minute to chat?",
                                      "Thanks for covering for me!",
                                      "Can you send me the slides?", "Running 5 minutes late."),
    ("create_channel", "name"): ("q3-planning", "design-reviews", "offsite-2026",
                                 "support-rotation"),
    ("create_channel", "topic"): ("Planning for Q3", "Design feedback", "Team offsite logistics",
                                  "Who is on call this week"),
    # social media
    ("create_post", "content"): ("Just finished my first half marathon!",
                                 "Anyone have book recommendations for the summer?",
                                 "Great coffee at the new place downtown.",
                                 "Excited to start a new role next month!"),
    ("update_profile", "bio"): ("Coffee, code and long runs.", "Designer based in Lisbon.",
                                "Dog person. Amateur photographer.",
                                "Product manager. Weekend cyclist."),
    # issue tracker
    ("create_issue", "title"): _ISSUE_TITLES,
    ("update_issue", "title"): _ISSUE_TITLES,
    ("create_issue", "description"): _ISSUE_TEXT,
    ("update_issue", "description"): _ISSUE_TEXT,
    ("transition_issue", "comment"): ("Fixed in the latest build.", "Blocked on the API change.",
                                      "Ready for review.", "Cannot reproduce anymore."),
    ("log_work", "note"): ("Investigated the root cause.", "Wrote the fix and tests.",
                           "Code review.", "Reproduced the bug locally."),
    # a new email's subject is the user's own, not one of the inbox's ("Welcome to the team,
    # Emma!" on a note to Priya)
    **{(tool, "subject"): ("Quick question", "Follow-up", "Meeting notes", "Project update",
                           "Schedule change", "Slides for Thursday")
       for tool in ("send_email", "create_draft")},
    # crm
    ("log_activity", "subject"): ("Pricing follow-up call", "Demo recap", "Contract questions",
                                  "Intro meeting"),
    ("log_activity", "body"): ("Discussed pricing; they want a proposal by Friday.",
                               "Walked through the demo; positive feedback.",
                               "They asked for two customer references.",
                               "Agreed to a follow-up call next week."),
    ("create_task", "title"): ("Send revised proposal", "Schedule a demo",
                               "Follow up on the contract", "Call about the renewal"),
    ("create_task", "notes"): _TASK_NOTES,
    ("update_task", "notes"): _TASK_NOTES,
    ("create_account", "name"): ("Harbor Analytics", "Northwind Logistics", "Bluepeak Foods",
                                  "Summit Dental Group"),
    ("update_deal", "name"): _DEAL_NAMES,
    ("create_deal", "name"): _DEAL_NAMES,
    # maps
    ("create_saved_list", "name"): ("Weekend brunch spots", "Date night", "Coffee to try",
                                    "Museums", "Trip ideas"),
    ("create_saved_list", "description"): ("Places to try with friends.",
                                           "For the trip in September.",
                                           "Good spots to work from.", "Kid-friendly places."),
    ("save_place", "note"): ("go on a weekday", "book ahead", "great for brunch",
                             "try the tasting menu"),
    # smart home
    ("update_device", "name"): ("Guest Room", "Upstairs", "Main", "Downstairs"),
    ("add_lock_code", "name"): ("Cleaner", "Dog walker", "Babysitter", "Guests", "Plumber"),
    ("create_scene", "name"): ("Movie night", "Good morning", "Dinner time", "Away", "Bedtime"),
    ("create_automation", "name"): ("Lights off at midnight", "Morning coffee",
                                    "Porch light at sunset", "Lock up at night"),
    ("create_device_group", "name"): ("Downstairs lights", "Bedroom", "Outdoor", "Speakers"),
    # addresses, people
    ("add_payee", "name"): ("Lakeside Property Management", "Rosa Lopez",
                            "Bright Futures Daycare", "City Power & Light", "Dr. Maya Patel"),
    ("add_address", "label"): _ADDRESS_LABELS,
    ("add_address", "recipient_name"): PEOPLE,
    ("book_hotel", "guest_name"): PEOPLE,
    ("update_profile", "display_name"): PEOPLE,
    ("book_service_appointment", "notes"): ("Strange noise when braking.",
                                            "Annual inspection, please.",
                                            "Check the tyre pressure too.",
                                            "The battery warning light is on."),
    ("checkout", "instructions"): ("Please ring the bell twice.", "Leave it at the door.",
                                   "No cutlery, thanks.", "Call me when you arrive."),
}

# A record's new title made from its old one ({t}): a listing renamed "Espresso machine" after
# a camera kit is no edit anyone makes. Keyed by the record's kind; "" for any other kind.
EDITS: dict[str, tuple[str, ...]] = {
    "listing": ("{t} - price drop", "{t} (like new)", "{t}, must go this week"),
    "event": ("{t} (moved)", "{t} - new agenda", "Rescheduled: {t}"),
    "issue": ("{t} on mobile", "[Urgent] {t}", "{t} (regression)"),
    "device": ("Upstairs {t}", "Old {t}", "Kids' {t}"),
    "": ("{t} (updated)", "{t} 2", "New {t}"),
}


# A new address's country and postal code follow its city: not Tokyo, Portugal, 1269-534
CITY_ADDRESS = {"Lisbon": ("Portugal", "1100-148"), "Berlin": ("Germany", "10117"),
                "Paris": ("France", "75001"), "Madrid": ("Spain", "28013"),
                "Toronto": ("Canada", "M5V 2T6"), "Tokyo": ("Japan", "100-0005"),
                "London": ("United Kingdom", "EC1A 1BB"), "New York": ("United States", "10001")}


def renamed(path: str, pick: int) -> str:
    """A file's new name made from its old one, its type kept: 'ideas.md' -> 'ideas_v2.md',
    not '.gitignore' -> 'report_final.csv'. `pick` chooses the suffix."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    stem, dot, ext = name.rpartition(".")
    suffix = ("_old", "_v2", "_final", "_2026")[pick % 4]
    return f"{stem}{suffix}.{ext}" if dot and stem else f"{name}{suffix}"


def fitting(arg: str, filled: Mapping[str, Any], rng: random.Random) -> str | None:
    """A written value that follows from the call's other values (`filled`: argument -> a
    Filled): a renamed file's new name, a new address's country and postal code."""
    def value(name: str) -> Any:
        return filled[name].value if name in filled else None
    if arg == "new_name" and isinstance(value("path"), str):
        return renamed(value("path"), rng.randrange(4))
    if arg in ("country", "postal_code") and value("city") in CITY_ADDRESS:
        return CITY_ADDRESS[value("city")][arg == "postal_code"]
    if arg == "nickname" and isinstance(value("name"), str) and value("name").split():
        # a payee's short name, not 'Gym' for 'City Power & Light' (a reading check)
        words = [w for w in value("name").split() if w.lower().strip(".") not in LEGAL_FORMS]
        return " ".join(words[:2] if len(words) > 2 else words[:1]) or None
    return None


# A company's legal form: no word to search by ("the ticker for 'Ltd'") and no part of its
# web domain ("RedTextiles GmbH" -> redtextiles.com)
LEGAL_FORMS = frozenset(("ltd", "inc", "llc", "plc", "corp", "gmbh", "co", "sa", "ag"))

# Where a person spends in each budget category (by the category's name): an expense's
# merchant is drawn for its category, so a pharmacy is never filed as Fitness
MERCHANTS: dict[str, tuple[str, ...]] = {
    "Groceries": ("Green Grocer", "FreshMart", "Corner Grocer"),
    "Dining Out": ("Corner Bakery", "Trattoria Verde", "Noodle Bar 88"),
    "Transport": ("City Parking", "Metro Transit", "RideNow"),
    "Housing": ("Lakeside Property Management", "HomeFix Repairs"),
    "Utilities": ("City Power & Light", "AquaCity Water", "FiberNet Internet"),
    "Entertainment": ("Cineplex Downtown", "Arcade Alley"),
    "Shopping": ("Urban Threads", "HomeGoods Depot"),
    "Health": ("Metro Pharmacy", "BrightSmile Dental"),
    "Travel": ("SkyWays Airlines", "Harbor Suites"),
    "Subscriptions": ("StreamBox", "Cloudly Storage"),
    "Education": ("Bookworm Club", "CodeCamp Online"),
    "Gifts & Donations": ("Red Cross", "Petal & Stem Florist"),
    "Personal Care": ("Glow Salon", "Metro Pharmacy"),
    "Fitness": ("PulseGym", "Studio Flow Yoga"),
}
