"""The bots' connection: one WebSocket per bot at :data:`CONNECT_PATH` (docs/league.md,
"The protocol").

Contract: the handshake is refused with an HTTP status before any message (429 over
the address's handshake rate or the token's connection rate, 401 no or unknown token,
403 not a bot's token); an accepted connection is welcomed, attached to the hall
(which resends its games in play) and detached when it ends, its games going on. A
refused message (malformed, unknown, out of turn, over the token's rate, a move
without ``move``) is answered with an ``error`` and changes nothing, whereas an answer
in turn that is not a legal move (any JSON value: ``"z9"``, 10 KB of text, ``44``,
``null``) loses that game by illegal move
(:meth:`~adjacency.league.play.player_actions.PlayerActions.move`); more than
:attr:`~..http.limits.LeagueLimits.max_errors` of them close the connection
(1008). A ``failed`` message (the bot's program crashed or answered junk, in its own
words) ends that game at once as the bot's loss
(:meth:`~adjacency.league.play.player_actions.PlayerActions.fail`); after ``leaving`` the
hall starts no new ladder game for the connection
(:attr:`~adjacency.league.play.outbox.Outbox.leaving`).

Limits per member: once the handshake names the bot, its messages spend its token's
allowance only, never its address's (a class shares one). The answer the server waits
for (a move or ``failed`` at the bot's turn,
:meth:`~adjacency.league.play.player_actions.PlayerActions.awaits`) is never refused by a
rate, so the server's own limiter never decides a game; what it refuses is logged (a
bounded number of lines a minute) and answered with an ``error`` the client prints. A
client that does not read what it is sent (its outbox overflows, :mod:`.play.outbox`) is
closed at once with :data:`~adjacency.league.play.outbox.OVERFLOW_CODE`. Every handler ends:
waiting for the last messages to go out and for the close frame is bounded
(:data:`~.play.outbox.DRAIN`).
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

from ...client.wire import CONNECT_PATH as CONNECT_PATH  # where the client connects
from ...core.errors import AdjacencyError
from ...core.game import Termination
from ...serving.errors import WebError
from ...serving.limits import RateLimiter
from ...serving.logs import say
from ..http.auth import bearer
from ..http.limits import LeagueLimits, throttled
from ..http.reserve import BUSY, keeps_room_for, pressed
from ..league_file import LeagueStore, Member, token_hash
from ..play.hall import Hall
from ..play.outbox import DRAIN, OVERFLOW_CODE, OVERFLOW_REASON, Outbox
from . import PROTOCOL_VERSION

log = logging.getLogger(__name__)


REFUSALS_LOGGED = 20.0
"""Refused handshakes, and messages refused over a rate, logged a minute (after a
first burst of :attr:`~..http.limits.LeagueLimits.burst`), so a flood of them writes a
bounded log; the next line logged counts those left out."""

FAILURES = {
    Termination.DISCONNECTION.value: Termination.DISCONNECTION,
    Termination.ILLEGAL_MOVE.value: Termination.ILLEGAL_MOVE,
    Termination.TIME_FORFEIT.value: Termination.TIME_FORFEIT,
}
"""The terminations a ``failed`` message may give (its bot crashed, answered junk, or
overran its budget)."""

FAILURE_CHARS = 600
"""Characters of a ``failed`` message's detail kept in the game's detail (its start,
what happened, and its end, the last lines of the bot's stderr)."""


def failure_words(detail: str) -> str:
    """A bot's own words about its failure, cut to :data:`FAILURE_CHARS` by dropping
    the middle (the start says what happened, the end is a traceback's last lines)."""
    text = detail.strip() or "no reason given"
    if len(text) <= FAILURE_CHARS:
        return text
    head = FAILURE_CHARS // 3
    return f"{text[:head]} [...] {text[-(FAILURE_CHARS - head - 7) :]}"


def _log_limited(state: Any, code: str, **params: object) -> None:
    """Log an INFO line about a refusal (the catalogues' ``log.<code>``, :func:`say`),
    about :data:`REFUSALS_LOGGED` a minute at most; the next line logged counts those
    left out (``log.<code>-more``)."""
    if state.rates.allow("(log)", "refusals", REFUSALS_LOGGED):
        unlogged, state.unlogged_refusals = getattr(state, "unlogged_refusals", 0), 0
        if unlogged:
            say(log, logging.INFO, f"{code}-more", **params, count=unlogged)
        else:
            say(log, logging.INFO, code, **params)
    else:
        state.unlogged_refusals = getattr(state, "unlogged_refusals", 0) + 1


async def _deny(ws: WebSocket, status: int, detail: str) -> None:
    """Refuse a WebSocket handshake with an HTTP status and a JSON detail, and log it:
    one INFO line with the address and the reason, about :data:`REFUSALS_LOGGED` a
    minute at most."""
    address = ws.client.host if ws.client else "?"
    _log_limited(ws.app.state, "refused-connection", address=address, status=status, detail=detail)
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
    limited = throttled(ws)
    rates: RateLimiter = app.state.rates
    if limited and not rates.allow(
        address, "connect", limits.connects_per_minute, limits.address_burst
    ):
        hall.presence.refuse(None)  # whose, unknown: an absent bot's event game waits
        await _deny(ws, 429, "too many connections from this address: back off and retry")
        return
    token = bearer(ws.headers)
    member = None if token is None else store.members.authenticate(token)
    if member is None:
        await _deny(ws, 401, "unknown or revoked token")
        return
    if member.kind != "bot":
        await _deny(ws, 403, "only bot accounts connect here")
        return
    if limited and not rates.allow(f"member:{member.id}", "connect", limits.connects_per_token):
        hall.presence.refuse(member.id)  # its event games wait for it
        await _deny(ws, 429, "this bot reconnects too often: back off and retry")
        return
    if pressed(app) and not keeps_room_for(hall, member):
        hall.presence.refuse(member.id)
        await _deny(ws, 503, BUSY)
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
            "settings": hall.games.settings.public(),
        }
    )
    hall.attach(outbox)
    say(log, logging.INFO, "bot-connected", team=member.name, address=address)

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
    how, code = "", "bot-disconnected-server"
    try:
        while not outbox.closed.is_set():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                how, code = str(message.get("code", "?")), "bot-disconnected-bot"
                break
            reply = _handle(app.state, hall, limits, rates, member, message, limited)
            if reply is not None:
                refused += 1
                outbox.post(reply)
                if refused > limits.max_errors:
                    outbox.post(
                        {"type": "error", "detail": "too many refused messages: disconnected"}
                    )
                    outbox.close()
    except (WebSocketDisconnect, RuntimeError):
        code = "bot-disconnected-lost"
    finally:
        hall.presence.detach(outbox)
        await closer
        say(log, logging.INFO, code, team=member.name, address=address, how=how)


NOT_JSON = object()
"""What a frame that is not JSON text parses to (``null`` is JSON)."""


def _handle(
    state: Any,
    hall: Hall,
    limits: LeagueLimits,
    rates: RateLimiter,
    member: Member,
    message: Mapping[str, Any],
    limited: bool,
) -> dict[str, Any] | None:
    """Act on one client message; return an error reply if it is refused. Every message
    spends the bot's token's allowance except the answer the server waits for (a move,
    or ``failed``, in the bot's game at its turn)."""
    text = message.get("text")
    data: Any = NOT_JSON
    if text is not None:  # at most a frame's size (uvicorn's ws_max_size)
        with contextlib.suppress(ValueError, RecursionError):
            data = json.loads(text)
    awaited = (  # the answer to a your_turn: a move, or the bot's failure to make one
        isinstance(data, dict)
        and ((data.get("type") == "move" and "move" in data) or data.get("type") == "failed")
        and hall.actions.awaits(member, data.get("game"))
    )
    if limited and not awaited:
        per_minute = limits.messages_per_minute
        if not rates.allow(f"member:{member.id}", "message", per_minute):
            _log_limited(state, "refused-message", team=member.name, rate=f"{per_minute:g}")
            return {"type": "error", "detail": f"over the rate limit of {per_minute:g} a minute"}
    if text is None:
        return {"type": "error", "detail": "messages are JSON text frames"}
    if data is NOT_JSON:
        return {"type": "error", "detail": "malformed message: not JSON"}
    if not isinstance(data, dict):
        return {"type": "error", "detail": "malformed message: expected a JSON object"}
    kind = data.get("type")
    outbox = hall.presence.connections.get(member.id)
    if kind == "ping":
        if outbox is not None:
            outbox.post({"type": "pong"})
        return None
    if kind == "leaving":  # no new ladder game: the client stops after its games in play
        if outbox is not None:
            outbox.leaving = True
        return None
    if kind not in ("move", "failed"):
        return {"type": "error", "detail": f"unknown message type {str(kind)[:40]!r}"}
    game_id = data.get("game")
    if isinstance(game_id, bool) or not isinstance(game_id, int):
        return {"type": "error", "detail": f"a {kind} message needs the game's id (a number)"}
    try:
        if kind == "failed":
            termination = FAILURES.get(str(data.get("termination")))
            if termination is None or not isinstance(data.get("detail", ""), str):
                accepted = ", ".join(repr(t) for t in FAILURES)
                return {
                    "type": "error",
                    "game": game_id,
                    "status": 400,
                    "detail": f"a failed message needs a 'termination' ({accepted}) "
                    "and a text 'detail'",
                }
            hall.actions.fail(member, game_id, termination, failure_words(data.get("detail", "")))
            return None
        if "move" not in data:  # a malformed message; any answer given, even null, is a move
            return {
                "type": "error",
                "game": game_id,
                "status": 400,
                "detail": "a move needs 'move'",
            }
        if hall.actions.was_stopped(game_id):  # sent before the bot heard the server stopped it
            return None
        hall.actions.move(member, game_id, data.get("move"), stand_in=data.get("stand_in") is True)
    except WebError as exc:
        return {"type": "error", "game": game_id, "status": exc.status, "detail": str(exc)}
    except AdjacencyError as exc:
        return {"type": "error", "game": game_id, "status": 400, "detail": str(exc)[:200]}
    return None
