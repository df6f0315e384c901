"""The league server's FastAPI app: the bot connection (WebSocket), the JSON API, the pages.

:func:`create_app` opens the store, builds the :class:`~adjacency.league.play.hall.Hall`
and the house bots' workers, installs the request guards and the error mapping, and
includes one router per concern (:mod:`.routers`).

Security model (docs/league.md): the same request guards as ``adjacency play``
(:class:`~adjacency.serving.middleware.RequestGuard`: a Host allow-list against DNS
rebinding, cross-origin state-changing requests refused;
:class:`~adjacency.serving.middleware.BodyLimit`), token buckets per client address and
per token (:class:`~adjacency.serving.limits.RateLimiter`, :mod:`.limits`), and bearer
secrets that act for one account only (:mod:`.auth`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ... import __version__
from ...client.wire import MAX_UPLOAD
from ...sandbox import SandboxUnavailable
from ...serving.assets import mount_static
from ...serving.handlers import install_error_handlers
from ...serving.headers import install_security_headers
from ...serving.limits import RateLimiter
from ...serving.logs import forget_recent, keep_recent, say
from ...serving.middleware import BodyLimit, RequestGuard
from ..builder import Builder
from ..builder import build_jobs as jobs_for_builds
from ..grading.card_worker import CardKeeper
from ..grading.digest_worker import stop_all as stop_digests
from ..league_file import LeagueStore
from ..play.hall import Hall
from ..play.hosted import HostedPlayers
from ..play.house import HousePlayers
from ..play.scheduler import TICK
from ..routers import (
    admin,
    cards,
    challenges,
    code,
    events,
    grading,
    kept_out,
    notes,
    pages,
    people,
    public,
    roster,
    server_log,
    similarity_record,
    socket,
    submissions,
    teacher,
    version_files,
    voids,
)
from ..standings import standings_off_loop, stop_worker
from ..store.log_rows import KeptLog, LogRepo
from .cache import SharedAnswer
from .deps import HeavyReads
from .limits import LeagueLimits
from .reserve import KeepRoom, TokenedPlaces

log = logging.getLogger("adjacency.league")


async def games_stopped(hall: Hall, hosted: HostedPlayers) -> None:
    """The games' part of a stop: those in play aborted and their players told
    (:meth:`.play.hall.Hall.stop`), then every hosted bot's sandbox ended and its
    threads unwound (:meth:`.play.hosted.HostedPlayers.stop`)."""
    await hall.stop()
    await asyncio.to_thread(hosted.stop)


async def stop_side_by_side(*parts: Awaitable[None] | None) -> None:
    """Run the independent parts of a stop at the same time and return once every one
    has ended (``None``: a part this server does not have), so that a stop takes the
    longest part's time, not their sum: the games' (:func:`games_stopped`) and the
    builder's (:meth:`.builder.Builder.stop`) are each bounded on their own, and neither
    waits on the other. A part that fails does not cut another short: each still ends
    as it would alone, and the first failure is raised after all have ended."""
    ended = await asyncio.gather(*(p for p in parts if p is not None), return_exceptions=True)
    for outcome in ended:
        if isinstance(outcome, BaseException):
            raise outcome


def create_app(
    db: str | Path,
    allowed_hosts: list[str] | None = None,
    limits: LeagueLimits | None = None,
    executor: str = "local",
    jobs: int | None = 1,
    tick: float | None = None,
    house_games: bool = True,
    pause: float = 0.0,
    pace: float = 0.0,
    builds: bool = True,
    hosted_games: bool = True,
    hosted_jobs: int | None = None,
    build_jobs: int | None = None,
    ray_address: str | None = None,
    analysis_board: str | None = None,
) -> FastAPI:
    """The league app on database ``db`` (which must hold a league). ``allowed_hosts``
    as in :func:`adjacency.web.app.create_app`; ``executor``/``jobs`` run house bots;
    ``pace``: the least seconds a move of a game between two house bots takes;
    ``builds``: build and check the teams' uploads in the sandbox (:class:`.builder.Builder`;
    where the sandbox cannot start, uploads are refused with the fix) and play the
    accepted versions (:mod:`.play.hosted`; not with ``hosted_games`` off, where uploads are only
    built and checked), at most ``hosted_jobs`` sides computing at once, builds and
    checks counted (``None``: the machine's cores less the server's own,
    :func:`~adjacency.hosting.slots.default_slots`; with ``executor`` ``ray`` the games'
    sides compute in their nodes' own slots instead, :mod:`~adjacency.hosting.ray_seats`)
    and as many builds at once at most
    (``build_jobs``, default
    :func:`.builder.build_jobs`); ``ray_address``: with ``executor`` ``ray``, the cluster to join
    (``HOST:PORT`` of ``ray start --head``; ``None``: a private runtime on this machine);
    ``analysis_board``: the web app's address, where the report cards link each figure's
    position on its analysis board (``None``: no links)."""
    limits = LeagueLimits() if limits is None else limits
    store = LeagueStore(db, create=False)
    store.meta.settings()  # a LeagueError now if the file holds no league
    reader = LeagueStore(db, create=False)  # the public GETs' own connection (WAL readers)
    heavy = HeavyReads(db)  # code views and reports: a pool and connection of their own
    house = HousePlayers(executor, jobs, ray_address)
    hosted = HostedPlayers(Path(db) if builds and hosted_games else None, hosted_jobs, executor)
    hall = Hall(store, house, TICK if tick is None else tick, house_games, pause, pace, hosted)
    builder = (
        Builder(Path(db), build_jobs or jobs_for_builds(hosted_jobs), hosted.slots)
        if builds
        else None
    )
    recent = KeptLog(LogRepo(store.database))  # the teacher's log (:mod:`.routers.server_log`)
    keeper = CardKeeper(db=Path(db))  # the report cards: made in the background, kept

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        keep_recent(recent)
        recent.start()
        house.start()
        await hall.start()
        if builder is not None:
            try:
                await asyncio.to_thread(builder.start)
            except SandboxUnavailable as exc:
                app.state.builds_refused = str(exc)
                say(log, logging.WARNING, "uploads-refused", reason=exc)
        # The leaderboard's first fit starts with the server (off the loop), so the
        # first viewer of a league with history does not wait seconds for it: a slow fit
        # serves this answer while it runs (:meth:`.cache.SharedAnswer.prime`).
        cache: SharedAnswer[list[dict[str, Any]]] = app.state.standings
        warm = asyncio.ensure_future(
            cache.prime(lambda: standings_off_loop(reader, hall.presence.online()))
        )
        try:
            yield
        finally:
            stop_digests()  # a digest in hand is made again when next asked for
            await asyncio.to_thread(keeper.stop)  # a card in hand: made when next asked for
            with contextlib.suppress(Exception):
                await warm  # before the reader it uses is closed
            await stop_side_by_side(
                games_stopped(hall, hosted),
                asyncio.to_thread(builder.stop) if builder is not None else None,
            )
            house.stop()
            await asyncio.to_thread(stop_worker)  # a big league's standings worker
            forget_recent(recent)
            await asyncio.to_thread(recent.stop)  # the last lines written to the file
            await asyncio.to_thread(heavy.close)
            store.close()
            reader.close()

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
    app.state.reader = reader
    app.state.heavy = heavy
    app.state.hall = hall
    # A connection the server's guard refused (set as it is served) may have been a bot's:
    # the event games of absent bots wait meanwhile (:meth:`.play.presence.Presence.held`).
    hall.presence.refused_elsewhere = lambda: getattr(
        getattr(app.state, "connections", None), "refused_at", None
    )
    app.state.house = house
    app.state.hosted = hosted
    app.state.builder = builder
    app.state.league_db = Path(db)
    app.state.recent_log = recent
    app.state.builds_refused = None
    app.state.limits = limits
    app.state.cards = keeper
    app.state.analysis_board = analysis_board
    app.state.rates = RateLimiter(limits.burst)
    app.state.standings = SharedAnswer[list[dict[str, Any]]](public.STANDINGS_AGE)
    uploads = [(path, MAX_UPLOAD) for path in submissions.UPLOAD_PATHS]
    app.state.receiving = asyncio.Semaphore(submissions.RECEIVING)
    app.add_middleware(BodyLimit, limit=8192, streamed=uploads)
    app.add_middleware(RequestGuard, allowed_hosts=allowed_hosts)
    app.add_middleware(TokenedPlaces, league=app)  # beyond an address's cap: tokens only
    app.add_middleware(KeepRoom, league=app)  # outermost: a refusal costs no other work
    install_error_handlers(app)
    install_security_headers(app)  # on every response, refusals and errors included
    routers = (
        public,
        people,
        challenges,
        admin,
        events,
        teacher,
        roster,
        submissions,
        version_files,
        code,
        grading,
        cards,
        kept_out,
        notes,
        voids,
        similarity_record,
        server_log,
    )
    for module in routers:
        app.include_router(module.router)
    app.add_api_websocket_route(socket.CONNECT_PATH, socket.connect)
    app.include_router(pages.router)
    app.include_router(teacher.pages)
    app.include_router(code.pages)
    app.mount("/league-static", StaticFiles(directory=pages.STATIC), name="league-static")
    mount_static(app)
    return app
