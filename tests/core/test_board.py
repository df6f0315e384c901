"""Board geometry: square names, the bit layout and neighbour masks."""

from __future__ import annotations

import pytest

from adjacency.core import InvalidSettingsError, InvalidSquareError, board, iter_squares


def test_bit_layout_on_8x8() -> None:
    b = board(8, 8)
    assert b.square("a1") == 0
    assert b.square("b1") == 1
    assert b.square("a2") == 8
    assert b.square("h8") == 63
    assert b.name(0) == "a1"
    assert b.name(63) == "h8"
    assert b.full == (1 << 64) - 1


def test_bit_layout_on_non_square_board() -> None:
    b = board(5, 6)  # 5 ranks, 6 files
    assert b.square("a2") == 6
    assert b.square("f5") == 29
    assert b.size == 30
    assert b.dimensions == "5x6"
    with pytest.raises(InvalidSquareError, match="off the 5x6 board"):
        b.square("g1")
    with pytest.raises(InvalidSquareError, match="off the 5x6 board"):
        b.square("a6")


@pytest.mark.parametrize("rows,cols", [(4, 4), (4, 8), (8, 4), (6, 7), (8, 8)])
def test_neighbours_are_orthogonal_and_on_board(rows: int, cols: int) -> None:
    b = board(rows, cols)
    for index in range(b.size):
        rank, file = divmod(index, cols)
        expected = {
            (rank + dr) * cols + (file + df)
            for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= rank + dr < rows and 0 <= file + df < cols
        }
        assert set(iter_squares(b.neighbours[index])) == expected


def test_corner_and_edge_neighbour_counts() -> None:
    b = board(8, 8)
    assert b.neighbours[b.square("a1")].bit_count() == 2
    assert b.neighbours[b.square("h1")].bit_count() == 2  # no wrap onto a2
    assert b.neighbours[b.square("a5")].bit_count() == 3  # no wrap onto h4
    assert b.neighbours[b.square("d4")].bit_count() == 4


def test_square_names_round_trip_every_size() -> None:
    for rows in range(4, 9):
        for cols in range(4, 9):
            b = board(rows, cols)
            assert [b.square(b.name(i)) for i in range(b.size)] == list(range(b.size))


@pytest.mark.parametrize("name", ["", "c", "3c", "cc", "c0", "c-1", "z3", "c3x", "  "])
def test_malformed_square_names(name: str) -> None:
    with pytest.raises(InvalidSquareError) as info:
        board(8, 8).square(name)
    assert repr(name) in str(info.value)


def test_square_names_are_case_and_space_tolerant() -> None:
    assert board(8, 8).square(" C3 ") == board(8, 8).square("c3")


@pytest.mark.parametrize("rows,cols", [(3, 8), (8, 9), (0, 0), (9, 9), (8.0, 8), (True, 8)])
def test_board_size_out_of_range(rows: int, cols: int) -> None:
    with pytest.raises(InvalidSettingsError, match="from 4 to 8"):
        board(rows, cols)


def test_start_blocks() -> None:
    b = board(8, 8)
    assert b.square_names(b.start_x()) == ["a1", "b1", "a2", "b2"]
    assert b.square_names(b.start_o()) == ["g7", "h7", "g8", "h8"]
    b = board(4, 6)
    assert b.square_names(b.start_o()) == ["e3", "f3", "e4", "f4"]
    assert b.max_rounds() == 8
