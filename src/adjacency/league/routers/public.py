"""The public JSON API: the league's settings, standings, members, pairs, games,
records and load figures. Anyone may read them; nothing here changes the league.

Every database read runs in a worker thread on the store's read connection
(:func:`~..deps.read`), never on the event loop, so a slow answer (the standings'
Bradley-Terry fit, a member's page, a pair's statistics) never stalls the games'
clocks or the bots' connections; every route is rate limited per address
(:attr:`~..limits.LeagueLimits.reads_per_minute`, 429 beyond).
"""

from __future__ import annotations

import resource
import statistics
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse

from ...core.record import game_from_text, game_to_text
from ...serving.errors import GameNotFound
from ..cache import SharedAnswer
from ..deps import hall_of, named, read
from ..limits import check_read_rate
from ..models import (
    ERRORS,
    GameState,
    GameSummary,
    LeagueInfo,
    MemberPage,
    PairStats,
    ServerStats,
    StandingRow,
)
from ..standings import RECENT_PAGE, game_summary, member_page, pair_stats, standings
from ..store import LeagueStore, Member
from . import PREFIX, PROTOCOL_VERSION, GameId

STANDINGS_AGE = 1.0
"""Seconds the standings are reused at least (the pages poll every 2 s)."""

router = APIRouter(
    prefix=PREFIX, tags=["league"], responses=ERRORS, dependencies=[Depends(check_read_rate)]
)


@router.get("", response_model=LeagueInfo)
async def league_info(request: Request) -> dict[str, Any]:
    """The league's settings and counts."""
    hall = hall_of(request)
    members = await read(request, lambda reader: len(reader.members()))
    return {
        "settings": hall.settings.public(),
        "members": members,
        "connected": len(hall.connections),
        "live": len(hall.live),
        "changed": hall.changed,
        "protocol": PROTOCOL_VERSION,
    }


@router.get("/standings", response_model=list[StandingRow])
async def get_standings(request: Request) -> list[dict[str, Any]]:
    """Every member, best Glicko-2 rating first, with the Bradley-Terry Elo interval.

    The fit runs in a worker thread (the games go on meanwhile) and is cached until a
    game ends or a member connects, leaves or joins, and at least
    :data:`STANDINGS_AGE` seconds (a busy league ends many games a second); requests
    that arrive while it runs wait for that one fit (:class:`~..cache.SharedAnswer`)."""
    hall = hall_of(request)
    online = hall.online()
    members = await read(request, lambda reader: reader.members())
    key = (hall.changed, frozenset(online), tuple((m.id, m.revoked) for m in members))
    cache: SharedAnswer[list[dict[str, Any]]] = request.app.state.standings
    return await cache.get(key, lambda: read(request, lambda r: standings(r, online)))


@router.get("/members/{name}", response_model=MemberPage)
async def get_member(
    request: Request,
    name: str,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=100)] = RECENT_PAGE,
) -> dict[str, Any]:
    """A member's page data: rating history, opponents, time use, failures and one page
    of its games, newest first: ``limit`` (1-100) from the ``offset``-th."""

    def page(reader: LeagueStore) -> tuple[Member, dict[str, Any]]:
        member = named(reader, name)
        return member, member_page(reader, member, recent=limit, offset=offset)

    member, data = await read(request, page)
    data["online"] = member.kind == "house" or member.id in hall_of(request).online()
    return data


@router.get("/pairs/{a}/{b}", response_model=PairStats)
async def get_pair(request: Request, a: str, b: str) -> dict[str, Any]:
    """The arena's statistics of ``a`` against ``b`` (trinomial and pentanomial)."""
    return await read(
        request, lambda reader: pair_stats(reader, named(reader, a), named(reader, b))
    )


@router.get("/live", response_model=list[GameState])
async def live_games(request: Request) -> list[dict[str, Any]]:
    """The games in play now."""
    hall = hall_of(request)
    return [hall.state(live) for live in sorted(hall.live.values(), key=lambda g: g.id)]


@router.get("/games", response_model=list[GameSummary])
async def list_games(
    request: Request,
    member: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[dict[str, Any]]:
    """Stored games, newest first (optionally one member's), at most ``limit`` (1-500)."""

    def rows(reader: LeagueStore) -> list[dict[str, Any]]:
        member_id = None if member is None else named(reader, member).id
        names = {m.id: m.name for m in reader.members()}
        return [game_summary(g, names) for g in reader.games(member_id=member_id, limit=limit)]

    return await read(request, rows)


@router.get("/games/{game_id}", response_model=GameState)
async def get_game(request: Request, game_id: GameId) -> dict[str, Any]:
    """A game's state: live (with clocks) or stored (with its result)."""
    hall = hall_of(request)
    live = hall.live.get(game_id)
    if live is not None:
        return hall.state(live)
    settings = hall.settings

    def stored_state(reader: LeagueStore) -> dict[str, Any]:
        stored = reader.game(game_id)
        if stored is None:
            raise GameNotFound(f"no game {game_id}")
        names = {m.id: m.name for m in reader.members()}
        data = game_summary(stored, names)
        game = game_from_text(stored.record) if stored.record else None
        position = game.position if game is not None else None
        data.update(
            {
                "rows": settings.rows,
                "cols": settings.cols,
                "fen": position.fen() if position else stored.opening,
                "turn": position.turn if position else None,
                "moves": [m.square for m in game.moves] if game else [],
                "clock": None,
                "start": stored.opening,
            }
        )
        return data

    return await read(request, stored_state)


@router.get(
    "/games/{game_id}/record",
    responses={
        200: {
            "description": "the record in the text format (a download)",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        },
    },
)
async def get_record(request: Request, game_id: GameId) -> PlainTextResponse:
    """The game's record in the text format (docs/records.md); a live game's so far."""
    live = hall_of(request).live.get(game_id)
    if live is not None:
        text = game_to_text(live.game)
    else:
        stored = await read(request, lambda reader: reader.game(game_id))
        if stored is None or stored.record is None:
            raise GameNotFound(f"no record of game {game_id}")
        text = stored.record
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="league-{game_id}.txt"'}
    )


@router.get("/stats", response_model=ServerStats)
async def server_stats(request: Request) -> dict[str, Any]:
    """Load figures: games per minute over the last 5 minutes, move round-trip times
    (server's request to the client's answer) p50/p95 in ms, memory (max RSS, MB)."""
    hall = hall_of(request)
    now = time.time()
    recent = [t for t in hall.finished if t > now - 300]
    trips = sorted(hall.round_trips)

    def quantile(q: float) -> float | None:
        if not trips:
            return None
        return round(1000 * trips[min(len(trips) - 1, int(q * len(trips)))], 2)

    return {
        "connected": len(hall.connections),
        "live": len(hall.live),
        "finished": len(hall.finished),
        "games_per_minute_5min": round(len(recent) / 5.0, 2),
        "round_trip_ms_p50": quantile(0.5),
        "round_trip_ms_p95": quantile(0.95),
        "round_trip_ms_mean": round(1000 * statistics.fmean(trips), 2) if trips else None,
        "moves": len(trips),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
