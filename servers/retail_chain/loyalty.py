"""Loyalty tools: the member account, redeeming points for vouchers, listing vouchers."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.core import money
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State
from servers.retail_chain.common import DOMAIN, as_voucher, in_days, loyalty_account, now
from servers.retail_chain.data import REWARDS, reward_value, tier_for
from servers.retail_chain.models import LoyaltyAccount, RedeemOut, VoucherList


@DOMAIN.tool(read_only=True)
def get_loyalty_account(s: State) -> LoyaltyAccount:
    """Show the user's loyalty membership: points balance, tier and recent activity."""
    acc, cur = loyalty_account(s), money.currency_of(s)
    tier, mult, nxt, need = tier_for(acc["points_12m"])
    # newest first; ids are opaque, so order by date and, within a date, by when it was added
    recent = sorted(s["points_activity"].rows(), key=lambda r: r["date"])[::-1][:10]
    return {"member_id": acc["member_id"], "name": acc["name"], "tier": tier,
            "points": acc["points"], "points_earned_12m": acc["points_12m"],
            "points_multiplier": mult, "next_tier": nxt, "points_to_next_tier": need,
            "home_store_id": acc["home_store_id"], "member_since": acc["member_since"],
            "redemption_options": [
                {"points": p, "currency": cur,
                 "voucher_value": money.to_major(reward_value(p, cur), cur)} for p in REWARDS],
            "recent_activity": [{k: a[k] for k in ("activity_id", "kind", "points", "date",
                                                   "description")} for a in recent]}


@DOMAIN.tool(read_only=False)
def redeem_points(s: State, points: Annotated[Literal[500, 1000, 2500, 5000], Arg(
        "Points to redeem (get_loyalty_account shows each option's voucher value in the "
        "world's currency; 500 points are worth about 5 USD)")]
                  ) -> RedeemOut:
    """Turn loyalty points into a store voucher valid for 90 days in any store."""
    acc = loyalty_account(s)
    if acc["points"] < points:
        raise ToolError(f"not enough points: the balance is {acc['points']}, redeeming "
                        f"{points} needs {points - acc['points']} more; pick a smaller option")
    vid, when = s.next_id("vch"), now(s)
    n = s.var("__seq_vch")
    voucher = s["vouchers"].insert({
        "voucher_id": vid, "code": f"MRD-{10000 + (n * 7919) % 90000}-"
        f"{'ABCDEFGHJKLMNPQRSTUVWXYZ'[n % 24]}",
        "value": reward_value(points, money.currency_of(s)),
        "points_spent": points, "status": "active", "issued_at": when,
        "expires_at": in_days(s, 90)})
    s["points_activity"].insert({"activity_id": s.next_id("act"), "kind": "redeemed",
                                 "points": -points, "date": when,
                                 "description": f"Redeemed for voucher {vid}",
                                 "store_id": None})
    acc = s["loyalty_accounts"].update(acc["member_id"], points=acc["points"] - points)
    return {"voucher": as_voucher(s, voucher), "points_remaining": acc["points"]}


@DOMAIN.tool(read_only=True)
def list_vouchers(s: State, status: Annotated[
        Literal["active", "used", "expired"] | None, Arg("Only vouchers with this status")
] = None) -> VoucherList:
    """List the user's loyalty vouchers, newest first."""
    rows = [v for v in s["vouchers"].rows() if status is None or v["status"] == status]
    rows = sorted(rows, key=lambda v: v["issued_at"])[::-1]  # ids are opaque: by issue time
    return {"vouchers": [as_voucher(s, v) for v in rows], "total": len(rows)}
