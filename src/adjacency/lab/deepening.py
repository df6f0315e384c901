"""Depth against cost: each iteration of iterative deepening, for alpha-beta and the engine.

:func:`deepening_trace` runs the classic ``alphabeta`` searcher (ordering and the
table, as the default bot, counted as textbook alpha-beta: without the bots' bulk-leaves
shortcut, see :mod:`.compare`) and the compiled engine (``engine`` bot, its
iteration reports) on one position within a time budget, and returns per depth:
the nodes of that iteration alone, the cumulative nodes and seconds (every iteration
up to it), and the *effective branching factor* (this iteration's nodes over the
previous one's). ``budget`` is the seconds each search was given, at most the
course's 5-second move limit (:data:`MOVE_LIMIT`), and ``limit_depth`` the deepest
iteration completed within it, measured: on a log axis of time against depth, the
line where the budget falls. Timings are wall-clock and vary with the machine's load.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import Limit, Thinking
from ..bots.base import Search
from ..bots.minimax import Negamax, SearchStopped, deepen
from ..core import Position
from .drawing import chart
from .limits import LabError, check_position
from .running import Cancel, build

MOVE_LIMIT = 5.0
"""The course's seconds per move."""
MAX_SECONDS = 6.0
"""The most seconds each of the two searches of a trace may run (just past the limit)."""
MAX_DEPTH = 64


@dataclass(frozen=True)
class DepthCost:
    """One completed iteration."""

    depth: int
    nodes: int
    """Nodes of this iteration alone."""
    total_nodes: int
    seconds: float
    """Seconds from the start of the search to the end of this iteration."""
    branching: float | None
    value: float
    pv: tuple[str, ...]


@dataclass(frozen=True)
class Deepening:
    """Iterations of one searcher on one position."""

    searcher: str
    iterations: tuple[DepthCost, ...]
    limit_depth: int | None
    """The deepest iteration finished within the trace's ``budget`` seconds."""


@dataclass(frozen=True)
class DeepeningTrace:
    """The classic alpha-beta's and the engine's iterations on one position."""

    fen: str
    seconds: float
    """The seconds each search was given (as asked)."""
    move_limit: float
    """The course's seconds per move (:data:`MOVE_LIMIT`)."""
    budget: float
    """The seconds ``limit_depth`` is measured against: ``seconds``, at most ``move_limit``."""
    runs: tuple[Deepening, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {
            "fen": self.fen,
            "seconds": self.seconds,
            "move_limit": self.move_limit,
            "budget": self.budget,
            "runs": [asdict(run) for run in self.runs],
        }

    def _repr_svg_(self) -> str:
        return deepening_svg(self)


def _costs(
    name: str, points: list[tuple[int, int, float, float, tuple[str, ...]]], budget: float
) -> Deepening:
    """Per-iteration costs from ``(depth, cumulative nodes, seconds, value, pv)``; the depth
    within ``budget`` seconds."""
    rows: list[DepthCost] = []
    previous_total, previous_nodes = 0, 0
    for depth, total, seconds, value, pv in points:
        nodes = total - previous_total
        branching = nodes / previous_nodes if previous_nodes else None
        rows.append(DepthCost(depth, nodes, total, seconds, branching, value, pv))
        previous_total, previous_nodes = total, nodes
    within = [row.depth for row in rows if row.seconds <= budget]
    return Deepening(name, tuple(rows), max(within) if within else None)


def classic_deepening(
    position: Position, seconds: float, cancel: Cancel | None = None
) -> Deepening:
    """The default ``alphabeta`` bot's iterations on ``position`` within ``seconds``, counted
    as textbook alpha-beta (no bulk leaves)."""
    stop = cancel.event if cancel is not None else threading.Event()
    search = Search(Limit(time=seconds), stop)
    searcher = Negamax(position, True, True, search, None, True, bulk=False)
    points: list[tuple[int, int, float, float, tuple[str, ...]]] = []
    started = time.perf_counter()
    try:
        for result in deepen(searcher, position, MAX_DEPTH):
            elapsed = time.perf_counter() - started
            points.append((result.depth, result.nodes, elapsed, float(result.score), result.pv))
    except SearchStopped:
        pass
    return _costs("alphabeta", points, min(seconds, MOVE_LIMIT))


def engine_deepening(position: Position, seconds: float, cancel: Cancel | None = None) -> Deepening:
    """The ``engine`` bot's iteration reports on ``position`` within ``seconds`` (the solver
    off, so that every report is one depth of its iterative deepening)."""
    bot = build(f"engine:time={seconds:g},solve=false,book=off", 1, (object,), "the engine")
    reports: list[Thinking] = []
    if cancel is not None:
        cancel.watch(bot)
    try:
        bot.choose_move(position, Limit(time=seconds), reports.append)
    finally:
        bot.close()
    points: list[tuple[int, int, float, float, tuple[str, ...]]] = []
    for report in reports:
        if report.depth is None or report.nodes is None or report.score is None:
            continue
        if points and report.depth <= points[-1][0]:
            continue  # the final report repeats the deepest completed iteration
        points.append((report.depth, report.nodes, report.seconds, report.score, report.pv))
    return _costs("engine", points, min(seconds, MOVE_LIMIT))


def deepening_trace(
    position: Position, seconds: float = MAX_SECONDS, cancel: Cancel | None = None
) -> DeepeningTrace:
    """Both searchers' iterations on ``position``, each within ``seconds`` (at most
    :data:`MAX_SECONDS`)."""
    check_position(position)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise LabError(f"seconds must be a number from 0.1 to {MAX_SECONDS:g}, got {seconds!r}")
    if not 0.1 <= seconds <= MAX_SECONDS:
        raise LabError(f"seconds must be a number from 0.1 to {MAX_SECONDS:g}, got {seconds!r}")
    runs = (
        classic_deepening(position, seconds, cancel),
        engine_deepening(position, seconds, cancel),
    )
    budget = float(min(seconds, MOVE_LIMIT))
    return DeepeningTrace(position.fen(), float(seconds), MOVE_LIMIT, budget, runs)


__all__ = ["Deepening", "DeepeningTrace", "DepthCost", "deepening_trace"]


def deepening_svg(trace: DeepeningTrace) -> str:
    """Seconds against depth on a log axis, one line per searcher, the depth each finished
    within the trace's budget marked (the budget stated)."""
    colours = ("#1565c0", "#c62828")
    series = [
        (
            run.searcher,
            colours[i % 2],
            [(float(r.depth), max(r.seconds, 1e-6)) for r in run.iterations],
        )
        for i, run in enumerate(trace.runs)
    ]
    marks = [
        (
            float(run.limit_depth),
            f"{run.searcher}: depth {run.limit_depth} within {trace.budget:g} s",
        )
        for run in trace.runs
        if run.limit_depth is not None
    ]
    return chart("seconds by depth (log axis)", series, True, "depth", "seconds", marks[:1])
