"""Request plumbing: the Host and Origin guard, a body size limit, and readable
messages for malformed requests."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send


class BodyLimit:
    """ASGI middleware refusing request bodies larger than ``limit`` bytes with 413.

    It reads the body itself (checking the declared length first), so an
    oversized upload is refused before any endpoint parses it. ``larger`` names the
    paths (patterns matched against the whole path) allowed a larger body, each with its
    own limit: an upload route, say; every other path keeps ``limit``.
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        larger: Iterable[tuple[re.Pattern[str], int]] = (),
        streamed: Iterable[tuple[re.Pattern[str], int]] = (),
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = tuple(larger)
        self.streamed = tuple(streamed)
        """Paths whose bodies are not held in memory but passed on as they arrive, each
        with its limit (a declared length over it is refused at once; a body that grows
        past it is cut off, and the endpoint sees the client leave): an upload that the
        endpoint streams to disk."""

    def limit_of(self, path: str) -> int:
        """The body limit of a request to ``path``."""
        return next((size for pattern, size in self.larger if pattern.match(path)), self.limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        streamed = next((size for pattern, size in self.streamed if pattern.match(path)), None)
        if streamed is not None:
            await self._stream(scope, receive, send, streamed)
            return
        limit = self.limit_of(path)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(scope, receive, send, limit)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            chunk = message.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                await self._refuse(scope, receive, send, limit)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.lstrip()[:1] in (b"{", b"[") and _too_deep(body):
            response = JSONResponse(
                {
                    "detail": f"malformed request: JSON nested deeper than {MAX_DEPTH} levels",
                    "code": "malformed",
                    "errors": [{"field": "", "code": "too_deep", "params": {"limit": MAX_DEPTH}}],
                },
                status_code=422,
            )
            await response(scope, receive, send)
            return
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _stream(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """Pass a streamed path's body on as it arrives, at most ``limit`` bytes."""
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(scope, receive, send, limit)
            return
        size = 0

        async def counted() -> Any:
            nonlocal size
            message = await receive()
            if message["type"] == "http.request":
                size += len(message.get("body", b""))
                if size > limit:
                    return {"type": "http.disconnect"}
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = JSONResponse(
            {
                "detail": f"request body too large: at most {limit} bytes are accepted",
                "code": "too_large",
            },
            status_code=413,
        )
        await response(scope, receive, send)


MAX_DEPTH = 32
"""The deepest JSON nesting a request body may have (the API's bodies need 3)."""


def _too_deep(body: bytes) -> bool:
    """Whether a JSON body nests deeper than :data:`MAX_DEPTH` (or too deep to parse)."""
    try:
        value = json.loads(body)
    except RecursionError:
        return True
    except ValueError:
        return False  # not JSON: FastAPI answers 422 with the parse error
    return _depth(value, 0)


def _depth(value: Any, level: int) -> bool:
    if level > MAX_DEPTH:
        return True
    if isinstance(value, dict):
        return any(_depth(v, level + 1) for v in value.values())
    if isinstance(value, list):
        return any(_depth(v, level + 1) for v in value)
    return False


STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def host_name(host: str) -> str:
    """The name in a Host header or an origin's netloc, without the port, lowercased
    (``[::1]:8765`` gives ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


class RequestGuard:
    """ASGI middleware shielding the server from other sites' pages.

    * **Host allow-list** (when ``allowed_hosts`` is given): a request naming any
      other host is refused with 400, so a DNS-rebinding page (evil.example
      resolving to 127.0.0.1) cannot reach the API.
    * **Origin check** on state-changing requests (POST, PUT, PATCH, DELETE): a
      browser request from another origin (its ``Origin`` differs from the Host
      it was sent to, or ``Sec-Fetch-Site`` says ``cross-site``) is refused with
      403, so no other page can create games or play moves through a visitor's
      browser. Clients that send no ``Origin`` (curl, scripts) are not browsers
      acting for a page and pass. GET endpoints that start engine work apply the
      same check themselves (:func:`~adjacency.web.deps.same_site`).
    """

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] | None) -> None:
        self.app = app
        self.allowed = None if allowed_hosts is None else {host_name(h) for h in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if self.allowed is not None and host_name(host) not in self.allowed:
            await _refuse(
                scope,
                receive,
                send,
                400,
                "invalid host header: this server is not reachable by that name",
            )
            return
        if scope.get("method") in STATE_CHANGING:
            problem = cross_origin(headers, host)
            if problem:
                await _refuse(scope, receive, send, 403, problem)
                return
        await self.app(scope, receive, send)


def cross_origin(headers: Mapping[str, str], host: str) -> str | None:
    """Why a request comes from another site's page (``Sec-Fetch-Site: cross-site``, or
    an ``Origin`` other than ``host``), or ``None``; ``headers`` has lowercase names."""
    if headers.get("sec-fetch-site") == "cross-site":
        return "cross-site request refused: use the page served by this server"
    origin = headers.get("origin")
    if origin is None:
        return None
    parts = urlsplit(origin)
    if origin == "null" or parts.netloc.lower() != host.strip().lower():
        return f"cross-origin request refused (Origin {origin[:80]!r} is not this server)"
    return None


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, text: str) -> None:
    body = {"detail": text, "code": "refused"}
    await JSONResponse(body, status_code=status)(scope, receive, send)


FIELD_CODES: dict[str, tuple[str, str | None]] = {
    "missing": ("missing", None),
    "extra_forbidden": ("unknown_field", None),
    "greater_than_equal": ("too_small", "ge"),
    "greater_than": ("not_above", "gt"),
    "less_than_equal": ("too_big", "le"),
    "less_than": ("not_below", "lt"),
    "string_too_long": ("too_long", "max_length"),
    "string_too_short": ("too_short", "min_length"),
    "too_long": ("too_many_items", "max_length"),
    "too_short": ("too_few_items", "min_length"),
    "string_pattern_mismatch": ("bad_format", None),
    "literal_error": ("not_allowed", "expected"),
    "enum": ("not_allowed", "expected"),
    "int_type": ("not_integer", None),
    "int_parsing": ("not_integer", None),
    "int_from_float": ("not_integer", None),
    "float_type": ("not_number", None),
    "float_parsing": ("not_number", None),
    "finite_number": ("not_number", None),
    "bool_type": ("not_boolean", None),
    "bool_parsing": ("not_boolean", None),
    "string_type": ("not_text", None),
    "dict_type": ("not_object", None),
    "model_type": ("not_object", None),
    "model_attributes_type": ("not_object", None),
    "list_type": ("not_list", None),
    "json_invalid": ("bad_json", None),
}
"""Pydantic's error types as the stable codes of a 422's ``errors`` (docs/errors.md), each
with the name of the constraint its message names (``None``: it names none); any other
type is ``invalid``. The limit goes in the params as ``limit``; for ``not_allowed`` it is
the accepted values, ``'x', 'o'``."""

FIELD_CODE_NAMES = frozenset({code for code, _ in FIELD_CODES.values()} | {"invalid", "too_deep"})
"""Every code an ``errors`` item may have (each has a catalogue message ``field.<code>``:
tests/test_i18n_catalogues.py)."""


def validation_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    """One ``{"field", "code", "params"}`` per problem of a malformed request, what pages
    translate (:data:`FIELD_CODES`): ``field`` is the dotted path in the body or the
    query (``x.name``; empty for the whole body), ``params`` the ``limit`` a code names.
    :func:`describe_validation` says the same in English."""
    found = []
    for error in exc.errors():
        loc = [str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path")]
        code, constraint = FIELD_CODES.get(str(error.get("type")), ("invalid", None))
        if code == "bad_json":
            loc = []  # its place is a character offset, not a field
        params: dict[str, str | int] = {}
        if constraint is not None:
            value = (error.get("ctx") or {}).get(constraint)
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if code == "not_allowed":
                value = ", ".join(re.split(r", | or ", str(value)))
            if isinstance(value, (int, float, str)) and not isinstance(value, bool):
                params["limit"] = value if isinstance(value, int) else str(value)
        found.append({"field": ".".join(loc), "code": code, "params": params})
    return found


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
