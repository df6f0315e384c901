"""Variations in the text record: trees of moves written and read back, bad trees refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Game, InvalidRecordError, Position
from adjacency.core.record import (
    Node,
    game_from_text,
    game_to_text,
    main_line,
    record_from_text,
    records_from_text,
    tree_of,
)


@st.composite
def trees(draw: st.DrawFn, position: Position, depth: int = 0) -> list[Node]:
    """A tree of legal moves from ``position``: distinct moves at each node, each with a
    thinking time in whole milliseconds or none."""
    if position.is_over:
        return []
    most = 3 if depth < 3 else 1
    moves = draw(st.lists(st.sampled_from(position.legal_moves()), max_size=most, unique=True))
    tree = []
    for move in moves:
        seconds = draw(st.none() | st.integers(0, 99_999).map(lambda ms: ms / 1000))
        children = draw(trees(position.play(move), depth + 1))
        tree.append(Node(move, seconds, children))
    return tree


@st.composite
def games_with_trees(draw: st.DrawFn) -> tuple[Game, list[Node]]:
    rows, cols = draw(st.sampled_from([(4, 4), (4, 5), (5, 5)]))
    start = Position.start(rows, cols, draw(st.integers(1, 4)), draw(st.sampled_from("xo")))
    tree = draw(trees(start))
    game = Game(start, "Ann", "Bob")
    for node in main_line(tree):
        game.play(node.square, node.seconds)
    return game, tree


@hsettings(max_examples=150, deadline=None)
@given(games_with_trees())
def test_a_tree_of_variations_round_trips_through_the_text_record(
    made: tuple[Game, list[Node]],
) -> None:
    game, tree = made
    text = game_to_text(game, tree)
    loaded, read = record_from_text(text)
    assert read == tree
    assert loaded.positions == game.positions
    assert [m.seconds for m in loaded.moves] == [m.seconds for m in game.moves]
    assert game_to_text(loaded, read) == text
    # The record without its variations is the format as it was: the game alone.
    assert game_from_text(text).positions == game.positions
    assert game_to_text(game, tree_of(game)) == game_to_text(game)
    branched = len(tree) > 1 or any(len(node.children) > 1 for node in _nodes(tree))
    assert ("(" in text) == branched


def _nodes(tree: list[Node]) -> list[Node]:
    found = []
    for node in tree:
        found += [node, *_nodes(node.children)]
    return found


HEAD = '[Rows "4"]\n[Cols "4"]\n[Rounds "2"]\n[First "x"]\n\n'


def test_variations_are_written_in_parentheses_with_their_move_numbers() -> None:
    start = Position.start(4, 4, 2)
    first = start.legal_moves()
    a, b = first[0], first[1]
    reply = start.play(a).legal_moves()[0]
    other = start.play(b).legal_moves()[0]
    tree = [Node(a, children=[Node(reply)]), Node(b, children=[Node(other)])]
    game = Game(start)
    game.play(a)
    game.play(reply)
    text = game_to_text(game, tree)
    assert f"1. {a} (1. {b} {other}) 1... {reply} *" in text
    alt = start.play(a).legal_moves()[1]
    tree[0].children.append(Node(alt))
    assert f"1. {a} (1. {b} {other}) 1... {reply} (1... {alt}) *" in game_to_text(game, tree)
    assert record_from_text(game_to_text(game, tree))[1] == tree


@pytest.mark.parametrize(
    ("moves", "fragment"),
    [
        ("1. a1 (", "')' is missing"),
        ("1. a1 )", "')' closes no variation"),
        ("( 1. a1 )", "no move before it"),
        ("1. a1 () *", "empty variation"),
        ("1. a1 (1. a1) *", "is there twice"),
        ("1. a1 (1. z9) *", "(in a variation)"),
        ("1. a1 (1. b1 1-0) *", "comes before ')'"),
        ("1. a1 2. b1", "out of place"),
        ("1. a1 (1... b1) *", "out of place"),
    ],
)
def test_bad_variations_are_refused_with_the_reason(moves: str, fragment: str) -> None:
    legal = Position.start(4, 4, 2).legal_moves()
    text = (HEAD + moves).replace("a1", legal[0]).replace("b1", legal[1])
    with pytest.raises(InvalidRecordError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        records_from_text(text)


def test_a_tree_whose_main_line_is_not_the_game_is_refused() -> None:
    start = Position.start(4, 4, 2)
    game = Game(start)
    game.play(start.legal_moves()[0])
    with pytest.raises(InvalidRecordError, match="is not the game's moves"):
        game_to_text(game, [Node(start.legal_moves()[1])])
