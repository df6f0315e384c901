"""What the league's server and its client programs must agree on.

The server (:mod:`adjacency.league`) serves the bots' WebSocket at :data:`CONNECT_PATH`
and takes uploads of at most :data:`MAX_UPLOAD` bytes; the client programs
(:mod:`.connect`, :mod:`.submit`) connect there and pack their uploads to fit. Both sides
import these from here, so the client never imports the server.
"""

from __future__ import annotations

from ..core.errors import AdjacencyError

CONNECT_PATH = "/api/league/connect"
"""Where a bot's WebSocket connects (docs/league.md, "The protocol")."""

ABORTED = "aborted"
"""The ``termination`` of a ``game_end`` for a game the server aborted (it stopped, or
it restarted after a crash): no result, unrated; the client drops the game's engine."""

MAX_UPLOAD = 5 * 1024 * 1024
"""Largest upload of a team's code, in bytes (a zip of its sources)."""


class LeagueRefused(AdjacencyError):
    """The league refused what a client sent (a token, an upload), or the client's own
    input cannot be sent (a URL, a project with nothing to send): one line, the server's
    own words where it gave them."""
