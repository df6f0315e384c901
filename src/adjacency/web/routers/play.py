"""Playing a game: moves, undo, hints, move now, bot-vs-bot playback."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import Manager
from ..models import ControlRequest, GameState, Hint, MoveRequest
from . import ERRORS

router = APIRouter(tags=["play"], responses=ERRORS)


@router.post("/api/games/{game_id}/moves", response_model=GameState)
def play(game_id: str, move: MoveRequest, manager: Manager) -> GameState:
    """Play a move for the person to move."""
    session = manager.get(game_id)
    state = session.play(move.square)
    session.touch()
    return state


@router.post("/api/games/{game_id}/undo", response_model=GameState)
def undo(game_id: str, manager: Manager) -> GameState:
    """Take back the last person's move and the bot replies after it (one ply between
    people)."""
    session = manager.get(game_id)
    state = session.undo()
    session.touch()
    return state


@router.post("/api/games/{game_id}/hint", response_model=Hint)
def hint(game_id: str, manager: Manager) -> Hint:
    """The strongest available bot's suggestion for the person to move (takes up to 3 s)."""
    return manager.hint(game_id)


@router.post("/api/games/{game_id}/move-now", response_model=GameState)
def move_now(game_id: str, manager: Manager) -> GameState:
    """Tell the thinking bot to play its best move so far."""
    return manager.get(game_id).move_now()


@router.post("/api/games/{game_id}/control", response_model=GameState)
def control(game_id: str, body: ControlRequest, manager: Manager) -> GameState:
    """Bot vs bot: pause, resume, step one move, and the delay between moves."""
    session = manager.get(game_id)
    session.touch()
    return session.control(body.action, body.delay)
