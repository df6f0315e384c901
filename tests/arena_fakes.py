"""Misbehaving and slow bots for the arena tests (never registered in the public registry).

Workers build bots through :func:`factory`, a module-level function, so it can be
handed to a process pool: the fake names below are built here, everything else
goes to :func:`adjacency.bots.make_bot`.
"""

from __future__ import annotations

import os
import random
import time

from adjacency.bots import Bot, BotFailure, Search, make_bot
from adjacency.core import Position
from adjacency.core.game import Termination


class SleepyBot(Bot):
    """Answers legally 0.2 s past its time budget.

    That is surely past the tests' margin of 0.1 s (a sleep never ends early) and well
    before the referee's interrupt a second later, so it loses on the clock it ran out of.
    """

    def _choose(self, position: Position, search: Search) -> str:
        time.sleep((search.limit.time or 0.0) + 0.2)
        return position.legal_moves()[0]


class OccupiedBot(Bot):
    """Answers a square that is already taken (its own a1... or whatever is occupied)."""

    def _choose(self, position: Position, search: Search) -> str:
        occupied = position.x | position.o
        return position.board.square_names(occupied)[0]


class DisconnectBot(Bot):
    """Fails like an external engine whose process died."""

    def _choose(self, position: Position, search: Search) -> str:
        raise BotFailure(Termination.DISCONNECTION, "fake engine exited with status 139")


class RaiserBot(Bot):
    """A bot with a bug: raises an ordinary exception."""

    def _choose(self, position: Position, search: Search) -> str:
        raise RuntimeError("division by zero in evaluation")


class HangingBot(Bot):
    """Never answers and ignores stop requests (an infinite loop in a bot)."""

    def _choose(self, position: Position, search: Search) -> str:
        while True:
            time.sleep(0.01)


class SuicideBot(Bot):
    """Kills its own process (as the OOM killer would kill a worker)."""

    def _choose(self, position: Position, search: Search) -> str:
        os._exit(9)


class SlowBot(Bot):
    """Plays a random legal move after sleeping 10 ms (for kill/resume timing)."""

    def __init__(self, seed: int | None) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def _choose(self, position: Position, search: Search) -> str:
        time.sleep(0.01)
        return self.rng.choice(position.legal_moves())


FAKES: dict[str, type[Bot]] = {
    "sleepy": SleepyBot,
    "occupied": OccupiedBot,
    "disconnect": DisconnectBot,
    "raiser": RaiserBot,
    "hang": HangingBot,
    "suicide": SuicideBot,
}


def factory(spec: str, seed: int | None) -> Bot:
    """Build a fake bot by name, or a registered bot from its spec."""
    bot: Bot
    if spec in FAKES:
        bot = FAKES[spec]()
    elif spec.startswith("slow"):
        bot = SlowBot(seed)
    else:
        return make_bot(spec, seed=seed)
    bot.spec = spec
    return bot


def square(value: int) -> int:
    """A trivial task for executor tests (module-level, so workers can receive it)."""
    return value * value


def worker_pid(_: int) -> int:
    """The pid of the worker that runs it (module-level, so workers can receive it: a
    test module's own function is not importable by a spawned worker)."""
    return os.getpid()
