"""Takebacks: on one device the person takes back their last move (and the bots' replies
after it) at once; between devices a takeback is an offer (:mod:`.offers`) whose
acceptance takes back the offerer's last move and the reply after it. The moves go back
by the round's transition (:func:`adjacency.round.takeback.takeback`); a loss on time or a
resignation is final."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Color
from ..core.game import Termination
from ..round.player_kinds import takes_back
from ..round.takeback import FINAL, takeback
from ..serving.errors import NotNow
from .models import GameState
from .seats import Caller

if TYPE_CHECKING:
    from .session import GameSession


class Takebacks:
    """The takebacks of one game, held by its session as ``takebacks``; every method takes the
    session's lock."""

    def __init__(self, session: GameSession) -> None:
        self._session = session

    def undo(self, caller: Caller) -> GameState:
        """Take back the last person's move and any bot replies after it."""
        session = self._session
        with session.lock:
            if session.seats.invite:
                raise NotNow(
                    "between devices a takeback is an offer the other player answers: "
                    'POST /offers with {"kind": "takeback"}',
                    code="no_takebacks",
                )
            session.seats.require_member(caller, "take back moves")
            if session.game.termination == Termination.TIME_FORFEIT:
                raise NotNow("the game was lost on time; a takeback cannot give the time back")
            if session.game.termination == Termination.RESIGNATION:
                raise NotNow("the game was resigned; a resignation is final")
            if session.game.is_over:
                raise NotNow(
                    "the game is over; a takeback is for a game being played (Analyse or "
                    "a rematch goes on from here)",
                    code="game_over",
                )
            target = self.undo_target()
            if target is None:
                if session.mode == "bot-bot":
                    raise NotNow("undo is for games with a person; this is bot vs bot")
                raise NotNow("there is no move of yours to take back", code="nothing_to_undo")
            self.rewind(target)
            session.changed()
            return session.state()

    def undo_target(self) -> int | None:
        """How many moves remain after an undo (the last person's move taken back, with
        the bots' replies: :func:`~adjacency.round.player_kinds.takes_back`), or ``None`` if
        there is nothing to take back."""
        session = self._session
        if session.mode == "bot-bot" or session.game.termination in FINAL:
            return None  # a loss on time or a resignation is final: no takeback reopens it
        return takes_back(session.round_now(), session.kinds)

    def target(self, color: Color) -> int:
        """How many moves remain after taking back ``color``'s last move (and the reply
        after it); raise ``NotNow`` if there is none to take back."""
        session = self._session
        if session.game.is_over:
            raise NotNow("a takeback is for a game being played; this one is over")
        target = takes_back(session.round_now(), session.kinds, (color,))
        if target is None:
            raise NotNow("there is no move of yours to take back", code="nothing_to_undo")
        return target

    def take_back(self, color: Color) -> None:
        """Take back ``color``'s last move and the reply after it (lock held)."""
        self.rewind(self.target(color))

    def rewind(self, target: int) -> None:
        """Undo moves until ``target`` are left, with their evaluations; the bots' turn is
        cancelled and the clock of the side now to move restarts (lock held)."""
        session = self._session
        session.turns.cancel()
        now = session.now()
        after, _ = takeback(session.round_now(), target, now)
        session.adopt(after)
        del session.evals[target:]
        session.turn_started = now
        session.clock_rules.run()
