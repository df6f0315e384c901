"""A rematch of a finished game: the same start, colours swapped by the server (who
plays which side is its business), both clocks full again. A pure function of a
:class:`~.state.Round`."""

from __future__ import annotations

from .clock import Clocks
from .finish import NotAllowed
from .state import Round


def rematch(state: Round) -> Round:
    """A new round from ``state``'s start on fresh clocks of the same kind. Raises
    :class:`NotAllowed` while ``state`` is being played."""
    if not state.is_over:
        raise NotAllowed("a rematch is for a finished game; this one is still being played")
    clocks = state.clocks
    fresh = None if clocks is None else Clocks.full(clocks.base, clocks.increment)
    return Round.begin(state.start, fresh)
