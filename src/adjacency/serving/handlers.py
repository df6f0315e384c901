"""The error mapping both apps install: exceptions to ``{"detail": ...}`` responses.

Contract (docs/errors.md): a :class:`~.errors.WebError` answers its own ``status``;
bad input to the core or the bot registry (:class:`~adjacency.core.errors.AdjacencyError`)
400; a run-time failure (:class:`~adjacency.core.errors.AdjacencyRuntimeError`)
:data:`~.errors.RUNTIME_STATUS`; a malformed request 422 with one readable line per
problem; anything else 500 without its text (logged with its traceback). A detail
never exceeds :data:`MAX_DETAIL` characters, since messages quote the input.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ..core import AdjacencyError, AdjacencyRuntimeError
from .errors import RUNTIME_STATUS, WebError
from .middleware import describe_validation

log = logging.getLogger(__name__)

MAX_DETAIL = 400
"""Characters an error's ``detail`` has at most (messages quote input; never a whole upload)."""


def install_error_handlers(app: FastAPI) -> None:
    """Map the error taxonomy onto HTTP statuses with a ``{"detail": ...}`` body."""

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=exc.status)

    @app.exception_handler(AdjacencyError)
    async def bad_value(request: Request, exc: AdjacencyError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=400)

    @app.exception_handler(AdjacencyRuntimeError)
    async def failed(request: Request, exc: AdjacencyRuntimeError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc)}, status_code=RUNTIME_STATUS)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe_validation(exc)}, status_code=422)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {"detail": f"internal error ({type(exc).__name__}); the game is unchanged"},
            status_code=500,
        )


def _detail(exc: Exception) -> str:
    """The message of ``exc``, cut to :data:`MAX_DETAIL` characters."""
    text = str(exc)
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"
