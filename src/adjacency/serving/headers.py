"""Security headers on every response of both apps (pages, API, static files, errors,
and refused WebSocket handshakes).

Why each header (docs/web.md and docs/league.md, "Security"):

* ``Content-Security-Policy``: the pages load only their own scripts, styles, images
  and API (``'self'``), run no inline script and apply no inline style, so an injected
  string cannot run as code; ``frame-ancestors 'none'`` forbids framing (no
  clickjacking of challenges, moves or seat links).
* ``X-Frame-Options: DENY``: the same for browsers that predate ``frame-ancestors``.
* ``X-Content-Type-Options: nosniff``: a record or JSON answer is never run as script.
* ``Referrer-Policy: no-referrer``: a page's address (a seat link, a game id) is not
  sent to other sites.

Contract: a header the app already set on a response is kept (an endpoint may narrow
its own policy); every other response gets :data:`SECURITY_HEADERS`.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The content security policy of both apps' pages (same-origin everything, nothing inline)."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)

_STARTS = ("http.response.start", "websocket.http.response.start")


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response (and to
    the HTTP answer refusing a WebSocket handshake); :func:`install_security_headers`
    puts it around an app's whole stack."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] in _STARTS:
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install_security_headers(app: FastAPI) -> None:
    """Wrap ``app``'s whole middleware stack in :class:`SecurityHeaders`.

    Outside Starlette's own error middleware, not inside it as ``add_middleware``
    would put it: so the guards' refusals and the 500 answer of an unexpected error
    carry the headers too.
    """
    build = app.build_middleware_stack

    def build_secured() -> ASGIApp:
        return SecurityHeaders(build())

    setattr(app, "build_middleware_stack", build_secured)  # noqa: B010 - a method override
