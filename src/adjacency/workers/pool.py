"""The local backend: a pool of worker processes on this machine (``--executor local``)."""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from ..system.lifetime import exit_with_parent
from .executor import Executor, WorkerError, windowed

T = TypeVar("T")
R = TypeVar("R")


def _worker_start(parent: int, kernel_signal: bool) -> None:
    """Initializer of every pool worker: end with the parent process (see
    :func:`adjacency.system.lifetime.exit_with_parent`), and leave SIGINT to the parent.

    A terminal's Ctrl-C reaches the whole process group, workers included. The parent
    answers it: it stops, and :meth:`PoolExecutor.close` ends the workers whose work it
    abandons. A worker that took it too would print its interrupted call's traceback,
    even from a compiled kernel's callback, where Python can only report it as ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent, kernel_signal=kernel_signal)


class PoolExecutor(Executor):
    """Runs work in ``concurrency`` worker processes on this machine (``spawn`` start method).

    At most ``2 * concurrency`` items are submitted at a time, so stopping
    early (SPRT, interrupt) wastes at most the work in flight.
    """

    def __init__(self, concurrency: int | None = None) -> None:
        self.concurrency = max(1, concurrency or os.cpu_count() or 1)
        self._pool: cf.ProcessPoolExecutor | None = None
        self._abandoned = False

    def _ensure_pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(
                max_workers=self.concurrency,
                mp_context=multiprocessing.get_context("spawn"),
                # Workers end when this process dies, even by SIGKILL. The kernel's signal
                # follows the thread that starts them, so it is used from the main thread only.
                initializer=_worker_start,
                initargs=(os.getpid(), threading.current_thread() is threading.main_thread()),
            )
        return self._pool

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        pool = self._ensure_pool()

        def wait(handles: list[cf.Future[R]]) -> list[cf.Future[R]]:
            done, _ = cf.wait(handles, return_when=cf.FIRST_COMPLETED)
            return list(done)

        def submit(item: T) -> cf.Future[R]:
            # A worker that died between two calls leaves the pool broken: it refuses new
            # work at once, so this too is a worker's death (a caller such as the league's
            # house then starts a fresh pool instead of failing every move after it).
            try:
                return pool.submit(fn, item)
            except BrokenProcessPool as exc:
                self._abandoned = True
                raise WorkerError(f"a worker process died before this work: {exc}") from exc

        def collect(future: cf.Future[R]) -> R:
            try:
                return future.result()
            except BrokenProcessPool as exc:
                self._abandoned = True
                raise WorkerError(f"a worker process died while playing: {exc}") from exc

        def cancel(handles: list[cf.Future[R]]) -> None:
            for future in handles:
                if not future.cancel():
                    self._abandoned = True

        return windowed(
            items,
            submit,
            wait,
            collect,
            cancel,
            lambda: 2 * self.concurrency,
        )

    def close(self) -> None:
        """Shut the workers down; work abandoned in flight is killed, not awaited."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        if self._abandoned:
            # ProcessPoolExecutor cannot cancel a running call: end its workers instead.
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(timeout=5)
        else:
            pool.shutdown(wait=True, cancel_futures=True)
        self._abandoned = False
