"""The app's routes, one router per area: pages, games, play, analysis, lab, puzzles, events.

Every router reads the game manager through :data:`~adjacency.web.deps.Manager`.
Endpoints that touch a game are plain functions, run by FastAPI in its thread
pool, so the event loop never waits for a lock or a bot.
"""

from __future__ import annotations

from typing import Any

from ...serving.models import ErrorMessage

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorMessage, "description": text}
    for code, text in (
        (400, "a value is out of range or illegal (the message says which)"),
        (403, "a seat this browser does not hold, or a request from another site's page"),
        (404, "no such game"),
        (409, "the game's state does not allow this now"),
        (422, "the request is malformed"),
    )
}
"""The error responses every game endpoint documents."""
