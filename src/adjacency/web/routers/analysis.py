"""The analysis board: checking edited positions, live analysis and game review streams.

Analyses run in a worker thread each and stream server-sent events; when the
page closes the stream (Stop, another position, leaving) the engine is stopped.
At most ``limits.analyses`` run at once (more: 429).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ...core import InvalidPositionError, Position, board
from ...serving.errors import TooMany, quote
from ..analysis import Emit, Stopper, analyse, check_analysable, review
from ..deps import SAME_SITE, Manager
from ..models import AnalysisPosition, EditorPosition
from . import ERRORS

router = APIRouter(tags=["analysis"], responses=ERRORS)

STREAM: dict[int | str, dict[str, Any]] = {200: {"content": {"text/event-stream": {}}}}


class Slots:
    """A count of running analyses with a cap (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running = 0

    def take(self, cap: int, what: str = "analyses") -> None:
        """Take a slot; :class:`TooMany` (HTTP 429) if ``cap`` of them (``what``: analyses,
        lab searches) are running already."""
        with self._lock:
            if self.running >= cap:
                raise TooMany(
                    f"{self.running} {what} are running on this server, its limit; "
                    "stop one or try again shortly"
                )
            self.running += 1

    def give(self) -> None:
        """Give back a slot taken by :meth:`take`."""
        with self._lock:
            self.running -= 1


def editor_position(body: EditorPosition) -> Position:
    """The editor's position, checked; raise ``InvalidPositionError`` saying what is wrong."""
    geometry = board(body.rows, body.cols)
    if len(body.cells) != geometry.size:
        raise InvalidPositionError(
            f"the board has {geometry.size} squares but {len(body.cells)} were given"
        )
    x = sum(1 << i for i, c in enumerate(body.cells) if c == "x")
    o = sum(1 << i for i, c in enumerate(body.cells) if c == "o")
    position = Position(geometry, x, o, body.turn, body.plies_left)
    check_analysable(position)
    return position


@router.post("/api/analysis/position", response_model=AnalysisPosition)
def check_position(body: EditorPosition) -> AnalysisPosition:
    """Check a position from the editor: its position text, or why it is impossible
    (answered 200 either way: the verdict is the answer)."""
    try:
        return AnalysisPosition(fen=editor_position(body).fen(), problem=None)
    except InvalidPositionError as exc:
        code = getattr(exc, "code", "invalid")
        params = getattr(exc, "params", {})
        return AnalysisPosition(fen=None, problem=str(exc), code=code, params=params)


def analysable_position(fen: str) -> Position:
    """The position of ``fen`` (at most 120 characters), checked for analysis (400 if not)."""
    if len(fen) > 120:
        raise InvalidPositionError(f"position text too long: {quote(fen)}")
    position = Position.from_fen(fen)
    check_analysable(position)
    return position


def _stream(request: Request, work: Callable[[Emit, Stopper], None]) -> StreamingResponse:
    """Run ``work`` in a thread and stream what it emits; stop it when the client leaves."""
    slots: Slots = request.app.state.analyses
    slots.take(request.app.state.limits.analyses)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
    stopper = Stopper()
    stopping = request.app.state.stopping

    def emit(event: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed (shutdown)
            loop.call_soon_threadsafe(queue.put_nowait, (event, json.dumps(data)))

    def run() -> None:
        try:
            work(emit, stopper)
        except Exception as exc:  # an engine failure ends the stream with a message
            emit("failed", {"detail": f"{type(exc).__name__}: {str(exc)[:200]}"})
        finally:
            slots.give()
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=run, name="analysis", daemon=True).start()

    async def events() -> AsyncIterator[str]:
        try:
            while True:
                try:  # asyncio.timeout: 3.11's wait_for can swallow the stream's cancellation
                    async with asyncio.timeout(0.25):
                        item = await queue.get()
                except TimeoutError:
                    if stopping.is_set():
                        return
                    continue
                if item is None:
                    return
                yield f"event: {item[0]}\ndata: {item[1]}\n\n"
        finally:
            stopper.stop()

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.get(
    "/api/analysis/live",
    response_class=StreamingResponse,
    responses=STREAM,
    dependencies=[SAME_SITE],
)
async def live(fen: str, request: Request) -> StreamingResponse:
    """Analyse a position (its position text): an ``exact`` event (the result under
    perfect play and the moves that keep it, when the solver reaches it in about 2 s),
    then ``lines`` events with the top 3 moves, scores (X's view) and lines as the
    search deepens, then ``done``. Closing the stream stops the engine."""
    position = analysable_position(fen)
    budget = request.app.state.limits.solve_seconds
    return _stream(request, lambda emit, stopper: analyse(position, emit, stopper, budget))


@router.get(
    "/api/games/{game_id}/review",
    response_class=StreamingResponse,
    responses=STREAM,
    dependencies=[SAME_SITE],
)
async def review_game(game_id: str, request: Request, manager: Manager) -> StreamingResponse:
    """Review the game move by move (from the end back): a ``move`` event per ply with its
    value (X's view), whether it is exact, the best move, the loss for its mover and its
    mark (inaccuracy, mistake, blunder), then ``done``."""
    session = await asyncio.to_thread(manager.get, game_id)
    with session.lock:
        positions = list(session.game.positions)
        moves = [m.square for m in session.game.moves]
    return _stream(request, lambda emit, stopper: review(positions, moves, emit, stopper))
