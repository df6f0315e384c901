"""Running the web app: bind, print the address, open the browser, warm the engine, stop cleanly."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType

from ..serving.binding import allowed_hosts_for, bind, exposure_lines, url_for
from ..serving.sockets import SocketLimits, socket_options

log = logging.getLogger(__name__)

DEFAULT_PORT = 8765
PLAY_SOCKETS = SocketLimits(newcomer=8)
"""The web app's connection limits: the defaults, the reserved places kept for new
visitors (addresses holding fewer than 8 connections, a browser's few) at the socket."""


def warm_engine() -> None:
    """Load the engine's compiled kernels in the background, so the first search is fast."""
    from ..engine import warmup

    try:
        warmup()
    except Exception:  # warming up is an optimisation; never fatal
        log.exception("engine warm-up failed")


def graphical_browser_likely(
    platform: str = sys.platform, environ: Mapping[str, str] = os.environ
) -> bool:
    """False on a Linux console or SSH session without a display.

    There :mod:`webbrowser` would fall back to a text browser (w3m, lynx) that
    takes over the terminal, so the address is only printed.
    """
    if platform in ("darwin", "win32"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def serve(
    host: str = "127.0.0.1",
    port: int | None = None,
    open_browser: bool = True,
    db: str | Path | None = None,
    announce: Callable[[str], None] = print,
    forwarded_allow_ips: str | None = None,
    league_db: str | Path | None = None,
) -> None:
    """Serve until Ctrl-C. Prints the address once listening; opens it unless told not to.

    ``port`` ``None`` means :data:`DEFAULT_PORT`, or any free port if that one is taken.
    ``forwarded_allow_ips``: the reverse proxies (a TLS proxy in front, say) whose
    ``X-Forwarded-For`` names the client, so each visitor's own address is limited
    (:func:`~adjacency.serving.sockets.socket_options`; none by default: a proxy's
    clients would all arrive as the proxy's address). ``league_db``: a league's file the
    opening explorer also reads (:class:`~adjacency.web.explorer_index.LeagueFeed`).
    """
    import uvicorn

    from .app import create_app

    if port is None:
        try:
            sock = bind(host, DEFAULT_PORT)
        except OSError:
            sock = bind(host, 0)
    else:
        sock = bind(host, port)
    actual = sock.getsockname()[1]
    browse = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # reachable from here
    url = url_for(browse, actual)
    app = create_app(db, allowed_hosts=allowed_hosts_for(host), league_db=league_db)
    config = uvicorn.Config(
        app,
        log_level="warning",
        timeout_graceful_shutdown=1,
        lifespan="on",
        access_log=False,
        # header deadline, sockets per address, X-Forwarded-For believed from the given
        # proxies only (serving/sockets.py); the app learns its guard (serving/room.py)
        **socket_options(PLAY_SOCKETS, forwarded_allow_ips, app),
    )
    stopping = app.state.stopping

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stopping.set()  # ends the event streams, so shutdown need not wait for them
            super().handle_exit(sig, frame)

    server = Server(config)
    warming = threading.Thread(target=warm_engine, name="engine-warmup", daemon=True)
    warming.start()

    def when_ready() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        if server.started:
            announce(f"Adjacency is ready at {url}  (Ctrl-C stops it)")
            for line in exposure_lines(host, actual):
                announce(line)
            if open_browser and graphical_browser_likely():
                webbrowser.open(url)
            elif open_browser:
                announce("No graphical display found: open the address above in your browser.")

    threading.Thread(target=when_ready, name="announce", daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn re-raises Ctrl-C after its graceful shutdown; that is our normal exit
    finally:
        sock.close()
    finish_warming(warming, announce)
    announce("Adjacency stopped; your games are saved.")


def finish_warming(warming: threading.Thread, announce: Callable[[str], None]) -> None:
    """Let the engine's warm-up end before the process does.

    The warm-up runs inside LLVM's compiler, which must not be torn down under a
    running thread: exiting then aborts the process ("terminate called without an
    active exception") instead of ending it cleanly. With the kernels cached this wait
    is a second or two; a second Ctrl-C ends the process at once, skipping the wait.
    """
    if not warming.is_alive():
        return
    announce("Finishing the engine's warm-up before stopping (Ctrl-C again skips it)...")
    try:
        warming.join()
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
