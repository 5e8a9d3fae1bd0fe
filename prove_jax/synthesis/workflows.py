"""Goal-coherent chains (issue 23 item 1): workflow patterns a person follows to get one thing
done, each a short story over the tools (find the meeting, then email its attendees; look at
a listing, check its seller, then make an offer). Later tools act on what earlier ones found:
the machine fills their arguments from the earlier outputs along the graph's data edges, and
names the records the user knows by name through look-ups, exactly as for a sampled walk.

A share of chains (`SynthConfig.p_workflow`) is drawn from here; the rest stay walks on the
dependency graph, filtered for plausibility, so the tool coverage of the walk is kept. A
pattern whose tools a graph lacks is never drawn (`patterns_for`).
"""

from __future__ import annotations

import random

from prove_jax.synthesis.graph import ToolGraph, coherent

__all__ = ["WORKFLOWS", "draw_workflow", "patterns_for"]

# goal -> tools in order ("server.tool"); a pattern's first tool is on the block's server,
# a later one may be on one other server (its partner, plan.partner_of)
WORKFLOWS: dict[str, tuple[str, ...]] = {
    # finance
    "move money after a balance check": ("banking.get_account",
                                         "banking.transfer_between_accounts"),
    "dispute a charge": ("banking.search_transactions", "banking.get_transaction",
                         "banking.dispute_transaction"),
    "lost card": ("banking.list_cards", "banking.freeze_card", "banking.list_transactions"),
    "pay a bill": ("banking.list_payees", "banking.pay_payee"),
    "research then buy": ("trading.search_symbols", "trading.get_quote", "trading.place_order"),
    "watch a stock": ("trading.get_quote", "trading.add_to_watchlist"),
    "cancel a stale order": ("trading.list_orders", "trading.cancel_order",
                             "trading.get_account_summary"),
    "pay someone back": ("payments.list_payments", "payments.send_payment"),
    "answer a payment request": ("payments.list_payment_requests",
                                 "payments.respond_to_request"),
    "refund a payment": ("payments.list_payments", "payments.get_payment",
                         "payments.refund_payment"),
    "ask a friend to pay their share": ("payments.search_contacts", "payments.request_payment"),
    "rein in spending": ("budget.get_spending_summary", "budget.update_budget_limit"),
    "fix an expense": ("budget.list_expenses", "budget.update_expense"),
    "save toward a goal": ("budget.list_savings_goals", "budget.contribute_to_savings_goal"),
    # productivity
    "prepare for a meeting": ("calendar.search_events", "calendar.get_event",
                              "calendar.add_reminder"),
    "reschedule into a free slot": ("calendar.search_events", "calendar.find_free_slots",
                                    "calendar.move_event"),
    "answer an invitation": ("calendar.list_invitations", "calendar.respond_to_invitation",
                             "calendar.add_reminder"),
    "reply to an email": ("email.search_emails", "email.get_email", "email.reply_to_email"),
    "file an email": ("email.search_emails", "email.get_email", "email.move_email"),
    "pass an email on": ("email.search_emails", "email.forward_email", "email.add_label"),
    "add to notes": ("filesystem.find", "filesystem.cat", "filesystem.append_file"),
    "back up a file": ("filesystem.ls", "filesystem.cp", "filesystem.create_archive"),
    "check a file's contents": ("filesystem.search_content", "filesystem.head",
                                "filesystem.count_lines"),
    # commerce
    "order dinner": ("food_delivery.search_restaurants", "food_delivery.get_menu",
                     "food_delivery.add_to_cart", "food_delivery.checkout"),
    "chase a late order": ("food_delivery.list_orders", "food_delivery.track_order",
                           "food_delivery.cancel_order"),
    "rate the last order": ("food_delivery.list_orders", "food_delivery.get_order",
                            "food_delivery.rate_order"),
    "buy after reading reviews": ("shopping.search_products", "shopping.get_product_reviews",
                                  "shopping.add_to_cart", "shopping.checkout"),
    "return an item": ("shopping.list_orders", "shopping.get_order", "shopping.request_return"),
    "buy from the wishlist": ("shopping.view_wishlist", "shopping.add_to_cart",
                              "shopping.checkout"),
    "buy second-hand": ("marketplace.search_listings", "marketplace.get_listing",
                        "marketplace.make_offer"),
    "check a seller first": ("marketplace.get_listing", "marketplace.get_seller_profile",
                             "marketplace.send_message"),
    "handle offers on my listing": ("marketplace.list_offers", "marketplace.respond_to_offer"),
    "pick up in store": ("retail_chain.search_catalog", "retail_chain.check_inventory",
                         "retail_chain.reserve_for_pickup"),
    "visit a store": ("retail_chain.find_stores", "retail_chain.get_store",
                      "retail_chain.reserve_for_pickup"),
    # travel
    "book a hotel": ("travel_booking.search_hotels", "travel_booking.get_hotel",
                     "travel_booking.book_hotel"),
    "book a flight": ("travel_booking.search_flights", "travel_booking.hold_flight",
                      "travel_booking.confirm_booking"),
    "get a trip ready": ("travel_booking.list_bookings", "travel_booking.get_booking",
                         "travel_booking.add_baggage"),
    "plan an evening out": ("maps.search_places", "maps.get_opening_hours", "maps.save_place"),
    "go somewhere new": ("maps.search_places", "maps.get_place_details",
                         "maps.get_directions"),
    # social
    "join a conversation": ("social_media.get_timeline", "social_media.get_post",
                            "social_media.comment_on_post"),
    "follow someone interesting": ("social_media.search_users",
                                   "social_media.get_user_profile", "social_media.follow_user"),
    "catch up on a channel": ("team_chat.list_channels", "team_chat.get_channel_history",
                              "team_chat.post_message"),
    "bring a colleague in": ("team_chat.search_members", "team_chat.invite_to_channel",
                             "team_chat.post_message"),
    # devices
    "movie night": ("iot_devices.list_scenes", "iot_devices.activate_scene",
                    "iot_devices.set_light"),
    "keep a device up to date": ("iot_devices.get_device", "iot_devices.update_firmware"),
    "lock up": ("iot_devices.list_devices", "iot_devices.set_lock"),
    "warm up the car": ("vehicle.get_vehicle_status", "vehicle.set_climate",
                        "vehicle.start_engine"),
    "get the car serviced": ("vehicle.get_diagnostics", "vehicle.list_service_centers",
                             "vehicle.book_service_appointment"),
    "drive somewhere": ("vehicle.search_destinations", "vehicle.set_navigation"),
    # knowledge, CRM, meetings
    "follow up a deal": ("crm.list_deals", "crm.get_deal", "crm.create_task"),
    "log a call": ("crm.search_contacts", "crm.get_contact", "crm.log_activity"),
    "move a deal forward": ("crm.get_deal", "crm.update_deal_stage", "crm.create_task"),
    # across servers: a person, place or meeting found on one service, acted on in another
    "email a contact": ("crm.search_contacts", "crm.get_contact", "email.send_email"),
    "invite a contact to an event": ("crm.search_contacts", "crm.get_contact",
                                     "calendar.add_attendees"),
    "bill a contact": ("crm.search_contacts", "crm.get_contact", "payments.request_payment"),
    "save an email's sender as a contact": ("email.search_emails", "email.get_email",
                                            "crm.create_contact"),
    "check a restaurant on the map": ("food_delivery.search_restaurants",
                                      "maps.get_place_reviews"),
    "drive to a restaurant": ("food_delivery.search_restaurants", "vehicle.set_navigation"),
    "drive to my hotel": ("travel_booking.list_hotel_reservations", "vehicle.set_navigation"),
    "read a hotel's reviews": ("travel_booking.search_hotels", "maps.get_place_reviews"),
    "drive to a place": ("maps.search_places", "maps.get_place_details",
                         "vehicle.set_navigation"),
    "message someone in my household": ("iot_devices.list_homes",
                                        "team_chat.send_direct_message"),
    "email a teammate": ("team_chat.search_members", "email.send_email"),
    "email the project team": ("issue_tracker.get_project", "email.send_email"),
    "put a call's participants on an event": ("video_meeting.get_meeting",
                                              "calendar.add_attendees"),
    "email a payment contact": ("payments.search_contacts", "email.send_email"),
    "triage an issue": ("issue_tracker.search_issues", "issue_tracker.get_issue",
                        "issue_tracker.assign_issue"),
    "start on an issue": ("issue_tracker.get_issue", "issue_tracker.transition_issue",
                          "issue_tracker.log_work"),
    "plan a sprint": ("issue_tracker.list_sprints", "issue_tracker.get_sprint",
                      "issue_tracker.move_issue_to_sprint"),
    "add people to a meeting": ("video_meeting.list_meetings", "video_meeting.get_meeting",
                                "video_meeting.add_participants"),
    "catch up on a recording": ("video_meeting.list_recordings",
                                "video_meeting.get_recording_transcript"),
    "email a meeting's participants": ("video_meeting.list_meetings",
                                       "video_meeting.get_meeting", "email.send_email"),
    "check a colleague is free, then write": ("calendar.check_availability",
                                              "email.send_email"),
    "check my destination is open": ("vehicle.get_vehicle_status", "maps.get_opening_hours"),
    "read reviews of a destination": ("vehicle.search_destinations",
                                      "maps.get_place_reviews"),
    "save my hotel on the map": ("travel_booking.list_hotel_reservations", "maps.save_place"),
    "invite the project team to an event": ("issue_tracker.get_project",
                                            "calendar.add_attendees"),
    "invite a teammate to an event": ("team_chat.search_members", "calendar.add_attendees"),
    "add an email's sender to an event": ("email.search_emails", "email.get_email",
                                          "calendar.add_attendees"),
    "invite a payment contact to an event": ("payments.search_contacts",
                                             "calendar.add_attendees"),
    "invite my household to an event": ("iot_devices.list_homes", "calendar.add_attendees"),
    "check a restaurant is open": ("food_delivery.search_restaurants",
                                   "maps.get_opening_hours"),
    "check a participant is free": ("video_meeting.get_meeting",
                                    "calendar.check_availability"),
}


def _walkable(graph: ToolGraph, tools: tuple[str, ...]) -> bool:
    """A tool on another server than the first is reached by a coherent edge (a shared
    person, place or meeting) from an earlier tool: never two unrelated chains side by side.
    On one server the story carries the state (a cart, then its checkout)."""
    home = graph.nodes[tools[0]].server
    for i, key in enumerate(tools[1:], 1):
        if graph.nodes[key].server != home and not any(
                coherent(graph, e) for src in tools[:i] for e in graph.edges_between(src, key)):
            return False
    return True


def patterns_for(graph: ToolGraph, server: str, partner: str | None, max_len: int
                 ) -> list[str]:
    """Goals a chain on `server` may follow: every tool exists in `graph`, the first is on
    `server`, any other server is `partner` and reached coherently, and the pattern fits in
    `max_len` tools."""
    out = []
    for goal, tools in WORKFLOWS.items():
        servers = [t.split(".", 1)[0] for t in tools]
        if servers[0] != server or len(tools) > max_len or any(t not in graph.nodes
                                                               for t in tools):
            continue
        if all(s in (server, partner) for s in servers) and _walkable(graph, tools):
            out.append(goal)
    return out


def draw_workflow(graph: ToolGraph, server: str, partner: str | None, max_len: int,
                  rng: random.Random) -> tuple[str, list[str]] | None:
    """(goal, chain) of one pattern for `server`, or None where none fits; a pattern that
    reaches the partner server is drawn first where one exists, half the time."""
    goals = patterns_for(graph, server, partner, max_len)
    if not goals:
        return None
    cross = [g for g in goals if any(not t.startswith(server + ".") for t in WORKFLOWS[g])]
    goal = rng.choice(cross if cross and rng.random() < 0.5 else goals)
    return goal, list(WORKFLOWS[goal])
