"""The HTML pages (the game page, the rules, the search lab, the self-hosted API reference).

The pages are templates in :data:`TEMPLATES`, rendered once in the frame both servers
share (:mod:`adjacency.serving.frame`); the files they load are in :data:`STATIC`; the
API reference, the icon and the files the league shares (board, stylesheet) are the
serving room's (:mod:`adjacency.serving.assets`)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from ...serving.assets import favicon as shared_favicon
from ...serving.frame import SHARED_PAGES, Pages
from ..deps import client_cookie

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The game page's own files (``/static`` falls back to the shared ones)."""
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
"""The game's pages (templates extending the shared frame)."""
PAGES = Pages(TEMPLATES)

router = APIRouter(include_in_schema=False)


@router.get("/")
def index(request: Request) -> Response:
    """The game page (issues the browser's client cookie on its first visit)."""
    page = PAGES.response("index.html", request)
    client_cookie(request, page)
    return page


@router.get("/rules")
def rules(request: Request) -> Response:
    """The rules page."""
    return PAGES.response("rules.html", request)


@router.get("/lab")
def lab(request: Request) -> Response:
    """The search lab: how the bots search one position (``?fen=``)."""
    return PAGES.response("lab.html", request)


@router.get("/docs")
def docs(request: Request) -> Response:
    """The API reference: a page that renders ``/openapi.json`` in the browser."""
    return SHARED_PAGES.response("docs.html", request)


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The site's icon (an SVG)."""
    return shared_favicon()
