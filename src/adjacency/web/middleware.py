"""Request plumbing: a body size limit, and readable messages for malformed requests."""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send


class BodyLimit:
    """ASGI middleware refusing request bodies larger than ``limit`` bytes with 413.

    It reads the body itself (checking the declared length first), so an
    oversized upload is refused before any endpoint parses it.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(
            {"detail": f"request body too large: at most {self.limit} bytes are accepted"},
            status_code=413,
        )
        await response(scope, receive, send)


def describe_validation(exc: RequestValidationError) -> str:
    """One readable line per problem: ``field.path: message (got value)``."""
    parts = []
    for error in exc.errors():
        loc = [str(p) for p in error.get("loc", ()) if p != "body"]
        where = ".".join(loc) or "request body"
        message = error.get("msg", "invalid")
        if "input" in error and error.get("type") not in ("missing", "json_invalid"):
            shown = repr(error["input"])
            if len(shown) > 60:
                shown = shown[:57] + "..."
            message += f" (got {shown})"
        parts.append(f"{where}: {message}")
    return "; ".join(parts) or "malformed request"
