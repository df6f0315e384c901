"""Moves of a game in play: a move played, a bot's answer (legal or not), a flag falling,
and a turn's clock started. Pure functions of a :class:`~.state.Round` and the moment
``now``; each returns the new round and what happened (:data:`~.state.Step`).

The words of an end are the server's (each names a player its own way, in its own
catalogue): a transition that may end the game takes the :class:`~adjacency.core.details.Detail`
to record, or a function that makes it from the refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..core import Color, IllegalMoveError, other
from ..core.details import Detail
from ..core.errors import AdjacencyError
from ..core.game import Move, Termination
from .state import Ended, Moved, Round, Step

MAX_MOVE_CHARS = 8
"""The longest text that could name a square (``p16`` on the largest board is 3): a
longer answer is no square, whatever it says."""

Refusal = Callable[[AdjacencyError], Detail]
"""Words a server gives an illegal answer's refusal (the position's own error:
:class:`IllegalMoveError` for a square it refuses, or another of the core's errors)."""


def start_turn(state: Round, now: float) -> Round:
    """The side to move's clock runs from ``now`` (nothing for an ended game or one
    without clock)."""
    if state.clocks is None or state.is_over:
        return state
    return replace(state, clocks=state.clocks.started(state.turn, now))


def stop_clocks(state: Round, now: float) -> Round:
    """The running clock stops at ``now`` (a pause, or a bot no longer thinking)."""
    if state.clocks is None:
        return state
    return replace(state, clocks=state.clocks.stopped(now))


def play(state: Round, square: str, now: float, seconds: float, late: Detail) -> Step:
    """The side to move plays ``square`` at ``now``, having thought ``seconds``.

    Raises :class:`IllegalMoveError` (nothing changes) if the game is over or the move
    is not legal: a person's refused move. A legal move that comes after the mover's
    flag fell loses on time (``late`` the detail); otherwise it is played, the mover's
    clock charged and given its increment (the next turn's clock is not started:
    :func:`start_turn`, when the server asks)."""
    if state.is_over:
        raise IllegalMoveError(
            f"illegal move {square!r}: the game is over ({state.termination.value})"
        )
    color = state.turn
    position = state.position.play(square)  # raises before anything changes
    clocks = state.clocks
    if clocks is not None:
        clocks, in_time = clocks.moved(color, now)
        if not in_time:
            return _lose(replace(state, clocks=clocks), color, Termination.TIME_FORFEIT, late)
    name = position.board.name(position.board.square(square))
    move = Move(name, round(float(seconds), 3))
    after = replace(
        state,
        positions=(*state.positions, position),
        moves=(*state.moves, move),
        clocks=clocks,
    )
    happened: tuple[Moved | Ended, ...] = (Moved(color, name, seconds),)
    if position.is_over:
        after = after.ended(position.outcome(), Termination.NORMAL, Detail())
        happened += (Ended(after.result, after.termination, after.detail),)
    return after, happened


def answer(
    state: Round,
    reply: object,
    now: float,
    seconds: float,
    late: Detail,
    not_a_square: Callable[[object], Detail],
    refused: Refusal,
    longest: int | None = MAX_MOVE_CHARS,
) -> Step:
    """A bot's ``reply`` for the side to move at ``now``. After its flag fell it loses
    on time (``late``), whatever the reply; else its clock is charged (the increment
    added: the turn is over) and a legal move is played as :func:`play` plays it, while
    anything else loses by illegal move: not text, or text longer than ``longest``
    (``None``: no limit), as ``not_a_square(reply)``; refused by the position (any of
    the core's errors), as ``refused(error)``."""
    if state.is_over:
        return state, ()
    color = state.turn
    charged = state
    if state.clocks is not None:
        clocks, in_time = state.clocks.moved(color, now)
        charged = replace(state, clocks=clocks)
        if not in_time:
            return _lose(charged, color, Termination.TIME_FORFEIT, late)
    if not isinstance(reply, str) or (longest is not None and len(reply) > longest):
        return _lose(charged, color, Termination.ILLEGAL_MOVE, not_a_square(reply))
    try:
        state.position.play(reply)
    except AdjacencyError as exc:  # occupied, off the board, not a square name
        return _lose(charged, color, Termination.ILLEGAL_MOVE, refused(exc))
    return play(state, reply, now, seconds, late)


def flag(state: Round, now: float, detail: Detail) -> Step:
    """The flag timer at ``now``: if the running side's clock has run out it loses on
    time (``detail``); else nothing happens (the timer woke early, or the game moved
    on)."""
    clocks = state.clocks
    if clocks is None or state.is_over or clocks.running is None:
        return state, ()
    color = clocks.running
    if clocks.left(color, now) > 0:
        return state, ()
    flagged = clocks.flagged(color)
    return _lose(replace(state, clocks=flagged), color, Termination.TIME_FORFEIT, detail)


def _lose(state: Round, loser: Color, termination: Termination, detail: Detail) -> Step:
    after = state.ended(other(loser), termination, detail)
    return after, (Ended(after.result, termination, detail),)
