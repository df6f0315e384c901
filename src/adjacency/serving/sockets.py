"""Connection-level protection for both servers: slow and idle sockets are closed, no
address holds more than a set number of connections open, and the server as a whole
holds no more than its open-file limit allows.

uvicorn closes a connection that idles *after* a response (its keep-alive timeout),
but not one that never finishes its request headers (slowloris: a byte every few
seconds), one that sends nothing at all, or a WebSocket upgrade the application never
answers; and it lets one address open any number of them. Each costs a file
descriptor and memory, so a few hundred exhaust a server.

Contract (:class:`SocketLimits`, applied by :func:`socket_options`, which both
``adjacency play`` and ``adjacency league serve`` pass to uvicorn):

* a connection must complete its request headers within
  :attr:`~SocketLimits.header_timeout` seconds of opening, and again of each response
  ending (keep-alive), or it is closed; a request being answered (an event stream, a
  long poll) is never cut;
* a WebSocket upgrade must be accepted or refused by the application within
  :attr:`~SocketLimits.handshake_timeout` seconds, or it is closed; an open WebSocket
  that stops answering pings is closed by uvicorn's keepalive (``ws_ping_*``);
* an address may hold :attr:`~SocketLimits.per_address` connections at once, and the
  server :attr:`~SocketLimits.total` (by default what the process's open-file limit
  leaves after a reserve for its database, logs and workers and for a burst of
  accepts, :func:`total_cap`, :data:`ACCEPT_BURST`); a
  further one is answered at once, before any byte is read, with a clear refusal (an
  HTTP 503, or 429 for the address's cap, saying which, ``Connection: close``) and
  closed, and logged (a bounded number of lines a minute);
* with :attr:`~SocketLimits.tokened` set (the league), an address at its cap may still
  open that many connections more, each kept only for requests that carry a token the
  application knows (:meth:`ConnectionGuard.beyond` names them; the league serves a
  team's, a person's or its teacher's, at most :attr:`~SocketLimits.per_token` such
  connections a token): a team behind a school's address is never refused because
  other teams of that address hold its places;
* the last :attr:`~SocketLimits.reserve` places under the global cap are kept for the
  clients an application names (:meth:`ConnectionGuard.pressed` says when they are in
  use; the league keeps them for its teacher and for the bots with games, refusing
  anyone else with a 503 that closes the connection), and a connection opened while
  they are in use has :attr:`~SocketLimits.pressed_header_timeout` (1 s) to send its
  headers: many clients reconnecting at once, or holding sockets silent, neither reach
  the open-file limit nor keep the teacher out for long. With
  :attr:`~SocketLimits.newcomer` set (``adjacency play``), those places are kept for
  new visitors at the socket too: while they are in use, an address already holding
  that many connections is refused before any byte is read.

The per-address cap is sized for a class behind one address (a school's network behind
one NAT): thirty bots and thirty watching browsers, each browser holding a few
connections. The global cap keeps the server able to open its files when many
addresses connect at once (without it, a few hundred addresses reconnecting would reach
the open-file limit and every accept and database open would fail).

The limits are per server process; they hold whatever address the peer has (loopback
too: a local user is no more trusted than a remote one).

The guard subclasses uvicorn's private protocol classes through one adapter,
:mod:`.uvicorn_protocols`, which names everything it relies on and the uvicorn releases
it was tested with.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
import time
from dataclasses import dataclass
from typing import Any

from .logs import say
from .uvicorn_protocols import UNANSWERED, HTTPProtocol, WebSocketProtocol, response_pending

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SocketLimits:
    """How long a client may take to say what it wants, and how many sockets it may hold."""

    header_timeout: float = 10.0
    """Seconds to send complete request headers (from connecting, or from the previous
    response's end)."""
    pressed_header_timeout: float = 1.0
    """The same deadline for a connection opened while the reserved places are in use
    (:meth:`ConnectionGuard.pressed`): one that says nothing does not sit in them."""
    handshake_timeout: float = 10.0
    """Seconds from a WebSocket upgrade request to the application's answer."""
    keep_alive: int = 5
    """Seconds an idle keep-alive connection stays open after a response (uvicorn's)."""
    per_address: int = 256
    """Connections one client address may hold open at once (a class behind one NAT:
    thirty bots and thirty browsers of up to six connections each)."""
    tokened: int = 0
    """Connections an address may open beyond :attr:`per_address`, each kept only for
    requests carrying a token the application knows (:meth:`ConnectionGuard.beyond`);
    0: none (``adjacency play``, which has no tokens)."""
    per_token: int = 8
    """Connections beyond an address's cap one token may hold (a bot's socket and its
    command line's requests)."""
    total: int | None = None
    """Connections the server holds open at once; ``None``: :func:`total_cap`."""
    reserve: int | None = None
    """The last places under :attr:`total` that the application keeps for the clients
    it names (:meth:`ConnectionGuard.pressed`); ``None``: an eighth of the total."""
    newcomer: int | None = None
    """When set, the reserved places are also kept for new visitors at the socket: while
    they are in use, a connection from an address already holding this many is refused
    (503) before any byte is read, so addresses holding their share cannot fill them
    (``adjacency play``: 8, a browser's few connections; ``None``: the application alone
    decides whom they are for, as the league does for its teacher)."""


RESERVED_FILES = 128
"""Open files kept for the server's own use (its database and readers, logs, worker
pipes, the listening socket) below the open-file limit."""
ACCEPT_BURST = 64
"""The listen backlog of both servers (uvicorn's ``backlog``, 2048 by default). asyncio
accepts every waiting connection at once, up to the backlog, before any of them is
admitted or refused: a crowd reconnecting together took that many descriptors in one
go and the accepts after the cap failed with "Too many open files" (a traceback each).
The cap keeps this many files free for such a burst; clients beyond the backlog wait
in their own TCP retries, not in the server."""
MAX_TOTAL = 16384
"""The most connections the default global cap allows, however high the file limit."""
REFUSALS_LOGGED_EVERY = 5.0
"""Seconds between log lines about connections refused over a cap (each line counts
those refused since the previous one)."""


def total_cap() -> int:
    """The default global cap: the process's open-file limit (its soft limit raised
    toward the hard one first, as a server wants the descriptors it may have) less
    :data:`RESERVED_FILES` and :data:`ACCEPT_BURST`, at most :data:`MAX_TOTAL`, at least
    64."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MAX_TOTAL + RESERVED_FILES + ACCEPT_BURST
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # not allowed: keep the soft limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    if soft == resource.RLIM_INFINITY:
        return MAX_TOTAL
    return max(64, min(MAX_TOTAL, soft - RESERVED_FILES - ACCEPT_BURST))


class ConnectionGuard:
    """Open connections per client address (one per server; event loop only, no locks)."""

    def __init__(self, limits: SocketLimits, proxies: frozenset[str] = frozenset()) -> None:
        self.limits = limits
        self.proxies = proxies
        """Addresses of trusted reverse proxies (``*``: any): every client behind one
        shares its address, so the cap does not apply to them."""
        self.total = total_cap() if limits.total is None else limits.total
        """The global cap in force (:attr:`SocketLimits.total`, or :func:`total_cap`)."""
        self.reserve = self.total // 8 if limits.reserve is None else limits.reserve
        """The places kept for the clients the application names (:meth:`pressed`)."""
        self.refusal = b""
        """The answer written to the latest connection :meth:`admit` refused."""
        self.open: dict[str, int] = {}
        self.extra: dict[str, int] = {}
        """Connections open now beyond each address's cap (:attr:`SocketLimits.tokened`)."""
        self._beyond: dict[int, tuple[str, int]] = {}
        self._peers: set[tuple[str, int]] = set()
        self.count = 0
        """Connections open now (every address, trusted proxies included)."""
        self._owner: dict[int, str] = {}
        self._refused = 0
        self._logged: float | None = None
        self.refused_at: float | None = None
        """When it last refused a connection (monotonic), ``None`` if never."""

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; ``False`` (not counted, and logged as :meth:`_refuse`
        says) if the server is at its global cap or the address at its own."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if self.count >= self.total:
            self._refuse(address, f"{self.count} connections open in all (the server's cap)")
            self.refusal = refusal(
                503,
                f"the server holds {self.count} connections, as many as it may; "
                "try again in a few seconds",
            )
            return False
        proxied = address in self.proxies or "*" in self.proxies
        newcomer = self.limits.newcomer
        if (
            newcomer is not None
            and not proxied
            and self.reserve > 0
            and self.count + 1 > self.total - self.reserve
            and self.open.get(address, 0) >= newcomer
        ):
            self._refuse(address, "the reserved places are kept for new visitors")
            self.refusal = refusal(
                503,
                f"the server holds {self.count} connections, near its limit; its last "
                "places are kept for new visitors: close some or try again in a few seconds",
            )
            return False
        if (
            not proxied
            and self.open.get(address, 0) >= self.limits.per_address
            and self.extra.get(address, 0) < self.limits.tokened
            and isinstance(peer, tuple)
            and len(peer) >= 2
        ):
            # Beyond the address's cap: kept for a request that carries a known token.
            self.extra[address] = self.extra.get(address, 0) + 1
            self._beyond[id(transport)] = (address, int(peer[1]))
            self._peers.add((address, int(peer[1])))
            self.count += 1
            self._owner[id(transport)] = address
            return True
        if not proxied and self.open.get(address, 0) >= self.limits.per_address:
            self._refuse(address, f"{self.limits.per_address} connections open from that address")
            self.refusal = refusal(
                429,
                f"your address holds {self.limits.per_address} connections to this server, "
                "the most one address may; close some or try again shortly",
            )
            return False
        if not proxied:
            self.open[address] = self.open.get(address, 0) + 1
        self.count += 1
        self._owner[id(transport)] = "" if proxied else address
        return True

    def beyond(self, client: tuple[str, int] | None) -> bool:
        """Whether the connection of ``client`` (a request's peer address and port) was
        opened beyond its address's cap: kept only for requests carrying a token the
        application knows (:attr:`SocketLimits.tokened`)."""
        return client is not None and (client[0], client[1]) in self._peers

    def pressed(self) -> bool:
        """Whether the reserved places are in use: more than ``total - reserve``
        connections are open, so the application serves only the clients it keeps them
        for (the connection asking is counted)."""
        return self.reserve > 0 and self.count > self.total - self.reserve

    def _refuse(self, address: str, why: str) -> None:
        """Log a refused connection: one INFO line every :data:`REFUSALS_LOGGED_EVERY`
        seconds at most, counting those refused since the previous line."""
        self._refused += 1
        now = time.monotonic()
        self.refused_at = now
        if self._logged is None or now - self._logged >= REFUSALS_LOGGED_EVERY:
            say(log, logging.INFO, "connections-refused", address=address, reason=why,
                count=self._refused)  # fmt: skip
            self._logged, self._refused = now, 0

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Uncount a connection that ended (idempotent; uncounted ones are ignored)."""
        address = self._owner.pop(id(transport), None)
        if address is None:
            return
        self.count -= 1
        beyond = self._beyond.pop(id(transport), None)
        if beyond is not None:
            self._peers.discard(beyond)
            left = self.extra.get(address, 1) - 1
            if left > 0:
                self.extra[address] = left
            else:
                self.extra.pop(address, None)
            return
        if not address:  # a trusted proxy's: counted in the total only
            return
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


def refusal(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 answer refusing a connection: ``status`` with a JSON ``detail``,
    ``Retry-After`` and ``Connection: close`` (a WebSocket client reads it as a refused
    handshake)."""
    reason = {429: "Too Many Requests", 503: "Service Unavailable"}[status]
    body = json.dumps({"detail": detail, "code": "too_many_connections"}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class QuietRefusals:
    """uvicorn's logger for one WebSocket, without its ERROR line for a handshake that
    was refused with an HTTP answer (401, 403, 429: the application logs those itself,
    rate-limited) or whose connection already ended. Every other
    call goes to ``logger``."""

    def __init__(self, protocol: WebSocketProtocol, logger: logging.Logger) -> None:
        self._protocol = protocol
        self._logger = logger

    def __getattr__(self, name: str) -> Any:
        return getattr(self._logger, name)

    def error(self, message: str, *args: Any, **kwargs: Any) -> None:
        """Log ``message`` as uvicorn would, unless it is the unanswered-handshake line
        of a refused or ended handshake."""
        protocol = self._protocol
        if message.startswith(UNANSWERED) and (
            protocol.initial_response is not None or protocol.transport.is_closing()
        ):
            return
        self._logger.error(message, *args, **kwargs)


def socket_options(
    limits: SocketLimits | None = None, forwarded_allow_ips: str | None = None, app: Any = None
) -> dict[str, Any]:
    """The uvicorn options that apply ``limits`` (defaults: :class:`SocketLimits`):
    ``http`` and ``ws`` protocol classes bound to one fresh :class:`ConnectionGuard`,
    the keep-alive timeout, and whose ``X-Forwarded-For``/``-Proto`` headers count.

    ``forwarded_allow_ips`` (comma-separated addresses or networks, uvicorn's syntax)
    are the reverse proxies whose forwarded headers name the client; ``None`` trusts
    none. (uvicorn alone trusts 127.0.0.1, which lets any local user pose as another
    client and spend that client's rate allowance.) The listed addresses (exact
    addresses, or ``*``) are exempt from the per-address cap (a class shares them), not
    from the global one. ``app`` (an ASGI app with ``state``), when given, learns its
    guard as ``app.state.connections`` (to keep the reserved places,
    :meth:`ConnectionGuard.pressed`)."""
    proxies = frozenset(a.strip() for a in (forwarded_allow_ips or "").split(",") if a.strip())
    guard = ConnectionGuard(SocketLimits() if limits is None else limits, proxies)
    if app is not None:
        app.state.connections = guard
    chosen = guard.limits

    class GuardedHTTP(HTTPProtocol):
        """HTTP/1.1 with a header deadline and the per-address cap."""

        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(transport):
                transport.write(guard.refusal)  # a clear answer, then the socket closes
                transport.close()
                return
            self._arm(guard.pressed())

        def _arm(self, pressed: bool = False) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            seconds = chosen.header_timeout
            if pressed:
                seconds = min(seconds, chosen.pressed_header_timeout)
            self._deadline = self.loop.call_later(seconds, self._late)

        def _late(self) -> None:
            self._deadline = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return  # closed, or upgraded to a WebSocket (which has its own deadline)
            if response_pending(self):
                return  # a request is being answered
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers have the same deadline

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            guard.release(self.transport)
            super().connection_lost(exc)

    class GuardedWebSocket(WebSocketProtocol):
        """WebSockets with a handshake deadline; releases the upgraded connection's slot;
        a handshake the application refused (an HTTP answer) or that ended with its
        connection (the client left, the server stops) is not logged as an error."""

        _deadline: asyncio.TimerHandle | None = None

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.logger = QuietRefusals(self, self.logger)  # type: ignore[assignment]

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._deadline = self.loop.call_later(chosen.handshake_timeout, self._late)

        def _late(self) -> None:
            self._deadline = None
            if not self.handshake_complete and self.initial_response is None:
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            guard.release(self.transport)
            super().connection_lost(exc)

    return {
        "http": GuardedHTTP,
        "ws": GuardedWebSocket,
        "timeout_keep_alive": chosen.keep_alive,
        "backlog": ACCEPT_BURST,
        "proxy_headers": bool(forwarded_allow_ips),
        "forwarded_allow_ips": forwarded_allow_ips or "",
    }
