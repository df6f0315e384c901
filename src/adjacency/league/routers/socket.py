"""The bots' connection: one WebSocket per bot at :data:`CONNECT_PATH` (docs/league.md,
"The protocol").

Contract: the handshake is refused with an HTTP status before any message (429 over
the address's connection rate, 401 no or unknown token, 403 not a bot's token); an
accepted connection is welcomed, attached to the hall (which resends its games in
play) and detached when it ends, its games going on. A refused message (malformed,
unknown, out of turn, over the rate, a move without ``move``) is answered with an
``error`` and changes nothing, whereas an answer in turn that is not a legal move (any
JSON value: ``"z9"``, 10 KB of text, ``44``, ``null``) loses that game by illegal move
(:meth:`~adjacency.league.games.Games.move`); more than
:attr:`~adjacency.league.limits.LeagueLimits.max_errors` of them close the connection
(1008). A client that does not read what it is sent (its outbox
overflows, :mod:`..outbox`) is closed at once with
:data:`~adjacency.league.outbox.OVERFLOW_CODE`. Every handler ends: waiting for the
last messages to go out and for the close frame is bounded (:data:`~..outbox.DRAIN`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import WebSocket
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from ...core.errors import AdjacencyError
from ...serving.errors import WebError
from ...serving.limits import RateLimiter
from ..auth import bearer
from ..client import CONNECT_PATH as CONNECT_PATH  # the path the client connects to
from ..hall import Hall
from ..limits import LOOPBACK, LeagueLimits
from ..outbox import DRAIN, OVERFLOW_CODE, OVERFLOW_REASON, Outbox
from ..store import LeagueStore, Member, token_hash
from . import PROTOCOL_VERSION

log = logging.getLogger(__name__)


REFUSALS_LOGGED = 20.0
"""Refused handshakes logged a minute (after a first burst of
:attr:`~..limits.LeagueLimits.burst`), so a flood of them writes a bounded log; the
next line logged counts those left out."""


async def _deny(ws: WebSocket, status: int, detail: str) -> None:
    """Refuse a WebSocket handshake with an HTTP status and a JSON detail, and log it:
    one INFO line with the address and the reason, about :data:`REFUSALS_LOGGED` a
    minute at most."""
    state = ws.app.state
    address = ws.client.host if ws.client else "?"
    if state.rates.allow("(log)", "refusals", REFUSALS_LOGGED):
        unlogged, state.unlogged_refusals = getattr(state, "unlogged_refusals", 0), 0
        more = f" ({unlogged} more refused since the last line)" if unlogged else ""
        log.info("refused a bot connection from %s: %d %s%s", address, status, detail, more)
    else:
        state.unlogged_refusals = getattr(state, "unlogged_refusals", 0) + 1
    if "websocket.http.response" in ws.scope.get("extensions", {}):
        await ws.send_denial_response(JSONResponse({"detail": detail}, status_code=status))
    else:  # pragma: no cover - servers without the denial extension
        await ws.close(code=1008, reason=detail[:120])


async def connect(ws: WebSocket) -> None:
    """A bot's connection (docs/league.md, "The protocol")."""
    app = ws.app
    limits: LeagueLimits = app.state.limits
    store: LeagueStore = app.state.store
    hall: Hall = app.state.hall
    address = ws.client.host if ws.client else "?"
    throttled = address not in LOOPBACK or limits.limit_loopback
    if throttled and not app.state.rates.allow(address, "connect", limits.connects_per_minute):
        await _deny(ws, 429, "too many connections from this address: back off and retry")
        return
    token = bearer(ws.headers)
    member = None if token is None else store.authenticate(token)
    if member is None:
        await _deny(ws, 401, "unknown or revoked token")
        return
    if member.kind != "bot":
        await _deny(ws, 403, "only bot accounts connect here")
        return
    await ws.accept()
    assert token is not None  # the member was found by it
    outbox = Outbox(member, lambda message: ws.send_text(json.dumps(message)), token_hash(token))
    outbox.post(
        {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "name": member.name,
            "concurrency": member.concurrency,
            "settings": hall.settings.public(),
        }
    )
    hall.attach(outbox)

    async def close_when_done() -> None:
        await outbox.closed.wait()
        await outbox.drained()  # let queued messages (an error, a game end) go out first
        if outbox.overflowed:
            code, reason = OVERFLOW_CODE, OVERFLOW_REASON
        else:
            code, reason = (1008 if refused > limits.max_errors else 1000), ""
        with contextlib.suppress(Exception):  # bounded: a client that reads nothing
            async with asyncio.timeout(DRAIN):  # not wait_for, which can swallow a cancel
                await ws.close(code=code, reason=reason)

    refused = 0
    closer = asyncio.get_running_loop().create_task(close_when_done())
    try:
        while not outbox.closed.is_set():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            reply = _handle(hall, limits, app.state.rates, member, address, message, throttled)
            if reply is not None:
                refused += 1
                outbox.post(reply)
                if refused > limits.max_errors:
                    outbox.post(
                        {"type": "error", "detail": "too many refused messages: disconnected"}
                    )
                    outbox.close()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hall.detach(outbox)
        await closer


def _handle(
    hall: Hall,
    limits: LeagueLimits,
    rates: RateLimiter,
    member: Member,
    address: str,
    message: Mapping[str, Any],
    throttled: bool,
) -> dict[str, Any] | None:
    """Act on one client message; return an error reply if it is refused."""
    if throttled:
        per_minute = limits.messages_per_minute
        if not rates.allow(f"member:{member.id}", "message", per_minute) or not rates.allow(
            address, "message", per_minute
        ):
            return {"type": "error", "detail": f"over the rate limit of {per_minute:g} a minute"}
    text = message.get("text")
    if text is None:
        return {"type": "error", "detail": "messages are JSON text frames"}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return {"type": "error", "detail": "malformed message: not JSON"}
    if not isinstance(data, dict):
        return {"type": "error", "detail": "malformed message: expected a JSON object"}
    kind = data.get("type")
    if kind == "ping":
        outbox = hall.connections.get(member.id)
        if outbox is not None:
            outbox.post({"type": "pong"})
        return None
    if kind != "move":
        return {"type": "error", "detail": f"unknown message type {str(kind)[:40]!r}"}
    game_id = data.get("game")
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        return {"type": "error", "detail": "a move needs the game's id (a number)"}
    if "move" not in data:  # a malformed message; any answer given, even null, is a move
        return {"type": "error", "game": game_id, "status": 400, "detail": "a move needs 'move'"}
    try:
        hall.move(member, game_id, data.get("move"))
    except WebError as exc:
        return {"type": "error", "game": game_id, "status": exc.status, "detail": str(exc)}
    except AdjacencyError as exc:
        return {"type": "error", "game": game_id, "status": 400, "detail": str(exc)[:200]}
    return None
