"""A person's commands on one browser game: the routes' and the manager's way in.

Each command takes the session's lock, checks the caller and the game by the concerns
(:mod:`.playing`, :mod:`.takebacks`, :mod:`.offers`, :mod:`.finishing`,
:mod:`.playback`: functions over values) and changes the game only through the
session's named methods (:meth:`~.session.GameSession.apply` for a transition of the
round, made now by its ``move_step``, ``takeback_step`` or ``end_step``; ``offer_made``,
``offer_answered``, ``set_playback``, ``hurry_bot`` and ``save`` for the web layer's
data), never by writing its fields, so a refused command changes nothing and every
change is saved and announced by the session. They answer what the page shows next (the
game's state, the viewer, the offer, the hint).
"""

from __future__ import annotations

from ..core import Color
from ..round.state import Moved
from ..serving.errors import Forbidden, NotNow
from . import finishing, offers, playback, playing, takebacks
from .hints import HintBots
from .models import GameState, Hint, Offer, OfferKind, Viewer
from .seats import Caller
from .session import GameSession
from .view import side


def play(session: GameSession, square: str, caller: Caller) -> GameState:
    """Play the person's move; raise ``NotNow``, ``Forbidden`` or ``IllegalMoveError``
    (:func:`.playing.mover`)."""
    with session.lock:
        game = session.game
        turn = playing.mover(
            game,
            session.players,
            session.seats,
            caller,
            session.bot_is_thinking(),
            session.message(),
        )
        step = session.move_step(square, turn)  # an illegal move raises: nothing changed
        moved = any(isinstance(h, Moved) for h in step[1])
        if moved:
            session.seats.claim(caller)  # the move was accepted: its token's seat is held now
        session.apply(step)
        if not moved:
            raise playing.time_ran_out(turn)  # the flag fell first: lost on time
        return session.state()


def undo(session: GameSession, caller: Caller) -> GameState:
    """Take back the last person's move and any bot replies after it, on one device."""
    with session.lock:
        takebacks.check_undo(session.game, session.seats, caller)
        target = session.undo_target()
        if target is None:
            raise takebacks.refuse_empty_undo(session.mode)
        session.apply(session.takeback_step(target))
        return session.state()


def make_offer(session: GameSession, kind: OfferKind, caller: Caller) -> tuple[Offer | None, Color]:
    """Record ``caller``'s offer for the other player and announce it. Returns the
    other side's matching offer (``None`` if there is none): two players who offer
    the same thing agree, and the caller accepts it instead.

    Rules (409 otherwise): a game between devices; a rematch once the game is over
    and both players have joined; a takeback while it is played, of a move of yours.
    """
    with session.lock:
        color = offers.side_of(session.seats, caller)
        if kind == "rematch":
            offers.check_rematch(session.game, session.seats, session.rematch)
        else:
            takebacks.target(session.game, session.round_now(), session.kinds, color)
        matching, recorded = offers.made(session.offer, kind, color)
        if recorded is not None:
            session.offer_made(recorded)
        return matching, color


def answer_offer(session: GameSession, accept: bool, caller: Caller) -> Offer:
    """Take the waiting offer off the table: declined (or withdrawn by its maker)
    when ``accept`` is false; when true, only the other player may accept, and the
    caller carries it out (a takeback here; a rematch by the manager). Raise
    ``NotNow`` when no offer waits."""
    with session.lock:
        color = offers.side_of(session.seats, caller)
        offer = offers.answered(session.offer, accept, color)
        step = None
        if accept and offer.kind == "takeback":  # raises, the offer kept, if nothing is left
            target = takebacks.target(session.game, session.round_now(), session.kinds, offer.by)
            step = session.takeback_step(target)
        session.offer_answered(step)
        return offer


def resign(session: GameSession, side: Color | None, caller: Caller) -> GameState:
    """``caller`` gives the game up for its seat (``side``, see
    :func:`.finishing.own_side`): the other side wins by resignation, recorded and
    final."""
    with session.lock:
        color = finishing.own_side(
            session.game, session.kinds, session.seats, caller, side, "resign", session.message()
        )
        session.apply(session.end_step(finishing.resign, color))
        return session.state()


def abort(session: GameSession, side: Color | None, caller: Caller) -> GameState:
    """``caller`` stops the game before its side's first move: no result
    (abandoned), nothing counted. Raise ``NotNow`` once that side has moved."""
    with session.lock:
        color = finishing.own_side(
            session.game, session.kinds, session.seats, caller, side, "abort", session.message()
        )
        finishing.check_abortable(session.game, color)
        session.apply(session.end_step(finishing.abort, color))
        return session.state()


def move_now(session: GameSession, caller: Caller) -> GameState:
    """Tell the thinking bot to answer with its best move so far."""
    with session.lock:
        session.seats.require_member(caller, "hurry a bot")
        if not session.hurry_bot():
            raise NotNow("no bot is thinking now")
        return session.state()


def control(
    session: GameSession, action: str | None, delay: float | None, caller: Caller
) -> GameState:
    """Bot-vs-bot playback: pause, resume, step one move, or set the delay between
    moves (:func:`.playback.controlled`)."""
    with session.lock:
        session.seats.require_member(caller, "control the playback")
        after = playback.controlled(session.mode, session.game, session.playback, action, delay)
        session.set_playback(after, stop=action == "pause")
        return session.state()


def hint(session: GameSession, bots: HintBots, caller: Caller) -> Hint:
    """The strongest available bot's move for the person to move, from ``bots``, the
    server's pool of reusable hint bots (blocks while it thinks, the lock not held)."""
    with session.lock:
        wanted = playback.hint_request(
            session.game, session.human_to_move(), session.seats, caller, session.time
        )
    return bots.suggest(wanted.spec, wanted.position, wanted.time)


def viewer(session: GameSession, caller: Caller) -> Viewer:
    """What ``caller`` may do here (claiming a seat whose token it presents)."""
    with session.lock:
        if session.seats.claim(caller):
            session.save()  # a seat was claimed: keep it across restarts
        return Viewer(
            seats=[side(c) for c in session.seats.seats_of(caller)],
            owner=session.seats.open or caller.client == session.seats.owner,
            invite=session.seats.invite,
        )


def claim(session: GameSession, caller: Caller) -> Viewer:
    """Claim the seat whose token ``caller`` presents; raise :class:`Forbidden` (403)
    if the token opens no seat of this game (whatever seats the caller holds)."""
    with session.lock:
        if session.seats.open or session.seats.token_seat(caller.token) is None:
            raise Forbidden(
                "this seat link is not valid for this game (no seat has that token)",
                code="bad_seat_link",
            )
        return viewer(session, caller)
