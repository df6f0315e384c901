"""The cores a server lends to teams' programs: :class:`Slots`, and its default size
:func:`default_slots`.

A team's program is judged by its wall time on a core of its own
(:mod:`.move_clock`), so a server may let no more of them compute at once than it has
cores for them: each hosted move, each hosted bot's start, each build with its dry run
and its check holds one slot while it computes, and the others wait for one, their
clocks stopped. One :class:`Slots` is shared by the league's event loop (``async
with``) and its builder's threads (:meth:`Slots.hold`), first come first served, so a
queue of uploads cannot starve the games in play nor the games the uploads.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from types import TracebackType

SERVER_CORES = 1
"""Cores the league server keeps for itself (its pages, its event loop, the house bots,
the sandboxes' readers and monitor) where the machine has more than one."""


def default_slots(cores: int | None = None) -> int:
    """The slots of a machine of ``cores`` cores (default this one's): its cores less
    :data:`SERVER_CORES`, at least one."""
    count = cores if cores is not None else (os.cpu_count() or 1)
    return max(1, count - SERVER_CORES)


class _Waiter:
    """One wait for a slot: ``wake`` is called once the slot is handed to it."""

    def __init__(self, wake: Callable[[], None]) -> None:
        self.wake = wake
        self.granted = False


class Slots:
    """``count`` slots, taken in the order asked, from threads (:meth:`hold`) and from
    an event loop (``async with``); :attr:`held` now, :attr:`most` ever."""

    def __init__(self, count: int) -> None:
        self.count = max(1, count)
        self.held = 0
        self.most = 0
        self._lock = threading.Lock()
        self._waiters: collections.deque[_Waiter] = collections.deque()

    def _take_or_queue(self, waiter: _Waiter) -> bool:
        """Take a slot now (``True``) or queue ``waiter`` for the next one given back."""
        with self._lock:
            if self.held < self.count and not self._waiters:
                self.held += 1
                self.most = max(self.most, self.held)
                return True
            self._waiters.append(waiter)
            return False

    def release(self) -> None:
        """Give a slot back: to the first waiter, if any (it holds it from now)."""
        with self._lock:
            if self._waiters:
                waiter = self._waiters.popleft()
                waiter.granted = True
            else:
                self.held -= 1
                return
        waiter.wake()

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """Hold a slot for the block (blocks the thread until one is free)."""
        given = threading.Event()
        if not self._take_or_queue(_Waiter(given.set)):
            given.wait()
        try:
            yield
        finally:
            self.release()

    async def __aenter__(self) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def settle() -> None:
            if not future.done():
                future.set_result(None)

        def wake() -> None:
            loop.call_soon_threadsafe(settle)

        waiter = _Waiter(wake)
        if self._take_or_queue(waiter):
            return
        try:
            await future
        except asyncio.CancelledError:
            with self._lock:
                granted = waiter.granted
                if not granted:
                    self._waiters.remove(waiter)
            if granted:  # handed over as it was cancelled: give it on
                self.release()
            raise

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()
