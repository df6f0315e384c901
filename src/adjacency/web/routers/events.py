"""The server-sent event stream of a game."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ..deps import SAME_SITE, Manager
from ..session import CLOSED
from . import ERRORS

PING_SECONDS = 15.0
"""An event stream sends a comment this often when idle (keeps proxies from closing it)."""
POLL_SECONDS = 0.25
"""How often an idle event stream checks whether the server is stopping."""

router = APIRouter(tags=["play"])


@router.get(
    "/api/games/{game_id}/events",
    response_class=StreamingResponse,
    responses={**ERRORS, 200: {"content": {"text/event-stream": {}}}},
    dependencies=[SAME_SITE],
)
async def events(game_id: str, request: Request, manager: Manager) -> StreamingResponse:
    """Server-sent events: a ``state`` event now and after every change, the change's
    happenings just before it (``moved``, ``ended``, ``took_back``: :mod:`..happenings`),
    ``thinking`` events while a bot searches, and a last ``closed`` event (``{"reason": ...}``) if
    the game is deleted, which ends the stream. While a page listens, the game's bots play; when the
    last page leaves, its bot stops after a short grace period."""
    session = await asyncio.to_thread(manager.get, game_id)
    stopping = request.app.state.stopping
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()

    def listener(event: str, data: str) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed (shutdown)
            loop.call_soon_threadsafe(queue.put_nowait, (event, data))

    async def stream() -> AsyncIterator[str]:
        await asyncio.to_thread(session.subscribe, listener)
        try:
            state = await asyncio.to_thread(session.state)
            yield f"event: state\ndata: {state.model_dump_json()}\n\n"
            last = time.monotonic()
            while not stopping.is_set():
                try:  # asyncio.timeout: 3.11's wait_for can swallow the stream's cancellation
                    async with asyncio.timeout(POLL_SECONDS):
                        event, data = await queue.get()
                except TimeoutError:
                    if time.monotonic() - last > PING_SECONDS:
                        last = time.monotonic()
                        yield ": ping\n\n"
                    continue
                last = time.monotonic()
                yield f"event: {event}\ndata: {data}\n\n"
                if event == CLOSED:
                    return  # the game is gone: its last event is sent
        finally:
            session.unsubscribe(listener)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
