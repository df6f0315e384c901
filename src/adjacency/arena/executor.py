"""Where games are played: a small executor interface and its local backends.

An :class:`Executor` takes :class:`~adjacency.arena.schedule.GameTask` values
and yields :class:`GameResult` values as games finish, in any order. The runner
knows nothing else about it, so a distributed backend (workers pulling tasks
over the network, as fishtest does) only has to implement :meth:`Executor.results`.

Backends here: :class:`PoolExecutor` plays games in worker processes (one game
per process at a time; default), :class:`SerialExecutor` plays them one by one
in the calling process (tests and debugging).

Bots are built inside the worker by a *bot factory*, ``factory(spec, seed)``,
which defaults to :func:`adjacency.bots.make_bot`. Tests pass their own
module-level factory to play with misbehaving bots that are not registered.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import multiprocessing
import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import Bot, make_bot
from ..bots.referee import play_game
from ..core.errors import AdjacencyError
from ..core.game import Game
from ..core.record import game_to_text
from .schedule import GameTask

BotFactory = Callable[[str, int | None], Bot]

HARD_GRACE = 1.0
"""Seconds past ``time + margin`` after which a worker interrupts a bot that does not answer
(the referee's ``hard_grace``): the move is a loss on time and the run goes on."""


@dataclass(frozen=True)
class GameResult:
    """A finished game: the task, the outcome and the full record in the text format."""

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
        worker=f"pid {os.getpid()}",
    )


class WorkerError(AdjacencyError):
    """A worker process died (killed, out of memory) or could not play a game."""


class Executor(ABC):
    """Plays tasks and yields results as they finish (any order)."""

    concurrency: int = 1

    @abstractmethod
    def results(self, tasks: Iterable[GameTask]) -> Iterator[GameResult]:
        """Yield a result for each task. Closing the iterator early cancels what is pending."""

    def close(self) -> None:  # noqa: B027  (optional hook; nothing to release by default)
        """Release workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SerialExecutor(Executor):
    """Plays every game in the calling process, one after another."""

    def __init__(self, factory: BotFactory = make_bot) -> None:
        self.factory = factory

    def results(self, tasks: Iterable[GameTask]) -> Iterator[GameResult]:
        for task in tasks:
            yield play_task(task, self.factory)


class PoolExecutor(Executor):
    """Plays games in ``concurrency`` worker processes (``spawn`` start method).

    At most ``2 * concurrency`` games are submitted at a time, so stopping
    early (SPRT, interrupt) wastes at most the games in flight.
    """

    def __init__(self, concurrency: int | None = None, factory: BotFactory = make_bot) -> None:
        self.concurrency = max(1, concurrency or os.cpu_count() or 1)
        self.factory = factory
        self._pool: cf.ProcessPoolExecutor | None = None
        self._abandoned = False

    def _ensure_pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(
                max_workers=self.concurrency, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    def results(self, tasks: Iterable[GameTask]) -> Iterator[GameResult]:
        pool = self._ensure_pool()
        work = functools.partial(play_task, factory=self.factory)
        pending: set[cf.Future[GameResult]] = set()
        queue = iter(tasks)
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < 2 * self.concurrency:
                    task = next(queue, None)
                    if task is None:
                        exhausted = True
                    else:
                        pending.add(pool.submit(work, task))
                if not pending:
                    return
                done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    try:
                        result = future.result()
                    except BrokenProcessPool as exc:
                        self._abandoned = True
                        raise WorkerError(f"a worker process died while playing: {exc}") from exc
                    yield result
        finally:
            for future in pending:
                if not future.cancel():
                    self._abandoned = True

    def close(self) -> None:
        """Shut the workers down; games abandoned in flight are killed, not awaited."""
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
