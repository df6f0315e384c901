"""The last connection places of the league server, kept for its teacher and its bots
with games.

Why: the socket guard (:mod:`adjacency.serving.sockets`) caps the connections below the
open-file limit, but a crowd reconnecting at once (pages reloading, bots in a retry
loop) could still fill every place, and then the teacher could not open the overview
to act, nor a bot with a game in play come back to it before its clock ran out.

Contract: while the guard says its reserved places are in use
(:meth:`~adjacency.serving.sockets.ConnectionGuard.pressed`, the guard the server gave
the app as ``app.state.connections``), :class:`KeepRoom` answers every HTTP request 503
with ``Connection: close`` (its place is freed at once), but those carrying the league's
admin token and the teacher's page and its files; a bot's WebSocket is refused the same
way unless the bot has a game in play (:func:`keeps_room_for`, asked by the connection
route once the bot is known). An app served without a guard keeps no room. The
refusal and the pressed test are both servers' (:mod:`adjacency.serving.room`).

And the places beyond an address's cap
(:attr:`~adjacency.serving.sockets.SocketLimits.tokened`): a class behind one address
shares its cap, so one team holding every place of it (keep-alive connections asking
for a stylesheet) would keep another team's bot out of its event games. A connection
opened beyond the cap is served by
:class:`TokenedPlaces` only for requests carrying a known token (a team's, a person's,
the teacher's), at most :attr:`~adjacency.serving.sockets.SocketLimits.per_token` such
connections a token; anything else there is a 429 that closes it.
"""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from ...serving import room
from ...serving.room import pressed as pressed
from ..league_file import Member
from ..play.hall import Hall
from .auth import bearer

TEACHER_PATHS = ("/teacher", "/league-static/", "/static/")
"""What the teacher's page loads before its first admin request (kept for anyone: they
are small files, answered at once)."""

BUSY = (
    "the server is near its connection limit; its last places are kept for the teacher "
    "and the bots with games: try again in a few seconds"
)
"""The detail of a refusal for want of a place."""


def keeps_room_for(hall: Hall, member: Member) -> bool:
    """Whether a bot connecting now is one the reserved places are kept for: it has a
    game in play (its clock runs while it is away)."""
    return hall.games.busy[member.id] > 0


class KeepRoom(room.KeepRoom):
    """ASGI middleware: while the reserve is in use, only the teacher's requests (the
    admin token, the teacher's page) are served over HTTP; the rest get 503 and the
    connection closes (:class:`adjacency.serving.room.KeepRoom`). WebSockets pass (their
    route decides, :func:`keeps_room_for`)."""

    def __init__(self, app: ASGIApp, league: Any) -> None:
        super().__init__(app, league, self._teacher, BUSY)
        self.league = league

    def _teacher(self, scope: Scope) -> bool:
        path = str(scope.get("path", ""))
        if path == TEACHER_PATHS[0] or path.startswith(TEACHER_PATHS[1:]):
            return True
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        token = bearer(headers)
        return token is not None and bool(self.league.state.store.meta.is_admin(token))


CROWDED = (
    "your address holds as many connections as one address may; beyond them a request is "
    "served only with a team's or a person's token (adjacency connect and league submit "
    "send theirs): close some or try again shortly"
)
"""The detail of a refusal beyond an address's cap."""


class TokenedPlaces:
    """ASGI middleware: a request on a connection opened beyond its address's cap
    (:meth:`~adjacency.serving.sockets.ConnectionGuard.beyond`) is served only with a
    token of the league's (a member's, revoked or not is the routes' to judge, or the
    teacher's), each token on at most ``per_token`` such connections; else HTTP 429
    that closes the connection, or a WebSocket closed before it opens (policy, 1008)."""

    def __init__(self, app: ASGIApp, league: Any) -> None:
        self.app = app
        self.league = league
        self.holders: dict[str, set[tuple[str, int]]] = {}
        """The connections beyond their address's cap each token holds (by peer)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        guard = getattr(self.league.state, "connections", None)
        client = scope.get("client")
        peer = (str(client[0]), int(client[1])) if client else None
        if (
            scope["type"] not in ("http", "websocket")
            or guard is None
            or not guard.beyond(peer)
            or self._admit(scope, guard, peer)
        ):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            self.league.state.hall.presence.refuse(None)  # an absent bot's event game waits
            await send({"type": "websocket.close", "code": 1008, "reason": "address full"})
            return
        await room.refuse(send, 429, CROWDED, "address_full")

    def _admit(self, scope: Scope, guard: Any, peer: tuple[str, int] | None) -> bool:
        """Whether the request on ``peer``'s connection (beyond its address's cap)
        carries a known token with a place left, taking one for it."""
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        token = bearer(headers)
        store = self.league.state.store
        if token is None or not (
            store.members.authenticate(token) is not None or store.meta.is_admin(token)
        ):
            return False
        held = {p for p in self.holders.get(token, set()) if guard.beyond(p)}
        if peer not in held and len(held) >= guard.limits.per_token:
            self.holders[token] = held
            return False
        held.add(peer)  # type: ignore[arg-type]
        self.holders[token] = held
        return True
