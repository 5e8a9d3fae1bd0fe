"""Review tools: review a seller the user bought from."""

from __future__ import annotations

from typing import Annotated

from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.marketplace import views as v
from servers.marketplace.common import DOMAIN, SellerId
from servers.marketplace.schemas import Review


@DOMAIN.tool(read_only=False)
def leave_review(
        s: State, seller_id: SellerId,
        rating: Annotated[int, Arg("Stars from 1 (bad) to 5 (great)", minimum=1, maximum=5)],
        comment: Annotated[str, Arg("What went well or badly", min_length=1, max_length=1000)],
        listing_id: Annotated[str | None, Arg(
            "The purchase being reviewed (default: the latest unreviewed one from this "
            "seller)")] = None) -> Review:
    """Review a seller the user bought from; one review per purchase."""
    me = v.user_id(s)
    name = v.name(s, seller_id)
    if seller_id == me:
        raise ToolError("you cannot review yourself")
    if listing_id is not None:
        s["listings"].get(listing_id)
    bought = s["listings"].rows(lambda r: r["seller_id"] == seller_id and r["buyer_id"] == me
                                and r["status"] == "sold")
    if not bought:
        raise ToolError(f"you have not bought anything from {name} ({seller_id}); reviews "
                        "are only for sellers you bought from (see list_offers with status "
                        "'accepted')")
    done = {r["listing_id"] for r in s["reviews"].rows(lambda r: r["reviewer_id"] == me)}
    if listing_id is not None:
        target = next((r for r in bought if r["listing_id"] == listing_id), None)
        if target is None:
            raise ToolError(f"listing {listing_id} is not something you bought from {name}; "
                            "your purchases from them: "
                            + ", ".join(r["listing_id"] for r in bought))
        if listing_id in done:
            raise ToolError(f"you already reviewed your purchase of {target['title']!r} "
                            f"({listing_id})")
    else:
        todo = sorted((r for r in bought if r["listing_id"] not in done),
                      key=lambda r: (r["updated_at"], r["listing_id"]), reverse=True)
        if not todo:
            raise ToolError(f"you already reviewed every purchase from {name}")
        target = todo[0]
    row = s["reviews"].insert({
        "review_id": s.next_id("rev"), "seller_id": seller_id, "reviewer_id": me,
        "listing_id": target["listing_id"], "rating": rating, "comment": comment,
        "created_at": v.tick(s)})
    return v.review(s, row)
