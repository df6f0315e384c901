"""Side-by-side counts: pruning never costs nodes over minimax and never changes the value."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.lab import compare_techniques
from adjacency.lab.tree import search_tree
from lab_strategies import small_positions


@hsettings(max_examples=60, deadline=None)
@given(small_positions(max_empty=12), st.integers(1, 5))
def test_counts_shrink_with_each_technique_and_values_agree(position: Position, depth: int) -> None:
    rows = {row.technique: row for row in compare_techniques(position, depth).rows}
    assert list(rows) == ["minimax", "reading", "alphabeta", "ordered", "table", "bulk"]
    # alpha-beta only skips nodes of the minimax tree, whatever the move order
    # (the bulk leaves too: they count every child one ply above the horizon, as minimax)
    for name in ("reading", "alphabeta", "ordered", "table", "bulk"):
        assert rows["minimax"].nodes >= rows[name].nodes  # type: ignore[operator]
    assert len({row.value for row in rows.values()}) == 1
    assert all(row.complete for row in rows.values())
    assert rows["table"].saved_vs_minimax == rows["minimax"].nodes - rows["table"].nodes  # type: ignore[operator]
    assert rows["ordered"].saved_vs_previous == rows["alphabeta"].nodes - rows["ordered"].nodes  # type: ignore[operator]
    for row in rows.values():  # the full depth's search is part of the whole deepening
        assert row.nodes is not None and row.nodes <= row.total_nodes
    # the rows are the searches the tree traces (ordering and table; with bulk leaves)
    for name, bulk in (("table", False), ("bulk", True)):
        tree = search_tree(position, depth, "alphabeta", order=True, table=True, bulk=bulk)
        found = (tree.search_nodes, tree.total_nodes, tree.value)
        assert found == (rows[name].nodes, rows[name].total_nodes, rows[name].value)


def test_ordering_saves_nodes_over_many_positions() -> None:
    """Move ordering is a heuristic, not a theorem: on some positions it costs a few nodes
    (hypothesis finds 4x4 ones), but summed over positions each kind saves: the bots'
    most-conversions-first generator over reading order, best-move-first over that."""
    rng = random.Random(2026)
    reading = plain = ordered = 0
    for _ in range(24):
        position = Position.start(6, 6, rounds=12)
        for _ in range(rng.randint(0, 10)):
            position = position.play(rng.choice(position.legal_moves()))
        rows = {row.technique: row for row in compare_techniques(position, 4).rows}
        reading += rows["reading"].total_nodes
        plain += rows["alphabeta"].total_nodes
        ordered += rows["ordered"].total_nodes
    assert ordered < plain < reading


def test_a_count_over_the_cap_is_marked_incomplete() -> None:
    comparison = compare_techniques(Position.start(8, 8, rounds=28), 3, cap=10_000)
    rows = {row.technique: row for row in comparison.rows}
    assert not rows["minimax"].complete and rows["minimax"].value is None
    assert rows["minimax"].nodes is None and rows["minimax"].total_nodes >= 10_000
    assert rows["reading"].saved_vs_previous is None
    assert rows["table"].complete and rows["table"].value is not None
    assert "<table>" in comparison._repr_html_()
