"""Takebacks, as functions over values: on one device the person takes back their last
move (and the bots' replies after it) at once; between devices a takeback is an offer
(:mod:`.offers`) whose acceptance takes back the offerer's last move and the reply after
it. The moves go back by the round's transition
(:func:`adjacency.round.takeback.takeback`); a loss on time or a resignation is final.
The session (:class:`~.session.GameSession`) takes its lock, stops the bots and applies
the transition."""

from __future__ import annotations

from ..core import Color
from ..core.game import Game, Termination
from ..round.player_kinds import Kinds, takes_back
from ..round.state import Round
from ..round.takeback import FINAL
from ..serving.errors import NotNow
from .seats import Caller, Seats


def check_undo(game: Game, seats: Seats, caller: Caller) -> None:
    """Raise ``NotNow`` (or ``Forbidden``) unless ``caller`` may take back a move on one
    device now: between devices a takeback is an offer; a loss on time and a resignation
    are final; a finished game is over."""
    if seats.invite:
        raise NotNow(
            "between devices a takeback is an offer the other player answers: "
            'POST /offers with {"kind": "takeback"}',
            code="no_takebacks",
        )
    seats.require_member(caller, "take back moves")
    if game.termination == Termination.TIME_FORFEIT:
        raise NotNow("the game was lost on time; a takeback cannot give the time back")
    if game.termination == Termination.RESIGNATION:
        raise NotNow("the game was resigned; a resignation is final")
    if game.is_over:
        raise NotNow(
            "the game is over; a takeback is for a game being played (Analyse or "
            "a rematch goes on from here)",
            code="game_over",
        )


def undo_target(game: Game, now_round: Round, kinds: Kinds, mode: str) -> int | None:
    """How many moves remain after an undo (the last person's move taken back, with the
    bots' replies: :func:`~adjacency.round.player_kinds.takes_back`), or ``None`` if there
    is nothing to take back."""
    if mode == "bot-bot" or game.termination in FINAL:
        return None  # a loss on time or a resignation is final: no takeback reopens it
    return takes_back(now_round, kinds)


def refuse_empty_undo(mode: str) -> NotNow:
    """The refusal of an undo with nothing to take back."""
    if mode == "bot-bot":
        return NotNow("undo is for games with a person; this is bot vs bot")
    return NotNow("there is no move of yours to take back", code="nothing_to_undo")


def target(game: Game, now_round: Round, kinds: Kinds, color: Color) -> int:
    """How many moves remain after taking back ``color``'s last move (and the reply after
    it); raise ``NotNow`` if there is none to take back."""
    if game.is_over:
        raise NotNow("a takeback is for a game being played; this one is over")
    found = takes_back(now_round, kinds, (color,))
    if found is None:
        raise NotNow("there is no move of yours to take back", code="nothing_to_undo")
    return found
