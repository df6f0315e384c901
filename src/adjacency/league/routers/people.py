"""People's part of the JSON API: join with a name, ask who you are, challenge a free
member, play a move. Each call but joining carries the person's secret as the bearer
token (:func:`~adjacency.league.auth.require_person`); state-changing calls are
rate-limited per address.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...serving.errors import NotNow
from ..auth import require_person
from ..deps import hall_of, member_named, store_of
from ..limits import check_rate
from ..models import (
    ERRORS,
    Challenge,
    GameState,
    Joined,
    Me,
    MoveIn,
    NewPerson,
    Started,
)
from ..store import Member
from . import PREFIX, GameId
from .public import get_game

router = APIRouter(prefix=PREFIX, tags=["league"], responses=ERRORS)


@router.post("/people", status_code=201, response_model=Joined)
async def join(request: Request, body: NewPerson) -> dict[str, Any]:
    """Join as a person: answers a secret the browser keeps (it is shown only once)."""
    check_rate(request, "join", request.app.state.limits.requests_per_minute / 4)
    member, secret = store_of(request).add_member(body.name, "person")
    return {"name": member.name, "kind": member.kind, "secret": secret}


@router.get("/me", response_model=Me)
async def me(
    request: Request, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """The person holding this secret and the games it plays now. Asking marks the
    person present (:data:`~adjacency.league.hall.PRESENCE`): another person may then
    challenge them, and the game appears here."""
    hall = hall_of(request)
    hall.see(person)
    games = [g.id for g in hall.live.values() if g.color_of(person.id) is not None]
    rated, note = store_of(request).established(person.id, hall.rules)
    return {
        "name": person.name,
        "kind": person.kind,
        "games": games,
        "rated": rated,
        "rating_note": note,
    }


@router.post("/challenge", status_code=201, response_model=Started)
async def challenge(
    request: Request, body: Challenge, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """Start a rated game against a free member: a connected bot, a house bot, or a
    person whose play page is open (present) and who is not playing; the challenger
    plays X or O alternately, starting with X."""
    check_rate(request, "move", request.app.state.limits.requests_per_minute)
    hall = hall_of(request)
    opponent = member_named(request, body.opponent)
    if opponent.id == person.id:
        raise NotNow("you cannot play yourself: choose another member")
    if not hall.is_free(person):
        raise NotNow("you are playing a game already")
    absent = opponent.kind == "person" and opponent.id not in hall.present()
    if absent or not hall.is_free(opponent):
        raise NotNow(f"{opponent.name} is not free now: try another member or wait")
    played = sum(1 for g in store_of(request).games(member_id=person.id) if g.status != "aborted")
    x, o = (person, opponent) if played % 2 == 0 else (opponent, person)
    opening = store_of(request).pair_count() % len(hall.settings.openings)
    live = hall.start_game(x, o, opening)
    return {"game": live.id, "color": live.color_of(person.id)}


@router.post("/games/{game_id}/move", response_model=GameState)
async def person_move(
    request: Request,
    game_id: GameId,
    body: MoveIn,
    person: Annotated[Member, Depends(require_person)],
) -> dict[str, Any]:
    """A person's move (its secret as the bearer token)."""
    check_rate(request, "move", request.app.state.limits.requests_per_minute)
    hall = hall_of(request)
    live = hall.move(person, game_id, body.move)
    return hall.state(live) if live.id in hall.live else await get_game(request, game_id)
