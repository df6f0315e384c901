"""A game voided by the teacher (``POST /api/league/admin/games/{id}/void``): it counts
nowhere from then on (:mod:`adjacency.league.store.void_rows`), its reason is kept as
the game's end, and with ``replay`` its pair plays it again.

The route needs the league's admin token (401 without, 403 with a member's); an unknown
game is 404, a game that cannot be voided or replayed 400 with the reason (nothing
changes), a malformed body 422. The action is logged as the teacher's, naming the game
and both teams.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from ...serving.errors import GameNotFound
from ...serving.logs import say
from ..http.auth import require_admin
from ..http.deps import hall_of
from ..models import ERRORS
from ..store.void_rows import MAX_REASON
from . import PREFIX, GameId

log = logging.getLogger("adjacency.league.teacher")
"""The teacher's own actions (kind ``teacher``, as :mod:`.teacher` logs them)."""

router = APIRouter(prefix=PREFIX, tags=["teacher"], responses=ERRORS)


class VoidBody(BaseModel):
    """Why the game is voided, and whether it is played again."""

    reason: str = Field(min_length=1, max_length=MAX_REASON, description="kept with the game")
    replay: bool = Field(default=False, description="its pair plays the game again")


class VoidDone(BaseModel):
    """A game voided."""

    game: int
    x: str
    o: str
    reason: str
    replay: bool


@router.post(
    "/admin/games/{game_id}/void", response_model=VoidDone, dependencies=[Depends(require_admin)]
)
async def void_game(request: Request, game_id: GameId, body: VoidBody) -> dict[str, Any]:
    """Void a finished game for ``reason``; with ``replay``, its pair plays it again."""
    hall = hall_of(request)
    store = hall.store
    if store.games.game(game_id) is None:
        raise GameNotFound(f"no game {game_id}")
    done = store.voids.void(game_id, body.reason, body.replay)
    names = store.members.names((done.x_id, done.o_id))
    x, o = names[done.x_id], names[done.o_id]
    hall.games.ratings.forget()
    hall.games.changed += 1
    if done.replay:
        hall.wake()
    code = "teacher-voided-replayed" if done.replay else "teacher-voided"
    say(log, logging.INFO, code, game=game_id, x=x, o=o, reason=done.reason)
    return {"game": game_id, "x": x, "o": o, "reason": done.reason, "replay": done.replay}
