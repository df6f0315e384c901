"""The analysis board: checking edited positions, live analysis and game review streams.

Analyses run in a worker thread each and stream server-sent events; when the
page closes the stream (Stop, another position, leaving) the engine is stopped.
At most ``limits.analyses`` run at once, and ``limits.analyses_per_client`` for one
client address and for one browser (more: 429).
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
from ...core.game import Game
from ...core.record import Node, game_to_text, main_line, record_from_text
from ...lab.review import Emit, Stopper, review
from ...serving.cpu_budget import CpuBudget, Ticket
from ...serving.errors import WebError, quote
from ..analysis import Unanalysable, analyse, check_analysable, judge, line_positions
from ..deps import SAME_SITE, Manager, limited_holders
from ..limits import Slots
from ..models import (
    TREE_MOVES,
    AnalysisPosition,
    EditorPosition,
    FlatMove,
    ImportRequest,
    Judgement,
    JudgeRequest,
    LineAnswer,
    LineRequest,
    TreeAnswer,
    TreeRecord,
    TreeRecordRequest,
    VariationNode,
)
from . import ERRORS

router = APIRouter(tags=["analysis"], responses=ERRORS)

QUEUE_POLL = 0.25
"""Seconds between two looks of a waiting analysis at the engine's queue (and at its
page: a stream closed while it waits leaves the queue)."""

STREAM: dict[int | str, dict[str, Any]] = {200: {"content": {"text/event-stream": {}}}}


def editor_position(body: EditorPosition) -> Position:
    """The editor's position, checked; raise ``InvalidPositionError`` saying what is wrong."""
    geometry = board(body.rows, body.cols)
    if len(body.cells) != geometry.size:
        raise InvalidPositionError(
            f"the board has {geometry.size} squares but {len(body.cells)} were given"
        )
    x = sum(1 << i for i, c in enumerate(body.cells) if c == "x")
    o = sum(1 << i for i, c in enumerate(body.cells) if c == "o")
    empty = body.cells.count(".")
    if body.plies_left > empty:  # the core refuses it too, in words the editor cannot translate
        raise Unanalysable(
            f"impossible position: {body.plies_left} plies left but only {empty} empty "
            f"squares: set at most {empty}",
            code="too_many_plies",
            params={"plies": body.plies_left, "count": empty},
        )
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


def _admit(request: Request, kind: str) -> tuple[Slots, tuple[str, ...], Ticket]:
    """Admit an analysis of ``kind`` for the request's client: its CPU budget checked
    (429 past it), an analysis slot taken (429 when none is free for it) and its place
    in the engine's fair queue (the ticket it waits on, is measured by and gives back);
    the slots, the client's holders and the ticket, for the caller to give back."""
    slots: Slots = request.app.state.analyses
    limits = request.app.state.limits
    client = limited_holders(request)
    engine: CpuBudget = request.app.state.engine
    engine.check(client, "analyses")
    slots.take(limits.analyses, clients=client, per_client=limits.analyses_per_client)
    return slots, client, engine.enter(client, kind)


def _stream(request: Request, work: Callable[[Emit, Stopper], None]) -> StreamingResponse:
    """Run ``work`` in a thread and stream what it emits; stop it when the client leaves."""
    slots, client, ticket = _admit(request, "analysis")
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
    stopper = Stopper()
    stopping = request.app.state.stopping

    def emit(event: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed (shutdown)
            loop.call_soon_threadsafe(queue.put_nowait, (event, json.dumps(data)))

    def run() -> None:
        try:
            while not ticket.wait(QUEUE_POLL):  # its core, in the fair queue
                if stopper.stopped:
                    return
            with ticket.measured():  # the CPU it used is charged, helper threads included
                work(emit, stopper)
        except Exception as exc:  # an engine failure ends the stream with a message
            emit("failed", {"detail": f"{type(exc).__name__}: {str(exc)[:200]}"})
        finally:
            ticket.done()
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


# ------------------------------------------------------------------ the study tools

MOST_NODES = TREE_MOVES
"""The most moves a variation tree sent to be written as a record may hold."""


@router.post("/api/analysis/line", response_model=LineAnswer)
def play_line(body: LineRequest) -> LineAnswer:
    """Play moves one after another from a position (a variation of the analysis board,
    an engine line): each move with the squares it turned and the position after it.
    A move that cannot be played is a 400 naming it."""
    if len(body.fen) > 120:
        raise InvalidPositionError(f"position text too long: {quote(body.fen)}")
    position = Position.from_fen(body.fen)
    return LineAnswer.model_validate({"positions": line_positions(position, body.moves)})


def _core_tree(nodes: list[VariationNode], count: list[int]) -> list[Node]:
    count[0] += len(nodes)
    if count[0] > MOST_NODES:
        raise WebError(f"the variation tree holds more than {MOST_NODES} moves")
    return [Node(n.square, None, _core_tree(n.children, count)) for n in nodes]


def _flat_tree(moves: list[FlatMove]) -> list[Node]:
    """The tree of a flat list of moves (:class:`~..models.FlatMove`), built without
    recursion: a move must follow one listed before it (400 otherwise)."""
    roots: list[Node] = []
    built: list[Node] = []
    for index, move in enumerate(moves):
        if move.parent >= index:
            raise WebError(
                f"move {index} of the tree follows move {move.parent}, which is not before it"
            )
        node = Node(move.square, None, [])
        (roots if move.parent < 0 else built[move.parent].children).append(node)
        built.append(node)
    return roots


def _flat_moves(tree: list[Node]) -> list[FlatMove]:
    """The tree as flat moves, each after the move it follows, in the record's order of
    lines (without recursion)."""
    flat: list[FlatMove] = []
    stack: list[tuple[Node, int]] = [(node, -1) for node in reversed(tree)]
    while stack:
        node, parent = stack.pop()
        flat.append(FlatMove(square=node.square, parent=parent))
        stack.extend((child, len(flat) - 1) for child in reversed(node.children))
    return flat


def _api_tree(nodes: list[Node]) -> list[VariationNode]:
    return [VariationNode(square=n.square, children=_api_tree(n.children)) for n in nodes]


@router.post("/api/analysis/record", response_model=TreeRecord)
async def tree_record(body: TreeRecordRequest, manager: Manager) -> TreeRecord:
    """Write a variation tree as a record in the text format (docs/records.md): on a
    game whose moves are the tree's main line, that game's record with the variations;
    else a record of the main line from the game's (or the given) start, its players'
    names kept, with the variations. Every move is replayed (400 naming a bad one). The
    tree comes flat (``nodes``, any depth) or nested (``tree``)."""
    tree = _core_tree(body.tree, [0]) if body.nodes is None else _flat_tree(body.nodes)
    squares = [node.square for node in main_line(tree)]
    if body.game is not None:
        session = await asyncio.to_thread(manager.get, body.game)
        with session.lock:
            game = session.game
            if squares == [move.square for move in game.moves]:
                return TreeRecord(record=game_to_text(game, tree))
            start, names = game.start, (game.x_name, game.o_name)
    elif body.start is not None:
        start, names = Position.from_fen(body.start), ("X", "O")
    else:
        raise WebError("name the game the tree grew on, or its start position")
    fresh = Game(start, *names, event="Analysis")
    for square in squares:
        fresh.play(square)
    return TreeRecord(record=game_to_text(fresh, tree))


@router.post("/api/analysis/tree", response_model=TreeAnswer)
def read_tree(body: ImportRequest) -> TreeAnswer:
    """The variation tree of a record in the text format (its main line the game's
    moves; a record without variations gives the game's line): every move replayed,
    a bad record a 400 saying why."""
    game, tree = record_from_text(body.record)
    return TreeAnswer(start=game.start.fen(), tree=_api_tree(tree), nodes=_flat_moves(tree))


@router.post(
    "/api/games/{game_id}/judge",
    response_model=Judgement,
    dependencies=[SAME_SITE],
)
async def judge_move(
    game_id: str, body: JudgeRequest, request: Request, manager: Manager
) -> Judgement:
    """Judge another move in a position of the game (``ply`` plies in) as the review
    judges the played ones, the same every time: its value and the best move's (X's
    view), the pieces it loses for its mover, exact or the search's depth, and whether
    it is accepted (it loses less than the review's inaccuracy threshold, 2 pieces).
    Takes an analysis slot while it runs (429 when none is free)."""
    session = await asyncio.to_thread(manager.get, game_id)
    with session.lock:
        positions = list(session.game.positions)
    if body.ply >= len(positions):
        raise WebError(f"ply {body.ply} is beyond the game's {len(positions) - 1} plies")
    slots, client, ticket = _admit(request, "judgement")

    def judged() -> dict[str, Any]:
        with ticket.measured():  # the CPU it used is charged
            return judge(positions[body.ply], body.ply, body.move)

    try:
        while not await asyncio.to_thread(ticket.wait, QUEUE_POLL):
            pass
        found = await asyncio.to_thread(judged)
    finally:
        ticket.done()
        slots.give(client)
    return Judgement.model_validate(found)
