"""The lab counts what textbook minimax and alpha-beta visit: checked against a second,
independent implementation written only with the public ``Position`` API.

:class:`Textbook` below is what a student writes from the course notes: negamax over
``Position.play``, the value "mover's pieces minus the opponent's" at the horizon or
the end, fail-soft alpha-beta with a cut-off at every ply, the move orders the lab
names (reading order: the top rank first, each rank from file a; most conversions
first: ``legal_moves()`` order, a1, b1, ..., stably sorted by ``len(flips)``), the
previous iteration's best move first, and a transposition table of (depth, lower,
upper) used only at the same remaining depth. It shares no code with the bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.lab import compare_techniques, search_tree
from lab_strategies import small_positions

INF = 10**9


def mover_margin(position: Position) -> int:
    x, o = position.score
    return x - o if position.turn == "x" else o - x


def reading(position: Position) -> list[str]:
    """Every legal move, the top rank first, each rank from file a."""
    return sorted(position.legal_moves(), key=lambda move: (-int(move[1:]), move[0]))


def most_flips(position: Position) -> list[str]:
    """Every legal move, most conversions first, ties in ``legal_moves()`` order."""
    return sorted(position.legal_moves(), key=lambda move: -len(position.flips(move)))


@dataclass
class Textbook:
    """Iterative-deepening negamax; alpha-beta if ``prune`` (see the module docstring)."""

    prune: bool
    order: str = "flips"
    """``reading`` or ``flips``."""
    best_first: bool = False
    table: bool = False
    visited: list[tuple[str, ...]] = field(default_factory=list)
    """The line to every position visited, in visiting order (the current iteration)."""
    best: dict[str, str] = field(default_factory=dict)
    entries: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    def moves(self, position: Position) -> list[str]:
        moves = reading(position) if self.order == "reading" else most_flips(position)
        first = self.best.get(position.fen()) if self.best_first else None
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def value(
        self, position: Position, depth: int, alpha: int, beta: int, line: tuple[str, ...]
    ) -> int:
        self.visited.append(line)
        if depth == 0 or position.is_over:
            return mover_margin(position)
        key = position.fen()
        probe = self.table and line != ()
        if probe and key in self.entries and self.entries[key][0] == depth:
            _, lower, upper = self.entries[key]
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        low, high = alpha, beta
        best, best_move = -INF, ""
        for move in self.moves(position):
            score = -self.value(position.play(move), depth - 1, -beta, -alpha, (*line, move))
            if score > best:
                best, best_move = score, move
                if self.prune and score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.best[key] = best_move
        if probe:
            if not self.prune or low < best < high:
                self.entries[key] = (depth, best, best)
            elif best <= low:
                self.entries[key] = (depth, -INF, best)
            else:
                self.entries[key] = (depth, best, INF)
        return best

    def deepen(self, position: Position, depth: int) -> tuple[int, int, int, str]:
        """Depth 1, 2, ..., ``depth``: the last iteration's nodes, every iteration's nodes,
        the value and the best move."""
        total = 0
        value = 0
        for d in range(1, min(depth, position.plies_left) + 1):
            self.visited = []
            value = self.value(position, d, -INF, INF, ())
            total += len(self.visited)
        return len(self.visited), total, value, self.best[position.fen()]


TECHNIQUES: dict[str, Callable[[], Textbook]] = {
    "minimax": lambda: Textbook(prune=False),
    "reading": lambda: Textbook(prune=True, order="reading"),
    "alphabeta": lambda: Textbook(prune=True),
    "ordered": lambda: Textbook(prune=True, best_first=True),
    "table": lambda: Textbook(prune=True, best_first=True, table=True),
}


@hsettings(max_examples=25, deadline=None)
@given(small_positions(max_empty=8), st.integers(1, 4))
def test_every_counts_row_is_the_textbook_search(position: Position, depth: int) -> None:
    rows = {row.technique: row for row in compare_techniques(position, depth).rows}
    assert list(rows) == [*TECHNIQUES, "bulk"]
    for name, make in TECHNIQUES.items():
        nodes, total, value, move = make().deepen(position, depth)
        row = rows[name]
        assert (row.nodes, row.total_nodes, row.value, row.move) == (nodes, total, value, move)
    # the bots' bulk leaves count every child one ply above the horizon: never fewer
    assert rows["bulk"].value == rows["table"].value
    assert rows["bulk"].move == rows["table"].move


@hsettings(max_examples=30, deadline=None)
@given(
    small_positions(max_empty=8),
    st.integers(1, 4),
    st.sampled_from(["minimax", "alphabeta"]),
    st.sampled_from(["reading", "flips", "best-first"]),
    st.booleans(),
)
def test_the_tree_draws_the_positions_textbook_search_visits_in_its_order(
    position: Position, depth: int, algorithm: str, ordering: str, table: bool
) -> None:
    reading, order = ordering == "reading", ordering == "best-first"
    tree = search_tree(position, depth, algorithm, order=order, table=table, reading=reading)
    prune = algorithm == "alphabeta"
    textbook = Textbook(
        prune=prune,
        order="reading" if reading else "flips",
        best_first=order and prune,
        table=table and prune,
    )
    nodes, total, value, move = textbook.deepen(position, depth)
    lines = []
    for node in tree.nodes:
        line: list[str] = []
        walk = node
        while walk.move is not None:
            line.append(walk.move)
            walk = tree.nodes[walk.parent]
        lines.append(tuple(reversed(line)))
    assert lines == textbook.visited
    assert (tree.search_nodes, tree.total_nodes) == (nodes, total) == (len(tree.nodes), total)
    assert (tree.value, tree.move) == (value, move)


@pytest.mark.parametrize(
    "fen",
    [
        "1o2oo/o3oo/o5/1x2x1/xx4/xx1o2 x 10",
        "3xxo/4oo/o5/o5/ooo3/xx1o1x x 10",
        "oo2oo/4oo/6/x3x1/xx4/xx4 x 12",
        "4oo/4oo/6/5o/xxx3/xx4 x 14",
    ],
)
def test_every_pruning_technique_on_6x6_positions_where_the_table_saves(fen: str) -> None:
    """Small random positions seldom repeat within the search; at depth 4 on 6x6 these do,
    so the table row differs from the ordered one, and both are still the textbook's."""
    position = Position.from_fen(fen)
    rows = {row.technique: row for row in compare_techniques(position, 4).rows}
    assert rows["table"].nodes != rows["ordered"].nodes
    for name in ("reading", "alphabeta", "ordered", "table"):
        nodes, total, value, move = TECHNIQUES[name]().deepen(position, 4)
        row = rows[name]
        assert (row.nodes, row.total_nodes, row.value, row.move) == (nodes, total, value, move)


@pytest.mark.parametrize(
    ("fen", "depth", "counts"),
    [
        # the 4x4 start: 1 + 8 + 8 * 7 positions for minimax
        ("2oo/2oo/xx2/xx2 x 8", 2, {"minimax": 65, "reading": 42, "alphabeta": 23}),
        # the lab tutorial's 6x6 position
        (
            "4oo/4oo/3o2/2x3/xx4/xx4 x 14",
            4,
            {"minimax": 375_077, "reading": 9_046, "alphabeta": 1_971, "table": 1_834},
        ),
    ],
)
def test_the_published_counts(fen: str, depth: int, counts: dict[str, int]) -> None:
    """The counts the docs quote, from the lab and from the independent implementation."""
    position = Position.from_fen(fen)
    rows = {row.technique: row for row in compare_techniques(position, depth).rows}
    for name, nodes in counts.items():
        assert rows[name].nodes == nodes
        assert TECHNIQUES[name]().deepen(position, depth)[0] == nodes
    trees = {
        "minimax": search_tree(position, depth, "minimax"),
        "reading": search_tree(position, depth, "alphabeta", reading=True),
        "alphabeta": search_tree(position, depth, "alphabeta", order=False),
        "table": search_tree(position, depth, "alphabeta", table=True),
    }
    for name, tree in trees.items():
        if name not in counts:
            continue
        if tree.complete:  # (minimax's 6x6 tree is over the node cap)
            assert tree.search_nodes == len(tree.nodes) == counts[name]
