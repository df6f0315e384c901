"""The compiled kernels agree with the pure-Python core, move by move."""

from __future__ import annotations

import random

import numpy as np
import pytest

from adjacency.core import COLORS, Position
from adjacency.core.board import iter_squares
from adjacency.engine.kernels.bits import lowest, max_gain, play, popcount, spread, write_geometry
from adjacency.engine.kernels.evaluate import DEFAULT_WEIGHTS, evaluate, weights
from adjacency.engine.kernels.layout import I_SIZE, SCALE, TT, W
from adjacency.engine.kernels.ordering import child_hash
from adjacency.engine.kernels.transposition import (
    EXACT,
    LOWER,
    entry_bound,
    entry_depth,
    entry_move,
    entry_value,
    position_hash,
    probe,
    shared_words,
    store,
)

SIZES = [(r, c) for r in range(4, 9) for c in range(4, 9)]


def _u(value: int) -> np.uint64:
    return np.uint64(value)


def test_popcount_and_lowest_match_python() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        value = rng.getrandbits(64) or 1
        assert popcount(_u(value)) == value.bit_count()
        assert lowest(_u(value)) == (value & -value).bit_length() - 1
    assert popcount(_u(0)) == 0
    assert popcount(_u(2**64 - 1)) == 64
    assert lowest(_u(2**63)) == 63


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_random_games_move_by_move(rows: int, cols: int) -> None:
    """Make-move, spreads, best gain, hashing and final scores equal the core's, every ply."""
    rng = random.Random(rows * 10 + cols)
    U = shared_words(0.01)
    write_geometry(Position.start(rows, cols, 1).board, U)
    S = np.zeros(I_SIZE, dtype=np.int64)
    S[W : W + len(DEFAULT_WEIGHTS)] = weights("material")
    games = 100  # x 25 board sizes: 2,500 games
    for _ in range(games):
        board = Position.start(rows, cols, 1).board
        position = Position.start(
            rows, cols, rng.randint(1, board.max_rounds()), rng.choice(COLORS)
        )
        color = 0 if position.turn == "x" else 1
        h = position_hash(_u(position.x), _u(position.o), color, U)
        while not position.is_over:
            me, opp, empty = _u(position.mover), _u(position.opponent), position.empty
            assert int(spread(_u(empty), U)) == _neighbours_of(position, empty)
            assert max_gain(opp, _u(empty), U) == max(
                (board.neighbours[s] & position.opponent).bit_count() for s in iter_squares(empty)
            )
            square = rng.choice(position.legal_squares())
            child_me, child_opp, flips = play(me, opp, square, U)
            after = position.play(square)
            assert int(child_me) == after.mover and int(child_opp) == after.opponent
            assert int(flips) == position.flip_bitboard(square)
            h = child_hash(_u(h), square, flips, color, U)
            color = 1 - color
            assert int(h) == position_hash(_u(after.x), _u(after.o), color, U)
            position = after
        assert evaluate(_u(position.mover), _u(position.opponent), 0, U, S) == (
            SCALE * position.margin()
        )


def _neighbours_of(position: Position, squares: int) -> int:
    result = 0
    for s in iter_squares(squares):
        result |= position.board.neighbours[s]
    return result


def test_table_store_and_probe_round_trip() -> None:
    U = shared_words(0.01)
    store(U, _u(12345), -77, 9, EXACT, 42, 3)
    word = probe(U, _u(12345))
    assert (entry_value(word), entry_depth(word), entry_bound(word), entry_move(word)) == (
        -77,
        9,
        EXACT,
        42,
    )
    assert probe(U, _u(54321)) == 0


def test_table_keeps_the_deeper_entry_and_the_newest() -> None:
    U = shared_words(0.0001)  # a handful of buckets: force collisions
    buckets = (U.shape[0] - TT) // 4
    deep, shallow, newest = _u(7), _u(7 + buckets), _u(7 + 2 * buckets)
    store(U, deep, 5, 10, LOWER, 1, 1)
    store(U, shallow, 6, 2, LOWER, 2, 1)
    store(U, newest, 7, 3, LOWER, 3, 1)
    assert entry_value(probe(U, deep)) == 5  # depth-preferred slot kept
    assert probe(U, shallow) == 0  # always-replace slot overwritten
    assert entry_value(probe(U, newest)) == 7
    store(U, shallow, 8, 1, LOWER, 4, 2)  # a new search generation takes slot 0
    assert entry_value(probe(U, shallow)) == 8
    assert entry_value(probe(U, deep)) == 5  # evicted entry moved to slot 1


def test_layout_regions_tile_the_arrays_and_the_check_catches_overlaps() -> None:
    from adjacency.engine.kernels import layout

    layout.check(layout.U_REGIONS, layout.TT, layout.SLOTS)
    layout.check(layout.S_REGIONS, layout.I_SIZE, layout.SLOTS)
    overlapping = (("A", 0, 4), ("B", 3, 4))
    with pytest.raises(RuntimeError, match="region B starts at 3, expected 4"):
        layout.check(overlapping, 7, {})
    with pytest.raises(RuntimeError, match="region A: slots"):
        layout.check((("A", 0, 2),), 2, {"A": (0, 2)})
    assert shared_words(0.001).shape[0] > layout.TT  # the table follows the Zobrist words


def test_table_check_word_hides_torn_entries() -> None:
    U = shared_words(0.001)
    key = _u(987654321)
    store(U, key, 3, 4, EXACT, 7, 1)
    assert entry_value(probe(U, key)) == 3
    i = int(np.nonzero(U[TT:])[0][0]) + TT
    U[i + 1] ^= np.uint64(1 << 20)  # another thread's data word next to this check word
    assert probe(U, key) == 0
