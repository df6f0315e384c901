"""Who is asking: the bearer secrets of the league's accounts.

Contract (docs/league.md, "Security"): a secret acts for one account only: a bot's
token (``adjacency league add-bot``), a person's browser-held secret
(``POST /api/league/people``) or the admin token. Secrets are compared by their
SHA-256 hash (:func:`~adjacency.league.league_file.token_hash`, in the store) and never
written into a page, a log, a record or an error. A missing, unknown or revoked
secret is 401 (:class:`UnknownToken`); a valid secret of the wrong kind of account
is 403.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request

from ...core.details import Detail
from ...serving.details import public
from ...serving.errors import Forbidden, WebError
from ..league_file import Member
from .deps import store_of
from .limits import MEMBER, check_rate


class UnknownToken(WebError):
    """No valid secret was presented (missing, unknown or revoked): 401."""

    status = 401


def bearer(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or ``None``."""
    value = headers.get("authorization")
    if not value:
        return None
    scheme, _, token = str(value).partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require_admin(request: Request) -> None:
    """Admin endpoints: the admin token, else 401 (none or unknown) or 403 (a member's)."""
    check_rate(request, "admin", request.app.state.limits.requests_per_minute)
    token = bearer(request.headers)
    store = store_of(request)
    if token is None:
        raise UnknownToken("this needs the league's admin token (Authorization: Bearer ...)")
    if not store.meta.is_admin(token):
        if store.members.authenticate(token) is not None:
            raise Forbidden("a member's token cannot do admin actions")
        raise UnknownToken("unknown admin token")


def require_person(request: Request) -> Member:
    """Endpoints for people: the person whose secret is the bearer token; else
    :class:`UnknownToken` (401: none, unknown or revoked) or
    :class:`~adjacency.serving.errors.Forbidden` (403: a bot's or house bot's token)."""
    return _member_of_kind(
        request,
        "person",
        unknown="unknown or revoked secret: join again with a name",
        other_kind="bots play through the WebSocket connection, not this endpoint",
    )


def require_bot(request: Request) -> Member:
    """Endpoints for a team's bot: the bot whose token is the bearer token; else
    :class:`UnknownToken` (401: none, unknown or revoked) or
    :class:`~adjacency.serving.errors.Forbidden` (403: a person's or house bot's)."""
    return _member_of_kind(
        request,
        "bot",
        unknown="unknown or revoked token: ask your teacher for your team's token",
        other_kind="only a team's bot token can do this",
        admin="the admin token acts for a team at /api/league/admin/members/NAME/",
    )


def _member_of_kind(
    request: Request, kind: str, unknown: str, other_kind: str, admin: str | None = None
) -> Member:
    """The member of ``kind`` whose token is the bearer token, kept on the request (its
    rates are its own: :func:`check_rate`); else :class:`UnknownToken` (``unknown``)
    for none, an unknown or a revoked token, or, with ``admin``, :class:`Forbidden`
    (``admin``) for the admin token, and :class:`Forbidden` (``other_kind``) for
    another kind's member."""
    token = bearer(request.headers)
    store = store_of(request)
    member = None if token is None else store.members.authenticate(token)
    if member is None:
        if admin is not None and token is not None and store.meta.is_admin(token):
            raise Forbidden(admin)
        raise UnknownToken(unknown)
    if member.kind != kind:
        raise Forbidden(other_kind)
    setattr(request.state, MEMBER, member)
    return member


def _whole(detail: Detail) -> Detail:
    return detail


def details_for(request: Request) -> Callable[[Detail], Detail]:
    """How the asker of a public route reads a game's end: the admin token reads every
    detail whole; a member's token reads whole the ends that name it as the program
    that failed (its own bot's error output); anyone else (no token, or one that is not
    valid: a public route refuses nobody) reads :func:`~adjacency.serving.details.public`
    details, without any program's own output."""
    token = bearer(request.headers)
    if token is None:
        return public
    store = store_of(request)
    if store.meta.is_admin(token):
        return _whole
    member = store.members.authenticate(token)
    if member is None:
        return public
    name = member.name

    def own(detail: Detail) -> Detail:
        return detail if detail.params.get("player") == name else public(detail)

    return own
