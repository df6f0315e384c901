"""The league's HTML pages: the leaderboard, a member's page, a game's board, the play
page for people, and the API reference.

The league's own files are in :data:`STATIC` (served under ``/league-static``); the
board drawing, the stylesheet, the icon and the API reference page are the serving
room's shared files (:mod:`adjacency.serving.assets`, under ``/static``). Each page
asks the JSON API for its data.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ...serving.assets import favicon as shared_favicon
from ...serving.assets import shared_page
from . import GameId

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The league pages' own files."""

router = APIRouter(include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


@router.get("/")
def leaderboard_page() -> FileResponse:
    """``/``: the leaderboard page (it reads the standings API and refreshes itself)."""
    return _page("index.html")


@router.get("/team")
def team_page() -> FileResponse:
    """``/team``: a team's own page, signed in with its token in the page: send a new
    version of its code and follow each version's build and check."""
    return _page("team.html")


@router.get("/bot/{name}")
def bot_page(name: str) -> FileResponse:
    """``/bot/NAME``: a member's page (the page itself asks the API for ``name``)."""
    return _page("bot.html")


@router.get("/watch/{game_id}")
def watch_page(game_id: GameId) -> FileResponse:
    """``/watch/ID``: a game, live or stored, on the board view of ``adjacency play``."""
    return _page("watch.html")


@router.get("/play")
def play_page() -> FileResponse:
    """``/play``: the page where people join with a name and challenge a free bot."""
    return _page("play.html")


@router.get("/docs")
def api_docs() -> FileResponse:
    """The API reference: the shared page rendering this app's ``/openapi.json``."""
    return shared_page("docs.html")


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The shared icon (SVG)."""
    return shared_favicon()
