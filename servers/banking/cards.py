"""Card tools: list the user's cards, freeze one and unfreeze it."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.banking.common import DOMAIN, as_card
from servers.banking.models import Card, CardList, CardStatus
from servers.core.errors import ToolError
from servers.core.schema import Arg
from servers.core.state import State

CardId = Annotated[str, Arg("Card id, e.g. 'card_uqyamw' (from list_cards)")]


@DOMAIN.tool(read_only=True)
def list_cards(
        s: State,
        account_id: Annotated[str | None, Arg("Only cards on this account")] = None,
        status: Annotated[CardStatus | None, Arg("Only cards with this status")] = None,
) -> CardList:
    """List the user's debit and credit cards with their status."""
    if account_id is not None:
        s["accounts"].get(account_id)
    rows = [r for r in s["cards"].rows()
            if (account_id is None or r["account_id"] == account_id)
            and (status is None or r["status"] == status)]
    return {"cards": [as_card(s, r) for r in rows]}


@DOMAIN.tool(read_only=False)
def freeze_card(
        s: State, card_id: CardId,
        reason: Annotated[Literal["misplaced", "lost", "stolen", "suspicious_activity",
                                  "temporary_hold"], Arg("Why the card is frozen")
                          ] = "temporary_hold",
) -> Card:
    """Freeze an active card: new purchases and withdrawals are declined until unfrozen."""
    row = s["cards"].get(card_id)
    if row["status"] == "frozen":
        raise ToolError(f"card {card_id} is already frozen; use unfreeze_card to reactivate it")
    if row["status"] != "active":
        raise ToolError(f"card {card_id} is {row['status']} and cannot be frozen; see "
                        "list_cards for active cards")
    return as_card(s, s["cards"].update(card_id, status="frozen", freeze_reason=reason))


@DOMAIN.tool(read_only=False)
def unfreeze_card(s: State, card_id: CardId) -> Card:
    """Unfreeze a frozen card so it can be used again."""
    row = s["cards"].get(card_id)
    if row["status"] != "frozen":
        raise ToolError(f"card {card_id} is {row['status']}, not frozen; only frozen cards "
                        "can be unfrozen")
    return as_card(s, s["cards"].update(card_id, status="active", freeze_reason=None))
