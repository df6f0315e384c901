"""The browser game's rules of when a game's clock runs, and its flag timer.

A person's clock runs while they are to move, from the first move of the game on (the
first mover's first move is untimed, so a game between devices does not tick before the
friend arrives); a bot's only while it thinks (not during the bot-vs-bot viewing delay,
a pause, or while it is stopped because no page watches its game): the round room's
rule for a side the server plays (:func:`adjacency.round.player_kinds.clock_runs`). A
side whose clock reaches zero loses on time then, whatever the score: the flag timer, one
entry of the shared scheduler (:mod:`.timers`) that the session arms for
:func:`flag_wait` seconds, takes the round's flag transition
(:func:`adjacency.round.moves.flag`). The clock's arithmetic is the round room's
(:mod:`adjacency.round.clock`). These are functions over values; the session
(:class:`~.session.GameSession`) starts and stops its clock by them and holds the timer.
"""

from __future__ import annotations

from ..core import Color
from ..core.details import Detail
from ..core.game import Game
from ..round.clock import Clock
from ..round.player_kinds import Kinds, clock_runs
from ..round.state import Round, snapshot
from ..serving.details import ended
from .models import ClockInfo
from .view import side

FLAG_MARGIN = 0.02
"""Seconds the flag timer waits past the clock's zero (a timer that woke early re-arms)."""


def running_side(game: Game, closed: bool, kinds: Kinds, thinking: Color | None) -> Color | None:
    """The side whose clock runs now (``None``: both stopped): the side to move, from the
    game's first move on, while the game is played and open, if its kind of player's
    clock runs (a bot's only while it computes: ``thinking`` is the side whose bot does)."""
    if game.is_over or closed or not game.moves:
        return None
    turn = game.position.turn
    return turn if clock_runs(kinds[turn], thinking == turn) else None


def flag_wait(clock: Clock, color: Color, now: float) -> float:
    """Seconds from ``now`` until ``color``'s flag may be checked: its time left and
    :data:`FLAG_MARGIN`."""
    return max(0.0, clock.left(color, now)) + FLAG_MARGIN


def out_of_time(named: str) -> Detail:
    """The detail of a loss on time of the side whose player is ``named`` (its flag
    fell, or its move came late)."""
    return ended("out-of-time", player=named)


def info(clock: Clock | None, now_round: Round, now: float) -> ClockInfo | None:
    """The clocks as the game's state shows them at ``now`` (``None``: no clock)."""
    if clock is None:
        return None
    shown = snapshot(now_round, now)
    assert shown.clock is not None
    return ClockInfo(
        base=clock.base,
        increment=clock.increment,
        x=round(shown.clock["x"], 3),
        o=round(shown.clock["o"], 3),
        running=None if shown.running is None else side(shown.running),
    )
