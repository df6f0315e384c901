"""The public JSON API: the league's settings, standings, members, pairs, games,
records and load figures. Anyone may read them; nothing here changes the league.

Every database read runs in a worker thread on the store's read connection
(:func:`~..http.deps.read`), never on the event loop, so a slow answer (the standings'
Bradley-Terry fit, a member's page, a pair's statistics) never stalls the games'
clocks or the bots' connections; every route is rate limited per address
(:attr:`~..http.limits.LeagueLimits.reads_per_minute`, 429 beyond).
"""

from __future__ import annotations

import collections
import resource
import statistics
import time
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import PlainTextResponse

from ...core.game import Game
from ...core.record import game_from_text, game_to_text
from ...ratings.glicko import Glicko
from ...serving.details import public_record
from ...serving.errors import GameNotFound
from ..http.auth import details_for
from ..http.cache import SharedAnswer
from ..http.deps import hall_of, named, read, reader_of
from ..http.limits import check_read_rate
from ..league_file import LeagueStore, Member
from ..models import (
    ERRORS,
    GamePositions,
    GameSummary,
    Health,
    LeagueGameState,
    LeagueInfo,
    MemberPage,
    PairStats,
    ServerStats,
    StandingRow,
)
from ..settings import parse_clock
from ..standings import (
    RECENT_PAGE,
    game_summary,
    member_page,
    pair_stats,
    standings_off_loop,
)
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
    members = await read(request, lambda reader: reader.members.member_count())
    return {
        "settings": hall.games.settings.public(),
        "members": members,
        "connected": len(hall.presence.connections),
        "live": len(hall.games.live),
        "changed": hall.games.changed,
        "protocol": PROTOCOL_VERSION,
    }


PAGE = 200
"""Standings rows a page has unless ``?limit=`` says otherwise."""
MAX_PAGE = 500
"""The most standings rows one page may have (``?limit=``)."""


@router.get("/standings", response_model=list[StandingRow])
async def get_standings(
    request: Request,
    response: Response,
    page: Annotated[int, Query(ge=1, le=1_000_000, description="the page, from 1")] = 1,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="rows per page")] = PAGE,
    online: Annotated[bool, Query(description="only members online now")] = False,
) -> list[dict[str, Any]]:
    """The leaderboard, one page of it: every bot and house bot, and the people who have
    played or are online now, established members first, each part by best Glicko-2
    rating, with the Bradley-Terry Elo interval; ``online=true`` keeps only the members
    that can be challenged now (the play page's list). The whole list's length is in
    the ``X-Total-Count`` header, the next page's address in ``Link`` (``rel="next"``).

    The fit runs in a worker thread, or for a big league in a worker process
    (:func:`~.standings.standings_off_loop`; the games go on meanwhile), over the
    aggregate tables (never every stored game) and is cached until a game ends or a member
    connects, leaves, joins or is revoked, and at least :data:`STANDINGS_AGE` seconds
    (a busy league ends many games a second); requests that arrive while it runs wait
    for that one fit (:class:`~..http.cache.SharedAnswer`)."""
    hall = hall_of(request)
    present = hall.presence.online()
    stamp = await _members_stamp(request)
    key = (hall.games.changed, frozenset(present), stamp)
    cache: SharedAnswer[list[dict[str, Any]]] = request.app.state.standings
    rows = await cache.get(key, lambda: standings_off_loop(reader_of(request), present))
    if online:
        rows = [row for row in rows if row["online"]]
    first = (page - 1) * limit
    response.headers["X-Total-Count"] = str(len(rows))
    if first + limit < len(rows):
        query = f"page={page + 1}&limit={limit}" + ("&online=true" if online else "")
        response.headers["Link"] = f'<{request.url.path}?{query}>; rel="next"'
    return rows[first : first + limit]


MAX_OFFSET = 10_000
"""The deepest a member's page of games may start (``?offset=``): reading a page costs
the rows skipped, so an unbounded offset let one request read a member's whole history
(0.19 s on the 200,000-game league); older games are in ``league export``."""


async def _members_stamp(request: Request) -> tuple[int, int, int]:
    """:meth:`~.store.members.MembersRepo.members_stamp` read at most once per
    :data:`STANDINGS_AGE` seconds, shared by the requests meanwhile: it counts every
    member (10 ms on 25,000), and the standings it keys are reused that long anyway."""
    cache: SharedAnswer[tuple[int, int, int]] | None = getattr(
        request.app.state, "members_stamp", None
    )
    if cache is None:
        cache = request.app.state.members_stamp = SharedAnswer[tuple[int, int, int]](0.0)
    bucket = int(time.monotonic() // STANDINGS_AGE)
    return await cache.get(bucket, lambda: read(request, lambda r: r.members.members_stamp()))


@router.get("/members/{name}", response_model=MemberPage)
async def get_member(
    request: Request,
    name: str,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=100)] = RECENT_PAGE,
) -> dict[str, Any]:
    """A member's page data: rating history, opponents, time use, failures and one page
    of its games, newest first: ``limit`` (1-100) from the ``offset``-th (0 to
    :data:`MAX_OFFSET`; beyond, 422). A game's end is told as the asker may read it
    (:func:`~..http.auth.details_for`: a failed bot's output is its team's
    and the teacher's)."""
    told = details_for(request)

    def page(reader: LeagueStore) -> tuple[Member, dict[str, Any]]:
        member = named(reader, name)
        return member, member_page(reader, member, recent=limit, offset=offset, told=told)

    member, data = await read(request, page)
    data["online"] = member.kind == "house" or member.id in hall_of(request).presence.online()
    return data


PAIR_CACHE = 256
"""Pairs whose statistics an app keeps (the most recently asked)."""


@router.get("/pairs/{a}/{b}", response_model=PairStats)
async def get_pair(request: Request, a: str, b: str) -> dict[str, Any]:
    """The arena's statistics of ``a`` against ``b`` (trinomial and pentanomial).

    They read every rated game of the pair (0.4 s for a pair with 50,000), so the answer
    is kept per pair until the pair's rated games change (their count, one row of the
    ``results`` aggregate), for the :data:`PAIR_CACHE` pairs asked last; concurrent
    requests share one computation (:class:`~..http.cache.SharedAnswer`)."""

    def members_and_count(reader: LeagueStore) -> tuple[Member, Member, int]:
        x, o = named(reader, a), named(reader, b)
        return x, o, reader.games.rated_count_between(x.id, o.id)

    x, o, count = await read(request, members_and_count)
    caches: OrderedDict[tuple[int, int], SharedAnswer[dict[str, Any]]] | None = getattr(
        request.app.state, "pair_stats", None
    )
    if caches is None:
        caches = request.app.state.pair_stats = OrderedDict()
    cache = caches.pop((x.id, o.id), None) or SharedAnswer[dict[str, Any]](0.0)
    caches[x.id, o.id] = cache  # the most recent last
    while len(caches) > PAIR_CACHE:
        caches.popitem(last=False)
    return await cache.get(count, lambda: read(request, lambda r: pair_stats(r, x, o)))


@router.get("/live", response_model=list[LeagueGameState])
async def live_games(request: Request) -> list[dict[str, Any]]:
    """The games in play now."""
    hall = hall_of(request)
    return [hall.games.state(live) for live in sorted(hall.games.live.values(), key=lambda g: g.id)]


@router.get("/games", response_model=list[GameSummary])
async def list_games(
    request: Request,
    member: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[dict[str, Any]]:
    """Stored games, newest first (optionally one member's), at most ``limit`` (1-500),
    each end told as the asker may read it (:func:`~..http.auth.details_for`)."""
    told = details_for(request)

    def rows(reader: LeagueStore) -> list[dict[str, Any]]:
        member_id = None if member is None else named(reader, member).id
        games = reader.games.games(member_id=member_id, limit=limit)
        names = reader.members.names({g.x_id for g in games} | {g.o_id for g in games})
        return [game_summary(g, names, told) for g in games]

    return await read(request, rows)


@router.get("/games/{game_id}", response_model=LeagueGameState)
async def get_game(request: Request, game_id: GameId) -> dict[str, Any]:
    """A game's state: live (with clocks) or stored (with its result, its end told as
    the asker may read it: :func:`~..http.auth.details_for`)."""
    hall = hall_of(request)
    live = hall.games.live.get(game_id)
    if live is not None:
        return hall.games.state(live)
    settings = hall.games.settings
    told = details_for(request)

    def stored_state(reader: LeagueStore) -> dict[str, Any]:
        stored = reader.games.game(game_id)
        if stored is None:
            raise GameNotFound(f"no game {game_id}")
        data = game_summary(stored, reader.members.names((stored.x_id, stored.o_id)), told)
        game = game_from_text(stored.record) if stored.record else None
        position = game.position if game is not None else None
        time_control = game.tags.get("TimeControl", "") if game else ""
        used = {"x": stored.x_time, "o": stored.o_time}
        data.update(
            {
                "rows": settings.rows,
                "cols": settings.cols,
                "fen": position.fen() if position else stored.opening,
                "turn": position.turn if position else None,
                "moves": [m.square for m in game.moves] if game else [],
                "clock": final_clock(time_control, used, movers(game) if game else {}),
                "start": stored.opening,
                "used": {c: round(v, 2) for c, v in used.items()},
                "time_control": time_control,
                "ratings": current_ratings(reader, stored.x_id, stored.o_id),
            }
        )
        return data

    return await read(request, stored_state)


def current_ratings(reader: LeagueStore, x_id: int, o_id: int) -> dict[str, float]:
    """Two members' ratings now, read by ``reader`` (off the event loop: the hall's cache
    of ratings, when cold, would read every member's on the loop), rounded as the live
    games' ratings are (:meth:`~adjacency.league.play.live_ratings.LiveRatings.of`)."""
    ratings = collections.defaultdict(Glicko, reader.ratings.current_ratings())
    return {"x": round(ratings[x_id].rating, 1), "o": round(ratings[o_id].rating, 1)}


def movers(game: Game) -> dict[str, int]:
    """How many moves each side made in ``game``."""
    counts = collections.Counter(position.turn for position in game.positions[:-1])
    return {"x": counts["x"], "o": counts["o"]}


def final_clock(
    time_control: str, used: dict[str, float], moves: dict[str, int]
) -> dict[str, float] | None:
    """Each side's clock at the end of a stored game: its base, plus the increment for
    each of its ``moves``, less what it thought (``used``); ``None`` for seconds per move
    or a record without a clock."""
    try:
        base, increment = parse_clock(time_control)
    except ValueError:
        return None
    moves = {"x": moves.get("x", 0), "o": moves.get("o", 0)}
    return {c: round(max(0.0, base + increment * moves[c] - used[c]), 2) for c in ("x", "o")}


@router.get("/games/{game_id}/positions", response_model=GamePositions)
async def get_positions(request: Request, game_id: GameId) -> dict[str, Any]:
    """A game's positions, the opening's first and one after each move (so a page steps
    through the game without the rules), live or stored."""
    live = hall_of(request).games.live.get(game_id)
    if live is not None:
        game = live.game
    else:
        stored = await read(request, lambda reader: reader.games.game(game_id))
        if stored is None or not stored.record:
            raise GameNotFound(f"no record of game {game_id}")
        game = game_from_text(stored.record)
    return {"id": game_id, "fens": [p.fen() for p in game.positions]}


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
    """The game's record in the text format (docs/records.md); a live game's so far.
    Its end is told as the asker may read it (:func:`~..http.auth.details_for`):
    a failed program's own output only for its team and the teacher."""
    live = hall_of(request).games.live.get(game_id)
    if live is not None:
        text = game_to_text(live.game)
    else:
        stored = await read(request, lambda reader: reader.games.game(game_id))
        if stored is None or stored.record is None:
            raise GameNotFound(f"no record of game {game_id}")
        text = stored.record
        detail = stored.end_detail()
        if details_for(request)(detail) != detail:
            text = game_to_text(public_record(game_from_text(text)))
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="league-{game_id}.txt"'}
    )


@router.get(
    "/health",
    response_model=Health,
    responses={503: {"model": Health, "description": "degraded: the database refuses writes"}},
)
async def health(request: Request, response: Response) -> dict[str, Any]:
    """Whether the league works: ``ok`` (200), or ``degraded`` (503) while its database
    refuses writes (a full disk), with the store's reason; the server then pairs nobody,
    reports the games that end as aborted (no result that is not stored), and resumes
    by itself once writes work again (:meth:`~..http.write_health.WriteHealth.retry`)."""
    hall = hall_of(request)
    degraded = hall.games.writes.failure is not None
    if degraded:
        response.status_code = 503
    return {
        "status": "degraded" if degraded else "ok",
        "reason": hall.games.writes.failure,
        "since": hall.games.writes.since,
        "pairing": not degraded,
        "unstored": len(hall.games.writes.unstored),
    }


@router.get("/stats", response_model=ServerStats)
async def server_stats(request: Request) -> dict[str, Any]:
    """Load figures: games per minute over the last 5 minutes, move round-trip times
    (server's request to the client's answer) p50/p95 in ms, memory (max RSS, MB)."""
    hall = hall_of(request)
    now = time.time()
    recent = [t for t in hall.games.finished if t > now - 300]
    trips = sorted(hall.games.round_trips)

    def quantile(q: float) -> float | None:
        if not trips:
            return None
        return round(1000 * trips[min(len(trips) - 1, int(q * len(trips)))], 2)

    return {
        "connected": len(hall.presence.connections),
        "live": len(hall.games.live),
        "finished": len(hall.games.finished),
        "games_per_minute_5min": round(len(recent) / 5.0, 2),
        "round_trip_ms_p50": quantile(0.5),
        "round_trip_ms_p95": quantile(0.95),
        "round_trip_ms_mean": round(1000 * statistics.fmean(trips), 2) if trips else None,
        "moves": len(trips),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
