"""Running the web app: bind, print the address, open the browser, warm the engine, stop cleanly."""

from __future__ import annotations

import importlib
import logging
import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType

log = logging.getLogger(__name__)

DEFAULT_PORT = 8765


def warm_engine() -> None:
    """Compile the numba engine in the background if it is installed (first search is fast)."""
    try:
        engine = importlib.import_module("adjacency.engine")
    except ImportError:
        return
    warmup = getattr(engine, "warmup", None)
    if callable(warmup):
        try:
            warmup()
        except Exception:  # warming up is an optimisation; never fatal
            log.exception("engine warm-up failed")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (``port`` 0 picks a free one); raise ``OSError`` with a clear text."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(
            f"cannot listen on {host}:{port} ({exc.strerror}); choose another --port (0: any free)"
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def local_addresses() -> list[str]:
    """This machine's IP addresses others may reach (best effort; no network traffic)."""
    found: list[str] = []
    names = {socket.gethostname(), socket.getfqdn()}
    for name in names:
        try:
            infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
        except OSError:
            continue
        for info in infos:
            address = str(info[4][0]).split("%")[0]
            if address not in found and not address.startswith(("127.", "::1", "fe80")):
                found.append(address)
    for target in ("192.0.2.1", "2001:db8::1"):  # documentation addresses: no packet is sent
        family = socket.AF_INET6 if ":" in target else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                address = str(probe.getsockname()[0]).split("%")[0]
        except OSError:
            continue
        if address not in found and not address.startswith(("127.", "::1", "0.")):
            found.append(address)
    return found


def allowed_hosts_for(host: str) -> list[str]:
    """The Host header names a server bound to ``host`` answers (DNS-rebinding shield).

    Always the loopback names and ``host`` itself; on a wildcard address also this
    machine's name and addresses, which is what others type to reach it.
    """
    allowed = [*LOOPBACK_NAMES]
    if host not in WILDCARDS:
        allowed.append(host)
        return allowed
    hostname = socket.gethostname()
    return [*allowed, hostname, socket.getfqdn(), f"{hostname}.local", *local_addresses()]


def exposure_lines(host: str, port: int) -> list[str]:
    """What ``adjacency play`` prints when it listens beyond this machine: the addresses
    others can open, and a one-line warning (nothing for a loopback address)."""
    if host in LOOPBACK_NAMES:
        return []
    others = local_addresses() if host in WILDCARDS else [host]
    lines = [f"  others on your network can open {url_for(a, port)}" for a in others]
    lines.append(
        "Warning: this server is reachable from other machines: anyone who can reach it "
        "can create and watch games (moves need a seat link); stop it when you are done."
    )
    return lines


def url_for(host: str, port: int) -> str:
    """The address of the server on ``host`` and ``port`` (an IPv6 host in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


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
) -> None:
    """Serve until Ctrl-C. Prints the address once listening; opens it unless told not to.

    ``port`` ``None`` means :data:`DEFAULT_PORT`, or any free port if that one is taken.
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
    app = create_app(db, allowed_hosts=allowed_hosts_for(host))
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on", access_log=False
    )
    stopping = app.state.stopping

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stopping.set()  # ends the event streams, so shutdown need not wait for them
            super().handle_exit(sig, frame)

    server = Server(config)
    threading.Thread(target=warm_engine, name="engine-warmup", daemon=True).start()

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
    announce("Adjacency stopped; your games are saved.")
