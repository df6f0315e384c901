"""FastAPI dependencies shared by the routers: the manager, the caller, rate limits.

The manager lives on ``app.state`` (set by :func:`~adjacency.web.app.create_app`);
routes receive it as a parameter typed :data:`Manager`, so a test can build an
app around any manager and the routers hold no global state.
"""

from __future__ import annotations

import ipaddress
import time
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from starlette.types import Scope

from ..serving.errors import Forbidden, TooMany
from ..serving.middleware import cross_origin
from . import cookies
from .cookies import Signed
from .limits import Limits, holders
from .manager import GameManager
from .seats import CLIENT_COOKIE, SEAT_HEADER, Caller, digest, new_secret, plausible_secret


async def get_manager(request: Request) -> GameManager:
    """The manager of the app serving ``request``."""
    manager: GameManager = request.app.state.manager
    return manager


Manager = Annotated[GameManager, Depends(get_manager)]
"""A route parameter of this type receives the app's game manager."""


def cookie_key(request: Request) -> bytes:
    """The key that signs the app's client cookies (:mod:`.cookies`): the store's secret,
    read once per app."""
    key: bytes | None = getattr(request.app.state, "cookie_key", None)
    if key is None:
        key = request.app.state.manager.store.secret("cookies")
        request.app.state.cookie_key = key
    return key


def client_cookie(request: Request, response: Response) -> Signed:
    """The request's client id and when the server issued it (:mod:`.cookies`). A
    request without a cookie the server signed gets a new one on ``response``: a fresh
    id, or the id of a cookie of the format before signatures (its games kept), issued
    now either way."""
    key = cookie_key(request)
    text = request.cookies.get(CLIENT_COOKIE)
    signed = cookies.read(key, text)
    if signed is None:
        legacy = text is not None and "." not in text and plausible_secret(text)
        signed = cookies.Signed(text if legacy and text else new_secret(), int(time.time()))
        response.set_cookie(
            CLIENT_COOKIE,
            cookies.issue(key, signed.id, signed.issued),
            max_age=COOKIE_SECONDS,
            httponly=True,
            samesite="strict",
            path="/",
        )
    return signed


async def get_caller(request: Request, response: Response) -> Caller:
    """Who sends the request: its client cookie (issued now if missing) and the seat
    token it presents in the ``X-Seat-Token`` header."""
    signed = client_cookie(request, response)
    token = request.headers.get(SEAT_HEADER)
    return Caller(digest(signed.id), token if plausible_secret(token) else None, signed.issued)


Client = Annotated[Caller, Depends(get_caller)]
"""A route parameter of this type receives the requesting client (see :mod:`.seats`)."""

COOKIE_SECONDS = 400 * 24 * 3600
"""How long a browser keeps its client id (the longest lifetime browsers accept)."""


async def same_site(request: Request) -> None:
    """Refuse (403) a request from another site's page: for endpoints that start engine
    work (an analysis, a review, a game's bots) whatever their method, so no other
    site can make a visitor's browser load this machine (:func:`cross_origin`)."""
    problem = cross_origin(request.headers, request.headers.get("host", ""))
    if problem:
        raise Forbidden(f"{problem}; it would start engine work")


SAME_SITE = Depends(same_site)
"""The dependency of every endpoint that starts engine work (a GET too)."""


def rate_limited(kind: str) -> Any:
    """A dependency taking one request of ``kind`` ("create" or "move") from the client
    address's budget (:class:`~adjacency.web.limits.Limits`); over it: 429."""

    async def check(request: Request) -> None:
        limits: Limits = request.app.state.limits
        address = request.client.host if request.client else ""
        if not limits.limit_loopback and _loopback(address):
            return
        per_minute = limits.creates_per_minute if kind == "create" else limits.moves_per_minute
        if not request.app.state.rates.allow(address, kind, per_minute):
            what = "new games" if kind == "create" else "moves and commands"
            raise TooMany(
                f"too many {what} from your address (at most {per_minute:g} a minute); "
                "wait a moment"
            )

    return Depends(check)


def limited_client(request: Request) -> str | None:
    """The client address that per-client caps count (lab searches, analyses), or ``None``
    for a client on this machine while the server does not limit loopback."""
    limits: Limits = request.app.state.limits
    address = request.client.host if request.client else ""
    if not limits.limit_loopback and _loopback(address):
        return None
    return address


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address in ("localhost", "testclient")


def limited_holders(request: Request) -> tuple[str, ...]:
    """The clients a request's search work counts for (:func:`~.limits.holders`): its
    address and, when it presents a cookie the server signed, its browser; none for a
    client on this machine while the server does not limit loopback."""
    visitor = None
    signed = cookies.read(cookie_key(request), request.cookies.get(CLIENT_COOKIE))
    if signed is not None:
        visitor = digest(signed.id)
    return holders(limited_client(request), visitor)


def holding_clients(scope: Scope) -> tuple[str, ...]:
    """The clients a request held open counts for (:class:`~adjacency.serving.room.Holdings`):
    those of :func:`limited_holders`, read from the request's scope."""
    return limited_holders(Request(scope))
