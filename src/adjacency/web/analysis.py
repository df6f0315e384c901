"""The analysis board's engine work: live top-3 lines, exact results, and game review.

Everything here uses the engine's public API (:class:`adjacency.engine.Engine`:
``search``, ``solve``, ``stop``) and reports through a callback, so a route
can stream it as server-sent events and stop it when the page leaves.

* **Live analysis** (:func:`analyse`): first, a position of the shipped book
  (:mod:`adjacency.engine.book`) gets its proven value and optimal moves; else, if
  the position is near enough to the end (:data:`SOLVE_PLIES`), the solver tries for
  :data:`SOLVE_SECONDS` to prove the position's exact value and the moves that keep
  it (:func:`exact_result`: one solve of the position, then one null-window probe
  per other move, on :data:`THREADS` threads), once the first depth's lines are out
  (the page shows a line at once, not after the solver's budget). Then iterative
  deepening on one thread (an analysis keeps at most one core busy for
  :data:`ANALYSIS_SECONDS`): at each depth every move's reply position is searched one
  ply less deep, and the three best moves are reported with their scores and lines,
  until the end of the game, the time limit or a stop. Only the depths whose horizon
  falls on an even ply of the game are searched and reported (:func:`shown_depths`), the
  rule the review's depths follow, so the value neither flips from one depth to the
  next nor from one position of a game to the next.
* **Review** (:func:`~adjacency.lab.review.review`): every move of a game judged and
  marked, the engine's judgement the league's report card shares, lives in
  :mod:`adjacency.lab.review`; here :func:`judge` judges one move of the study tools as
  the review judges a played move.

Scores are pieces (final margin) from X's view unless a name says otherwise.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import Color, InvalidPositionError, Position
from ..lab.review import (
    INACCURACY,
    REVIEW_DEPTH,
    REVIEW_SOLVE_NODES,
    REVIEW_SOLVE_PLIES,
    Emit,
    Stopper,
    classify,
    move_values,
    review_depth,
    review_engine,
    solved_value,
    x_view,
)
from ..serving.errors import WebError

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engine
    from ..engine.book import BookHit

TOP = 3
"""Moves shown by the live analysis."""
SOLVE_PLIES = 18
"""The solver is tried only this near the end (further away it cannot finish in time):
on 18-ply positions of 28-round games, :func:`exact_result` took a median 0.6 s and at
most 1.5 s of wall time on two threads (docs/web.md has the measurement)."""
THREADS = min(2, os.cpu_count() or 1)
"""Solver threads of an analysis engine (the solver splits its tree between them)."""
SOLVE_SECONDS = 2.0
"""The live analysis's budget for the exact result (all moves together)."""
ANALYSIS_SECONDS = 60.0
"""Live analysis stops by itself after this long (the page can stop it sooner)."""
TABLE_MB = 64
"""Transposition table of each analysis engine (at most ``Limits.analyses`` run at once)."""


class Unanalysable(WebError, InvalidPositionError):
    """An impossible or finished position, with a stable ``code`` and the ``params`` its
    message names, so the editor and every page word the problem in their language.

    A :class:`~adjacency.serving.errors.WebError` first (a 400 whose body carries the code
    and its params, wherever a request meets it: the analysis, the lab, a game from a
    position), and an :class:`~adjacency.core.InvalidPositionError` for the callers that
    catch bad positions."""

    def __init__(self, detail: str, code: str, params: dict[str, int] | None = None) -> None:
        super().__init__(detail, code=code, params=dict(params or {}))
        self.code = code


def check_analysable(position: Position) -> None:
    """Raise :class:`Unanalysable` (an :class:`InvalidPositionError`) for a position no
    game can reach or that has nothing left to analyse.

    Every game starts with 8 pieces and each ply adds one, so a reachable position
    has at least 8 pieces, and its pieces plus plies left equal 8 plus twice the
    rounds (an even number). The core's own checks (disjoint pieces, plies left at
    most the empty squares) ran when the position was built.
    """
    pieces = (position.x | position.o).bit_count()
    if pieces < 8:
        raise Unanalysable(
            f"impossible position: {pieces} pieces on the board, but every game starts "
            "with 8 and each move adds one",
            code="too_few_pieces",
            params={"count": pieces},
        )
    if (pieces + position.plies_left) % 2:
        raise Unanalysable(
            f"impossible position: {pieces} pieces with {position.plies_left} plies left "
            "is not a whole number of rounds (pieces + plies left must be even)",
            code="odd_plies",
            params={"count": pieces, "plies": position.plies_left},
        )
    if position.plies_left == 0:
        raise Unanalysable(
            "the game is over in this position: no move is left to analyse (in the "
            "editor, set some plies left)",
            code="no_plies_left",
        )


def result_text(value: int, mover: Color) -> str:
    """``"X wins by 2 with perfect play"`` from the mover's exact margin."""
    if value == 0:
        return "Draw with perfect play"
    winner = mover if value > 0 else ("o" if mover == "x" else "x")
    return f"{winner.upper()} wins by {abs(value)} with perfect play"


def book_result(proven: BookHit, mover: Color) -> dict[str, object]:
    """The ``exact`` event of a position the shipped book holds (docs/solutions.md): its
    value and optimal moves were proven by ``adjacency solutions``, far beyond what the
    live solver reaches in its budget (the 8x8 start at 6 rounds took minutes)."""
    every = "" if proven.complete else " (some of them)"
    return {
        "value": x_view(proven.value, mover),
        "text": f"{result_text(proven.value, mover)}, proven in the book{every}",
        "why": "book" if proven.complete else "book-partial",
        "keeps": sorted(proven.moves),
        "moves": {},
    }


def new_engine(threads: int = THREADS) -> Engine:
    """An analysis engine on ``threads`` threads; the kernels are compiled (or loaded)
    first, once per process, so no time budget is spent compiling."""
    from ..engine import Engine, warmup

    warmup()
    return Engine(tt_mb=TABLE_MB, threads=threads)


def exact_result(
    engine: Engine, position: Position, seconds: float, stopper: Stopper
) -> tuple[int, dict[str, int], bool] | None:
    """The mover's exact value of ``position``, moves that keep it (each with that value)
    and whether they are all of them; ``None`` if the budget or a stop came before the
    value.

    One exact solve of the position gives the value ``v`` and one move that keeps it;
    every other move then needs only one null-window probe: it keeps the value exactly
    when its child is worth at most ``-v`` to the opponent. That is about a third of the
    work of solving every move exactly (docs/web.md). When the budget runs out among the
    probes the value is still exact: the moves found so far are returned, marked
    incomplete. The values of the moves that lose are not computed.
    """
    deadline = time.monotonic() + seconds
    mover = position.turn
    result = engine.solve(position, seconds=seconds)
    if not result.complete or stopper.stopped:
        return None
    value = result.value
    keeps = {result.best: value}
    for move in position.legal_moves():
        if move == result.best:
            continue
        child = position.play(move)
        if child.is_over:
            if child.margin(mover) == value:
                keeps[move] = value
            continue
        left = deadline - time.monotonic()
        if left <= 0 or stopper.stopped:
            return value, keeps, False
        # The child is scored for its mover, the opponent (no passes in this game).
        probe = engine.probe(child, -value + 1, seconds=left)
        if not probe.complete or stopper.stopped:
            return value, keeps, False
        if not probe.high:
            keeps[move] = value
    return value, keeps, True


def shown_depths(plies_left: int, least: int = 1) -> list[int]:
    """The depths, from ``least`` up to the end, at which the live analysis of a position
    ``plies_left`` plies from the end searches and reports its lines: those whose horizon
    falls on an even ply of the game (``plies_left`` less the depth is even, as every
    game has an even number of plies), so the same side, X, is to move at every horizon.

    Why not every depth: a search ending with one side to move rates a position two to
    three pieces differently from one ending with the other (the last mover's edge, which
    the evaluation does not see), so the value shown flipped up and down with each
    depth, and from each position of a game to the next. Averaging the last two depths
    would halve the swing but mix two horizons and lag a depth behind; reporting only
    the one parity keeps every number a real search's value, the same numbers the review
    gives (:func:`review_depth` follows the same rule), and the last depth, the end of
    the game, is always among them. The engine deepens iteratively inside each search,
    so skipping a depth costs no move ordering."""
    start = least + (plies_left - least) % 2
    return list(range(start, plies_left + 1, 2))


def top_lines(
    engine: Engine, position: Position, depth: int, going: Callable[[], bool] = lambda: True
) -> dict[str, Any] | None:
    """The ``lines`` event of ``position`` at ``depth``: every move's reply position
    searched ``depth - 1`` plies (at least 1), the :data:`TOP` best moves with their
    scores (X's view) and lines, and the nodes searched; ``None`` when ``going()`` turns
    false before a move (a stop, or the analysis's time is up)."""
    mover = position.turn
    lines = []
    nodes = 0
    for move in position.legal_moves():
        if not going():
            return None
        child = position.play(move)
        pv: tuple[str, ...] = (move,)
        if child.is_over:
            value = float(child.margin(mover))
        else:
            found = engine.search(child, depth=depth - 1 if depth > 1 else 1)
            if not going():
                continue
            value = -found.value if child.turn != mover else found.value
            pv = (move, *found.pv)
            nodes += found.nodes
        lines.append({"move": move, "score": x_view(value, mover), "pv": list(pv[:8])})
    lines.sort(key=lambda line: -x_view(line["score"], mover))  # type: ignore[arg-type]
    return {"depth": depth, "lines": lines[:TOP], "nodes": nodes}


def analyse(
    position: Position, emit: Emit, stopper: Stopper, solve_seconds: float = SOLVE_SECONDS
) -> None:
    """Live analysis of ``position`` (see the module docstring), reporting through ``emit``:

    * ``exact``: ``{"value", "text", "keeps", "moves"}`` (``moves``: the moves that keep
      the value, each with it; when the budget ran out among them, ``text`` says that
      not every move was checked) or ``{"value": None, "text"}``; each with ``why`` (``book``,
      ``book-partial``, ``solved``, ``solved-partial``, ``beyond-reach`` with ``seconds``,
      ``too-far`` with ``plies``), from which pages word ``text`` in their language
    * ``lines``: ``{"depth", "lines": [{"move", "score", "pv"}], "nodes"}`` per depth of
      :func:`shown_depths`
    * ``done``: ``{"reason"}`` at the end
    """
    mover = position.turn
    started = time.monotonic()
    lines_engine: Engine | None = None

    def lines_at(depth: int) -> dict[str, Any] | None:
        """The top lines at ``depth`` on one thread, or None once stopped or out of time."""
        nonlocal lines_engine
        if lines_engine is None:
            lines_engine = new_engine(threads=1)
        stopper.engine = lines_engine

        def going() -> bool:
            return not stopper.stopped and time.monotonic() - started <= ANALYSIS_SECONDS

        return top_lines(lines_engine, position, depth, going)

    def stopped() -> None:
        emit("done", {"reason": "stopped" if stopper.stopped else "time"})

    from ..engine.book import lookup

    first = 1
    proven = lookup(position)
    if proven is not None:
        emit("exact", book_result(proven, mover))
    elif position.plies_left <= SOLVE_PLIES:
        # The first line at once: the solver may take its whole budget before the lines.
        depth = shown_depths(position.plies_left)[0]
        shown = lines_at(depth)
        if shown is None:
            stopped()
            return
        emit("lines", shown)
        first = depth + 1
        engine = new_engine()
        stopper.engine = engine
        exact = exact_result(engine, position, solve_seconds, stopper)
        if exact is not None:
            best, keeps, every = exact
            partly = "" if every else " (not every move was checked in time)"
            emit(
                "exact",
                {
                    "value": x_view(best, mover),
                    "text": result_text(best, mover) + partly,
                    "why": "solved" if every else "solved-partial",
                    "keeps": sorted(keeps),
                    "moves": {m: x_view(v, mover) for m, v in sorted(keeps.items())},
                },
            )
        else:
            reach = f"beyond the solver's {solve_seconds:g}-second reach"
            emit(
                "exact",
                {"value": None, "text": reach, "why": "beyond-reach", "seconds": solve_seconds},
            )
    else:
        left = position.plies_left
        text = f"{left} plies from the end: too far to solve"
        emit("exact", {"value": None, "text": text, "why": "too-far", "plies": left})
    for depth in shown_depths(position.plies_left, first):
        shown = lines_at(depth)
        if shown is None:
            stopped()
            return
        emit("lines", shown)
    emit("done", {"reason": "complete"})


# ------------------------------------------------------------------ the study tools


def line_positions(position: Position, moves: list[str]) -> list[dict[str, Any]]:
    """The positions along ``moves`` played one after another from ``position``: each
    move with its mover, the squares it turned and the position after it (an
    :class:`~adjacency.core.IllegalMoveError` names the first move that cannot be played)."""
    from .view import cells

    found = []
    for move in moves:
        flips = position.flips(move) if move in position.legal_moves() else []
        after = position.play(move)
        found.append(
            {
                "move": move,
                "color": position.turn,
                "flips": flips,
                "fen": after.fen(),
                "cells": cells(after),
                "turn": after.turn,
                "plies": after.plies_left,
                "over": after.is_over,
            }
        )
        position = after
    return found


def judge(
    position: Position,
    ply: int,
    move: str,
    depth: int = REVIEW_DEPTH,
    solve_nodes: int = REVIEW_SOLVE_NODES,
) -> dict[str, Any]:
    """``move`` in ``position`` (``ply`` plies into its game) judged as
    :func:`~adjacency.lab.review.review` judges a played move: the exact values where
    the solver proves the position and the one after the move within ``solve_nodes``
    nodes, else searches of
    :func:`review_depth` on the review's engine (so the best move's value is the
    review's). ``accepted`` when the move loses less than :data:`INACCURACY` pieces
    against the best and is no blunder (with exact values, a move that worsens the
    result is one whatever it loses). Raise :class:`Unanalysable` for a finished
    position and :class:`~adjacency.core.IllegalMoveError` for a move that cannot be
    played."""
    check_analysable(position)
    after_position = position.play(move)
    mover = position.turn
    engine = review_engine()

    def proven(at: Position) -> tuple[int, str | None] | None:
        if at.is_over:
            return at.margin(), None
        if at.plies_left > REVIEW_SOLVE_PLIES:
            return None
        return solved_value(engine, at, solve_nodes)

    known = proven(position)
    known_after = proven(after_position) if known is not None else None
    before, best, after, searched = move_values(
        engine, position, after_position, known, known_after, review_depth(ply, depth)
    )
    loss = 0.0 if move == best else max(0.0, before - after)
    exact = searched is None
    return {
        "move": move,
        "best": best,
        "value": x_view(after, mover),
        "best_value": x_view(before, mover),
        "loss": loss,
        "exact": exact,
        "depth": searched,
        "accepted": loss < INACCURACY and classify(loss, exact, before, after) != "blunder",
    }
