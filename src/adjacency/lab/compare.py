"""Side by side: what each alpha-beta technique saves on one position and depth.

:func:`compare_techniques` runs the bots' searcher (:class:`~adjacency.bots.minimax.Negamax`,
iterative deepening to the depth, as the bots do) once per row on the same position:

- ``minimax``: no pruning;
- ``reading``: alpha-beta with the moves tried in reading order (a8, b8, ..., h1: the
  top rank first, each rank from file a): no move ordering at all (:class:`ReadingOrder`);
- ``alphabeta``: alpha-beta with the moves converting the most tried first (ties by
  square index: a1, b1, ..., h8), the bots' move generator, without best-move-first
  (the ``alphabeta:order=false,table=false`` bot);
- ``ordered``: as ``alphabeta``, with the best move that the previous iteration (or an
  earlier visit of the same position) found tried first (``alphabeta:table=false``);
- ``table``: as ``ordered``, with a transposition table (bounds proven for a position
  reused at the same remaining depth: the default ``alphabeta`` bot's search);
- ``bulk``: as ``table``, with the bots' *bulk leaves* shortcut: one ply above the
  horizon every child is valued at once by its conversions and counted, none cut off.
  This is how the ``alphabeta`` bot plays (fast in Python, not fewer nodes); the rows
  before it are textbook searches.

The first five rows are textbook minimax / alpha-beta with the stated order and table,
cut-offs at every ply included (``Negamax(bulk=False)``), so an independent
implementation gets the same counts (``tests/lab/test_textbook.py`` has one). Each row
gives ``nodes``, the positions the search at the full depth visited (the root, every
interior and every horizon position), and ``total_nodes``, the positions of the whole
iterative deepening (depth 1, 2, ..., the depth: what the bot spends); the seconds taken;
the value and move found; and the nodes saved, at the full depth, against the row before
it and against minimax. The values are equal (pruning and the table never change the
fixed-depth value); a row whose search reached :data:`~adjacency.lab.limits.COUNT_CAP`
nodes (all iterations together) is marked ``complete=False``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from ..bots import Limit
from ..bots.base import Search
from ..bots.minimax import Negamax, SearchStopped, deepen
from ..bots.objective import reading_order
from ..core import Position
from .drawing import html_table
from .limits import COUNT_CAP, check_depth, check_position
from .running import Cancel

TECHNIQUES: tuple[tuple[str, bool, bool, bool, bool], ...] = (
    ("minimax", False, False, False, False),
    ("reading", True, False, False, False),
    ("alphabeta", True, False, False, False),
    ("ordered", True, True, False, False),
    ("table", True, True, True, False),
    ("bulk", True, True, True, True),
)
"""(name, prune, order, table, bulk) of each row, from no technique to all of them."""


class ReadingOrder(Negamax):
    """The bots' searcher with its move generator replaced by plain reading order.

    Only :meth:`moves` differs: the search itself (pruning, counting, the value) is
    :class:`~adjacency.bots.minimax.Negamax`'s, so the row shows what the bots' move
    generator, which tries the moves converting the most first, saves over none.
    """

    def moves(self, me: int, opp: int, empty: int) -> Iterator[tuple[int, int]]:
        """Every empty square as ``(square, flips)`` in reading order."""
        for square in self.reading:
            if (empty >> square) & 1:
                yield square, (self.neighbours[square] & opp).bit_count()

    @property
    def reading(self) -> tuple[int, ...]:
        """The board's squares in reading order (top rank first)."""
        board = self.geometry.board
        return reading_order(board.rows, board.cols)


@dataclass(frozen=True)
class TechniqueCount:
    """One row of :func:`compare_techniques`."""

    technique: str
    nodes: int | None
    """Positions the search at the full depth visited (its last iteration); ``None`` when the
    cap cut the search first."""
    total_nodes: int
    """Positions of the whole iterative deepening, every iteration summed (where the cap
    cut it: the nodes until then)."""
    seconds: float
    value: int | None
    move: str | None
    complete: bool
    saved_vs_previous: int | None
    """``nodes`` of the row before minus this row's (negative: this technique costs nodes;
    ``None`` when either is unknown)."""
    saved_vs_minimax: int | None


@dataclass(frozen=True)
class Comparison:
    """Every technique's count on one position and depth."""

    fen: str
    depth: int
    rows: tuple[TechniqueCount, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {"fen": self.fen, "depth": self.depth, "rows": [asdict(row) for row in self.rows]}

    def _repr_html_(self) -> str:
        return comparison_html(self)


class CountResult(NamedTuple):
    """What one counted search found (see :func:`count_search`)."""

    nodes: int | None
    """Positions the last iteration (the full depth) visited; ``None`` if it was cut."""
    total_nodes: int
    """Positions of every iteration together."""
    seconds: float
    value: int | None
    move: str | None
    complete: bool


def count_search(
    position: Position,
    depth: int,
    prune: bool,
    order: bool,
    table: bool,
    cap: int = COUNT_CAP,
    cancel: Cancel | None = None,
    reading: bool = False,
    bulk: bool = False,
) -> CountResult:
    """One bot-style search to ``depth`` by iterative deepening (cut at ``cap`` nodes in all or
    by ``cancel``; ``reading``: moves in reading order; ``bulk``: the bots' bulk-leaves
    shortcut, else textbook counting)."""
    search = None if cancel is None else Search(Limit(time=None), cancel.event)
    kind = ReadingOrder if reading else Negamax
    searcher = kind(position, prune, order, search, cap, table, bulk=bulk)
    started = time.perf_counter()
    value: int | None = None
    move: str | None = None
    before = 0
    last = 0
    complete = True
    try:
        for result in deepen(searcher, position, depth):
            value, move = result.score, position.board.name(result.square)
            before, last = last, result.nodes
    except SearchStopped:
        complete = False
    reached = min(depth, position.plies_left)
    seconds = time.perf_counter() - started
    if not complete or value is None:
        return CountResult(None, searcher.nodes, seconds, None, None, False)
    return CountResult(last - before, searcher.nodes, seconds, value, move, reached > 0)


def _saved(before: int | None, after: int | None) -> int | None:
    return None if before is None or after is None else before - after


def compare_techniques(
    position: Position, depth: int, cap: int = COUNT_CAP, cancel: Cancel | None = None
) -> Comparison:
    """The rows of the module docstring for ``position`` searched ``depth`` plies."""
    check_position(position)
    depth = check_depth(position, depth)
    rows: list[TechniqueCount] = []
    for name, prune, order, table, bulk in TECHNIQUES:
        found = count_search(
            position, depth, prune, order, table, cap, cancel, name == "reading", bulk
        )
        previous = rows[-1].nodes if rows else found.nodes
        first = rows[0].nodes if rows else found.nodes
        rows.append(
            TechniqueCount(
                name,
                found.nodes,
                found.total_nodes,
                found.seconds,
                found.value,
                found.move,
                found.complete,
                _saved(previous, found.nodes),
                _saved(first, found.nodes),
            )
        )
    return Comparison(position.fen(), min(depth, position.plies_left), tuple(rows))


def comparison_html(comparison: Comparison) -> str:
    """The side-by-side counts as an HTML table (``nodes``: at the full depth; ``nodes with
    deepening``: every iteration; a row the cap cut shows ``> total``)."""
    return html_table(
        (
            "technique",
            f"nodes at depth {comparison.depth}",
            "nodes with deepening",
            "seconds",
            "value",
            "move",
            "saved vs previous",
            "saved vs minimax",
        ),
        [
            (
                r.technique,
                "" if r.nodes is None else r.nodes,
                r.total_nodes if r.complete else f"> {r.total_nodes} (cap)",
                f"{r.seconds:.3f}",
                r.value,
                r.move,
                r.saved_vs_previous,
                r.saved_vs_minimax,
            )
            for r in comparison.rows
        ],
    )
