"""Category tools: list the spending categories."""

from __future__ import annotations

from typing import Annotated, Literal

from servers.budget.common import DOMAIN
from servers.budget.models import CategoryList
from servers.core.schema import Arg
from servers.core.state import State


@DOMAIN.tool(read_only=True)
def list_categories(
        s: State,
        group: Annotated[Literal["Essentials", "Lifestyle", "Goals & Giving"] | None,
                         Arg("Only categories in this group")] = None,
) -> CategoryList:
    """List spending categories (ids are used by budgets and expenses)."""
    return {"categories": [c for c in s["categories"].rows()
                           if group is None or c["group"] == group]}
