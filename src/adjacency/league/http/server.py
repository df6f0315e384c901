"""Running a league server: create the league on first use, bind, serve HTTP(S) and WS(S)."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Collection
from pathlib import Path

from ...core.text import read_text
from ...serving.binding import allowed_hosts_for, bind, exposure_lines
from ...serving.sockets import SocketLimits, socket_options
from ..league_file import LeagueError, LeagueStore, new_token
from ..settings import LeagueSettings
from .app import create_app
from .limits import LeagueLimits

log = logging.getLogger(__name__)

DEFAULT_PORT = 8780
MAX_FRAME_SLACK = 1024
"""Bytes of framing allowed over :attr:`LeagueLimits.max_frame` at the WebSocket layer."""


SETTINGS_COMPARED = ("rows", "cols", "rounds", "base", "increment", "move_time")
"""The settings a league is served with that must equal its own (its openings follow
from them)."""


LEAGUE_SOCKETS = SocketLimits(tokened=256)
"""The league's connection limits: the defaults, and 256 connections an address may
open beyond its cap for requests carrying a team's, a person's or the teacher's token
(:class:`~.reserve.TokenedPlaces`), so a class behind one address never keeps a team's
bot out of its games by holding the address's places."""


def read_admin_token(path: str | Path) -> str:
    """The admin token in a file (one line; at least 16 characters)."""
    token = read_text(path, "admin token file", LeagueError, limit=4096).strip()
    if len(token) < 16 or any(c.isspace() for c in token):
        raise LeagueError(
            f"the admin token in {str(path)!r} must be one word of at least 16 characters"
        )
    return token


def open_league(
    db: str | Path,
    settings: LeagueSettings | None,
    admin_token_file: str | Path | None = None,
    announce: Callable[[str], None] = print,
    compared: Collection[str] = SETTINGS_COMPARED,
) -> None:
    """Create the league in ``db`` if it holds none (printing a new admin token unless one
    is given in ``admin_token_file``); refuse settings that differ from a league's own
    (those named in ``compared``, the ones the user gave: the others are defaults, not
    asked for)."""
    with LeagueStore(db) as store:
        given = None if admin_token_file is None else read_admin_token(admin_token_file)
        if not store.meta.created:
            token = given or new_token()
            store.meta.create(settings or LeagueSettings(), token)
            created = store.meta.settings()
            announce(
                f"Created a league in {db}: {created.rows}x{created.cols}, "
                f"{created.rounds} rounds, {created.time_control}, "
                + (
                    "every game from the start."
                    if created.from_start
                    else f"{len(created.openings)} openings."
                )
            )
            if given is None:
                announce(f"Admin token (shown once, keep it secret): {token}")
            return
        if given is not None:
            store.meta.set_admin_token(given)
        if settings is not None:
            current = store.meta.settings()
            mine = settings.to_dict()
            theirs = current.to_dict()
            differs = [k for k in SETTINGS_COMPARED if k in compared and mine[k] != theirs[k]]
            if differs:
                raise LeagueError(
                    f"the league in {str(db)!r} was created with other settings "
                    f"({', '.join(f'{k} {theirs[k]}, not {mine[k]}' for k in differs)}); "
                    "a league's settings never change: use a new --db"
                )


def serve(
    db: str | Path,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    certfile: str | None = None,
    keyfile: str | None = None,
    executor: str = "local",
    jobs: int | None = 1,
    limits: LeagueLimits | None = None,
    announce: Callable[[str], None] = print,
    house_games: bool = True,
    pause: float = 0.0,
    sockets: SocketLimits | None = None,
    pace: float = 0.0,
    forwarded_allow_ips: str | None = None,
    sock: socket.socket | None = None,
    uvicorn_log_level: str = "warning",
    hosted_jobs: int | None = None,
    ray_address: str | None = None,
    analysis_board: str | None = None,
) -> None:
    """Serve the league in ``db`` until Ctrl-C (or SIGTERM); games in play then are aborted.
    ``sockets``: the connection limits (:class:`~adjacency.serving.sockets.SocketLimits`;
    ``None``: :data:`LEAGUE_SOCKETS`);
    ``forwarded_allow_ips``: the reverse proxies whose ``X-Forwarded-For`` is believed
    (:func:`~adjacency.serving.sockets.socket_options`; none by default); ``sock``: a
    socket already listening on ``host:port`` (:func:`~adjacency.serving.binding.bind`,
    taken before the league file is created), else one is bound here;
    ``uvicorn_log_level``: what uvicorn's own loggers write (the league's own log is
    :func:`~adjacency.serving.logs.configure_logging`'s); ``hosted_jobs``: how many
    hosted bots' moves compute at once (``None``: the machine's cores less one; with
    ``executor`` ``ray``, the server's own builds and checks, each node of the cluster
    having its own slots for its games); ``ray_address``:
    with ``executor`` ``ray``, the Ray cluster to join (``None``: a private runtime);
    ``analysis_board``: the web app's address the report cards link to."""
    import uvicorn

    limits = LeagueLimits() if limits is None else limits
    sock = bind(host, port) if sock is None else sock
    actual = sock.getsockname()[1]
    app = create_app(
        db,
        allowed_hosts=allowed_hosts_for(host),
        limits=limits,
        executor=executor,
        jobs=jobs,
        house_games=house_games,
        pause=pause,
        pace=pace,
        hosted_jobs=hosted_jobs,
        ray_address=ray_address,
        analysis_board=analysis_board,
    )
    app.state.house.start()  # an executor that cannot start fails here, in one line
    config = uvicorn.Config(
        app,
        log_level=uvicorn_log_level,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=2,
        ws_max_size=limits.max_frame + MAX_FRAME_SLACK,
        ws_ping_interval=10.0,
        ws_ping_timeout=20.0,
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
        # header and handshake deadlines, sockets per address, trusted proxies
        **socket_options(LEAGUE_SOCKETS if sockets is None else sockets, forwarded_allow_ips, app),
    )
    hall = app.state.hall

    class LeagueServer(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            # Abort the games and tell their players (game_end, "aborted") while the
            # connections are still open: uvicorn's shutdown closes them (1012) first.
            await hall.stop()
            await super().shutdown(sockets)

    server = LeagueServer(config)
    scheme = "https" if certfile else "http"
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    shown = f"[{shown}]" if ":" in shown else shown
    url = f"{scheme}://{shown}:{actual}/"

    def when_ready() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        if server.started:
            announce(f"League server ready at {url}  (Ctrl-C stops it)")
            for line in exposure_lines(host, actual)[:-1]:
                announce(line.replace("http://", f"{scheme}://"))

    threading.Thread(target=when_ready, name="announce", daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    announce("League server stopped; finished games and ratings are saved.")
