"""Playing a game: moves, undo, resign, abort, hints, move now, bot-vs-bot playback."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request

from .. import commands
from ..deps import Client, Manager, limited_holders, rate_limited
from ..manager import GameManager
from ..models import (
    AnswerRequest,
    ControlRequest,
    GameState,
    Hint,
    MoveRequest,
    OfferRequest,
    SideRequest,
    Viewer,
)
from ..session import GameSession
from . import ERRORS

router = APIRouter(
    tags=["play"],
    responses={**ERRORS, 403: {**ERRORS[400], "description": "a seat this browser does not hold"}},
    dependencies=[rate_limited("move")],
)


def _touching(
    manager: GameManager, game_id: str, command: Callable[[GameSession], GameState]
) -> GameState:
    """The state that ``command`` answers for the game, which is then noted as in use
    (:meth:`~adjacency.web.session.GameSession.touch`: a bot stopped while nobody
    watched thinks again)."""
    session = manager.get(game_id)
    state = command(session)
    session.touch()
    return state


@router.get("/api/games/{game_id}/me", response_model=Viewer)
def me(game_id: str, manager: Manager, caller: Client) -> Viewer:
    """The seats this browser holds in the game (none: it watches)."""
    return commands.viewer(manager.get(game_id), caller)


@router.post("/api/games/{game_id}/seats", response_model=Viewer)
def claim(game_id: str, manager: Manager, caller: Client) -> Viewer:
    """Claim a seat with its token (the ``X-Seat-Token`` header, from a seat link): from
    now on this browser plays it, after a reload too."""
    return commands.claim(manager.get(game_id), caller)


@router.post("/api/games/{game_id}/moves", response_model=GameState)
def play(game_id: str, move: MoveRequest, manager: Manager, caller: Client) -> GameState:
    """Play a move for the person to move (this browser must hold that seat)."""
    return _touching(manager, game_id, lambda session: commands.play(session, move.square, caller))


@router.post("/api/games/{game_id}/undo", response_model=GameState)
def undo(game_id: str, manager: Manager, caller: Client) -> GameState:
    """Take back the last person's move and the bot replies after it (one ply between
    people)."""
    return _touching(manager, game_id, lambda session: commands.undo(session, caller))


@router.post("/api/games/{game_id}/resign", response_model=GameState)
def resign(
    game_id: str, manager: Manager, caller: Client, body: SideRequest | None = None
) -> GameState:
    """Resign for your seat (``side`` picks one when this browser holds both): the other
    side wins, the record says ``[Termination "resignation"]``. Final: no takeback."""
    side = None if body is None else body.side
    return _touching(manager, game_id, lambda session: commands.resign(session, side, caller))


@router.post("/api/games/{game_id}/abort", response_model=GameState)
def abort(
    game_id: str, manager: Manager, caller: Client, body: SideRequest | None = None
) -> GameState:
    """Abort before your side's first move: the game ends without a result (abandoned)
    and counts for nothing; 409 once your side has moved (resign instead)."""
    side = None if body is None else body.side
    return _touching(manager, game_id, lambda session: commands.abort(session, side, caller))


@router.post("/api/games/{game_id}/hint", response_model=Hint)
def hint(game_id: str, request: Request, manager: Manager, caller: Client) -> Hint:
    """The strongest available bot's suggestion for the person to move (takes up to 3 s;
    charged to the caller's CPU budget, 429 once that is used)."""
    return manager.hint(game_id, caller, limited_holders(request))


@router.post("/api/games/{game_id}/move-now", response_model=GameState)
def move_now(game_id: str, manager: Manager, caller: Client) -> GameState:
    """Tell the thinking bot to play its best move so far."""
    return commands.move_now(manager.get(game_id), caller)


@router.post("/api/games/{game_id}/control", response_model=GameState)
def control(game_id: str, body: ControlRequest, manager: Manager, caller: Client) -> GameState:
    """Bot vs bot: pause, resume, step one move, and the delay between moves."""
    session = manager.get(game_id)
    session.touch()
    return commands.control(session, body.action, body.delay, caller)


@router.post(
    "/api/games/{game_id}/offers",
    response_model=GameState,
    dependencies=[rate_limited("create")],  # an offer met by the same offer makes a game
)
def offer(game_id: str, body: OfferRequest, manager: Manager, caller: Client) -> GameState:
    """Offer the other player of a game between devices a rematch (a finished game) or a
    takeback (your last move and any reply after it): the offer shows on both pages
    (``offer`` in the state) until answered, withdrawn or a move is played. When the
    other player had offered the same, it is accepted at once. Answers the state of the
    game to show: the rematch once made (``rematch`` in the old game's state names it,
    so both pages switch to it)."""
    session = manager.offer(game_id, body.kind, caller)
    session.touch()
    return session.state()


@router.post(
    "/api/games/{game_id}/offers/answer",
    response_model=GameState,
    dependencies=[rate_limited("create")],  # an accepted rematch makes a game
)
def answer(game_id: str, body: AnswerRequest, manager: Manager, caller: Client) -> GameState:
    """Accept or decline the other player's offer (the maker may withdraw it with
    ``accept: false``). An accepted takeback takes the moves back; an accepted rematch
    makes the new game (colours swapped) and answers its state."""
    session = manager.answer(game_id, body.accept, caller)
    session.touch()
    return session.state()
