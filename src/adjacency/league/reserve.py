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
"""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Scope

from ..serving import room
from ..serving.room import pressed as pressed
from .auth import bearer
from .league_file import Member
from .play.hall import Hall

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
