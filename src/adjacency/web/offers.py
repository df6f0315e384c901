"""Offers between the two players of a game between devices, as functions over values: a
takeback or a rematch that the other player accepts or declines (or its maker
withdraws); a move lapses a takeback offer. The session
(:class:`~.session.GameSession`) takes its lock, records the offer and announces it; the
takeback itself is :mod:`.takebacks`', the rematch the manager's."""

from __future__ import annotations

from ..core import COLORS, Color
from ..core.game import Game
from ..serving.errors import Forbidden, NotNow
from .models import Offer, OfferKind
from .seats import Caller, Seats
from .view import side


def side_of(seats: Seats, caller: Caller) -> Color:
    """The one seat ``caller`` plays in this game between devices; raise ``NotNow`` for a
    game on one device (no offers there: the actions are direct) and ``Forbidden`` for a
    watcher."""
    if not seats.invite:
        raise NotNow(
            "offers are for games between devices; on one device ask directly "
            "(POST /rematch, /undo)",
            code="no_offers",
        )
    held = seats.seats_of(caller)
    if not held:
        raise Forbidden("only the game's players may make or answer offers")
    if len(held) > 1:
        raise NotNow("this browser holds both seats: there is nobody to make an offer to")
    return held[0]


def check_rematch(game: Game, seats: Seats, rematch: str | None) -> None:
    """Raise ``NotNow`` unless a rematch may be offered: once the game is over, both
    players have joined, and no rematch was made of it yet."""
    if not game.is_over:
        raise NotNow("a rematch is for a finished game; this one is still being played")
    if not all(seats.holders.get(c) for c in COLORS):
        raise NotNow(
            "both players must have joined before a rematch: the friend has not "
            "opened their seat link yet"
        )
    if rematch is not None:
        raise NotNow("this game's rematch was made already", code="rematch_made")


def made(pending: Offer | None, kind: OfferKind, color: Color) -> tuple[Offer | None, Offer | None]:
    """``color`` offers ``kind`` while ``pending`` waits: the other side's matching offer
    (two players who offer the same thing agree: the caller accepts it instead), or
    ``None``; and the offer to record, or ``None`` when the table stays as it is."""
    if pending is not None and pending.kind == kind and pending.by != color:
        return pending, None
    if pending is None or pending.kind != kind or pending.by != color:
        return None, Offer(kind=kind, by=side(color))
    return None, None


def answered(offer: Offer | None, accept: bool, color: Color) -> Offer:
    """The waiting ``offer`` that ``color`` answers (``accept`` or not); raise ``NotNow``
    when none waits, or when its maker would accept it."""
    if offer is None:
        raise NotNow("there is no offer to answer (it was withdrawn or lapsed)")
    if accept and offer.by == color:
        raise NotNow("an offer is accepted by the other player, not by its maker")
    return offer
