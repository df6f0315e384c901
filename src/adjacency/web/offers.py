"""Offers between the two players of a game between devices: a takeback or a rematch that
the other player accepts or declines (or its maker withdraws); a move lapses a takeback
offer. Every method takes the game's lock; the takeback itself is
:class:`~.takebacks.Takebacks`', the rematch the manager's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import COLORS, Color
from ..serving.errors import Forbidden, NotNow
from .models import Offer, OfferKind
from .seats import Caller
from .view import side

if TYPE_CHECKING:
    from .session import GameSession


class Offers:
    """The offers of one game, held by its session as ``offers``; every method takes the
    session's lock."""

    def __init__(self, session: GameSession) -> None:
        self._session = session

    def side_of(self, caller: Caller) -> Color:
        """The one seat ``caller`` plays in this game between devices; raise ``NotNow``
        for a game on one device (no offers there: the actions are direct) and
        ``Forbidden`` for a watcher (call with the lock held)."""
        session = self._session
        if not session.seats.invite:
            raise NotNow(
                "offers are for games between devices; on one device ask directly "
                "(POST /rematch, /undo)",
                code="no_offers",
            )
        held = session.seats.seats_of(caller)
        if not held:
            raise Forbidden("only the game's players may make or answer offers")
        if len(held) > 1:
            raise NotNow("this browser holds both seats: there is nobody to make an offer to")
        return held[0]

    def make(self, kind: OfferKind, caller: Caller) -> tuple[Offer | None, Color]:
        """Record ``caller``'s offer for the other player and announce it. Returns the
        other side's matching offer (``None`` if there is none): two players who offer
        the same thing agree, and the caller accepts it instead.

        Rules (409 otherwise): a game between devices; a rematch once the game is over
        and both players have joined; a takeback while it is played, of a move of yours.
        """
        session = self._session
        with session.lock:
            color = self.side_of(caller)
            if kind == "rematch":
                if not session.game.is_over:
                    raise NotNow("a rematch is for a finished game; this one is still being played")
                if not all(session.seats.holders.get(c) for c in COLORS):
                    raise NotNow(
                        "both players must have joined before a rematch: the friend has not "
                        "opened their seat link yet"
                    )
                if session.rematch is not None:
                    raise NotNow("this game's rematch was made already", code="rematch_made")
            else:
                session.takebacks.target(color)
            pending = session.offer
            if pending is not None and pending.kind == kind and pending.by != color:
                return pending, color
            if pending is None or pending.kind != kind or pending.by != color:
                session.offer = Offer(kind=kind, by=side(color))
                session.changed()
            return None, color

    def answer(self, accept: bool, caller: Caller) -> Offer:
        """Take the waiting offer off the table: declined (or withdrawn by its maker)
        when ``accept`` is false; when true, only the other player may accept, and the
        caller carries it out (a takeback here; a rematch by the manager). Raise
        ``NotNow`` when no offer waits."""
        session = self._session
        with session.lock:
            color = self.side_of(caller)
            offer = session.offer
            if offer is None:
                raise NotNow("there is no offer to answer (it was withdrawn or lapsed)")
            if accept and offer.by == color:
                raise NotNow("an offer is accepted by the other player, not by its maker")
            if accept and offer.kind == "takeback":
                session.takebacks.take_back(offer.by)  # raises, the offer kept, if nothing is left
            session.offer = None
            session.changed()
            return offer

    def made_rematch(self, rematch_id: str) -> None:
        """Note the rematch made of this game (lock held) and announce it to its pages."""
        session = self._session
        session.rematch = rematch_id
        session.offer = None
        session.changed()
