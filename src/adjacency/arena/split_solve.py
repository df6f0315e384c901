"""Exact solves split over an executor: the root's moves are solved as parallel tasks.

:func:`split_solve` plays each legal move of the root and solves the resulting
position in a worker (:func:`solve_subtree`, one task per move, on any
:class:`~adjacency.arena.executor.Executor`: the local pool or a Ray cluster),
in two rounds:

1. every child is solved *win/draw/loss* (a single null-window search around
   0, the cheapest proof there is), which classifies each root move as a win,
   draw or loss for the root's mover;
2. only the moves of the best class are solved exactly (a drawing move is exact
   already: its margin is 0, so when the best class is a draw nothing is left).

The root's value is the best negated child value (negamax) and the best move a
move reaching it: the serial solve's value and one of its best moves (when
several moves tie, which one the serial MTD(f) reports depends on its move
ordering; ``values`` lists the exact value of every move solved exactly).

The split uses only the engine's public API (:meth:`Engine.solve`), so moves of
the best class are each solved exactly, where the serial search proves most
of them inferior with null-window probes at the root's value: the split does
more work in total than the serial solve and pays off only when the workers
outnumber that overhead (docs/distributed.md has the measured figures).

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
from .executor import Executor


@dataclass(frozen=True)
class Subtree:
    """One task: the root position, a move to play there, and the solver settings."""

    root: str
    move: str
    tt_mb: float = 64.0
    wld: bool = False
    seconds: float | None = None


@dataclass(frozen=True)
class SubtreeResult:
    """A solved root move: its value for the root's mover (exact, or sign in WLD mode)."""

    move: str
    value: int
    nodes: int
    seconds: float
    complete: bool
    where: str = ""
    cpu_seconds: float = 0.0
    """CPU time of the worker process for this task (the work, whatever the load)."""


@dataclass(frozen=True)
class SplitResult:
    """The combined solve: ``value`` and ``best`` as :class:`~adjacency.engine.SolveResult`,
    plus every root move's value, the nodes of all tasks, and the wall-clock seconds."""

    value: int
    best: str
    nodes: int
    seconds: float
    wld: bool
    complete: bool
    values: dict[str, int] = field(default_factory=dict)
    tasks: list[SubtreeResult] = field(default_factory=list)


@cache
def _engine(tt_mb: float) -> Any:
    from ..engine import Engine, warmup

    warmup()
    return Engine(tt_mb=tt_mb)


def solve_subtree(task: Subtree) -> SubtreeResult:
    """Play ``task.move`` at the root and solve the child exactly (runs in a worker)."""
    from .executor import Placement

    began, cpu = time.monotonic(), time.process_time()
    root = Position.from_fen(task.root)
    child = root.play(task.move)
    where = str(Placement.here())
    if child.is_over:
        mine, theirs = child.score if root.turn == "x" else child.score[::-1]
        margin = mine - theirs
        value = (margin > 0) - (margin < 0) if task.wld else margin
        return SubtreeResult(
            task.move, value, 0, time.monotonic() - began, True, where, time.process_time() - cpu
        )
    result = _engine(task.tt_mb).solve(child, wld=task.wld, seconds=task.seconds)
    return SubtreeResult(
        task.move,
        -result.value,
        result.nodes,
        time.monotonic() - began,
        result.complete,
        where,
        time.process_time() - cpu,
    )


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
    moves = position.legal_moves()
    order = {move: i for i, move in enumerate(moves)}

    def run(chosen: list[str], exact: bool) -> list[SubtreeResult]:
        tasks = [Subtree(fen, move, tt_mb, not exact, seconds) for move in chosen]
        done = [result for _, result in executor.map_unordered(solve_subtree, tasks)]
        return sorted(done, key=lambda r: order[r.move])

    classes = run(moves, exact=False)
    tasks = list(classes)
    best_class = max(r.value for r in classes)
    values: dict[str, int] = {}
    if wld or best_class == 0 or not all(r.complete for r in classes):
        # A drawing move is exact already (margin 0), and nothing beats it.
        chosen = classes
        values = {r.move: r.value for r in classes} if wld else {}
    else:
        chosen = run([r.move for r in classes if r.value == best_class], exact=True)
        tasks += chosen
        values = {r.move: r.value for r in chosen}
    if best_class == 0 and not wld:
        values = {r.move: 0 for r in classes if r.value == 0}
    complete = all(r.complete for r in tasks)
    best = max(chosen, key=lambda r: (r.value, -order[r.move]))
    return SplitResult(
        value=best.value,
        best=best.move,
        nodes=sum(r.nodes for r in tasks),
        seconds=time.monotonic() - began,
        wld=wld,
        complete=complete,
        values=values,
        tasks=tasks,
    )
