"""The HTML pages (the game page, the rules, the search lab, the self-hosted API reference).

The game's own files are in :data:`STATIC`; the API reference, the icon and the files
the league shares (board, stylesheet) are the serving room's
(:mod:`adjacency.serving.assets`)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ...serving.assets import favicon as shared_favicon
from ...serving.assets import shared_page
from ..deps import client_cookie

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The game page's own files (``/static`` falls back to the shared ones)."""

router = APIRouter(include_in_schema=False)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


@router.get("/")
def index(request: Request) -> FileResponse:
    """The game page (issues the browser's client cookie on its first visit)."""
    page = _page("index.html")
    client_cookie(request, page)
    return page


@router.get("/rules")
def rules() -> FileResponse:
    """The rules page."""
    return _page("rules.html")


@router.get("/lab")
def lab() -> FileResponse:
    """The search lab: how the bots search one position (``?fen=``)."""
    return _page("lab.html")


@router.get("/docs")
def docs() -> FileResponse:
    """The API reference: a static page that renders ``/openapi.json`` in the browser."""
    return shared_page("docs.html")


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The site's icon (an SVG)."""
    return shared_favicon()
