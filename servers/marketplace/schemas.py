"""marketplace: the literal types and the output shapes (TypedDicts) of the tools."""

from __future__ import annotations

from typing import Literal, TypedDict

Category = Literal["electronics", "furniture", "clothing", "books", "sports", "home", "toys",
                   "music", "vehicles", "collectibles"]
Condition = Literal["new", "like_new", "good", "fair", "for_parts"]
ListingStatus = Literal["active", "sold", "removed"]
OfferStatus = Literal["pending", "accepted", "declined"]


class ListingSummary(TypedDict):
    listing_id: str
    title: str
    category: str
    condition: str
    price: float
    currency: str
    city: str
    seller_id: str
    seller_name: str
    status: str
    created_at: str


class ListingList(TypedDict):
    listings: list[ListingSummary]
    total: int
    next_cursor: str | None


class Listing(TypedDict):
    listing_id: str
    title: str
    description: str
    category: str
    condition: str
    price: float
    currency: str
    city: str
    seller_id: str
    seller_name: str
    seller_rating: float | None
    status: str
    is_mine: bool
    pending_offers: int
    buyer_id: str | None
    sold_price: float | None
    created_at: str
    updated_at: str


class MyListings(TypedDict):
    listings: list[Listing]
    total: int


class Review(TypedDict):
    review_id: str
    seller_id: str
    reviewer_id: str
    reviewer_name: str
    listing_id: str | None
    rating: int
    comment: str
    created_at: str


class SellerProfile(TypedDict):
    seller_id: str
    name: str
    city: str
    member_since: str
    rating: float | None
    review_count: int
    sold_count: int
    active_listings: list[ListingSummary]
    recent_reviews: list[Review]


class Offer(TypedDict):
    offer_id: str
    listing_id: str
    listing_title: str
    direction: str
    buyer_id: str
    buyer_name: str
    seller_id: str
    seller_name: str
    amount: float
    asking_price: float
    currency: str
    message: str
    status: str
    created_at: str
    responded_at: str | None


class OfferList(TypedDict):
    offers: list[Offer]
    total: int
    next_cursor: str | None


class OfferResponse(TypedDict):
    offer: Offer
    listing_status: str
    declined_offer_ids: list[str]


class RemovedListing(TypedDict):
    listing: Listing
    declined_offer_ids: list[str]


class Message(TypedDict):
    message_id: str
    sender_id: str
    sender_name: str
    text: str
    sent_at: str


class Conversation(TypedDict):
    conversation_id: str
    listing_id: str
    listing_title: str
    my_role: str
    other_party_id: str
    other_party_name: str
    unread: int
    last_message_at: str
    messages: list[Message]


class ConversationList(TypedDict):
    conversations: list[Conversation]
    total: int
    next_cursor: str | None


class SentMessage(TypedDict):
    conversation_id: str
    new_conversation: bool
    message: Message
