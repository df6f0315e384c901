"""The browser game's rules of when a game's clock runs, and its flag timer.

A person's clock runs while they are to move, from the first move of the game on (the
first mover's first move is untimed, so a game between devices does not tick before the
friend arrives); a bot's only while it thinks (not during the bot-vs-bot viewing delay,
a pause, or while it is stopped because no page watches its game): the round room's
rule for a side the server plays (:func:`adjacency.round.player_kinds.clock_runs`). A
side whose clock reaches zero loses on time then, whatever the score: the flag timer, one
entry of the shared scheduler (:mod:`.timers`), takes the round's flag transition
(:func:`adjacency.round.moves.flag`). The clock's arithmetic is the round room's
(:mod:`adjacency.round.clock`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Color
from ..core.details import Detail
from ..round import moves
from ..round.player_kinds import clock_runs
from ..round.state import snapshot
from ..serving.details import ended
from .models import ClockInfo
from .timers import SCHEDULER, Timer
from .view import side

if TYPE_CHECKING:
    from .session import GameSession

FLAG_MARGIN = 0.02
"""Seconds the flag timer waits past the clock's zero (a timer that woke early re-arms)."""


class ClockRules:
    """The clock rules of one game, held by its session as ``clock_rules``; every method
    is called with the session's lock held (the flag timer takes it)."""

    def __init__(self, session: GameSession) -> None:
        self._session = session
        self._flag_timer: Timer | None = None

    def run(self) -> None:
        """Start or stop the clock for the game's state now, and arm the flag timer."""
        session = self._session
        clock = session.clock
        if clock is None:
            return
        self.cancel()
        game = session.game
        if game.is_over or session.closed or not game.moves:
            clock.stop(session.now())
            return
        turn = game.position.turn
        thinking = session.turns.thinking
        computing = thinking is not None and thinking[0] == turn
        if not clock_runs(session.kinds[turn], computing):
            clock.stop(session.now())
            return
        if clock.running != turn:
            now = session.now()
            clock.stop(now)
            clock.start(turn, now)
        plies = len(game.moves)
        wait = max(0.0, clock.left(turn, session.now())) + FLAG_MARGIN
        self._flag_timer = SCHEDULER.call_later(wait, lambda: self._check_flag(plies))

    def cancel(self) -> None:
        """Disarm the flag timer (the game changed, or it is closed)."""
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None

    def _check_flag(self, plies: int) -> None:
        """The flag timer: if the side to move is still out of time, it loses on time."""
        session = self._session
        with session.lock:
            clock, game = session.clock, session.game
            if clock is None or game.is_over or len(game.moves) != plies or clock.running is None:
                return
            color = clock.running
            now = session.now()
            if clock.left(color, now) > 0:
                self.run()  # woke early (paused and resumed meanwhile): re-arm
                return
            session.turns.cancel()
            session.apply(moves.flag(session.round_now(), now, self.out_of_time(color)))

    def out_of_time(self, color: Color) -> Detail:
        """The detail of ``color``'s loss on time (its flag fell, or its move came late)."""
        return ended("out-of-time", player=self._session.named(color))

    def info(self) -> ClockInfo | None:
        """The clocks as the game's state shows them now (``None``: no clock)."""
        session = self._session
        clock = session.clock
        if clock is None:
            return None
        now = snapshot(session.round_now(), session.now())
        assert now.clock is not None
        return ClockInfo(
            base=clock.base,
            increment=clock.increment,
            x=round(now.clock["x"], 3),
            o=round(now.clock["o"], 3),
            running=None if now.running is None else side(now.running),
        )
