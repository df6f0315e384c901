"""Request errors of the servers (``adjacency play`` and the league), each with the
HTTP status it maps to (:func:`~adjacency.serving.handlers.install_error_handlers`).

Bad input to the rules core or the bot registry (:class:`AdjacencyError`) maps
to 400, a run-time failure (:class:`~adjacency.core.errors.AdjacencyRuntimeError`)
to :data:`RUNTIME_STATUS` (docs/errors.md); these add the cases that are not about
the input's form.
"""

from __future__ import annotations

from ..core.text import QUOTE_CHARS as QUOTE_CHARS  # the one quoting helper, re-exported
from ..core.text import quote as quote

RUNTIME_STATUS = 503
"""HTTP status of a run-time failure (:class:`~adjacency.core.errors.AdjacencyRuntimeError`:
an engine, worker or store failed; the request was fine and may succeed later)."""


class WebError(Exception):
    """A request that cannot be served; ``status`` is the HTTP code.

    ``code`` names the error for pages and clients (stable across releases and
    languages: a page translates it, with ``params`` filled into its message, and falls
    back to the English ``detail``); each class has a general code, a raise site may
    give a specific one.
    """

    status = 400
    code = "bad_request"
    retry_after: int | None = None
    """Seconds after which the same request may succeed, sent as ``Retry-After`` (a
    polite client waits that long before it asks again); ``None``: not said."""

    def __init__(
        self, detail: str, *, code: str | None = None, params: dict[str, str | int] | None = None
    ) -> None:
        super().__init__(detail)
        if code is not None:
            self.code = code
        self.params: dict[str, str | int] = dict(params or {})


class Forbidden(WebError):
    """The request needs a seat (or the game's owner) that the client does not hold."""

    status = 403
    code = "forbidden"


class GameNotFound(WebError):
    """No game with that id (in memory or in the store)."""

    status = 404
    code = "not_found"


class NotNow(WebError):
    """A well-formed request that the game's state does not allow now (e.g. not your turn)."""

    status = 409
    code = "not_now"


class TooLarge(WebError):
    """A request body larger than the path accepts."""

    status = 413


class TooMany(WebError):
    """Over a server limit (requests per client, bot games, pending hints): try later."""

    status = 429
    code = "too_many"
