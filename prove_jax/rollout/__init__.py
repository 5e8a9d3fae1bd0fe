"""Episodes and the asyncio rollout engine."""
