"""The static files both apps serve, and how each app mounts them.

:data:`SHARED` holds what both pages use: the board drawing (``js/board.js``), the
stylesheet (``style.css``), the pages' own fonts (``fonts.css`` and ``fonts/``, which
the frame of every page loads), the icon (``favicon.svg``) and the self-hosted API
reference's script (``js/docs.js``, which renders the app's own ``/openapi.json`` on the
page :mod:`adjacency.serving.frame` renders).

Contract: :func:`mount_static` mounts ``/static`` on an app so that a path is looked
up first in the app's own folder, then in :data:`SHARED`. So the URLs the pages use
(``/static/style.css``, ``/static/js/board.js``, the web game's own
``/static/js/main.js``) are the same in both apps and the same as before the shared
files moved here; an app's own file of the same name would win, so the two folders
hold no name in common.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # FastAPI is imported where an app mounts or serves a file, not here:
    # the CLI's commands read SHARED (through the detail catalogues) and start without it.
    from fastapi import FastAPI
    from fastapi.responses import FileResponse

SHARED = Path(__file__).resolve().parent / "static"
"""The shared static files (package data, listed in pyproject.toml)."""


def mount_static(app: FastAPI, own: Path | None = None) -> None:
    """Serve ``/static`` from the folder ``own`` (if given), then from :data:`SHARED`."""
    from fastapi.staticfiles import StaticFiles

    shared: list[str | tuple[str, str]] = [(__package__ or "adjacency.serving", SHARED.name)]
    app.mount("/static", StaticFiles(directory=own, packages=shared), name="static")


def favicon() -> FileResponse:
    """The shared icon (an SVG), for ``/favicon.ico``."""
    from fastapi.responses import FileResponse

    return FileResponse(SHARED / "favicon.svg", media_type="image/svg+xml")
