"""Connection-level protection for both servers: slow and idle sockets are closed, and
no address holds more than a set number of connections open.

uvicorn closes a connection that idles *after* a response (its keep-alive timeout),
but not one that never finishes its request headers (slowloris: a byte every few
seconds), one that sends nothing at all, or a WebSocket upgrade the application never
answers; and it lets one address open any number of them. Each costs a file
descriptor and memory, so a few hundred exhaust a server (issue 33, B4).

Contract (:class:`SocketLimits`, applied by :func:`socket_options`, which both
``adjacency play`` and ``adjacency league serve`` pass to uvicorn):

* a connection must complete its request headers within
  :attr:`~SocketLimits.header_timeout` seconds of opening, and again of each response
  ending (keep-alive), or it is closed; a request being answered (an event stream, a
  long poll) is never cut;
* a WebSocket upgrade must be accepted or refused by the application within
  :attr:`~SocketLimits.handshake_timeout` seconds, or it is closed; an open WebSocket
  that stops answering pings is closed by uvicorn's keepalive (``ws_ping_*``);
* an address may hold :attr:`~SocketLimits.per_address` connections at once; a further
  one is closed as soon as it opens (before any byte is read).

The limits are per server process; they hold whatever address the peer has (loopback
too: a local user is no more trusted than a remote one).

The guard subclasses uvicorn's private protocol classes through one adapter,
:mod:`.uvicorn_protocols`, which names everything it relies on and the uvicorn releases
it was tested with.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from .uvicorn_protocols import UNANSWERED, HTTPProtocol, WebSocketProtocol, response_pending

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SocketLimits:
    """How long a client may take to say what it wants, and how many sockets it may hold."""

    header_timeout: float = 10.0
    """Seconds to send complete request headers (from connecting, or from the previous
    response's end)."""
    handshake_timeout: float = 10.0
    """Seconds from a WebSocket upgrade request to the application's answer."""
    keep_alive: int = 5
    """Seconds an idle keep-alive connection stays open after a response (uvicorn's)."""
    per_address: int = 64
    """Connections one client address may hold open at once."""


class ConnectionGuard:
    """Open connections per client address (one per server; event loop only, no locks)."""

    def __init__(self, limits: SocketLimits, proxies: frozenset[str] = frozenset()) -> None:
        self.limits = limits
        self.proxies = proxies
        """Addresses of trusted reverse proxies (``*``: any): every client behind one
        shares its address, so the cap does not apply to them."""
        self.open: dict[str, int] = {}
        self._owner: dict[int, str] = {}

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; ``False`` (not counted) if its address is at the cap."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if address in self.proxies or "*" in self.proxies:
            return True
        if self.open.get(address, 0) >= self.limits.per_address:
            return False
        self.open[address] = self.open.get(address, 0) + 1
        self._owner[id(transport)] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Uncount a connection that ended (idempotent; uncounted ones are ignored)."""
        address = self._owner.pop(id(transport), None)
        if address is None:
            return
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


class QuietRefusals:
    """uvicorn's logger for one WebSocket, without its ERROR line for a handshake that
    was refused with an HTTP answer (401, 403, 429: the application logs those itself,
    rate-limited) or whose connection already ended (issue 33, A11/B10). Every other
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
    limits: SocketLimits | None = None, forwarded_allow_ips: str | None = None
) -> dict[str, Any]:
    """The uvicorn options that apply ``limits`` (defaults: :class:`SocketLimits`):
    ``http`` and ``ws`` protocol classes bound to one fresh :class:`ConnectionGuard`,
    the keep-alive timeout, and whose ``X-Forwarded-For``/``-Proto`` headers count.

    ``forwarded_allow_ips`` (comma-separated addresses or networks, uvicorn's syntax)
    are the reverse proxies whose forwarded headers name the client; ``None`` trusts
    none. (uvicorn alone trusts 127.0.0.1, which lets any local user pose as another
    client and spend that client's rate allowance.) The listed addresses (exact
    addresses, or ``*``) are exempt from the per-address cap: a class shares them."""
    proxies = frozenset(a.strip() for a in (forwarded_allow_ips or "").split(",") if a.strip())
    guard = ConnectionGuard(SocketLimits() if limits is None else limits, proxies)
    chosen = guard.limits

    class GuardedHTTP(HTTPProtocol):
        """HTTP/1.1 with a header deadline and the per-address cap."""

        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(transport):
                log.info(
                    "connection from %s refused: %d connections open from that address",
                    self.client[0] if self.client else "?",
                    chosen.per_address,
                )
                transport.abort()
                return
            self._arm()

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self.loop.call_later(chosen.header_timeout, self._late)

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
        "proxy_headers": bool(forwarded_allow_ips),
        "forwarded_allow_ips": forwarded_allow_ips or "",
    }
