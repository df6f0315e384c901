"""The adapter between the socket guard (:mod:`.sockets`) and uvicorn's private protocol
classes: the only module that imports them, and the list of what the guard uses of them.

uvicorn has no public hook for a connection being opened, a response ending or a
WebSocket handshake being answered, so the guard subclasses the two protocol classes
that serve HTTP/1.1 and WebSockets (``http`` and ``ws`` in uvicorn's options) and reads
their state. Those classes are private: a uvicorn release may rename what the guard
reads. Everything it relies on is named here (:data:`HTTP_RELIED_ON`,
:data:`WEBSOCKET_RELIED_ON`, :data:`CYCLE_RELIED_ON`, :data:`UNANSWERED`), and
``tests/serving/test_uvicorn_protocols.py`` checks each against the installed uvicorn, so
an upgrade that changes one fails there, naming it, instead of in a running server.

Tested range (:data:`TESTED`): uvicorn 0.52.1 to 0.54.0; ``pyproject.toml`` admits the
first up to the last one's minor series (``<0.55``), and ``deploy/constraints.txt`` pins
the tested one for a deployed server. The sans-I/O WebSocket protocol first shipped in
0.35.0 (with 0.34 and earlier the servers cannot even import), but until 0.52.0 it
answered a handshake the application refuses (the league's 401, 403 and 429) with two
``Content-Length`` headers, which WebSocket clients reject as an invalid response:
0.52.1 sets its headers only where the application gave none
(``tests/league/test_hostile_clients.py`` fails on 0.35.0 to 0.52.0 and passes from
0.52.1).
"""

from __future__ import annotations

from uvicorn.protocols.http.h11_impl import H11Protocol as HTTPProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import (
    WebSocketsSansIOProtocol as WebSocketProtocol,
)

__all__ = [
    "CYCLE_RELIED_ON",
    "HTTP_RELIED_ON",
    "TESTED",
    "UNANSWERED",
    "WEBSOCKET_RELIED_ON",
    "HTTPProtocol",
    "WebSocketProtocol",
    "response_pending",
]

TESTED = ("0.52.1", "0.54.0")
"""The uvicorn releases the guard was tested with, first and last (``pyproject.toml``'s
floor, and the minor series its upper bound ends)."""

HTTP_RELIED_ON = {
    "methods": ("connection_made", "on_response_complete", "connection_lost"),
    "attributes": ("loop", "transport", "client", "cycle"),
}
"""What the guard overrides (``methods``, called through ``super()``) and reads
(``attributes``, set by the constructor or ``connection_made``) of :class:`HTTPProtocol`
(uvicorn's ``H11Protocol``): ``cycle`` is the current request and its response (``None``
before the first request)."""

CYCLE_RELIED_ON = ("response_complete",)
"""What the guard reads of an :class:`HTTPProtocol`'s ``cycle`` (uvicorn's
``RequestResponseCycle``): whether the response has been sent in full."""

WEBSOCKET_RELIED_ON = {
    "methods": ("__init__", "connection_made", "connection_lost"),
    "attributes": ("loop", "transport", "logger", "handshake_complete", "initial_response"),
}
"""What the guard overrides and reads of :class:`WebSocketProtocol` (uvicorn's
``WebSocketsSansIOProtocol``): ``initial_response`` is an HTTP answer the application
gave instead of accepting (a refusal), ``logger`` is replaced by one that drops
:data:`UNANSWERED` for such a refusal."""

UNANSWERED = "ASGI callable returned without completing handshake"
"""The start of the ERROR line :class:`WebSocketProtocol` logs when the application
returned without accepting the handshake (also after refusing it with an HTTP answer)."""


def response_pending(protocol: HTTPProtocol) -> bool:
    """Whether ``protocol`` is answering a request (its response not yet sent in full)."""
    cycle = protocol.cycle
    return cycle is not None and not cycle.response_complete
