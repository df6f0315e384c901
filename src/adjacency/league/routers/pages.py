"""The league's HTML pages: the leaderboard, a member's page, a game's board, the play
page for people, and the API reference.

The pages are templates in :data:`TEMPLATES`, rendered once in the frame both servers
share (:mod:`adjacency.serving.frame`); the files they load are in :data:`STATIC`
(served under ``/league-static``); the board drawing, the stylesheet, the icon and the
API reference page are the serving room's (:mod:`adjacency.serving.assets`, under
``/static``). Each page asks the JSON API for its data.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from ...serving.assets import favicon as shared_favicon
from ...serving.frame import SHARED_PAGES, Pages
from . import GameId

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The files the league's pages load."""
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
"""The league's pages (templates extending ``_league.html``, in the shared frame)."""
PAGES = Pages(TEMPLATES)

router = APIRouter(include_in_schema=False)


@router.get("/")
def leaderboard_page(request: Request) -> Response:
    """``/``: the leaderboard page (it reads the standings API and refreshes itself)."""
    return PAGES.response("index.html", request)


@router.get("/team")
def team_page(request: Request) -> Response:
    """``/team``: a team's own page, signed in with its token in the page: send a new
    version of its code and follow each version's build and check."""
    return PAGES.response("team.html", request)


@router.get("/bot/{name}")
def bot_page(name: str, request: Request) -> Response:
    """``/bot/NAME``: a member's page (the page itself asks the API for ``name``)."""
    return PAGES.response("bot.html", request)


@router.get("/watch/{game_id}")
def watch_page(game_id: GameId, request: Request) -> Response:
    """``/watch/ID``: a game, live or stored, on the board view of ``adjacency play``."""
    return PAGES.response("watch.html", request)


@router.get("/play")
def play_page(request: Request) -> Response:
    """``/play``: the page where people join with a name and challenge a free bot."""
    return PAGES.response("play.html", request)


@router.get("/docs")
def api_docs(request: Request) -> Response:
    """The API reference: the shared page rendering this app's ``/openapi.json``."""
    return SHARED_PAGES.response("docs.html", request)


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The shared icon (SVG)."""
    return shared_favicon()
