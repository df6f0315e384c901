"""The league app's routes, one module per concern, like the web app's
(:mod:`adjacency.web.routers`):

* :mod:`.public`: what anyone may read (settings, standings, members, pairs, games,
  records, load figures);
* :mod:`.people`: joining as a person, who you are, a person's moves;
* :mod:`.challenges`: a person's challenges (queued for a busy bot, or waiting for a
  person's answer);
* :mod:`.admin`: adding, revoking and rotating members (the admin token);
* :mod:`.teacher`: the teacher's page and its admin routes (an overview, events
  created, started and withdrawn from, an event's results as one archive);
* :mod:`.roster`: a class's roster of team names added at once, with its token sheet;
* :mod:`.server_log`: the server's last log lines, for the teacher's page;
* :mod:`.cards`: the report cards of the teams' versions, for the team and the teacher;
* :mod:`.socket`: the bots' WebSocket connection (docs/league.md, "The protocol");
* :mod:`.pages`: the HTML pages.

Who may call what is :mod:`adjacency.league.http.auth`; every route reads the hall and the
store through :mod:`adjacency.league.http.deps`. The JSON routes share one prefix,
``/api/league``, and the error responses :data:`~adjacency.league.models.ERRORS`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path as FastPath

PROTOCOL_VERSION = 1
"""The version of the bots' connection protocol (``welcome`` and ``GET /api/league``)."""
PREFIX = "/api/league"
"""Where the JSON API and the WebSocket live."""

GameId = Annotated[int, FastPath(ge=1, le=2**62, description="a game's number")]
"""A game's number in a path (1 to 2**62)."""
