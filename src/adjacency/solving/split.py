"""Exact solves split over an executor: the root's moves are solved as parallel tasks.

:func:`split_solve` plays legal moves of the root and solves or probes the
resulting positions in workers (:func:`solve_subtree`, one task per move, on
any :class:`~adjacency.workers.Executor`: the local pool or a Ray
cluster). The root's value is the best negated child value (negamax).

**Exact values** (Young Brothers Wait at the root, with null-window probes as
in the serial MTD(f)): a shallow search orders the root's moves. The first move
(the eldest brother) is solved exactly on its own; from then on ``v`` is the best
exact value found, and each round

- solves exactly the moves already proven better than ``v`` (they raise ``v``),
- probes the undecided moves with a null window just above ``v`` ("is this
  move worth ``v + 2``?": margins share one parity, so the next value up is
  ``v + 2``); a move that fails low is refuted (worth at most ``v``),

until every move is solved or refuted. Most moves are refuted by one cheap
probe, exactly the refutations the serial MTD(f) makes at its last step, and the
probes run in parallel. No move is probed before ``v`` is known: a probe at a
guess at or below a move's value proves a lower bound (every reply of the
opponent refuted), the costly kind of proof that the serial search makes for
one move only and that is wasted once ``v`` is known. ``values``
has the exact value of the moves solved exactly, ``bounds`` an upper bound of
every other move (at most the root's value). When moves tie, the best move
reported is one reaching the value, not always the one the serial solve reports
(that depends on its move ordering).

**Win/draw/loss**: every child is solved win/draw/loss in one round (a single
null-window search around 0 each).

Each worker keeps one :class:`~adjacency.engine.Engine` per table size for all
its tasks: sibling subtrees share transpositions, and the table's entries are
exact results valid for any task of the same game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..core import Position
from ..core.errors import InvalidPositionError
from ..engine.results import SolveResult
from ..workers import Executor

ORDER_DEPTH = 4
"""Depth of the searches ordering the root's moves (the serial solve's guess uses 4 plies
too): deep enough to put the best move first most of the time, a tiny part of the solve."""


@dataclass(frozen=True)
class Subtree:
    """One task: the root position, a move to play there, and the solver settings.

    ``probe``: only answer "is the move worth at least ``probe``?" (a null-window
    probe, root mover's view); ``None``: solve exactly (or win/draw/loss)."""

    root: str
    move: str
    tt_mb: float = 64.0
    wld: bool = False
    seconds: float | None = None
    probe: int | None = None


@dataclass(frozen=True)
class SubtreeResult:
    """A root move's value for the root's mover: exact, its sign in WLD mode, or after
    a probe a bound (``kind`` ``"lower"``: the move is worth at least ``value``;
    ``"upper"``: at most ``value``)."""

    move: str
    value: int
    nodes: int
    seconds: float
    complete: bool
    where: str = ""
    cpu_seconds: float = 0.0
    """CPU time of the worker process for this task (the work, whatever the load)."""
    kind: str = "exact"


@dataclass(frozen=True)
class SplitResult(SolveResult):
    """The combined solve, a :class:`~adjacency.engine.SolveResult` of the position
    (``nodes``: of all tasks; ``seconds``: wall-clock; no table counts, each task has its
    own table), with the exact values of the moves solved exactly, an upper bound of
    every other move, and the tasks."""

    values: dict[str, int] = field(default_factory=dict)
    bounds: dict[str, int] = field(default_factory=dict)
    tasks: list[SubtreeResult] = field(default_factory=list)


@cache
def _engine(tt_mb: float) -> Any:
    from ..engine import Engine, warmup

    warmup()
    return Engine(tt_mb=tt_mb)


def solve_subtree(task: Subtree) -> SubtreeResult:
    """Play ``task.move`` at the root and solve or probe the child (runs in a worker)."""
    from ..workers import Placement

    began, cpu = time.monotonic(), time.process_time()
    root = Position.from_fen(task.root)
    child = root.play(task.move)
    where = str(Placement.here())

    def done(value: int, nodes: int, complete: bool, kind: str = "exact") -> SubtreeResult:
        elapsed, used = time.monotonic() - began, time.process_time() - cpu
        return SubtreeResult(task.move, value, nodes, elapsed, complete, where, used, kind)

    if child.is_over:
        margin = child.margin(root.turn)
        return done((margin > 0) - (margin < 0) if task.wld else margin, 0, True)
    engine = _engine(task.tt_mb)
    if task.probe is not None:
        # The move is worth >= t iff the child's value (opponent's view) is <= -t, i.e.
        # not >= 1 - t: a probe of the child at 1 - t, its bound negated.
        probed = engine.probe(child, 1 - task.probe, seconds=task.seconds)
        kind = "upper" if probed.high else "lower"
        return done(-probed.bound, probed.nodes, probed.complete, kind)
    result = engine.solve(child, wld=task.wld, seconds=task.seconds)
    return done(-result.value, result.nodes, result.complete)


def _order(position: Position) -> list[str]:
    """The root's moves, best first by a shallow search of each child."""
    from ..engine import Engine

    engine = Engine(tt_mb=4)
    scores: dict[str, float] = {}
    for move in position.legal_moves():
        child = position.play(move)
        if child.is_over:
            scores[move] = child.margin(position.turn)
        else:
            scores[move] = -engine.search(child, depth=min(ORDER_DEPTH, child.plies_left)).value
    return sorted(scores, key=lambda move: -scores[move])


def split_solve(
    position: Position,
    executor: Executor,
    tt_mb: float = 64.0,
    wld: bool = False,
    seconds: float | None = None,
) -> SplitResult:
    """Solve ``position`` exactly (or win/draw/loss only) with root moves as tasks."""
    if position.is_over:
        raise InvalidPositionError(f"cannot solve a finished game: {position.fen()!r}")
    began = time.monotonic()
    fen = position.fen()
    tasks: list[SubtreeResult] = []

    def run(batch: list[Subtree]) -> list[SubtreeResult]:
        done = [result for _, result in executor.map_unordered(solve_subtree, batch)]
        tasks.extend(done)
        return done

    if wld:
        moves = position.legal_moves()
        classes = run([Subtree(fen, move, tt_mb, True, seconds) for move in moves])
        values = {r.move: r.value for r in classes}
        best = max(moves, key=lambda move: values[move])  # the first of the best class
        return SplitResult(
            values[best],
            best,
            sum(r.nodes for r in tasks),
            time.monotonic() - began,
            True,
            all(r.complete for r in tasks),
            values=values,
            tasks=tasks,
        )
    moves = _order(position)
    exact: dict[str, int] = {}
    upper: dict[str, int] = {}  # proven: the move is worth at most this
    lower: dict[str, int] = {}  # proven: the move is worth at least this
    # Round one: the eldest brother alone, exactly (probes wait for its value).
    batch = [Subtree(fen, moves[0], tt_mb, False, seconds)]
    complete = True
    while batch:
        for result in run(batch):
            complete &= result.complete
            if result.kind == "exact":
                exact[result.move] = result.value
            elif result.kind == "upper":
                upper[result.move] = result.value
            else:
                lower[result.move] = result.value
        if not complete:
            break
        v = max(exact.values())
        batch = []
        for move in moves:
            if move in exact or upper.get(move, v + 2) <= v:
                continue  # solved, or refuted: worth at most v
            if lower.get(move, v) > v:
                batch.append(Subtree(fen, move, tt_mb, False, seconds))  # better: solve it
            else:
                batch.append(Subtree(fen, move, tt_mb, False, seconds, v + 2))
    value = max(exact.values(), default=0)  # out of time: meaningless, as in Engine.solve
    best = next((move for move in moves if exact.get(move) == value), moves[0])
    return SplitResult(
        value,
        best,
        sum(r.nodes for r in tasks),
        time.monotonic() - began,
        False,
        complete,
        values=exact,
        bounds={move: bound for move, bound in upper.items() if move not in exact},
        tasks=tasks,
    )
