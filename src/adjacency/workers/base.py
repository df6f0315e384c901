"""Where work runs: a small executor interface and its backends.

An :class:`Executor` calls a function on many items in worker processes and
yields each ``(item, value)`` as soon as it finishes, in any order
(:meth:`Executor.map_unordered`). Games are one use of it:
:meth:`Executor.results` plays :class:`~adjacency.arena.schedule.GameTask`
values and yields :class:`GameResult` values; the split solver
(:mod:`adjacency.arena.split_solve`) and the tuner use the same seam. The
runner knows nothing else about an executor.

Backends: :class:`SerialExecutor` (the calling process, one item at a time:
tests and debugging), :class:`PoolExecutor` (worker processes on this machine;
the default, ``--executor local``) and
:class:`~adjacency.arena.ray_executor.RayExecutor` (one task per item on a Ray
cluster, ``--executor ray``). :func:`make_executor` builds one from the
command-line choice.

Bots are built inside the worker by a *bot factory*, ``factory(spec, seed)``,
which defaults to :func:`adjacency.bots.make_bot`. Tests pass their own
module-level factory to play with misbehaving bots that are not registered.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import multiprocessing
import os
import socket
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from ..bots import Bot, make_bot
from ..bots.referee import play_game
from ..core.errors import AdjacencyRuntimeError
from ..core.game import Game
from ..core.record import game_to_text
from ..system.lifetime import exit_with_parent
from .schedule import GameTask

BotFactory = Callable[[str, int | None], Bot]
T = TypeVar("T")
R = TypeVar("R")
H = TypeVar("H")

EXECUTORS = ("local", "ray")
"""The ``--executor`` choices: ``local`` is :class:`PoolExecutor`, ``ray`` is
:class:`~adjacency.arena.ray_executor.RayExecutor`."""

HARD_GRACE = 1.0
"""Seconds past ``time + margin`` after which a worker interrupts a bot that does not answer
(the referee's ``hard_grace``): the move is a loss on time and the run goes on."""

LOCAL_NODE = "local"
"""The node name of work done outside a Ray cluster."""


@dataclass(frozen=True)
class Placement:
    """Where a piece of work ran: the Ray node id (or ``"local"``), the host and the process."""

    node: str
    host: str
    pid: int

    @classmethod
    def here(cls) -> Placement:
        """The calling process's placement (its Ray node when it is a Ray worker)."""
        node = LOCAL_NODE
        ray = sys.modules.get("ray")
        if ray is not None and ray.is_initialized():
            node = ray.get_runtime_context().get_node_id()
        return cls(node, socket.gethostname(), os.getpid())

    def __str__(self) -> str:
        if self.node == LOCAL_NODE:
            return f"pid {self.pid}"
        return f"node {self.node[:12]} ({self.host}) pid {self.pid}"


@dataclass(frozen=True)
class GameResult:
    """A finished game: the task, the outcome, the full record in the text format, and
    where it was played (``node``, ``host``, ``pid``; ``worker`` says the same in words)."""

    task: GameTask
    result: str | None
    termination: str
    detail: str
    x_score: int
    o_score: int
    plies: int
    move_times: tuple[float, ...]
    record: str
    seconds: float
    worker: str
    node: str = LOCAL_NODE
    host: str = ""
    pid: int = 0

    @property
    def a_points(self) -> float:
        """Points of the pairing's first player ``a``: 1, 0.5 or 0."""
        if self.result == "draw" or self.result is None:
            return 0.5
        a_color = "x" if self.task.a_is_x else "o"
        return 1.0 if self.result == a_color else 0.0

    @property
    def margin(self) -> int:
        """Final margin from ``a``'s point of view (pieces of ``a`` minus ``b``)."""
        diff = self.x_score - self.o_score
        return diff if self.task.a_is_x else -diff

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["task"] = self.task.to_dict()
        data["move_times"] = list(self.move_times)
        return data


def play_task(task: GameTask, factory: BotFactory = make_bot) -> GameResult:
    """Play one planned game (in whatever process calls it) and return its result."""
    began = time.monotonic()
    x_bot = factory(task.x, 2 * task.seed)
    o_bot = factory(task.o, 2 * task.seed + 1)
    game = Game(task.start(), task.x, task.o, event=f"adjacency arena game {task.index}")
    game.tags["Round"] = str(task.pair + 1)
    try:
        play_game(x_bot, o_bot, game, task.limit(), margin=task.margin, hard_grace=HARD_GRACE)
    finally:
        x_bot.close()
        o_bot.close()
    x_score, o_score = game.position.score
    where = Placement.here()
    return GameResult(
        task=task,
        result=game.result,
        termination=game.termination.value,
        detail=game.termination_detail,
        x_score=x_score,
        o_score=o_score,
        plies=len(game.moves),
        move_times=tuple(m.seconds or 0.0 for m in game.moves),
        record=game_to_text(game),
        seconds=round(time.monotonic() - began, 3),
        worker=str(where),
        node=where.node,
        host=where.host,
        pid=where.pid,
    )


class WorkerError(AdjacencyRuntimeError):
    """A worker process died (killed, out of memory) or could not play a game."""


class ExecutorUnavailable(AdjacencyRuntimeError):
    """The chosen executor cannot start: its package is missing, or its cluster cannot be
    reached or runs another version of adjacency."""


class Executor(ABC):
    """Runs work in workers and yields results as they finish (any order).

    ``concurrency`` is how many items run at once (for a cluster: its CPUs when
    the executor started). ``factory`` builds bots for :meth:`results`.
    """

    concurrency: int = 1
    factory: BotFactory = staticmethod(make_bot)

    @abstractmethod
    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        """Call ``fn(item)`` in a worker for every item; yield ``(item, value)`` as each ends.

        ``fn`` and the items must be picklable (a module-level function, plain values).
        An exception raised by ``fn`` is re-raised here; a worker that dies raises
        :class:`WorkerError`. Closing the iterator early cancels what is pending.
        """

    def results(self, tasks: Iterable[GameTask]) -> Iterator[GameResult]:
        """Play every task; yield each game's result as soon as it ends."""
        work = functools.partial(play_task, factory=self.factory)
        for _, result in self.map_unordered(work, tasks):
            yield result

    def close(self) -> None:  # noqa: B027  (optional hook; nothing to release by default)
        """Release workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def windowed(
    items: Iterable[T],
    submit: Callable[[T], H],
    wait: Callable[[list[H]], list[H]],
    collect: Callable[[H], R],
    cancel: Callable[[list[H]], None],
    window: Callable[[], int],
) -> Iterator[tuple[T, R]]:
    """Stream ``items`` through a backend, keeping at most ``window()`` of them submitted.

    ``submit`` starts one item and returns its handle, ``wait`` blocks until some
    handles are done and returns those, ``collect`` returns a done handle's value
    (or raises), and ``cancel`` is given the handles still pending when the
    consumer stops early or an error escapes. A bounded window means an early stop
    (SPRT, Ctrl-C) wastes at most the work in flight.
    """
    pending: dict[H, T] = {}
    queue = iter(items)
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < window():
                item = next(queue, _END)
                if item is _END:
                    exhausted = True
                else:
                    pending[submit(item)] = item  # type: ignore[arg-type]
            if not pending:
                return
            for handle in wait(list(pending)):
                item = pending.pop(handle)
                yield item, collect(handle)
    finally:
        if pending:
            cancel(list(pending))


_END: Any = object()


class SerialExecutor(Executor):
    """Runs everything in the calling process, one item after another."""

    def __init__(self, factory: BotFactory = make_bot) -> None:
        self.factory = factory

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[tuple[T, R]]:
        for item in items:
            yield item, fn(item)


def _worker_start(parent: int, kernel_signal: bool) -> None:
    """Initializer of every pool worker: end with the parent process (see
    :func:`adjacency.system.lifetime.exit_with_parent`)."""
    exit_with_parent(parent, kernel_signal=kernel_signal)


class PoolExecutor(Executor):
    """Runs work in ``concurrency`` worker processes on this machine (``spawn`` start method).

    At most ``2 * concurrency`` items are submitted at a time, so stopping
    early (SPRT, interrupt) wastes at most the work in flight.
    """

    def __init__(self, concurrency: int | None = None, factory: BotFactory = make_bot) -> None:
        self.concurrency = max(1, concurrency or os.cpu_count() or 1)
        self.factory = factory
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
            lambda item: pool.submit(fn, item),
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


def make_executor(
    name: str,
    jobs: int | None = None,
    address: str | None = None,
    factory: BotFactory = make_bot,
    command: str = "",
    runtime_env: dict[str, Any] | None = None,
) -> Executor:
    """The executor chosen on the command line: ``local`` (a pool of ``jobs`` processes)
    or ``ray`` (a private Ray runtime with ``jobs`` CPUs, or the cluster at ``address``:
    ``auto`` or ``HOST:PORT``; ``runtime_env`` is Ray's, for a joined cluster).
    ``command`` names the command in error messages."""
    if name == "local":
        if address is not None:
            raise ExecutorUnavailable("--ray-address applies to --executor ray only")
        return PoolExecutor(jobs, factory)
    if name == "ray":
        from .ray_executor import RayExecutor

        executor: Executor = RayExecutor(
            address=address,
            concurrency=jobs,
            factory=factory,
            command=command,
            runtime_env=runtime_env,
        )
        return executor
    raise ExecutorUnavailable(f"executor {name!r} is not one of {', '.join(EXECUTORS)}")
