"""How a person ends a game before its end: resigning (the other side wins, final) or
aborting before their side's first move (no result), as functions over values. The
ends are the round's transitions (:mod:`adjacency.round.finish`), worded in the browser
game's details; the session (:class:`~.session.GameSession`) takes its lock, stops the
bots and applies them."""

from __future__ import annotations

from ..core import Color
from ..core.game import Game
from ..round import finish
from ..round.player_kinds import Kinds, people
from ..round.state import Round, Step
from ..serving.details import ended
from ..serving.errors import NotNow
from .seats import Caller, Seats


def own_side(
    game: Game,
    kinds: Kinds,
    seats: Seats,
    caller: Caller,
    side: Color | None,
    action: str,
    message: str,
) -> Color:
    """The person's side that ``caller`` acts for in a resignation or an abort (``action``):
    ``side`` if given, else the one person's seat it holds (holding both, the side to
    move); raise ``NotNow`` if the game is over (``message``: its account) or no person
    plays the side, ``Forbidden`` for a seat not held."""
    if game.is_over:
        raise NotNow(f"the game is over ({message}); there is nothing to {action}")
    sides = people(kinds)  # only a person chooses an end (the round room's rule)
    if not sides:
        raise NotNow(f"only a person may {action}; this is bot vs bot")
    chosen = side
    if chosen is None:
        held = [c for c in sides if seats.holds(caller, c)]
        chosen = game.position.turn if len(held) == 2 else (held or sides)[0]
    if not kinds[chosen].chooses_end:
        raise NotNow(f"{chosen.upper()} is a bot; only a person may {action}")
    seats.require(caller, chosen, action)
    return chosen


def resign(now_round: Round, color: Color, named: str, now: float) -> Step:
    """``color`` (its player ``named``) gives the game up: the other side wins by
    resignation, recorded and final."""
    return finish.resign(now_round, color, ended("resigned", player=named), now)


def check_abortable(game: Game, color: Color) -> None:
    """Raise ``NotNow`` once ``color`` has moved: a game is aborted only before the
    side's first move."""
    if game.has_moved(color):
        raise NotNow(
            f"{color.upper()} has moved already: a game can be aborted only before "
            "the side's first move; resign instead"
        )


def abort(now_round: Round, color: Color, named: str, now: float) -> Step:
    """``color`` (its player ``named``) stops the game before its first move
    (:func:`check_abortable`): no result (abandoned), nothing counted."""
    return finish.abort(now_round, color, ended("aborted", player=named), now)
