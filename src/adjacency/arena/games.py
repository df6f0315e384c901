"""Games as work for an executor: play planned games in workers, collect their results.

:func:`play_task` plays one :class:`~adjacency.arena.schedule.GameTask` in
whatever process calls it and returns a :class:`GameResult`;
:func:`play_tasks` streams many of them through any
:class:`~adjacency.workers.Executor` and yields each result as its game ends.
The runner, the tuner and the store know games only through these.

Bots are built inside the worker by a *bot factory*, ``factory(spec, seed)``,
which defaults to :func:`adjacency.bots.make_bot`. Tests pass their own
module-level factory to play with misbehaving bots that are not registered.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import Bot, make_bot
from ..bots.referee import play_game
from ..core.game import Game
from ..core.record import game_to_text
from ..workers.executor import LOCAL_NODE, Executor, Placement
from .schedule import GameTask

BotFactory = Callable[[str, int | None], Bot]
"""Builds a bot from its spec and a seed, in the worker that plays the game."""

HARD_GRACE = 1.0
"""Seconds past ``time + margin`` after which a worker interrupts a bot that does not answer
(the referee's ``hard_grace``): the move is a loss on time and the run goes on."""


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
        """Every field, JSON-ready: the task as :meth:`GameTask.to_dict`, the move times as a
        list."""
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


def play_tasks(
    executor: Executor, tasks: Iterable[GameTask], factory: BotFactory = make_bot
) -> Iterator[GameResult]:
    """Play every task on ``executor``; yield each game's result as soon as it ends.

    ``factory`` (module-level, picklable) builds the bots in the workers. Closing
    the iterator early cancels the games still pending.
    """
    work = functools.partial(play_task, factory=factory)
    stream = executor.map_unordered(work, tasks)
    try:
        for _, result in stream:
            yield result
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
