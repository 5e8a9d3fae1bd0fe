"""The continuously batched policy: each episode's request joins the decoding rows as soon as
a slot is free, and leaves them as soon as it is done (see prove_jax/sampling/slots.py).

One scheduler task owns the `SlotSampler`: it admits the waiting requests into rows together
(in arrival order, one batched extend; a request waits while every row decodes), runs a few
decode steps over the active rows in a worker thread (the event loop keeps running tool calls
meanwhile), and resolves the requests whose rows finished. Episodes call `generate_one`
directly, so the engine's step-synchronous batcher is bypassed. Turn seeds equal
`SamplerPolicy`'s, so both paths sample the same tokens from the same logits.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque

from prove_jax.rollout.jax_policy import turn_seed
from prove_jax.rollout.policy import Generation, GenerationRequest
from prove_jax.sampling.slots import Admission, SlotSampler

__all__ = ["ContinuousPolicy", "rollout_split"]

# With no row decoding, the scheduler waits for requests arriving together before admitting
# them as one batch: while the queue keeps growing, in steps of GATHER_STEP_S, up to GATHER_S.
GATHER_STEP_S, GATHER_S = 0.002, 0.05


class ContinuousPolicy:
    def __init__(self, sampler: SlotSampler):
        self.sampler = sampler
        self._waiting: deque[tuple[GenerationRequest, asyncio.Future]] = deque()
        self._running: dict[int, asyncio.Future] = {}  # row -> its request's future
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self.decode_calls = 0
        self.batch_sizes: list[int] = []  # active rows per decode call
        self.decode_rows = 0  # sum of batch_sizes, kept as it grows (stats() on every step)
        self.admit_seconds = self.decode_seconds = 0.0  # wall time in the sampler's calls

    def stats(self) -> dict[str, float]:
        """Running totals since this policy began: seconds in admissions (extends) and in
        decode calls, decode calls, and active rows summed over them."""
        return {"admit_s": self.admit_seconds, "decode_s": self.decode_seconds,
                "decode_calls": float(self.decode_calls),
                "decode_rows": float(self.decode_rows)}

    async def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
        return list(await asyncio.gather(*(self.generate_one(r) for r in requests)))

    async def generate_one(self, request: GenerationRequest) -> Generation:
        self._ensure_running()
        fut = asyncio.get_running_loop().create_future()
        entry = (request, fut)
        self._waiting.append(entry)
        self._wake.set()
        try:
            return await fut
        except asyncio.CancelledError:  # the episode timed out: stop generating for it
            if entry in self._waiting:
                self._waiting.remove(entry)
            raise

    def end_episode(self, task_id: str, seed: int) -> None:
        """The episode is over: its row is free for the next one."""
        self.sampler.free((task_id, seed))

    def release_cache(self) -> None:
        """Forget every row's KV (a rollout ended; the weights change next)."""
        self.sampler.release()

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _ensure_running(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._wake = asyncio.Event()
            self._running.clear()
            for row in self.sampler.active_rows:  # left over from a stopped loop
                self.sampler.cancel(row)
            self._task = loop.create_task(self._guarded(), name="continuous-policy")

    async def _guarded(self) -> None:
        """The scheduler; should it ever fail, every request fails with the cause instead of
        waiting forever (the next request starts a new scheduler)."""
        try:
            await self._schedule()
        except Exception as err:
            self._fail_running(err)
            while self._waiting:
                _, fut = self._waiting.popleft()
                if not fut.done():
                    fut.set_exception(RuntimeError(f"policy.generate failed: the scheduler "
                                                   f"stopped on {type(err).__name__}: {err}"))

    async def _schedule(self) -> None:
        while True:
            self._drop_cancelled()
            await self._admit()
            if not self._running:
                if not self._waiting:
                    self._wake.clear()
                    await self._wake.wait()
                continue
            self.batch_sizes.append(len(self._running))
            self.decode_rows += len(self._running)
            start = time.perf_counter()
            try:
                finished = await asyncio.to_thread(self.sampler.decode)
            except Exception as err:  # fail these requests, not the loop
                self._fail_running(err)
                continue
            finally:
                self.decode_seconds += time.perf_counter() - start
            self.decode_calls += 1
            for done in finished:
                fut = self._running.pop(done.row)
                if not fut.done():
                    fut.set_result(Generation(done.tokens, done.logprobs, done.finish_reason))

    async def _admit(self) -> None:
        """Every waiting request that gets a row, admitted as one batch (one extend per wave,
        see SlotSampler.admit_many). With no row decoding, requests arriving together (the
        episodes of the last decode call, back from their tools) are first let gather."""
        if self._waiting and not self._running:
            await self._gather()
        entries = [e for e in self._waiting if not e[1].done()]
        if not entries:
            self._waiting.clear()
            return
        batch = [Admission((r.task_id, r.seed), r.tokens, turn_seed(r.seed, len(r.tokens)),
                           r.max_new_tokens) for r, _ in entries]
        start = time.perf_counter()
        try:
            results = await asyncio.to_thread(self.sampler.admit_many, batch)
        except Exception as err:  # an extend failed: the batch's requests fail, not the loop
            for row in self.sampler.active_rows:
                if row not in self._running:  # admitted by an earlier wave of this batch
                    self.sampler.cancel(row)
            results = [err] * len(entries)
        self.admit_seconds += time.perf_counter() - start
        for entry, result in zip(entries, results, strict=True):
            if result is None:
                continue  # no free row: it waits for one
            if entry in self._waiting:
                self._waiting.remove(entry)
            fut = entry[1]
            if isinstance(result, Exception):
                if not fut.done():
                    fut.set_exception(RuntimeError(f"policy.generate failed: "
                                                   f"{type(result).__name__}: {result}"))
            elif fut.done():  # cancelled while it was admitted
                self.sampler.cancel(result)
            else:
                self._running[result] = fut

    async def _gather(self) -> None:
        """Yield while more requests keep arriving: up to GATHER_S, in GATHER_STEP_S steps."""
        waited, seen = 0.0, len(self._waiting)
        while waited < GATHER_S:
            await asyncio.sleep(GATHER_STEP_S)
            waited += GATHER_STEP_S
            if len(self._waiting) == seen:
                return
            seen = len(self._waiting)

    def _drop_cancelled(self) -> None:
        for row, fut in list(self._running.items()):
            if fut.done():  # cancelled by its episode's timeout
                self.sampler.cancel(row)
                del self._running[row]

    def _fail_running(self, err: Exception) -> None:
        for row, fut in self._running.items():
            self.sampler.cancel(row)
            if not fut.done():
                fut.set_exception(RuntimeError(f"policy.generate failed: "
                                               f"{type(err).__name__}: {err}"))
        self._running.clear()


def rollout_split(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """This process's sampler time over one step's rollouts (from two `stats()` readings):
    seconds admitting requests (their extends), seconds decoding, decode calls and the mean
    active rows per call. The rest of rollout_s went to tools, scoring and waiting."""
    d = {k: after[k] - before[k] for k in after}
    return {"rollout/admit_s": d["admit_s"], "rollout/decode_s": d["decode_s"],
            "rollout/decode_calls": d["decode_calls"],
            "rollout/rows_per_decode": d["decode_rows"] / max(d["decode_calls"], 1.0)}
