"""The browser front end: a FastAPI app that serves the page and runs games.

Heavy imports (FastAPI, pydantic, uvicorn) live in the submodules, so importing
this package is cheap. Start it with ``adjacency play`` or :func:`serve`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .server import serve

__all__ = ["serve"]


def __getattr__(name: str) -> object:
    if name == "serve":
        from .server import serve

        return serve
    raise AttributeError(name)
