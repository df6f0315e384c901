"""The league server's caps, and the rate check every route applies.

The token buckets themselves are the serving room's
(:class:`~adjacency.serving.limits.RateLimiter`, one on ``app.state.rates``); what a
client may do per minute is :class:`LeagueLimits`. Clients on this machine are
throttled like any other (a local user is no more trusted than a remote one) unless
:attr:`LeagueLimits.limit_loopback` is off (``league serve --exempt-loopback``).

Whose allowance a request spends: a member's own once the member is known (a bot's
messages by its token, a person's moves by their secret, :func:`check_rate` after
:func:`~adjacency.league.http.auth.require_person`), the address's only for what comes
before (handshakes, joins, public reads, admin requests). A class shares one address
(a school's network behind one NAT), so the per-address allowances are sized for
thirty teams and thirty watchers at once (:attr:`LeagueLimits.address_burst`), and
what a member does never spends its classmates' allowance.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request, WebSocket

from ...serving.errors import TooMany


@dataclass
class LeagueLimits:
    """The league server's caps (defaults suit a 2-core machine and a class of bots)."""

    max_frame: int = 16 * 1024
    """Bytes a WebSocket message may have; a larger frame closes the connection (1009)."""
    max_errors: int = 10
    """Refused messages (malformed, out of turn, over the rate) a connection may send
    before it is closed (1008)."""
    connects_per_minute: float = 120.0
    """WebSocket handshakes per client address per minute (a class's thirty bots connect
    at once, up to :attr:`address_burst`; reconnecting clients back off)."""
    connects_per_token: float = 30.0
    """WebSocket connections per bot token per minute (one bot reconnecting in a loop)."""
    messages_per_minute: float = 1200.0
    """Messages per bot token per minute. A move that answers the server's ``your_turn``
    (in the bot's own game, at its turn) is never counted nor refused: the server asked
    for it, so the limiter never decides a game."""
    requests_per_minute: float = 120.0
    """State-changing HTTP requests per minute: a person's moves, challenges and answers
    per person (their secret); admin requests per address; joins a quarter of it per
    address."""
    uploads_per_minute: float = 2.0
    """Uploads of a team's code per minute, each team its own (after a burst of
    :attr:`upload_burst`): each one is kept, built and checked by the server."""
    upload_burst: int = 5
    code_reads_per_minute: float = 20.0
    """Reads of a team's own code (a version's view, a diff, a zip) per team per
    minute, after a burst of :attr:`code_burst`: each is a heavy read
    (:class:`~adjacency.league.http.deps.HeavyReads`)."""
    code_burst: int = 10
    reads_per_minute: float = 2400.0
    """Public GETs of the JSON API per address per minute: thirty pages polling every
    2 s from one school address, with room to spare."""
    burst: int = 30
    """Requests of one kind a client may make at once before the rate applies."""
    address_burst: int = 120
    """Handshakes and public GETs one address may make at once (a class starting
    together behind one NAT: thirty bots and thirty pages)."""
    limit_loopback: bool = True
    """Whether the rates apply to clients on this machine too (off: ``league serve
    --exempt-loopback``, for benchmarks and tests that play fast from this machine)."""


LOOPBACK = ("127.0.0.1", "::1", "localhost")
"""Addresses of this machine (not throttled when :attr:`LeagueLimits.limit_loopback` is off)."""


def check_read_rate(request: Request) -> None:
    """Refuse with 429 when the client's address is over its rate of public GETs
    (:attr:`LeagueLimits.reads_per_minute`, :attr:`LeagueLimits.address_burst` at once);
    a dependency of the public router."""
    limits: LeagueLimits = request.app.state.limits
    check_rate(request, "read", limits.reads_per_minute, limits.address_burst)


MEMBER = "member"
"""The attribute of ``request.state`` that names the authenticated member (set by
:func:`~adjacency.league.http.auth.require_person`): its rates are its own."""


def throttled(request_or_ws: Request | WebSocket) -> bool:
    """Whether the rates apply to this client (all but this machine's with
    :attr:`LeagueLimits.limit_loopback` off)."""
    limits: LeagueLimits = request_or_ws.app.state.limits
    address = request_or_ws.client.host if request_or_ws.client else "?"
    return limits.limit_loopback or address not in LOOPBACK


def check_rate(
    request_or_ws: Request | WebSocket, kind: str, per_minute: float, burst: int | None = None
) -> None:
    """Refuse with 429 when the client is over its ``kind`` rate: the authenticated
    member's own (:data:`MEMBER`) when the request has one, else its address's."""
    if not throttled(request_or_ws):
        return
    member = getattr(request_or_ws.state, MEMBER, None)
    if member is not None:
        client, who = f"member:{member.id}", member.name
    else:
        client = who = request_or_ws.client.host if request_or_ws.client else "?"
    if not request_or_ws.app.state.rates.allow(client, kind, per_minute, burst):
        raise TooMany(f"too many requests from {who}: at most {per_minute:g} per minute")
