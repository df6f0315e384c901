"""Taking moves back in a game in play: back to a number of moves, the clock of the side
then to move restarted. A pure function of a :class:`~.state.Round` and the moment
``now``. A loss on time or a resignation is final: no takeback reopens it (the time
used cannot be given back, a resignation is a person's word)."""

from __future__ import annotations

from dataclasses import replace

from ..core.details import Detail
from ..core.game import Termination
from .finish import NotAllowed
from .moves import start_turn
from .state import Round, Step, TookBack

FINAL = (Termination.TIME_FORFEIT, Termination.RESIGNATION)
"""Ends no takeback undoes."""


def takeback(state: Round, keep: int, now: float) -> Step:
    """The game back to its first ``keep`` moves (an end by the rules, a forfeit by
    illegal move or an abandonment reopened), the side then to move's clock running
    from ``now`` if it ran before the first move undone. Raises :class:`NotAllowed`
    for a final end (:data:`FINAL`) or when ``keep`` takes nothing back."""
    if state.termination in FINAL:
        raise NotAllowed(f"the game ended by {state.termination.value}: that is final")
    if not 0 <= keep < len(state.moves):
        raise NotAllowed(f"there is no move to take back to {keep} moves")
    plies = len(state.moves) - keep
    back = replace(
        state,
        positions=state.positions[: keep + 1],
        moves=state.moves[:keep],
        result=None,
        termination=Termination.UNTERMINATED,
        detail=Detail(),
    )
    if back.clocks is not None:
        back = replace(back, clocks=back.clocks.stopped(now))
        if keep > 0:  # the first move of a game is untimed
            back = start_turn(back, now)
    return back, (TookBack(plies),)
