"""Unit tests for every rule of the game, on the reference Position."""

from __future__ import annotations

import pytest

from adjacency import IllegalMoveError, InvalidPositionError, InvalidSettingsError, Position

START = "6oo/6oo/8/8/8/8/xx6/xx6 x 56"


def test_start_position_text_is_exact() -> None:
    pos = Position.start(rows=8, cols=8, rounds=28, first="x")
    assert pos.fen() == START
    assert pos.score == (4, 4)
    assert pos.turn == "x"
    assert pos.plies_left == 56
    assert pos.rounds_left == 28
    assert not pos.is_over
    assert len(pos.legal_moves()) == 56


def test_start_on_non_square_board_with_o_first() -> None:
    pos = Position.start(rows=5, cols=7, rounds=3, first="o")
    assert pos.fen() == "5oo/5oo/7/xx5/xx5 o 6"
    assert pos.turn == "o"
    assert pos.piece_at("a1") == "x" and pos.piece_at("b2") == "x"
    assert pos.piece_at("f5") == "o" and pos.piece_at("g4") == "o"
    assert pos.piece_at("c3") is None


def test_smallest_board() -> None:
    pos = Position.start(rows=4, cols=4, rounds=4)
    assert pos.fen() == "2oo/2oo/xx2/xx2 x 8"
    assert sorted(pos.legal_moves()) == sorted(["c1", "d1", "c2", "d2", "a3", "b3", "a4", "b4"])


@pytest.mark.parametrize(
    "rows,cols,limit", [(8, 8, 28), (4, 4, 4), (4, 5, 6), (7, 8, 24), (5, 5, 8)]
)
def test_rounds_range_is_empty_squares_over_two(rows: int, cols: int, limit: int) -> None:
    Position.start(rows, cols, rounds=1)
    Position.start(rows, cols, rounds=limit)
    for bad in (0, limit + 1, -3):
        with pytest.raises(InvalidSettingsError, match=f"from 1 to {limit}"):
            Position.start(rows, cols, rounds=bad)


@pytest.mark.parametrize("first", ["X", "y", "", None, 1])
def test_first_mover_must_be_x_or_o(first: object) -> None:
    with pytest.raises(InvalidSettingsError, match="'x' or 'o'"):
        Position.start(first=first)  # type: ignore[arg-type]


def test_a_move_converts_orthogonal_opponent_neighbours_only() -> None:
    # O on c4 (above c3), d3 (right), b3 (left) and on d4 (diagonal): X plays c3.
    pos = Position.from_fen("8/8/8/8/2oo4/1o1o4/xx6/xx6 x 10")
    assert sorted(pos.flips("c3")) == ["b3", "c4", "d3"]
    nxt = pos.play("c3")
    assert nxt.piece_at("c3") == "x"
    for sq in ("b3", "c4", "d3"):
        assert nxt.piece_at(sq) == "x"
    assert nxt.piece_at("d4") == "o"  # diagonal: unchanged
    assert nxt.turn == "o"
    assert nxt.plies_left == 9
    assert nxt.score == (pos.score[0] + 4, pos.score[1] - 3)


def test_own_pieces_are_not_changed() -> None:
    pos = Position.start()
    nxt = pos.play("c1")  # next to b1 (own)
    assert pos.flips("c1") == []
    assert nxt.score == (5, 4)


def test_play_does_not_change_the_original() -> None:
    pos = Position.start()
    before = pos.fen()
    pos.play("c3")
    assert pos.fen() == before
    with pytest.raises(AttributeError):
        pos.turn = "o"  # type: ignore[misc]


def test_play_accepts_square_indices() -> None:
    pos = Position.start()
    assert pos.play(18) == pos.play("c3")


def test_game_lasts_exactly_two_n_plies_and_then_is_over() -> None:
    pos = Position.start(rounds=2, first="o")
    moves = ["c3", "d4", "e5", "f6"]
    for i, move in enumerate(moves):
        assert not pos.is_over
        assert pos.rounds_left == (4 - i + 1) // 2
        pos = pos.play(move)
    assert pos.is_over
    assert pos.plies_left == 0
    assert pos.legal_moves() == []
    assert pos.outcome() == "draw"  # 6 - 6 after four isolated moves
    with pytest.raises(IllegalMoveError, match="game is over"):
        pos.play("a5")


def test_outcome_x_and_o() -> None:
    assert Position.from_fen("xx2/xx2/o3/4 o 0").outcome() == "x"
    assert Position.from_fen("xx2/oo2/oo2/4 x 0").outcome() == "o"
    assert Position.from_fen("xx2/oo2/o3/4 x 1").outcome() is None


def test_occupied_square_is_illegal_and_names_the_owner() -> None:
    pos = Position.start()
    with pytest.raises(IllegalMoveError) as info:
        pos.play("h8")
    message = str(info.value)
    assert "'h8'" in message and "occupied by o" in message and START in message


@pytest.mark.parametrize("move", ["i1", "a9", "zz", "", "c33", 64, -1, 3.0, None])
def test_off_board_or_malformed_moves(move: object) -> None:
    pos = Position.start()
    with pytest.raises(IllegalMoveError) as info:
        pos.play(move)  # type: ignore[arg-type]
    assert repr(move) in str(info.value)


def test_flips_of_an_illegal_move_raise() -> None:
    with pytest.raises(IllegalMoveError):
        Position.start().flips("a1")


def test_margin_and_mover_views() -> None:
    pos = Position.from_fen("xx2/oo2/oo2/4 x 3")
    assert pos.margin() == -2
    assert pos.margin("o") == 2
    assert pos.mover == pos.x and pos.opponent == pos.o


def test_positions_are_values() -> None:
    a = Position.start().play("c3")
    b = Position.from_fen(a.fen())
    assert a == b and hash(a) == hash(b) and a is not b
    assert len({a, b, Position.start()}) == 2
    assert sorted([a, Position.start()])  # ordering is defined
    assert a != a.fen()
    assert repr(a) == f"Position.from_fen({a.fen()!r})"


def test_text_diagram() -> None:
    assert str(Position.start(4, 4, 1)).splitlines() == [
        "4 . . o o",
        "3 . . o o",
        "2 x x . .",
        "1 x x . .",
        "  a b c d",
    ]


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("6oo/6oo/8/8/8/8/xx6/xx6 x", "has 2 field(s)"),
        ("6oo/6oo/8/8/8/8/xx6/xx6 x 56 extra", "has 4 field(s)"),
        ("6oo/6oo/8 x 4", "has 3 rank(s)"),
        ("8/8/8/8/8/8/8/8/8 x 4", "has 9 rank(s)"),
        ("6oo/6oo/8/8/8/8/xx7/xx6 x 56", "rank 2 ('xx7') has 9 square(s)"),
        ("6oo/6oq/8/8/8/8/xx6/xx6 x 56", "unexpected 'q' at character 3 of rank 7"),
        ("6oo/6oo/8/8/8/8/xx6/xx0 x 56", "unexpected '0'"),
        ("3/3/3/3 x 4", "rank 4 ('3') has 3 square(s)"),
        ("9/9/9/9 x 4", "rank 4 ('9') has 9 square(s); a board has 4 to 8 files"),
        ("6oo/6oo/8/8/8/8/xx6/xx6 X 56", "side to move must be 'x' or 'o'"),
        ("6oo/6oo/8/8/8/8/xx6/xx6 x -1", "plies left must be a whole number"),
        ("6oo/6oo/8/8/8/8/xx6/xx6 x ab", "plies left must be a whole number"),
        ("6oo/6oo/8/8/8/8/xx6/xx6 x 57", "from 0 to the 56 empty square(s)"),
        ("", "has 0 field(s)"),
    ],
)
def test_malformed_position_text(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Position.from_fen(text)
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)


def test_fen_accepts_any_piece_counts_and_plies_within_empties() -> None:
    pos = Position.from_fen("xxxx/oooo/xo2/4 o 6")
    assert pos.score == (5, 5)
    assert pos.plies_left == 6
    assert Position.from_fen(pos.fen()) == pos


def test_direct_construction_is_checked() -> None:
    pos = Position.start()
    with pytest.raises(InvalidPositionError, match="both claim"):
        Position(pos.board, 1, 1, "x", 2)
    with pytest.raises(InvalidPositionError, match="outside the 8x8 board"):
        Position(pos.board, 1 << 64, 0, "x", 2)
    with pytest.raises(InvalidPositionError, match="side to move"):
        Position(pos.board, 1, 2, "z", 2)  # type: ignore[arg-type]
