"""Both servers' games in play, driven side by side on one mock clock (the differential
test of a game in play, tests/round/test_differential.py).

:class:`FakeTime` stands for the ``time`` module of the modules that read the clock (the
round's clock, the web session, the league's games and live games): its moments move
only when the test says so. The web's flag timer runs on :class:`FakeScheduler` (it
stands for the web's shared timer thread), fired by the test; the league's runs on its
event loop, whose ``time`` is the same fake clock, so a timer fires when the loop next
turns after the clock passed it. Nothing waits for the wall clock.

Each driver plays through the server's real game objects: the web's
:class:`~adjacency.web.session.GameSession` (a person's move, resign and abort by
:mod:`adjacency.web.commands`, as the HTTP routes call them; a bot's answer through the
turn worker's interface, :meth:`~adjacency.web.session.GameSession.bot_moved`, with no
worker thread: the server's
bot slots are all taken), and the league's :class:`~adjacency.league.play.hall.Hall` (moves,
resign and abort as its routers and the bots' socket call them) on a real store.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from adjacency.core import Color, Position
from adjacency.core.game import Game
from adjacency.league.league_file import LeagueStore, Member
from adjacency.league.play import games as league_games
from adjacency.league.play import live as league_live
from adjacency.league.play.hall import Hall
from adjacency.league.play.house import HousePlayers
from adjacency.league.play.live import LiveGame
from adjacency.league.rules import LeagueRules
from adjacency.league.settings import LeagueSettings
from adjacency.league.store.records import StoredGame
from adjacency.round import clock as round_clock
from adjacency.round.clock import Clock
from adjacency.serving.errors import WebError
from adjacency.web import commands
from adjacency.web import session as web_session
from adjacency.web.limits import BotSlots
from adjacency.web.players import Player
from adjacency.web.seats import Caller, Seats
from adjacency.web.session import GameSession
from adjacency.web.timers import Timer

NAMES: dict[Color, str] = {"x": "Ada", "o": "Bob"}
CALLER = Caller("differential-client-0001")
"""The web's caller; the session's seats are open (a game on one device)."""


class FakeTime:
    """The moments the servers read: ``monotonic`` and ``time`` move only by :meth:`advance`."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return 1_700_000_000.0 + self.now

    def advance(self, seconds: float) -> None:
        assert seconds >= 0
        self.now += seconds


class FakeScheduler:
    """The web's timer thread, on the mock clock: :meth:`fire_due` runs what is due."""

    def __init__(self, clock: FakeTime) -> None:
        self.clock = clock
        self.timers: list[Timer] = []

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(self.clock.now + max(0.0, delay), callback)
        self.timers.append(timer)
        return timer

    def fire_due(self) -> None:
        due = [t for t in self.timers if t.due <= self.clock.now]
        self.timers = [t for t in self.timers if t.due > self.clock.now]
        for timer in due:
            if not timer.cancelled:
                timer.callback()


@contextlib.contextmanager
def mock_clock() -> Iterator[tuple[FakeTime, FakeScheduler]]:
    """The mock clock put in place of the wall clock of every module that reads it."""
    clock = FakeTime()
    scheduler = FakeScheduler(clock)
    with pytest.MonkeyPatch.context() as patch:
        for module in (round_clock, web_session, league_games, league_live):
            patch.setattr(module, "time", clock)
        patch.setattr(web_session, "SCHEDULER", scheduler)  # the web's flag and abandonment
        yield clock, scheduler


Outcome = str
"""What a server answered an event: ``ok``, or the error's class name (``NotNow``...)
with its code for the servers' own errors."""


def outcome(action: Callable[[], object]) -> Outcome:
    """Run ``action``; ``ok`` or what it raised (``IllegalMoveError``, ``NotNow:code``)."""
    try:
        action()
    except WebError as exc:
        return f"{type(exc).__name__}:{exc.code}"
    except ValueError as exc:  # the core's refusals (IllegalMoveError, InvalidMove...)
        return type(exc).__name__
    return "ok"


@dataclass(frozen=True)
class Seen:
    """One server's game as the comparison reads it."""

    moves: tuple[str, ...]
    seconds: tuple[float | None, ...]
    fen: str
    over: bool
    result: str | None
    termination: str
    code: str | None
    params: dict[str, str]
    clock: dict[str, float] | None


def seen(game: Game, clock: Clock | None) -> Seen:
    detail = game.detail
    left = None
    if clock is not None:  # a flag leaves the league's stopped clock a little below 0
        left = {c: max(0.0, clock.left(c)) for c in ("x", "o")}  # type: ignore[arg-type]
    return Seen(
        tuple(m.square for m in game.moves),
        tuple(m.seconds for m in game.moves),
        game.position.fen(),
        game.is_over,
        game.result,
        game.termination.value,
        None if detail.code is None else detail.code.value,
        dict(detail.params),
        left,
    )


class WebGame:
    """The browser game: one session, people or bots on both sides."""

    def __init__(
        self,
        start: Position,
        kind: str,
        clock: tuple[float, float] | None,
        scheduler: FakeScheduler,
    ) -> None:
        players = {
            c: Player("bot", NAMES[c], spec="random")
            if kind == "bot"
            else Player("human", NAMES[c])
            for c in ("x", "o")
        }
        self.saved = 0
        self.scheduler = scheduler
        self.session = GameSession(
            "differential",
            Game(start, NAMES["x"], NAMES["o"]),
            players,  # type: ignore[arg-type]
            5.0,
            self._save,
            seats=Seats(),
            clock=None if clock is None else Clock(*clock),
            slots=BotSlots(0),  # every slot taken: no worker thread; the test answers
        )

    def _save(self, session: GameSession) -> None:
        self.saved += 1

    def play(self, square: str) -> Outcome:
        return outcome(lambda: commands.play(self.session, square, CALLER))

    def answer(self, square: str) -> Outcome:
        """The bot to move answers ``square`` (as the turn worker hands it over)."""

        def answer() -> None:
            with self.session.lock:
                color = self.session.game.position.turn
                self.session.bot_moved(color, square, 0.0, (None, None))

        return outcome(answer)

    def resign(self, color: Color) -> Outcome:
        return outcome(lambda: commands.resign(self.session, color, CALLER))

    def abort(self, color: Color) -> Outcome:
        return outcome(lambda: commands.abort(self.session, color, CALLER))

    def timers(self) -> None:
        self.scheduler.fire_due()

    def left(self, color: Color) -> float:
        clock = self.session.clock
        return float("inf") if clock is None else clock.left(color)

    def seen(self) -> Seen:
        with self.session.lock:
            return seen(self.session.game, self.session.clock)

    def close(self) -> None:
        self.session.close()


class LeagueGame:
    """The league's game: a hall (not started: no scheduler) on a new league's store."""

    def __init__(self, folder: Path, kind: str, clock: tuple[float, float]) -> None:
        self.store = LeagueStore(folder / "league.db")
        base, increment = clock
        settings = LeagueSettings(rows=6, cols=6, rounds=4, base=base, increment=increment)
        self.store.meta.create(settings, "adjl_a")
        self.store.meta.set_rules(LeagueRules(min_game=0.0))
        self.hall = Hall(self.store, HousePlayers())
        self.members: dict[Color, Member] = {
            c: self.store.members.add_member(NAMES[c], kind)[0] for c in ("x", "o")
        }
        self.live: LiveGame = self.hall.games.start_game(self.members["x"], self.members["o"], 0)

    def _mover(self) -> Member:
        return self.members[self.live.game.position.turn]

    def play(self, square: object) -> Outcome:
        mover = self._mover()
        return outcome(lambda: self.hall.actions.move(mover, self.live.id, square))

    answer = play

    def resign(self, color: Color) -> Outcome:
        return outcome(lambda: self.hall.actions.resign(self.members[color], self.live.id))

    def abort(self, color: Color) -> Outcome:
        return outcome(lambda: self.hall.actions.abort(self.members[color], self.live.id))

    async def timers(self) -> None:
        """Let the event loop turn, so the timers the clock passed fire."""
        for _ in range(3):
            await asyncio.sleep(0)

    def left(self, color: Color) -> float:
        return self.live.clock.left(color)

    def seen(self) -> Seen:
        return seen(self.live.game, self.live.clock)

    def stored(self) -> StoredGame | None:
        """The league's stored row of the game."""
        return self.store.games.game(self.live.id)

    async def close(self) -> None:
        await self.hall.stop()
        self.store.close()


def loop_on(clock: FakeTime, patch: pytest.MonkeyPatch) -> None:
    """Run the running event loop's timers on ``clock``."""
    patch.setattr(asyncio.get_running_loop(), "time", clock.monotonic)
