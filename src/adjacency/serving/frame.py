"""The HTML pages of both servers, rendered from Jinja2 templates that share one frame.

:data:`TEMPLATES` holds the frame: ``_base.html`` (the document, its ``<head>`` and
``<body>``), ``_frame.html`` (the top bar with the brand, the language picker, the theme
picker: macros a page places) and the page both servers serve, the API reference
(``docs.html``). Each server keeps its own pages in its own ``templates`` folder; a
page extends ``_base.html`` (the league's through its ``_league.html``). A template
whose name starts with ``_`` is a part of pages, not a page.

Contract: :class:`Pages` renders a page once, the first time it is asked for, and
answers every later request with the same text; a page takes no value from a request
(what a page shows of the server's data, it asks the JSON API for, or the router adds
to the rendered text itself, escaped). Autoescaping is on and an undefined name is an
error, so a template mistake fails the first request (and the tests), not silently.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The shared frame and the shared pages (package data, listed in pyproject.toml)."""

LANGUAGES = (("en", "English"), ("id", "Bahasa Indonesia"))
"""The languages with a catalogue, each named in itself: the language picker's options
as sent (the same as ``LANGUAGES`` in ``static/js/i18n.js``, which fills it again)."""

NO_CACHE = {"Cache-Control": "no-cache"}
"""Browsers revalidate a page each time (its ETag answers with 304 when unchanged)."""


class Pages:
    """The pages of one server: its own templates in ``own``, then the shared ones."""

    def __init__(self, own: Path) -> None:
        self._own = own
        self._env = Environment(
            loader=ChoiceLoader([FileSystemLoader(own), FileSystemLoader(TEMPLATES)]),
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self._env.globals["languages"] = LANGUAGES
        self._rendered: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """The pages of this server's own folder (its templates but the parts)."""
        return sorted(
            name
            for name in self._env.list_templates(extensions=["html"])
            if not name.startswith("_") and (self._own / name).is_file()
        )

    def html(self, name: str) -> str:
        """The page ``name`` (a template file name), rendered once."""
        return self._page(name)[0]

    def _page(self, name: str) -> tuple[str, str]:
        with self._lock:
            page = self._rendered.get(name)
            if page is None:
                text = self._env.get_template(name).render()
                tag = '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
                page = self._rendered[name] = (text, tag)
            return page

    def response(self, name: str, request: Request | None = None) -> Response:
        """The page ``name`` as an HTML response browsers revalidate each time: 304
        when ``request`` already holds this text (its ``If-None-Match``)."""
        text, tag = self._page(name)
        headers = {**NO_CACHE, "ETag": tag}
        if request is not None and tag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return HTMLResponse(text, headers=headers)


SHARED_PAGES = Pages(TEMPLATES)
"""The pages both servers serve alike (the API reference)."""
