"""People's part of the JSON API: join with a name, ask who you are (and who challenges
you), play a move; challenges are :mod:`.challenges`. Each call but joining carries the
person's secret as the bearer token (:func:`~adjacency.league.http.auth.require_person`);
state-changing calls are rate-limited per address.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...serving.addresses import address_key
from ...serving.errors import TooMany
from ..http.auth import require_person
from ..http.deps import hall_of, reader_of, store_of
from ..http.limits import check_rate
from ..league_file import Member
from ..models import (
    ERRORS,
    Joined,
    LeagueGameState,
    Me,
    MoveIn,
    NewPerson,
)
from ..play.hall import Hall
from . import PREFIX, GameId
from .public import get_game

router = APIRouter(prefix=PREFIX, tags=["league"], responses=ERRORS)

PEOPLE_PER_HOUR = 30.0
"""People one address may add per hour once its burst (the limits' ``burst``: a class
behind one school address joining together) is spent. Joining is free, so without it
one address could mint throwaway accounts by the thousand (docs/league.md, "What is
rated"); the join request's own rate (a quarter of the requests' rate) bounds bursts
of requests, this one bounds accounts."""


@router.post("/people", status_code=201, response_model=Joined)
async def join(request: Request, body: NewPerson) -> dict[str, Any]:
    """Join as a person: answers a secret the browser keeps (it is shown only once).
    The key of the joining address is kept with the person
    (:func:`~adjacency.serving.addresses.address_key`: people of one address are one
    voucher of another's establishment).
    429 when the address made too many requests, or added :data:`PEOPLE_PER_HOUR`
    people (after its burst) in the last hour."""
    check_rate(request, "join", request.app.state.limits.requests_per_minute / 4)
    try:
        check_rate(request, "people", PEOPLE_PER_HOUR / 60)
    except TooMany:
        burst = request.app.state.limits.burst
        raise TooMany(
            f"too many people joined from your address: at most {burst} at once, then "
            f"{PEOPLE_PER_HOUR:g} an hour; try again later"
        ) from None
    origin = address_key(request.client.host if request.client else None)
    member, secret = store_of(request).members.add_member(body.name, "person", origin=origin)
    return {"name": member.name, "kind": member.kind, "secret": secret}


ME_PER_MINUTE = 120.0
"""``GET /api/league/me`` requests per person (per secret, whatever the address) per
minute once the limits' burst is spent: the play page asks once a second, and a flood
of it from one person must not take the server's time from the games."""


@router.get("/me", response_model=Me)
async def me(
    request: Request, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """The person holding this secret, the games it plays now and the challenges waiting
    for its answer. Asking marks the person present
    (:data:`~adjacency.league.play.presence.PRESENCE`): another person may then challenge them.
    Rate limited per person (:data:`ME_PER_MINUTE`); whether the person is established
    is the hall's (:meth:`~adjacency.league.play.established.EstablishedCache.of`: kept a few
    seconds, else a few rows read in a worker thread, never their games)."""
    check_rate(request, "me", ME_PER_MINUTE)  # the person's own bucket (require_person)
    hall = hall_of(request)
    hall.presence.see(person)
    games = [g.id for g in hall.games.live.values() if g.color_of(person.id) is not None]
    rated, note = await hall.establishment.of(person, reader_of(request))
    now = time.monotonic()
    incoming = [
        {"challenge": c.id, "challenger": c.challenger.name, "expires_in": c.expires_in(now)}
        for c in hall.desk.challenges.incoming(person.id, now)
    ]
    return {
        "name": person.name,
        "kind": person.kind,
        "games": games,
        "rated": rated,
        "rating_note": note,
        "rating_code": note.code,
        "rating_params": note.params,
        "challenges": incoming,
    }


def _playing(request: Request) -> Hall:
    """The hall, for a person's move, resignation or abort: each counts against the
    person's one move rate (:func:`check_rate`, 429 past it) before it is taken."""
    check_rate(request, "move", request.app.state.limits.requests_per_minute)
    return hall_of(request)


@router.post("/games/{game_id}/move", response_model=LeagueGameState)
async def person_move(
    request: Request,
    game_id: GameId,
    body: MoveIn,
    person: Annotated[Member, Depends(require_person)],
) -> dict[str, Any]:
    """A person's move (its secret as the bearer token)."""
    hall = _playing(request)
    live = hall.actions.move(person, game_id, body.move)
    return (
        hall.games.state(live) if live.id in hall.games.live else await get_game(request, game_id)
    )


@router.post("/games/{game_id}/resign", response_model=LeagueGameState)
async def person_resign(
    request: Request,
    game_id: GameId,
    person: Annotated[Member, Depends(require_person)],
) -> dict[str, Any]:
    """A person gives the game up (its secret as the bearer token): the opponent wins by
    resignation, rated like any finished game. 409 once the game is over (404 then)."""
    _playing(request).actions.resign(person, game_id)
    return await get_game(request, game_id)


@router.post("/games/{game_id}/abort", response_model=LeagueGameState)
async def person_abort(
    request: Request,
    game_id: GameId,
    person: Annotated[Member, Depends(require_person)],
) -> dict[str, Any]:
    """A person stops the game before their first move: no result, unrated, not counted.
    409 once they have moved (resign then)."""
    _playing(request).actions.abort(person, game_id)
    return await get_game(request, game_id)
