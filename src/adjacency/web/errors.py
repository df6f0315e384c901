"""Errors of the web layer, each with the HTTP status it maps to.

Bad input to the rules core or the bot registry (:class:`AdjacencyError`) maps
to 400; these add the cases that are not about the input's form.
"""

from __future__ import annotations

QUOTE_CHARS = 80
"""Characters of a client's input an error message repeats at most."""


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of ``text`` cut to about ``limit`` characters (an error never echoes a
    whole upload back)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class WebError(Exception):
    """A request that cannot be served; ``status`` is the HTTP code."""

    status = 400


class Forbidden(WebError):
    """The request needs a seat (or the game's owner) that the client does not hold."""

    status = 403


class GameNotFound(WebError):
    """No game with that id (in memory or in the store)."""

    status = 404


class NotNow(WebError):
    """A well-formed request that the game's state does not allow now (e.g. not your turn)."""

    status = 409


class TooMany(WebError):
    """Over a server limit (requests per client, bot games, pending hints): try later."""

    status = 429
