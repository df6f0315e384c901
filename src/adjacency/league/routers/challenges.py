"""People's challenges (:mod:`adjacency.league.play.challenges`): challenge a member, read a
challenge's state, accept or decline one. Each call carries the person's secret as the
bearer token; state-changing calls are rate-limited per address.

A challenge to a free bot or house bot starts the game at once (201); one to a busy
bot is queued (202, with its place in the queue and how long it may wait,
:mod:`adjacency.league.play.queue_wait`) and one to a person waits for their
answer (202, for :data:`~adjacency.league.play.challenges.ANSWER_TIME` seconds). The
challenger's page follows it with ``GET /api/league/challenges/{id}``, which also keeps
the challenger present, so a queued challenge is served only to someone still there.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as FastPath

from ...serving.details import detail_fields, english
from ...serving.errors import GameNotFound
from ..http.auth import require_person
from ..http.deps import hall_of, member_named, reader_of
from ..http.limits import check_rate, throttled
from ..league_file import Member
from ..models import ERRORS, ChallengeIn, ChallengeState
from ..play.challenges import Challenge
from ..play.queue_wait import wait_for
from . import PREFIX

router = APIRouter(prefix=PREFIX, tags=["league"], responses=ERRORS)

ChallengeId = Annotated[int, FastPath(ge=1, le=2**62, description="a challenge's number")]


def challenger_address(request: Request) -> str | None:
    """The address whose open challenges to one member are limited
    (:data:`~adjacency.league.play.challenges.PER_ADDRESS`): the client's, or ``None`` for a
    client of this machine when the limits spare it (``--exempt-loopback``)."""
    if not throttled(request):
        return None
    return request.client.host if request.client else "?"


def view(request: Request, challenge: Challenge, person: Member) -> dict[str, Any]:
    """A challenge as ``person`` (either side) sees it: the colour is theirs."""
    hall = hall_of(request)
    live = None if challenge.game is None else hall.games.live.get(challenge.game)
    position = hall.desk.challenges.position(challenge)
    wait = None
    if position is not None:
        bot = challenge.opponent.id
        playing = next((g for g in hall.games.live.values() if g.color_of(bot) is not None), None)
        if playing is not None:
            wait = wait_for(playing, position - 1, time.monotonic())
    return {
        "challenge": challenge.id,
        "status": challenge.status,
        "challenger": challenge.challenger.name,
        "opponent": challenge.opponent.name,
        "game": challenge.game,
        "color": None if live is None else live.color_of(person.id),
        "position": position,
        "wait": None if wait is None else wait.about,
        "wait_most": None if wait is None else wait.most,
        "expires_in": challenge.expires_in(time.monotonic()),
        "detail": english(challenge.detail),
        **detail_fields(challenge.detail),
    }


@router.post(
    "/challenge",
    status_code=201,
    response_model=ChallengeState,
    responses={202: {"model": ChallengeState, "description": "queued or waiting"}},
)
async def challenge(
    request: Request,
    response: Response,
    body: ChallengeIn,
    person: Annotated[Member, Depends(require_person)],
) -> dict[str, Any]:
    """Challenge a member: a free bot or house bot plays at once (201, ``started``); a
    busy one is ``queued`` (202, ``position``: 1 is next) and plays as soon as it is free,
    before the league pairs it again; a person present on the play page must accept
    (202, ``waiting``, ``expires_in`` seconds). The challenger plays X and O alternately,
    starting with X. A new challenge cancels the person's previous open one. 409 for a
    bot the person played less than ``COOLDOWN`` seconds ago, a member with
    ``PER_ADDRESS`` open challenges from the same address, or, for a person whose games
    are not rated yet, ``NEWCOMERS`` from such people on any address
    (:mod:`adjacency.league.play.challenges`)."""
    check_rate(request, "move", request.app.state.limits.requests_per_minute)
    hall = hall_of(request)
    hall.presence.see(person)
    opponent = member_named(request, body.opponent)
    established, _ = await hall.establishment.of(person, reader_of(request))
    made = hall.desk.challenge(person, opponent, challenger_address(request), established)
    if made.open:
        response.status_code = 202
    return view(request, made, person)


@router.get("/challenges/{challenge_id}", response_model=ChallengeState)
async def get_challenge(
    request: Request, challenge_id: ChallengeId, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """A challenge's state, for either side (asking keeps the person present, as ``/me``)."""
    hall = hall_of(request)
    hall.presence.see(person)
    hall.desk.challenges.expire(time.monotonic())
    found = hall.desk.challenges.by_id.get(challenge_id)
    if found is None or person.id not in (found.challenger.id, found.opponent.id):
        raise GameNotFound(f"no challenge {challenge_id} for {person.name}")
    return view(request, found, person)


@router.post("/challenges/{challenge_id}/accept", response_model=ChallengeState)
async def accept(
    request: Request, challenge_id: ChallengeId, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """The challenged person accepts: the game starts (``started``, ``game``), or the
    challenge is ``cancelled`` if the challenger left or plays another game."""
    check_rate(request, "move", request.app.state.limits.requests_per_minute)
    return view(request, hall_of(request).desk.answer(person, challenge_id, accept=True), person)


@router.post("/challenges/{challenge_id}/decline", response_model=ChallengeState)
async def decline(
    request: Request, challenge_id: ChallengeId, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """The challenged person declines (``declined``); the challenger's page says so."""
    check_rate(request, "move", request.app.state.limits.requests_per_minute)
    return view(request, hall_of(request).desk.answer(person, challenge_id, accept=False), person)
