"""The analysis board: checking edited positions, live analysis and game review streams.

Analyses run in a worker thread each and stream server-sent events; when the
page closes the stream (Stop, another position, leaving) the engine is stopped.
At most ``limits.analyses`` run at once, and ``limits.analyses_per_client`` for one
client address (more: 429).
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
from ..deps import SAME_SITE, Manager, limited_client
from ..models import AnalysisPosition, EditorPosition
from . import ERRORS

router = APIRouter(tags=["analysis"], responses=ERRORS)

STREAM: dict[int | str, dict[str, Any]] = {200: {"content": {"text/event-stream": {}}}}


class Slots:
    """A count of running analyses with a cap for the server and one per client (thread-safe).

    The server's cap keeps the machine's cores for the games; the client's keeps one page
    (or one address's scripts) from taking every slot, so a second visitor still gets one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running = 0
        self._by_client: dict[str, int] = {}

    def take(
        self, cap: int, what: str = "analyses", client: str | None = None, per_client: int = 1
    ) -> None:
        """Take a slot; :class:`TooMany` (HTTP 429) if ``cap`` of them (``what``: analyses,
        lab searches) are running already, or ``per_client`` of them for ``client`` (an
        address; ``None``: not limited per client, the machine's own user)."""
        with self._lock:
            if self.running >= cap:
                raise TooMany(
                    f"{self.running} {what} are running on this server, its limit; "
                    "stop one or try again shortly"
                )
            mine = self._by_client.get(client, 0) if client is not None else 0
            if client is not None and mine >= per_client:
                raise TooMany(
                    f"your address already runs {mine} {what}, the most one client may run "
                    "at once; wait for it or stop it"
                )
            self.running += 1
            if client is not None:
                self._by_client[client] = mine + 1

    def give(self, client: str | None = None) -> None:
        """Give back a slot taken by :meth:`take` (for the same ``client``)."""
        with self._lock:
            self.running -= 1
            if client is not None:
                left = self._by_client.pop(client, 1) - 1
                if left > 0:
                    self._by_client[client] = left


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
    limits = request.app.state.limits
    client = limited_client(request)
    slots.take(limits.analyses, client=client, per_client=limits.analyses_per_client)
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
            slots.give(client)
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
    """Review the game move by move (from the end back), the same every time (fixed search
    depths and solver node budgets, never the clock): ``progress`` events (moves done of
    the total), a ``move`` event per ply with its value (X's view), whether it is exact
    (else the search ``depth``), the best move, the loss for its mover and its mark
    (inaccuracy, mistake, blunder), a ``summary`` per player, then ``done``."""
    session = await asyncio.to_thread(manager.get, game_id)
    with session.lock:
        positions = list(session.game.positions)
        moves = [m.square for m in session.game.moves]
    return _stream(request, lambda emit, stopper: review(positions, moves, emit, stopper))
