"""The error mapping both apps install: exceptions to ``{"detail", "code", "params"}`` bodies.

Contract (docs/errors.md): a :class:`~.errors.WebError` answers its own ``status``;
bad input to the core or the bot registry (:class:`~adjacency.core.errors.AdjacencyError`)
400; a run-time failure (:class:`~adjacency.core.errors.AdjacencyRuntimeError`)
:data:`~.errors.RUNTIME_STATUS`; a malformed request 422 with one readable line per
problem; anything else 500 without its text (logged with its traceback). A detail
never exceeds :data:`MAX_DETAIL` characters, since messages quote the input.

Every body also carries a stable ``code`` (:class:`~.models.ErrorMessage`): a
:class:`~.errors.WebError`'s own (with its ``params``), ``invalid`` for bad input,
``unavailable`` for a run-time failure, ``malformed`` for a request that does not
parse, ``internal`` otherwise. Pages translate the code and fall back to the detail. A
malformed request's body adds ``errors``, one ``{"field", "code", "params"}`` per
problem (:func:`~.middleware.validation_errors`), which pages translate field by field.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ..core import AdjacencyError, AdjacencyRuntimeError
from .errors import RUNTIME_STATUS, WebError
from .middleware import describe_validation, validation_errors

log = logging.getLogger(__name__)

MAX_DETAIL = 400
"""Characters an error's ``detail`` has at most (messages quote input; never a whole upload)."""


def install_error_handlers(app: FastAPI) -> None:
    """Map the error taxonomy onto HTTP statuses with a ``{"detail", "code"}`` body."""

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        body = {"detail": _detail(exc), "code": exc.code, "params": exc.params}
        later = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
        return JSONResponse(body, status_code=exc.status, headers=later)

    @app.exception_handler(AdjacencyError)
    async def bad_value(request: Request, exc: AdjacencyError) -> JSONResponse:
        return JSONResponse({"detail": _detail(exc), "code": "invalid"}, status_code=400)

    @app.exception_handler(AdjacencyRuntimeError)
    async def failed(request: Request, exc: AdjacencyRuntimeError) -> JSONResponse:
        body = {"detail": _detail(exc), "code": "unavailable"}
        return JSONResponse(body, status_code=RUNTIME_STATUS)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        body = {
            "detail": describe_validation(exc),
            "code": "malformed",
            "errors": validation_errors(exc),
        }
        return JSONResponse(body, status_code=422)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            {
                "detail": f"internal error ({type(exc).__name__}); the game is unchanged",
                "code": "internal",
            },
            status_code=500,
        )


def _detail(exc: Exception) -> str:
    """The message of ``exc``, cut to :data:`MAX_DETAIL` characters."""
    text = str(exc)
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"
