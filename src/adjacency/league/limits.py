"""The league server's caps, and the per-address rate check every route applies.

The token buckets themselves are the serving room's
(:class:`~adjacency.serving.limits.RateLimiter`, one on ``app.state.rates``); what a
client may do per minute is :class:`LeagueLimits`. Clients on this machine are
throttled like any other (a local user is no more trusted than a remote one) unless
:attr:`LeagueLimits.limit_loopback` is off (``league serve --exempt-loopback``).
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request, WebSocket

from ..serving.errors import TooMany


@dataclass
class LeagueLimits:
    """The league server's caps (defaults suit a 2-core machine and a class of bots)."""

    max_frame: int = 16 * 1024
    """Bytes a WebSocket message may have; a larger frame closes the connection (1009)."""
    max_errors: int = 10
    """Refused messages (malformed, out of turn, over the rate) a connection may send
    before it is closed (1008)."""
    connects_per_minute: float = 30.0
    """WebSocket connections per client address per minute (reconnecting clients back off)."""
    messages_per_minute: float = 1200.0
    """Messages per token and per address per minute."""
    requests_per_minute: float = 120.0
    """State-changing HTTP requests (join, challenge, move, admin) per address per minute."""
    reads_per_minute: float = 600.0
    """Public GETs of the JSON API per address per minute (the pages poll every 2 s)."""
    burst: int = 30
    """Requests of one kind a client may make at once before the rate applies."""
    limit_loopback: bool = True
    """Whether the rates apply to clients on this machine too (off: ``league serve
    --exempt-loopback``, for benchmarks and tests that play fast from this machine)."""


LOOPBACK = ("127.0.0.1", "::1", "localhost")
"""Addresses of this machine (not throttled when :attr:`LeagueLimits.limit_loopback` is off)."""


def check_read_rate(request: Request) -> None:
    """Refuse with 429 when the client's address is over its rate of public GETs
    (:attr:`LeagueLimits.reads_per_minute`); a dependency of the public router."""
    check_rate(request, "read", request.app.state.limits.reads_per_minute)


def check_rate(request_or_ws: Request | WebSocket, kind: str, per_minute: float) -> None:
    """Refuse with 429 when the client's address is over its ``kind`` rate."""
    app = request_or_ws.app
    limits: LeagueLimits = app.state.limits
    address = request_or_ws.client.host if request_or_ws.client else "?"
    if address in LOOPBACK and not limits.limit_loopback:
        return
    if not app.state.rates.allow(address, kind, per_minute):
        raise TooMany(f"too many requests from {address}: at most {per_minute:g} per minute")
