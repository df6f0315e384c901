"""The engine's benchmark: a fixed suite of positions plus raw-speed and timing probes.

Suite positions come from seeded play (random opening moves, then the engine
at depth 3-4) of 28-round 8x8 games, frozen here as position text so the
bench never changes. Search positions report the depth reached within the
time given; endgame positions (12-18 plies left) report the exact solve time.

Every rate is given twice: per wall second (``nps``) and per CPU second (``cpu_nps``,
the CPU of the searching threads, :class:`~adjacency.system.cpu_meter.CpuMeter`). On a
loaded machine the wall rate falls with the share of a core the search got, while the
CPU rate stays near what the code does per cycle, so only the CPU rates of runs on
different loads compare.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..core import Position
from ..system.cpu_meter import CpuMeter
from .kernels.bits import write_geometry
from .kernels.layout import I_SIZE, STAT_NODES, STATS, TT
from .kernels.search import INF, plain
from .results import SearchResult, SolveResult
from .searcher import Engine

SUITE: tuple[tuple[str, str], ...] = (
    ("opening", "6oo/6oo/8/8/8/8/xx6/xx6 x 56"),
    ("middle-1", "4oxxo/4ooxo/8/o7/ox2xooo/ox3x1x/ox6/xx2x3 x 40"),
    ("middle-2", "6oo/1oox2xo/2xo2xx/5oox/5o2/o2x4/oxx1o3/xox5 x 40"),
    ("end12-1", "3xxxxo/xoooxoxo/oxoxx3/ox1x2xx/ox1xooxx/ooxoxoxx/oooooooo/xoxoo2o x 12"),
    ("end12-2", "2oxxoxo/x1oxxoxo/xo1xoxxo/oox1oxxx/xoxoooxx/xoxxo1oo/oxxox3/xoxoo3 x 12"),
    ("end14-1", "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox1oooxx/ooxoxxxx/oooox1xo/xoxoo2o x 14"),
    ("end14-2", "xxxxx1oo/xoxxx1xo/oxooxoox/oxxoxxox/xooxox2/xxxoo3/ooxoo3/xooo4 x 14"),
    ("end16-1", "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox2xoxx/ooxx1oxx/ooooo1xo/xoxoo2o x 16"),
    ("end16-2", "ooxo2oo/xxx3xx/xxx3xo/oxoo3o/ooxoo3/oxxooxx1/oooooxo1/xoxoooxx x 16"),
    ("end16-3", "2oxxoxo/x1ooxoxo/xo2xxxo/oox2xxx/xoxo2ox/xoxxx1oo/oxxox3/xoxoo3 x 16"),
    ("end18-1", "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox2xoxx/ooo2oxx/oooo2xo/xoxox2o x 18"),
    ("end18-2", "ooxo2oo/xxx3xx/xxx3xo/oxx4o/ooxoo3/oxxooxx1/oooooxo1/xoxoooo1 x 18"),
    ("end18-3", "2xxxoxo/3oxoxo/oo2xxxo/oox2xxx/xoxo2ox/xoxxx1oo/oxxox3/xoxoo3 x 18"),
)
"""(name, position text): the opening, two middle games, endgames with 12-18 plies left."""


@dataclass(frozen=True)
class BenchLine:
    """One suite position's result; ``depth`` for searches, ``value`` for solves."""

    name: str
    kind: str
    seconds: float
    nodes: int
    nps: float
    depth: int | None = None
    value: float | None = None
    best: str = ""
    complete: bool = True
    cpu_seconds: float = 0.0
    """CPU seconds of the threads that searched (wall ``seconds`` beside it)."""
    cpu_nps: float = 0.0
    """Nodes per CPU second."""


def plain_search(position: Position, depth: int) -> tuple[int, int, float]:
    """Plain fixed-depth alpha-beta (no table, no ordering): (value, nodes, wall seconds)."""
    U = np.zeros(TT, dtype=np.uint64)
    write_geometry(position.board, U)
    S = np.zeros(I_SIZE, dtype=np.int64)
    started = time.perf_counter()
    value = plain(
        np.uint64(position.mover),
        np.uint64(position.opponent),
        position.plies_left,
        min(depth, position.plies_left),
        -INF,
        INF,
        U,
        S,
    )
    return int(value), int(S[STATS + STAT_NODES]), time.perf_counter() - started


SIGNATURE_DEPTH = 8
"""The fixed depth of the suite's searches in the signature run (`adjacency bench --signature`)."""


def run_suite(
    seconds: float = 5.0,
    solve_limit: float = 120.0,
    tt_mb: float = 64.0,
    echo: Callable[[BenchLine], None] | None = None,
    depth: int | None = None,
) -> list[BenchLine]:
    """Search each opening/middle position for ``seconds``, or to ``depth`` when it is
    given; solve each endgame exactly (within ``solve_limit`` unless ``depth`` is given:
    then nothing is timed). One thread and a fresh table per position, so with ``depth``
    every node count depends on the code alone."""
    lines = []
    for name, fen in SUITE:
        engine = Engine(tt_mb=tt_mb)
        position = Position.from_fen(fen)
        meter = CpuMeter()
        result: SolveResult | SearchResult
        with meter.measure():
            if name.startswith("end"):
                result = engine.solve(position, seconds=solve_limit if depth is None else None)
                kind, reached, best, complete = "solve", None, result.best, result.complete
            else:
                result = (
                    engine.search(position, seconds=seconds)
                    if depth is None
                    else engine.search(position, depth=depth)
                )
                kind, reached, best, complete = "search", result.depth, result.move, True
        cpu = meter.seconds()
        line = BenchLine(
            name,
            kind,
            result.seconds,
            result.nodes,
            result.nodes / max(result.seconds, 1e-9),
            reached,
            result.value,
            best,
            complete,
            cpu,
            result.nodes / max(cpu, 1e-9),
        )
        lines.append(line)
        if echo is not None:
            echo(line)
    return lines


def raw_speed(depth: int = 8) -> dict[str, float]:
    """Nodes per wall second and per CPU second of :func:`plain_search` from the 8x8
    start at ``depth``."""
    meter = CpuMeter()
    with meter.measure():
        value, nodes, seconds = plain_search(Position.start(), depth)
    cpu = meter.seconds()
    return {
        "depth": depth,
        "value": value,
        "nodes": nodes,
        "seconds": seconds,
        "nps": nodes / seconds,
        "cpu_seconds": cpu,
        "cpu_nps": nodes / max(cpu, 1e-9),
    }


def timing(
    choose: Callable[[Position, float], str],
    new_game: Callable[[], None],
    moves: int = 200,
    seconds: float = 0.1,
) -> dict[str, float]:
    """Wall time per move of a player at ``seconds`` a move over ``moves`` moves
    (self-play games of 28 rounds on 8x8, restarted as needed).

    ``choose(position, seconds)`` returns the player's move and ``new_game()`` resets it;
    the caller builds the player (``adjacency bench`` passes the ``engine`` bot), so
    the engine layer never imports the bots above it.
    """
    walls: list[float] = []
    position = Position.start()
    while len(walls) < moves:
        if position.is_over:
            position = Position.start()
            new_game()
        started = time.perf_counter()
        move = choose(position, seconds)
        walls.append(time.perf_counter() - started)
        position = position.play(move)
    return {
        "moves": moves,
        "budget": seconds,
        "max": max(walls),
        "mean": statistics.fmean(walls),
        "over_0.15": sum(w > 0.15 for w in walls),
    }


def summary(lines: list[BenchLine]) -> dict[str, Any]:
    """Totals (nodes, wall and CPU seconds and rates) and the per-empties median solve
    times."""
    solves: dict[str, list[float]] = {}
    for line in lines:
        if line.kind == "solve":
            solves.setdefault(line.name.split("-")[0], []).append(line.seconds)
    nodes = sum(line.nodes for line in lines)
    seconds = sum(line.seconds for line in lines)
    cpu = sum(line.cpu_seconds for line in lines)
    return {
        "positions": [asdict(line) for line in lines],
        "total_nodes": nodes,
        "total_seconds": seconds,
        "total_nps": nodes / max(seconds, 1e-9),
        "total_cpu_seconds": cpu,
        "total_cpu_nps": nodes / max(cpu, 1e-9),
        "median_solve_seconds": {k: statistics.median(v) for k, v in solves.items()},
    }


def signature(lines: list[BenchLine]) -> int:
    """The bench signature: the total nodes of a :data:`SIGNATURE_DEPTH` run of the suite
    (``run_suite(depth=SIGNATURE_DEPTH)``). A commit that changes the search quotes it; a
    change that keeps every tree keeps it, and one that changes any tree almost surely not."""
    return sum(line.nodes for line in lines)
