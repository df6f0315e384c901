"""One computation of an expensive answer at a time, shared by the requests that want it.

:class:`SharedAnswer` keeps the last answer with the key it was computed for (what it
depends on: games ended, who is online) and its time. A request gets it as it is when
the key is the same, or when it is younger than the cache's minimum age (a busy league
ends many games a second, so the key changes all the time); otherwise the answer is
computed again (at most one computation per :data:`SPACING` times its own duration,
so a slow one on a big league takes a bounded share of the machine). When the last
computation took longer than :data:`SLOW`, requests meanwhile get the previous answer
(a big league's standings are then a few seconds old rather than a few seconds away);
otherwise, and always for the first answer, requests that arrive meanwhile wait for
that one computation rather than starting their own or reading an answer not yet made
(B9: concurrent first requests answered 500). A computation that fails fails its
waiters and is retried by the next request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")

SPACING = 5.0
"""An answer is reused for at least this many times as long as it took to compute."""
SLOW = 0.2
"""Seconds beyond which a computation runs in the background while its previous
answer is served (a small league's answers are always current: tests and classes see
a game's end at the next poll)."""


class SharedAnswer(Generic[T]):
    """The cached answer of one expensive computation (event loop only, no locks)."""

    def __init__(self, age: float) -> None:
        self.age = age
        """Seconds an answer is reused at least, whatever its key."""
        self._answer: T | None = None
        self._key: Hashable = None
        self._at = float("-inf")
        self._took = 0.0
        self._running: asyncio.Future[T] | None = None

    @property
    def took(self) -> float:
        """Seconds the last finished computation took (0 before the first)."""
        return self._took

    async def get(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        """The answer for ``key``: the cached one if still good, else one computation's
        (started now, or already running for an earlier request)."""
        if self._answer is not None and (
            self._key == key or time.monotonic() - self._at < max(self.age, SPACING * self._took)
        ):
            return self._answer
        if self._running is None:
            self._running = asyncio.ensure_future(self._compute(key, compute))
            # a failure nobody waited for (served the previous answer) is not an error
            self._running.add_done_callback(lambda f: f.cancelled() or f.exception())
        if self._answer is not None and self._took > SLOW:
            return self._answer  # a slow one: the previous answer until it is done
        return await asyncio.shield(self._running)  # a request that leaves stops nothing

    async def prime(self, compute: Callable[[], Awaitable[T]]) -> None:
        """Compute a first answer before any request asks (a server's start), kept only
        as the previous answer: a request's own key is still computed for (a small
        league's viewer waits the few milliseconds and sees the current state), while a
        slow one's first viewer gets this answer as the next is computed."""
        primed = object()  # a key no request has
        await self.get(primed, compute)
        if self._key is primed:
            self._at = float("-inf")  # not current: only a stand-in for a slow computation

    async def _compute(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        try:
            began = time.monotonic()
            answer = await compute()
            self._answer, self._key, self._at = answer, key, time.monotonic()
            self._took = self._at - began
            return answer
        finally:
            self._running = None
