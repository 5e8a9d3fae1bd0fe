"""The step-synchronous batcher: every episode waiting for a policy turn joins ONE generate call.

Why: the policy is one device program; a batch of B requests costs about as much as one, so
episodes must not call it one by one. Episodes `await batcher.generate(request)`; a single
flusher task sends what is pending in one `policy.generate` as soon as every live episode is
waiting (nothing more can join) or `max_batch` requests are pending, or else `max_wait_s` after
the first request arrived (episodes busy with slow tools do not hold the others back for long).
One call is in flight at a time; requests arriving meanwhile form the next batch.

Episodes register with `enter()` / `leave()` so the batcher knows how many could still join.
A policy failure fails the episodes of that batch (their `generate` raises), not the batcher.
"""

from __future__ import annotations

import asyncio
import contextlib

from prove_jax.rollout.policy import Generation, GenerationRequest, Policy

__all__ = ["Batcher"]


class Batcher:
    def __init__(self, policy: Policy, max_wait_s: float = 0.02, max_batch: int | None = None):
        self.policy, self.max_wait_s, self.max_batch = policy, max_wait_s, max_batch
        self.live = 0
        self.batch_sizes: list[int] = []  # one entry per generate call, for logs and tests
        self._pending: list[tuple[GenerationRequest, asyncio.Future[Generation]]] = []
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None

    async def __aenter__(self) -> Batcher:
        self._task = asyncio.create_task(self._flusher(), name="rollout-batcher")
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for _, fut in self._pending:
            if not fut.done():
                fut.set_exception(RuntimeError("the batcher stopped"))
        self._pending.clear()

    def enter(self) -> None:
        self.live += 1
        self._changed.set()

    def leave(self) -> None:
        self.live -= 1
        self._changed.set()

    async def generate(self, request: GenerationRequest) -> Generation:
        """Queue one request; resolves when its batch came back."""
        if self._task is None or self._task.done():
            raise RuntimeError("Batcher.generate outside `async with batcher`")
        fut: asyncio.Future[Generation] = asyncio.get_running_loop().create_future()
        entry = (request, fut)
        self._pending.append(entry)
        self._changed.set()
        try:
            return await fut
        except asyncio.CancelledError:  # the episode timed out: do not generate for it
            if entry in self._pending:
                self._pending.remove(entry)
            raise

    async def _flusher(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            while not self._pending:
                self._changed.clear()
                await self._changed.wait()
            deadline = loop.time() + self.max_wait_s
            while self._pending and len(self._pending) < self._full() \
                    and (left := deadline - loop.time()) > 0:
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
            if not self._pending:
                continue
            n = len(self._pending) if self.max_batch is None else self.max_batch
            batch, self._pending = self._pending[:n], self._pending[n:]
            await self._send(batch)

    def _full(self) -> int:
        """How many pending requests make a batch that waiting longer cannot improve."""
        return self.live if self.max_batch is None else min(self.live, self.max_batch)

    async def _send(self, batch: list[tuple[GenerationRequest, asyncio.Future]]) -> None:
        self.batch_sizes.append(len(batch))
        try:
            results = await self.policy.generate([r for r, _ in batch])
            if len(results) != len(batch):
                raise RuntimeError(f"policy returned {len(results)} generations for "
                                   f"{len(batch)} requests")
        except Exception as err:
            for _, fut in batch:
                if not fut.done():
                    fut.set_exception(RuntimeError(f"policy.generate failed: "
                                                   f"{type(err).__name__}: {err}"))
            return
        for (_, fut), gen in zip(batch, results, strict=True):
            if not fut.done():
                fut.set_result(gen)
