"""A game's review: how much each move lost for its mover against the best move, the
engine's judgement shared by every front end (the analysis board's review and judge of
the web app, the league's report card of a team's version).

Nothing here depends on the clock or the machine's load, so a game's marks are a
function of the game and the review's bounds alone: the solver proves a position's
exact value when it finishes within ``solve_nodes`` nodes (:data:`REVIEW_SOLVE_NODES` by
default; tried from the end back, up to :data:`REVIEW_SOLVE_PLIES` plies left), and
elsewhere a move is judged by searches of fixed depth (:func:`review_depth`) on a
single-threaded engine whose table is cleared before each search. Each move is marked
by :func:`classify` and scored by :func:`move_accuracy`; :func:`player_summary` sums a
player's moves.

Everything uses the engine's public API (:class:`adjacency.engine.Engine`) and reports
through a callback (:data:`Emit`), so a web route streams it as server-sent events and
the league's card worker collects it; a :class:`Stopper` stops it from another thread.

Scores are pieces (final margin) from X's view unless a name says otherwise.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import Color, Position

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Engine

REVIEW_DEPTH = 7
"""The review's least search depth (see :func:`review_depth`): a depth-7 or 8 search of
an 8x8 opening position takes about 0.1 to 0.2 s here on one thread."""
REVIEW_SOLVE_PLIES = 20
"""The review tries the solver only this near the end."""
REVIEW_SOLVE_NODES = 40_000_000
"""The solver's node budget per reviewed position: about 2 s on one thread here (a failed
try took 1.7 s), which solves the 8x8 positions 18 plies from the end (one took 21
million nodes, 1.5 s), often 19, seldom 20 (one took 187 million)."""
REVIEW_TABLE_MB = 16
"""Transposition table of the review's engine (cleared before every search)."""
INACCURACY = 2
"""Pieces of final margin a move may lose before it is marked an inaccuracy."""
MISTAKE = 4
"""... a mistake."""
BLUNDER = 8
"""... a blunder. A move that turns the exact result from a win into a draw or a loss,
or from a draw into a loss, is a blunder whatever the margin; any other move that
loses margin under perfect play is at least an inaccuracy (the solver's values are
exact, so even one square is a real loss)."""

ACCURACY_SQUARES = 1.0
"""The accuracy's scale: a move that loses ``loss`` squares of final margin scores
``100 * exp(-loss / ACCURACY_SQUARES)`` (:func:`move_accuracy`). Calibrated on reviewed
8x8 games of 28 rounds between uniformly random moves and the engine (depth 6): the
engine's moves lost a mean 0.06 squares (0.09 where the solver judged them), a random
move 1.16 (1.57 where the solver judged it, median 2), so the engine scores about 96 and
random play about 47 (the linear scale used before, 12.5 points a square, gave random
play 81 to 87). ``benchmarks/bench_accuracy.py`` measures it (docs/web.md)."""

Emit = Callable[[str, dict[str, Any]], None]
"""How a review reports: ``emit(event, data)``."""


class Stopper:
    """Stops an analysis from another thread (the page left, or pressed Stop)."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.event = threading.Event()

    def stop(self) -> None:
        """Stop the analysis: set the flag, and stop the engine if one is searching."""
        self.event.set()
        if self.engine is not None:
            self.engine.stop()

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self.event.is_set()


def x_view(value: float, mover: Color) -> float:
    """``value``, given from the view of ``mover``, from X's view."""
    return value if mover == "x" else -value


def classify(loss: float, exact: bool, before: float, after: float) -> str | None:
    """The mark of a move that lost ``loss`` pieces for its mover (``before``/``after``:
    the mover's values around it), or ``None``. Thresholds: :data:`INACCURACY`,
    :data:`MISTAKE`, :data:`BLUNDER`."""
    if exact:
        if loss <= 0:
            return None
        if (before > 0) - (before < 0) > (after > 0) - (after < 0):
            return "blunder"
        return "mistake" if loss >= MISTAKE else "inaccuracy"
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def review_depth(ply: int, least: int = REVIEW_DEPTH) -> int:
    """The depth the review searches the position ``ply`` plies into the game: ``least``
    or one more, so that the horizon (``ply`` plus the depth) falls on an even ply of
    the game, the same side to move there from ply to ply. (A search ending with one
    side to move rates the position differently from one ending with the other, by
    two to three pieces on 8x8: without the same parity a move would gain or lose that
    much from one ply to the next.)"""
    return least + (ply + least) % 2


def review_engine() -> Engine:
    """The review's engine: one thread (a search of one depth then visits the same nodes
    every time), a small table that :func:`solved_value` and :func:`searched_value`
    clear before each search. The kernels are compiled (or loaded) first."""
    from ..engine import Engine, warmup

    warmup()
    return Engine(tt_mb=REVIEW_TABLE_MB, threads=1)


def solved_value(engine: Engine, position: Position, nodes: int) -> tuple[int, str] | None:
    """The mover's exact value of ``position`` (not over) and a move that keeps it, or
    ``None`` when the solver needs more than ``nodes`` nodes."""
    engine.clear()
    result = engine.solve(position, nodes=nodes)
    return (result.value, result.best) if result.complete else None


def move_values(
    engine: Engine,
    position: Position,
    after_position: Position,
    known: tuple[int, str | None] | None,
    known_after: tuple[int, str | None] | None,
    depth: int,
) -> tuple[float, str | None, float, int | None]:
    """A move's values as the review judges it, from the mover's view: the value of
    ``position`` before it, the best move there, the value of ``after_position`` (the
    position the move leads to), and the depth searched. Exact (depth ``None``) when both
    positions' values are ``known`` (the solver's value and move, the one after scored for
    the opponent); otherwise both are searched, ``position`` to ``depth`` and the position
    after to one ply less, so both horizons fall on the same ply of the game."""
    if known is not None and known_after is not None:
        return float(known[0]), known[1], float(-known_after[0]), None
    before, best = searched_value(engine, position, depth)
    if after_position.is_over:
        after = float(after_position.margin(position.turn))
    else:
        after = -searched_value(engine, after_position, depth - 1)[0]
    return before, best, after, depth


def searched_value(engine: Engine, position: Position, depth: int) -> tuple[float, str]:
    """The mover's value of ``position`` (not over) by a ``depth``-ply search, and its move."""
    engine.clear()
    found = engine.search(position, depth=depth)
    return found.value, found.move


def review(
    positions: list[Position],
    moves: list[str],
    emit: Emit,
    stopper: Stopper,
    depth: int = REVIEW_DEPTH,
    solve_nodes: int = REVIEW_SOLVE_NODES,
) -> None:
    """Review a game given its positions (start to end) and moves (see the module
    docstring), from the end back to the start. Emits, in that order:

    * ``progress`` ``{"done", "total"}``: moves judged so far, first ``0``;
    * ``move`` per ply ``{"ply", "mover", "value", "exact", "depth", "best", "loss",
      "mark"}``: ``value`` is X's view after the move; ``exact`` true when the solver
      proved the values before and after the move (``depth`` ``None``), else ``depth``
      is the search's depth from the position before the move (the position after it
      is searched one ply less, so both end on the same ply); ``loss`` the pieces the
      move lost for its mover against ``best`` (0, and no ``mark``, when it is ``best``);
    * ``summary`` ``{"x": ..., "o": ...}``, each :func:`player_summary`;
    * ``done`` ``{"reason": "complete"}`` (or ``"stopped"`` at once after a stop).

    ``depth`` and ``solve_nodes`` are :data:`REVIEW_DEPTH` and :data:`REVIEW_SOLVE_NODES`
    by default (tests make them smaller).
    """
    engine = review_engine()
    stopper.engine = engine
    total = len(moves)
    exact: list[tuple[int, str | None] | None] = [None] * len(positions)
    """Each position's proven value (its mover's view) and a best move, where known."""
    solving = True
    """Still trying the solver: the first position it fails on (from the end back) ends
    the exact zone, as positions further from the end are harder."""

    def prove(index: int) -> None:
        nonlocal solving
        position = positions[index]
        if position.is_over:
            exact[index] = (position.margin(), None)
        elif solving and position.plies_left <= REVIEW_SOLVE_PLIES:
            exact[index] = solved_value(engine, position, solve_nodes)
            solving = exact[index] is not None

    judged: list[dict[str, Any]] = []
    emit("progress", {"done": 0, "total": total})
    if positions and not stopper.stopped:
        prove(len(positions) - 1)
    for i in range(total - 1, -1, -1):
        if stopper.stopped:
            emit("done", {"reason": "stopped"})
            return
        position, after_position = positions[i], positions[i + 1]
        mover = position.turn
        if exact[i + 1] is not None:
            prove(i)
        before, best, after, searched = move_values(
            engine, position, after_position, exact[i], exact[i + 1], review_depth(i, depth)
        )
        if stopper.stopped:
            emit("done", {"reason": "stopped"})
            return
        # The played move is among the best when it is the one named best: it loses nothing
        # (the search of the position after it may still rate it a little differently).
        loss = 0.0 if moves[i] == best else max(0.0, before - after)
        is_exact = searched is None
        data = {
            "ply": i + 1,
            "mover": mover,
            "value": x_view(after, mover),
            "exact": is_exact,
            "depth": searched,
            "best": best,
            "loss": loss,
            "mark": classify(loss, is_exact, before, after),
        }
        judged.append(data)
        emit("move", data)
        emit("progress", {"done": total - i, "total": total})
    emit("summary", {color: player_summary(judged, color) for color in ("x", "o")})
    emit("done", {"reason": "complete"})


def move_accuracy(loss: float) -> float:
    """A move's accuracy, from 0 to 100, from the squares of final margin it lost against
    the best move (exact or estimated, as the review judged it): 100 for a best move,
    about 37 for a square lost, 14 for two, under 2 from four (a mistake) on; see
    :data:`ACCURACY_SQUARES`."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SQUARES)


def player_summary(judged: list[dict[str, Any]], color: Color) -> dict[str, Any]:
    """One player's review: ``moves``; ``accuracy``, from 0 to 100 (one decimal): the mean
    of the moves' :func:`move_accuracy` (100.0 with none), so only the squares lost count,
    a square the same everywhere; ``inaccuracies``, ``mistakes`` and ``blunders``; ``loss`` and
    ``average_loss``, the pieces lost in all and per move (two decimals); ``exact``, how
    many of the moves the solver judged."""
    own = [data for data in judged if data["mover"] == color]
    marks = [data["mark"] for data in own]
    lost = sum(float(data["loss"]) for data in own)
    scores = [move_accuracy(float(data["loss"])) for data in own]
    return {
        "moves": len(own),
        "accuracy": round(sum(scores) / len(own), 1) if own else 100.0,
        "inaccuracies": marks.count("inaccuracy"),
        "mistakes": marks.count("mistake"),
        "blunders": marks.count("blunder"),
        "loss": round(lost, 2),
        "average_loss": round(lost / len(own), 2) if own else 0.0,
        "exact": sum(1 for data in own if data["exact"]),
    }
