"""The URL path the league's server and its client program must agree on.

The server (:mod:`adjacency.league.routers.socket`) serves the bots' WebSocket there and
the client program (:mod:`adjacency.league.client`) connects to it: both import it from
here, so neither side of the protocol imports the other.
"""

from __future__ import annotations

CONNECT_PATH = "/api/league/connect"
"""Where a bot's WebSocket connects (docs/league.md, "The protocol")."""
