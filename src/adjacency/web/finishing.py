"""How a person ends a game before its end: resigning (the other side wins, final) or
aborting before their side's first move (no result). The ends are the round's
transitions (:mod:`adjacency.round.finish`), worded in the browser game's details."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Color
from ..round import finish
from ..round.player_kinds import people
from ..serving.details import ended
from ..serving.errors import NotNow
from .models import GameState
from .seats import Caller

if TYPE_CHECKING:
    from .session import GameSession


class Finisher:
    """The resign and abort of one game, held by its session as ``finisher``; every method takes the
    session's lock."""

    def __init__(self, session: GameSession) -> None:
        self._session = session

    def _own_side(self, caller: Caller, side: Color | None, action: str) -> Color:
        """The person's side that ``caller`` acts for in :meth:`resign` and :meth:`abort`:
        ``side`` if given, else the one person's seat it holds (holding both, the side to
        move); raise ``NotNow`` if the game is over, ``Forbidden`` for a seat not held."""
        session = self._session
        game = session.game
        if game.is_over:
            raise NotNow(f"the game is over ({session.message()}); there is nothing to {action}")
        kinds = session.kinds
        sides = people(kinds)  # only a person chooses an end (the round room's rule)
        if not sides:
            raise NotNow(f"only a person may {action}; this is bot vs bot")
        chosen = side
        if chosen is None:
            held = [c for c in sides if session.seats.holds(caller, c)]
            chosen = game.position.turn if len(held) == 2 else (held or sides)[0]
        if not kinds[chosen].chooses_end:
            raise NotNow(f"{chosen.upper()} is a bot; only a person may {action}")
        session.seats.require(caller, chosen, action)
        return chosen

    def resign(self, side: Color | None, caller: Caller) -> GameState:
        """``caller`` gives the game up for its seat (``side``, see :meth:`_own_side`):
        the other side wins by resignation, recorded and final."""
        session = self._session
        with session.lock:
            color = self._own_side(caller, side, "resign")
            session.turns.cancel()
            detail = ended("resigned", player=session.named(color))
            session.apply(finish.resign(session.round_now(), color, detail, session.now()))
            return session.state()

    def abort(self, side: Color | None, caller: Caller) -> GameState:
        """``caller`` stops the game before its side's first move: no result (abandoned),
        nothing counted. Raise ``NotNow`` once that side has moved."""
        session = self._session
        with session.lock:
            color = self._own_side(caller, side, "abort")
            game = session.game
            if game.has_moved(color):
                raise NotNow(
                    f"{color.upper()} has moved already: a game can be aborted only before "
                    "the side's first move; resign instead"
                )
            session.turns.cancel()
            detail = ended("aborted", player=session.named(color))
            session.apply(finish.abort(session.round_now(), color, detail, session.now()))
            return session.state()
