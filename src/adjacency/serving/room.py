"""Room for the clients a server must not lock out: the last places under its connection
cap kept for them, and the share of places one client may hold.

Why: the socket guard (:mod:`.sockets`) caps the connections below the open-file limit,
but a cap alone is a lockout. Sixty-five addresses each holding as many event streams as
one address may filled every place, and then no new visitor could open a page; behind a
trusted proxy every client arrives from the proxy's address, so the socket guard's
per-address cap cannot tell them apart either.

Two pieces, both servers' (each names whom its last places are for):

* :class:`KeepRoom`: while the server is *pressed* (its last places are in use), a
  request the application does not keep room for is answered at once with a refusal
  (:func:`refuse`: a JSON ``detail`` and ``code``, ``Retry-After``, ``Connection:
  close``, so its place is freed at once). The league keeps its room for its teacher
  (the bots with games are let in by their connection route); ``adjacency play``
  through :class:`Holdings` for new visitors.
* :class:`Holdings`: the requests each client holds open now (an event stream, a page
  being answered), counted per client as the application names them (its address,
  forwarded by a trusted proxy, and its browser). A client at its cap (a share of the
  total: :attr:`HoldLimits.per_address`, :attr:`HoldLimits.per_browser`) is refused
  429; once the server holds more than ``total - reserve`` requests, or its socket guard
  is pressed, only clients holding fewer than :attr:`HoldLimits.newcomer` get in (503
  for the rest), so whatever a crowd holds a new visitor still gets its page and its
  game; at ``total``, every request is refused.

So a lockout needs ``(total - reserve) / per_address + reserve / newcomer`` addresses
(about 540 with ``adjacency play``'s defaults) where a cap alone needed
``total / per_address``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

REASONS = {429: b"Too Many Requests", 503: b"Service Unavailable"}


def pressed(app: Any) -> bool:
    """Whether the socket guard the server gave ``app`` (``app.state.connections``, see
    :func:`~.sockets.socket_options`) says its reserved places are in use (``False`` for
    an app served without one)."""
    guard = getattr(app.state, "connections", None)
    return guard is not None and bool(guard.pressed())


async def refuse(send: Send, status: int, detail: str, code: str) -> None:
    """Answer an HTTP request ``status`` (429 or 503) with ``detail`` and ``code`` as
    JSON, ``Retry-After: 5`` and ``Connection: close`` (the client's place frees at once)."""
    body = json.dumps({"detail": detail, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"5"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class KeepRoom:
    """ASGI middleware: while ``owner`` (an app whose state may hold the socket guard) is
    :func:`pressed`, HTTP requests ``kept`` does not accept get 503 (``detail``, code
    ``server_full``) and their connection closes; WebSockets pass (their route decides)."""

    def __init__(
        self, app: ASGIApp, owner: Any, kept: Callable[[Scope], bool], detail: str
    ) -> None:
        self.app = app
        self.owner = owner
        self.kept = kept
        self.detail = detail

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not pressed(self.owner) or self.kept(scope):
            await self.app(scope, receive, send)
            return
        await refuse(send, 503, self.detail, "server_full")


@dataclass(frozen=True)
class HoldLimits:
    """How many requests a server and each of its clients may hold open at once."""

    total: int = 4096
    """Requests (event streams included) the server answers at once."""
    reserve: int | None = None
    """The last places under :attr:`total` kept for new visitors; ``None``: a quarter."""
    per_address: int = 128
    """Requests one address may hold open (a class behind one address: thirty pupils
    with a few game and analysis streams each): a 32nd of :attr:`total`."""
    per_browser: int = 8
    """Requests one browser may hold open (eight tabs, each with its game's stream)."""
    newcomer: int = 2
    """A client holding fewer requests than this is a new visitor: the reserved places
    are kept for such clients (a page's first stream and its analysis)."""


class Holdings:
    """ASGI middleware: counts the requests each client holds open and refuses beyond
    the caps of :class:`HoldLimits` (see the module's contract).

    ``who(scope)`` names a request's clients (``"address A"``, ``"browser B"``; none
    for a client the server does not limit, counted in the total only). ``owner``'s
    socket guard, when pressed (:func:`pressed`), keeps the reserved places for new
    visitors too. Runs on the event loop only (no lock).
    """

    def __init__(
        self,
        app: ASGIApp,
        owner: Any,
        who: Callable[[Scope], tuple[str, ...]],
        limits: HoldLimits | None = None,
    ) -> None:
        self.app = app
        self.owner = owner
        self.who = who
        self.limits = HoldLimits() if limits is None else limits
        chosen = self.limits
        self.reserve = chosen.total // 4 if chosen.reserve is None else chosen.reserve
        self.count = 0
        """Requests held now (every client's)."""
        self.held: dict[str, int] = {}
        """Requests held now per client (clients holding none are forgotten)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        clients = self.who(scope)
        problem = self._problem(clients)
        if problem is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1013, "reason": problem[1]})
            else:
                await refuse(send, *problem)
            return
        self.count += 1
        for client in clients:
            self.held[client] = self.held.get(client, 0) + 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.count -= 1
            for client in clients:
                left = self.held.pop(client, 1) - 1
                if left > 0:
                    self.held[client] = left

        async def sent(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                release()  # answered: the client may send its next request at once

        try:
            await self.app(scope, receive, sent)
        finally:
            release()

    def _problem(self, clients: tuple[str, ...]) -> tuple[int, str, str] | None:
        """Why a new request of ``clients`` is refused now: (status, detail, code)."""
        limits = self.limits
        if self.count >= limits.total:
            return (
                503,
                f"the server answers {self.count} requests at once, as many as it may; "
                "try again in a few seconds",
                "server_full",
            )
        for client in clients:
            kind = client.split(" ", 1)[0]
            cap = limits.per_browser if kind == "browser" else limits.per_address
            if self.held.get(client, 0) >= cap:
                return (
                    429,
                    f"your {kind} holds {cap} requests open on this server (event streams, "
                    "pages being answered), the most one client may; close a tab or "
                    "try again shortly",
                    "too_many_connections",
                )
        crowded = self.count >= limits.total - self.reserve or pressed(self.owner)
        if crowded and any(self.held.get(c, 0) >= limits.newcomer for c in clients):
            return (
                503,
                "the server is near its limit of open requests; its last places are kept "
                "for new visitors: close a tab or try again in a few seconds",
                "server_full",
            )
        return None
