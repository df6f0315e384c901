"""A rematch of a finished game: a new game of the same settings (board, rounds, first
mover) from their standard start, both clocks full again; who plays which side (the
colours swapped) is the server's business. A pure function of a :class:`~.state.Round`.
"""

from __future__ import annotations

from ..core import Position
from ..core.game import Game
from .clock import Clocks
from .finish import NotAllowed
from .state import Round


def rematch(state: Round) -> Round:
    """A new round of ``state``'s settings on fresh clocks of the same kind. Raises
    :class:`NotAllowed` while ``state`` is being played, and the core's
    ``InvalidSettingsError`` for a start whose rounds no standard start of its board
    has (an edited position)."""
    if not state.is_over:
        raise NotAllowed("a rematch is for a finished game; this one is still being played")
    start = state.start
    settings = Game(start)  # the game's rounds, counted from its board's standard start
    fresh = Position.start(start.rows, start.cols, settings.rounds, settings.first)
    clocks = state.clocks
    return Round.begin(
        fresh, None if clocks is None else Clocks.full(clocks.base, clocks.increment)
    )
