"""Side by side: what each alpha-beta technique saves on one position and depth.

:func:`compare_techniques` runs the bots' searcher (iterative deepening to the
depth, as the bots do) four times on the same position:

- ``minimax``: no pruning;
- ``reading``: pruning with the moves tried in reading order (a8, b8, ..., h1): no
  move ordering at all (the searcher of :class:`ReadingOrder`);
- ``alphabeta``: pruning, moves converting the most first (the bots' move
  generator) but without the best-move-first ordering (the ``alphabeta:order=false`` bot);
- ``ordered``: pruning with the earlier iteration's best move first (``alphabeta:table=false``);
- ``table``: ordering and the transposition table (the default ``alphabeta`` bot).

Each row gives the nodes visited (the bots' count: every position, horizon ones
included), the seconds taken, the value and move found, and the nodes saved
against the row before it and against minimax. The values are equal (pruning
and the table never change the fixed-depth value); a row whose search reached
:data:`~adjacency.lab.limits.COUNT_CAP` nodes is marked ``complete=False``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from ..bots import Limit
from ..bots.base import Search
from ..bots.minimax import Negamax, SearchStopped, deepen
from ..bots.objective import reading_order
from ..core import Position
from .limits import COUNT_CAP, check_depth, check_position
from .running import Cancel

TECHNIQUES: tuple[tuple[str, bool, bool, bool], ...] = (
    ("minimax", False, False, False),
    ("reading", True, False, False),
    ("alphabeta", True, False, False),
    ("ordered", True, True, False),
    ("table", True, True, True),
)
"""(name, prune, order, table) of each row, from no technique to all of them."""


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
    nodes: int
    seconds: float
    value: int | None
    move: str | None
    complete: bool
    saved_vs_previous: int
    saved_vs_minimax: int


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
        from .drawing import comparison_html

        return comparison_html(self)


def count_search(
    position: Position,
    depth: int,
    prune: bool,
    order: bool,
    table: bool,
    cap: int = COUNT_CAP,
    cancel: Cancel | None = None,
    reading: bool = False,
) -> tuple[int, float, int | None, str | None, bool]:
    """Nodes, seconds, value, move and completeness of one bot-style search to ``depth``
    (cut at ``cap`` nodes or by ``cancel``; ``reading``: moves in reading order)."""
    search = None if cancel is None else Search(Limit(time=None), cancel.event)
    kind = ReadingOrder if reading else Negamax
    searcher = kind(position, prune, order, search, cap, table)
    started = time.perf_counter()
    value: int | None = None
    move: str | None = None
    complete = True
    try:
        for result in deepen(searcher, position, depth):
            value, move = result.score, position.board.name(result.square)
    except SearchStopped:
        complete = False
    reached = min(depth, position.plies_left)
    if complete is False or value is None:
        value, move = None, None
    return searcher.nodes, time.perf_counter() - started, value, move, complete and reached > 0


def compare_techniques(
    position: Position, depth: int, cap: int = COUNT_CAP, cancel: Cancel | None = None
) -> Comparison:
    """The four rows of the module docstring for ``position`` searched ``depth`` plies."""
    check_position(position)
    depth = check_depth(position, depth)
    rows: list[TechniqueCount] = []
    for name, prune, order, table in TECHNIQUES:
        nodes, seconds, value, move, complete = count_search(
            position, depth, prune, order, table, cap, cancel, name == "reading"
        )
        previous = rows[-1].nodes if rows else nodes
        first = rows[0].nodes if rows else nodes
        rows.append(
            TechniqueCount(
                name, nodes, seconds, value, move, complete, previous - nodes, first - nodes
            )
        )
    return Comparison(position.fen(), min(depth, position.plies_left), tuple(rows))
