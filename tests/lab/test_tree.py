"""The traced game tree is the bots' search: values, lines, node counts and every cut."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.bots import Limit, make_bot
from adjacency.bots.minimax import minimax_value
from adjacency.lab import LabError, search_tree
from adjacency.lab.compare import count_search
from adjacency.lab.tree import CUT, ENTER, LEAVE
from lab_strategies import small_positions


def reference(position: Position, depth: int) -> int:
    """Textbook negamax straight on the core's rules: the side to move's value."""
    if depth == 0 or position.is_over:
        return position.margin()
    return max(-reference(position.play(move), depth - 1) for move in position.legal_moves())


def root_view(value: int, ply: int) -> int:
    return value if ply % 2 == 0 else -value


@hsettings(max_examples=40, deadline=None)
@given(small_positions(), st.integers(1, 4), st.booleans())
def test_root_value_and_line_are_the_alphabeta_bots(
    position: Position, depth: int, table: bool
) -> None:
    """The textbook tree and the bots' (bulk leaves) search agree on the value and the move;
    the bots' tree is the bot's search, line included."""
    textbook = search_tree(position, depth, "alphabeta", table=table)
    tree = search_tree(position, depth, "alphabeta", table=table, bulk=True)
    bot = make_bot(f"alphabeta:depth={depth},table={str(table).lower()}")
    move = bot.choose_move(position, Limit(time=None))
    assert bot.report is not None
    assert tree.complete and textbook.complete
    assert tree.move == textbook.move == move
    assert tree.value == textbook.value == bot.report.score == tree.root.value
    assert tree.pv == bot.report.pv
    assert tree.tree_line() == tree.pv
    assert textbook.tree_line() == textbook.pv


@hsettings(max_examples=40, deadline=None)
@given(small_positions(), st.integers(1, 4))
def test_minimax_tree_counts_what_the_bot_counts(position: Position, depth: int) -> None:
    tree = search_tree(position, depth, "minimax")
    value, nodes = minimax_value(position, depth)
    assert tree.value == value == reference(position, min(depth, position.plies_left))
    assert tree.counted_nodes() == tree.search_nodes == nodes


@hsettings(max_examples=40, deadline=None)
@given(small_positions(max_empty=9), st.integers(2, 5), st.booleans(), st.booleans())
def test_every_value_bound_and_cut_is_sound(
    position: Position, depth: int, order: bool, table: bool
) -> None:
    """Each node's value is what its bound claims of the exact value below it, and each
    cut node's exact value lies beyond the window it cut: the pruned moves, whatever
    their minimax values, cannot bring it back inside, so they cannot change the root."""
    tree = search_tree(position, depth, "alphabeta", order=order, table=table)
    for node in tree.nodes:
        assert node.value is not None
        exact = root_view(reference(tree.position_of(node.id), node.depth), node.ply)
        if node.bound == "exact":
            assert exact == node.value
        elif node.bound == "lower":
            assert exact >= node.value
        else:
            assert node.bound == "upper"
            assert exact <= node.value
        if node.pruned:
            if node.ply % 2 == 0:  # a MAX node cut: it is worth at least beta
                assert node.beta is not None and exact >= node.beta
            else:  # a MIN node cut: at most alpha
                assert node.alpha is not None and exact <= node.alpha
            for move in node.pruned:  # the pruned moves are real, unsearched moves
                assert move in tree.position_of(node.id).legal_moves()
                assert move not in {tree.nodes[c].move for c in node.children}


@hsettings(max_examples=30, deadline=None)
@given(small_positions(), st.integers(1, 4), st.sampled_from(["minimax", "alphabeta"]))
def test_tracing_changes_nothing(position: Position, depth: int, algorithm: str) -> None:
    """With the hook attached the search visits the same nodes and finds the same move as
    the searcher without one (the bots' own code path)."""
    prune = algorithm == "alphabeta"
    for bulk in (False, True):
        tree = search_tree(position, depth, algorithm, table=prune, bulk=bulk)
        found = count_search(position, depth, prune, prune, prune, bulk=bulk)
        assert found.complete
        assert (tree.search_nodes, tree.total_nodes) == (found.nodes, found.total_nodes)
        assert (tree.value, tree.move) == (found.value, found.move)


@hsettings(max_examples=30, deadline=None)
@given(small_positions(), st.integers(1, 4))
def test_events_replay_the_search_in_order(position: Position, depth: int) -> None:
    tree = search_tree(position, depth, "alphabeta")
    opened: list[int] = []
    entered = []
    for kind, node_id in tree.events:
        if kind == ENTER:
            if opened:
                assert tree.nodes[node_id].parent == opened[-1]
            opened.append(node_id)
            entered.append(node_id)
        elif kind == CUT:
            assert opened[-1] == node_id and tree.nodes[node_id].pruned
        else:
            assert kind == LEAVE and opened.pop() == node_id
    assert not opened
    assert entered == list(range(len(tree.nodes)))


def test_the_node_cap_cuts_the_tree_and_says_so() -> None:
    position = Position.start(8, 8, rounds=28)
    tree = search_tree(position, 3, "minimax", node_cap=500)
    assert not tree.complete
    assert len(tree.nodes) == 500
    assert tree.value is None and tree.move is None
    assert tree.to_dict()["complete"] is False


@pytest.mark.parametrize(
    ("depth", "cap", "message"),
    [
        (5, 100, "depth must be a whole number from 1 to 4, got 5"),
        (0, 100, "depth must be a whole number from 1 to 4, got 0"),
        (2, 20_001, "node cap must be a whole number from 1 to 20000, got 20001"),
        (True, 100, "depth must be a whole number from 1 to 4, got True"),
    ],
)
def test_bad_requests_get_the_allowed_range(depth: object, cap: int, message: str) -> None:
    with pytest.raises(LabError, match=message):
        search_tree(Position.start(8, 8, rounds=28), depth, node_cap=cap)  # type: ignore[arg-type]


def test_small_boards_allow_deeper_trees_and_finished_positions_are_refused() -> None:
    small = Position.start(6, 6, rounds=4)
    assert search_tree(small, 6).depth == 6
    with pytest.raises(LabError, match="from 1 to 6"):
        search_tree(small, 7)
    over = Position.start(4, 4, rounds=1).play("c1").play("a4")
    assert over.is_over
    with pytest.raises(LabError, match="the position is over"):
        search_tree(over, 1)


def test_the_tree_draws_itself_as_svg() -> None:
    import xml.etree.ElementTree as ET

    tree = search_tree(Position.start(6, 6, rounds=3), 3)
    picture = tree._repr_svg_()
    root = ET.fromstring(picture)
    assert root.tag.endswith("svg")
    assert f"{len(tree.nodes)} nodes" in picture
    assert tree.move is not None and f">{tree.move}<" in picture
