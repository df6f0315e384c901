"""Errors of the web layer, each with the HTTP status it maps to.

Bad input to the rules core or the bot registry (:class:`AdjacencyError`) maps
to 400; these add the cases that are not about the input's form.
"""

from __future__ import annotations


class WebError(Exception):
    """A request that cannot be served; ``status`` is the HTTP code."""

    status = 400


class GameNotFound(WebError):
    """No game with that id (in memory or in the store)."""

    status = 404


class NotNow(WebError):
    """A well-formed request that the game's state does not allow now (e.g. not your turn)."""

    status = 409
