"""Which servers exist, where their modules live, and the tool counts they must expose."""

from __future__ import annotations

import importlib
import importlib.util

from servers.core.domain import Domain

# REFERENCE.md §1: tools the policy sees, per server.
TOOL_COUNTS = {
    "banking": 17, "trading": 13, "payments": 10, "calendar": 17, "email": 17,
    "filesystem": 40, "shopping": 23, "marketplace": 13, "retail_chain": 11, "budget": 12,
    "travel_booking": 20, "maps": 16, "social_media": 15, "team_chat": 11, "iot_devices": 25,
    "vehicle": 20, "crm": 16, "issue_tracker": 20, "food_delivery": 17, "video_meeting": 10,
}
AVAILABLE = tuple(TOOL_COUNTS)


def available() -> list[str]:
    """Servers whose module imports (so a partial checkout still lists what it has)."""
    return [n for n in AVAILABLE if importlib.util.find_spec(f"servers.{n}") is not None]


def load_domain(name: str) -> Domain:
    if name not in TOOL_COUNTS:
        raise KeyError(f"unknown server {name!r}; known: {', '.join(sorted(TOOL_COUNTS))}")
    if name not in available():
        raise KeyError(f"server {name!r} is not implemented yet; available: "
                       f"{', '.join(available())}")
    domain = importlib.import_module(f"servers.{name}").DOMAIN
    domain.check()
    return domain
