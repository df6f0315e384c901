"""The league server's FastAPI app: the bot connection (WebSocket), the JSON API, the pages.

Security model (docs/league.md): the same request guards as ``adjacency play``
(:class:`~adjacency.serving.middleware.RequestGuard`: a Host allow-list against DNS
rebinding, cross-origin state-changing requests refused;
:class:`~adjacency.serving.middleware.BodyLimit`), token buckets per client address and
per token (:class:`~adjacency.serving.limits.RateLimiter`), and bearer secrets that act
for one account only: a bot token (``adjacency league add-bot``), a person's
browser-held secret (``POST /api/league/people``) or the admin token. Secrets are
compared by their SHA-256 hash and never written into a page, a log, a record or
an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import statistics
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, WebSocket
from fastapi import Path as FastPath
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from .. import __version__
from ..bots import BotError
from ..core.errors import AdjacencyError
from ..core.record import game_from_text, game_to_text
from ..serving.assets import favicon as shared_favicon
from ..serving.assets import mount_static, shared_page
from ..serving.errors import Forbidden, GameNotFound, NotNow, TooMany, WebError
from ..serving.handlers import install_error_handlers
from ..serving.limits import RateLimiter
from ..serving.middleware import BodyLimit, RequestGuard
from .hall import TICK, Hall, Outbox
from .house import HousePlayers, check_house_spec
from .models import (
    ERRORS,
    Added,
    Challenge,
    GameState,
    GameSummary,
    Joined,
    LeagueInfo,
    Me,
    MemberPage,
    MoveIn,
    NewMember,
    NewPerson,
    PairStats,
    Revoked,
    Rotated,
    ServerStats,
    StandingRow,
    Started,
)
from .standings import game_summary, member_page, pair_stats, standings
from .store import MAX_NAME, LeagueError, LeagueStore, Member, token_hash

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
PROTOCOL_VERSION = 1
STANDINGS_AGE = 1.0
"""Seconds the standings are reused at least (the pages poll every 2 s)."""
CONNECT_PATH = "/api/league/connect"


@dataclass
class LeagueLimits:
    """The league server's caps (defaults suit a 2-core machine and a class of bots)."""

    max_frame: int = 16 * 1024
    """Bytes a WebSocket message may have; a larger frame closes the connection (1009)."""
    max_errors: int = 10
    """Refused messages (malformed, out of turn, over the rate) a connection may send
    before it is closed (1008)."""
    connects_per_minute: float = 30.0
    """WebSocket connections per client address per minute (reconnecting clients back off)."""
    messages_per_minute: float = 1200.0
    """Messages per token and per address per minute."""
    requests_per_minute: float = 120.0
    """State-changing HTTP requests (join, challenge, move, admin) per address per minute."""
    burst: int = 30
    """Requests of one kind a client may make at once before the rate applies."""
    limit_loopback: bool = False
    """Whether the rates apply to clients on this machine too (tests turn it on)."""


class UnknownToken(WebError):
    """No valid secret was presented (missing, unknown or revoked): 401."""

    status = 401


LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _rate(request_or_ws: Request | WebSocket, kind: str, per_minute: float) -> None:
    """Refuse with 429 when the client's address is over its ``kind`` rate."""
    app = request_or_ws.app
    limits: LeagueLimits = app.state.limits
    address = request_or_ws.client.host if request_or_ws.client else "?"
    if address in LOOPBACK and not limits.limit_loopback:
        return
    if not app.state.rates.allow(address, kind, per_minute):
        raise TooMany(f"too many requests from {address}: at most {per_minute:g} per minute")


def bearer(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or ``None``."""
    value = headers.get("authorization")
    if not value:
        return None
    scheme, _, token = str(value).partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def hall_of(request: Request) -> Hall:
    """The :class:`~adjacency.league.hall.Hall` (live games, connections) of the app
    serving ``request``."""
    hall: Hall = request.app.state.hall
    return hall


def store_of(request: Request) -> LeagueStore:
    """The :class:`~adjacency.league.store.LeagueStore` of the app serving ``request``."""
    store: LeagueStore = request.app.state.store
    return store


def require_admin(request: Request) -> None:
    """Admin endpoints: the admin token, else 401 (none or unknown) or 403 (a member's)."""
    _rate(request, "admin", request.app.state.limits.requests_per_minute)
    token = bearer(request.headers)
    store = store_of(request)
    if token is None:
        raise UnknownToken("this needs the league's admin token (Authorization: Bearer ...)")
    if not store.is_admin(token):
        if store.authenticate(token) is not None:
            raise Forbidden("a member's token cannot do admin actions")
        raise UnknownToken("unknown admin token")


def require_person(request: Request) -> Member:
    """Endpoints for people: the person whose secret is the bearer token; else
    :class:`UnknownToken` (401: none, unknown or revoked) or
    :class:`~adjacency.serving.errors.Forbidden` (403: a bot's or house bot's token)."""
    token = bearer(request.headers)
    member = None if token is None else store_of(request).authenticate(token)
    if member is None:
        raise UnknownToken("unknown or revoked secret: join again with a name")
    if member.kind != "person":
        raise Forbidden("bots play through the WebSocket connection, not this endpoint")
    return member


def _member(request: Request, name: str) -> Member:
    try:
        return store_of(request).member_named(name)
    except LeagueError:
        raise GameNotFound(f"no member named {name[:MAX_NAME]!r}") from None


# ------------------------------------------------------------------ routes

router = APIRouter(prefix="/api/league", tags=["league"], responses=ERRORS)

GameId = Annotated[int, FastPath(ge=1, le=2**62, description="a game's number")]


@router.get("", response_model=LeagueInfo)
async def league_info(request: Request) -> dict[str, Any]:
    """The league's settings and counts."""
    hall = hall_of(request)
    return {
        "settings": hall.settings.public(),
        "members": len(store_of(request).members()),
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
    :data:`STANDINGS_AGE` seconds (a busy league ends many games a second)."""
    hall = hall_of(request)
    store = store_of(request)
    online = hall.online()
    key = (hall.changed, frozenset(online), tuple((m.id, m.revoked) for m in store.members()))
    cache = request.app.state.standings
    fresh = time.monotonic() - cache.get("at", -STANDINGS_AGE) < STANDINGS_AGE
    if cache.get("key") != key and not fresh:
        cache["at"] = time.monotonic()
        cache["rows"] = await asyncio.to_thread(standings, store, online)
        cache["key"] = key
    rows: list[dict[str, Any]] = cache["rows"]
    return rows


@router.get("/members/{name}", response_model=MemberPage)
async def get_member(request: Request, name: str) -> dict[str, Any]:
    """A member's page data: rating history, opponents, recent games, time use, failures."""
    member = _member(request, name)
    data = await asyncio.to_thread(member_page, store_of(request), member)
    data["online"] = member.kind == "house" or member.id in hall_of(request).online()
    return data


@router.get("/pairs/{a}/{b}", response_model=PairStats)
async def get_pair(request: Request, a: str, b: str) -> dict[str, Any]:
    """The arena's statistics of ``a`` against ``b`` (trinomial and pentanomial)."""
    first, second = _member(request, a), _member(request, b)
    return await asyncio.to_thread(pair_stats, store_of(request), first, second)


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
    store = store_of(request)
    member_id = None if member is None else _member(request, member).id
    names = {m.id: m.name for m in store.members()}
    rows = store.games(member_id=member_id, limit=limit)
    return [game_summary(g, names) for g in rows]


@router.get("/games/{game_id}", response_model=GameState)
async def get_game(request: Request, game_id: GameId) -> dict[str, Any]:
    """A game's state: live (with clocks) or stored (with its result)."""
    hall = hall_of(request)
    live = hall.live.get(game_id)
    if live is not None:
        return hall.state(live)
    store = store_of(request)
    stored = store.game(game_id)
    if stored is None:
        raise GameNotFound(f"no game {game_id}")
    names = {m.id: m.name for m in store.members()}
    data = game_summary(stored, names)
    game = game_from_text(stored.record) if stored.record else None
    position = game.position if game is not None else None
    data.update(
        {
            "rows": hall.settings.rows,
            "cols": hall.settings.cols,
            "fen": position.fen() if position else stored.opening,
            "turn": position.turn if position else None,
            "moves": [m.square for m in game.moves] if game else [],
            "clock": None,
            "start": stored.opening,
        }
    )
    return data


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
        stored = store_of(request).game(game_id)
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


# people


@router.post("/people", status_code=201, response_model=Joined)
async def join(request: Request, body: NewPerson) -> dict[str, Any]:
    """Join as a person: answers a secret the browser keeps (it is shown only once)."""
    _rate(request, "join", request.app.state.limits.requests_per_minute / 4)
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
    return {"name": person.name, "kind": person.kind, "games": games}


@router.post("/challenge", status_code=201, response_model=Started)
async def challenge(
    request: Request, body: Challenge, person: Annotated[Member, Depends(require_person)]
) -> dict[str, Any]:
    """Start a rated game against a free member: a connected bot, a house bot, or a
    person whose play page is open (present) and who is not playing; the challenger
    plays X or O alternately, starting with X."""
    _rate(request, "move", request.app.state.limits.requests_per_minute)
    hall = hall_of(request)
    opponent = _member(request, body.opponent)
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
    _rate(request, "move", request.app.state.limits.requests_per_minute)
    hall = hall_of(request)
    live = hall.move(person, game_id, body.move)
    return hall.state(live) if live.id in hall.live else await get_game(request, game_id)


# admin


@router.post(
    "/admin/members",
    status_code=201,
    response_model=Added,
    dependencies=[Depends(require_admin)],
)
async def add_member(request: Request, body: NewMember) -> dict[str, Any]:
    """Add a bot (answers its token, once) or a house bot (``spec``)."""
    if body.kind == "house":
        if not body.spec:
            raise BotError("a house bot needs a spec, e.g. greedy or alphabeta:depth=3")
        check_house_spec(body.spec)
    member, token = store_of(request).add_member(
        body.name, body.kind, body.spec if body.kind == "house" else None, body.concurrency
    )
    hall_of(request).wake()
    return {"name": member.name, "kind": member.kind, "token": token}


@router.post(
    "/admin/members/{name}/revoke", response_model=Revoked, dependencies=[Depends(require_admin)]
)
async def revoke(request: Request, name: str) -> dict[str, Any]:
    """Revoke a member's token: it is disconnected; its games and ratings stay."""
    member = store_of(request).revoke(_member(request, name).name)
    hall = hall_of(request)
    outbox = hall.connections.get(member.id)
    if outbox is not None:
        outbox.post({"type": "error", "detail": "this token was revoked"})
        outbox.close()
    return {"name": member.name, "revoked": True}


@router.post(
    "/admin/members/{name}/rotate", response_model=Rotated, dependencies=[Depends(require_admin)]
)
async def rotate(request: Request, name: str) -> dict[str, Any]:
    """A new token for a member (the old one stops working); answered once."""
    member = _member(request, name)
    token = store_of(request).rotate(member.name)
    outbox = hall_of(request).connections.get(member.id)
    if outbox is not None:
        outbox.close()
    return {"name": member.name, "token": token}


# ---------------------------------------------------------------- WebSocket


async def _deny(ws: WebSocket, status: int, detail: str) -> None:
    """Refuse a WebSocket handshake with an HTTP status and a JSON detail."""
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(JSONResponse({"detail": detail}, status_code=status))
    else:  # pragma: no cover - servers without the denial extension
        await ws.close(code=1008, reason=detail[:120])


async def connect(ws: WebSocket) -> None:
    """A bot's connection (docs/league.md, "The protocol")."""
    app = ws.app
    limits: LeagueLimits = app.state.limits
    store: LeagueStore = app.state.store
    hall: Hall = app.state.hall
    address = ws.client.host if ws.client else "?"
    throttled = address not in LOOPBACK or limits.limit_loopback
    if throttled and not app.state.rates.allow(address, "connect", limits.connects_per_minute):
        await _deny(ws, 429, "too many connections from this address: back off and retry")
        return
    token = bearer(ws.headers)
    member = None if token is None else store.authenticate(token)
    if member is None:
        await _deny(ws, 401, "unknown or revoked token")
        return
    if member.kind != "bot":
        await _deny(ws, 403, "only bot accounts connect here")
        return
    await ws.accept()
    assert token is not None  # the member was found by it
    outbox = Outbox(member, lambda message: ws.send_text(json.dumps(message)), token_hash(token))
    outbox.post(
        {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "name": member.name,
            "concurrency": member.concurrency,
            "settings": hall.settings.public(),
        }
    )
    hall.attach(outbox)

    async def close_when_done() -> None:
        await outbox.closed.wait()
        await outbox.task  # let queued messages (an error, a game end) go out first
        with contextlib.suppress(Exception):
            await ws.close(code=1008 if refused > limits.max_errors else 1000)

    refused = 0
    closer = asyncio.get_running_loop().create_task(close_when_done())
    try:
        while not outbox.closed.is_set():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            reply = _handle(hall, limits, app.state.rates, member, address, message, throttled)
            if reply is not None:
                refused += 1
                outbox.post(reply)
                if refused > limits.max_errors:
                    outbox.post(
                        {"type": "error", "detail": "too many refused messages: disconnected"}
                    )
                    outbox.close()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hall.detach(outbox)
        await closer


def _handle(
    hall: Hall,
    limits: LeagueLimits,
    rates: RateLimiter,
    member: Member,
    address: str,
    message: Mapping[str, Any],
    throttled: bool,
) -> dict[str, Any] | None:
    """Act on one client message; return an error reply if it is refused."""
    if throttled:
        per_minute = limits.messages_per_minute
        if not rates.allow(f"member:{member.id}", "message", per_minute) or not rates.allow(
            address, "message", per_minute
        ):
            return {"type": "error", "detail": f"over the rate limit of {per_minute:g} a minute"}
    text = message.get("text")
    if text is None:
        return {"type": "error", "detail": "messages are JSON text frames"}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {"type": "error", "detail": "malformed message: not JSON"}
    if not isinstance(data, dict):
        return {"type": "error", "detail": "malformed message: expected a JSON object"}
    kind = data.get("type")
    if kind == "ping":
        outbox = hall.connections.get(member.id)
        if outbox is not None:
            outbox.post({"type": "pong"})
        return None
    if kind != "move":
        return {"type": "error", "detail": f"unknown message type {str(kind)[:40]!r}"}
    game_id = data.get("game")
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        return {"type": "error", "detail": "a move needs the game's id (a number)"}
    try:
        hall.move(member, game_id, data.get("move"))
    except WebError as exc:
        return {"type": "error", "game": game_id, "status": exc.status, "detail": str(exc)}
    except AdjacencyError as exc:
        return {"type": "error", "game": game_id, "status": 400, "detail": str(exc)[:200]}
    return None


# ------------------------------------------------------------------- pages

pages = APIRouter(include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


@pages.get("/")
def leaderboard_page() -> FileResponse:
    """``/``: the leaderboard page (it reads the standings API and refreshes itself)."""
    return _page("index.html")


@pages.get("/bot/{name}")
def bot_page(name: str) -> FileResponse:
    """``/bot/NAME``: a member's page (the page itself asks the API for ``name``)."""
    return _page("bot.html")


@pages.get("/watch/{game_id}")
def watch_page(game_id: GameId) -> FileResponse:
    """``/watch/ID``: a game, live or stored, on the board view of ``adjacency play``."""
    return _page("watch.html")


@pages.get("/play")
def play_page() -> FileResponse:
    """``/play``: the page where people join with a name and challenge a free bot."""
    return _page("play.html")


@pages.get("/docs")
def api_docs() -> FileResponse:
    """The API reference: the web front end's page rendering ``/openapi.json``."""
    return shared_page("docs.html")


@pages.get("/favicon.ico")
def favicon() -> FileResponse:
    """The web front end's icon (SVG)."""
    return shared_favicon()


# --------------------------------------------------------------------- app


def create_app(
    db: str | Path,
    allowed_hosts: list[str] | None = None,
    limits: LeagueLimits | None = None,
    executor: str = "local",
    jobs: int | None = 1,
    tick: float | None = None,
    house_games: bool = True,
    pause: float = 0.0,
) -> FastAPI:
    """The league app on database ``db`` (which must hold a league). ``allowed_hosts``
    as in :func:`adjacency.web.app.create_app`; ``executor``/``jobs`` run house bots."""
    limits = LeagueLimits() if limits is None else limits
    store = LeagueStore(db, create=False)
    store.settings()  # a LeagueError now if the file holds no league
    house = HousePlayers(executor, jobs)
    hall = Hall(store, house, TICK if tick is None else tick, house_games, pause)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        house.start()
        await hall.start()
        try:
            yield
        finally:
            await hall.stop()
            house.close()
            store.close()

    app = FastAPI(
        title="Adjacency league",
        version=__version__,
        summary="Bots and people play rated Adjacency games around the clock.",
        description=(
            "Bots connect to the WebSocket at `/api/league/connect` with "
            "`Authorization: Bearer TOKEN` (docs/league.md describes the messages); "
            "people join with a name and play through the JSON API; standings, games "
            "and records are public."
        ),
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.store = store
    app.state.hall = hall
    app.state.house = house
    app.state.limits = limits
    app.state.rates = RateLimiter(limits.burst)
    app.state.standings = {}
    app.add_middleware(BodyLimit, limit=8192)
    app.add_middleware(RequestGuard, allowed_hosts=allowed_hosts)
    install_error_handlers(app)
    app.include_router(router)
    app.add_api_websocket_route(CONNECT_PATH, connect)
    app.include_router(pages)
    app.mount("/league-static", StaticFiles(directory=STATIC), name="league-static")
    mount_static(app)
    return app
