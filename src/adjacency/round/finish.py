"""Ends of a game in play that are no move: a forfeit (a bot's failure, a crash), a
resignation, an abort before the side's first move, and an abandonment (no result).
Pure functions of a :class:`~.state.Round` and the moment ``now``: the running clock
stops there (the side to move is charged what it thought), and the end's detail is the
server's words."""

from __future__ import annotations

from ..core import Color, other
from ..core.details import Detail
from ..core.errors import AdjacencyError
from ..core.game import Termination
from .moves import stop_clocks
from .state import Ended, Round, Step


class NotAllowed(AdjacencyError):
    """A transition the game's state does not allow (the servers answer it 409 in their
    own words, having checked first)."""


FORFEITS = frozenset(
    {
        Termination.TIME_FORFEIT,
        Termination.ILLEGAL_MOVE,
        Termination.DISCONNECTION,
        Termination.RESIGNATION,
    }
)
"""The terminations that are one side's loss."""


def forfeit(
    state: Round, loser: Color, termination: Termination, detail: Detail, now: float
) -> Step:
    """``loser`` loses the game with ``termination`` (one of :data:`FORFEITS`). Raises
    :class:`NotAllowed` for an ended game or another termination."""
    if termination not in FORFEITS:
        raise NotAllowed(f"{termination.value!r} is not a forfeit")
    _in_play(state)
    after = stop_clocks(state, now).ended(other(loser), termination, detail)
    return after, (Ended(after.result, termination, detail),)


def resign(state: Round, color: Color, detail: Detail, now: float) -> Step:
    """``color`` gives the game up: the other side wins by resignation."""
    return forfeit(state, color, Termination.RESIGNATION, detail, now)


def abort(state: Round, color: Color, detail: Detail, now: float) -> Step:
    """``color`` stops the game before its first move: no result. Raises
    :class:`NotAllowed` once ``color`` has moved (resign instead), or if it is over."""
    if state.has_moved(color):
        raise NotAllowed(f"{color.upper()} has moved already: resign instead")
    return abandon(state, detail, now)


def abandon(state: Round, detail: Detail, now: float) -> Step:
    """The game stops with no result (a server stopping, a bot that could not start).
    Raises :class:`NotAllowed` if it is over."""
    _in_play(state)
    after = stop_clocks(state, now).ended(None, Termination.ABANDONED, detail)
    return after, (Ended(None, Termination.ABANDONED, detail),)


def _in_play(state: Round) -> None:
    if state.is_over:
        raise NotAllowed(f"the game is over ({state.termination.value})")
