"""Differential test: the bitboard core against a naive 2D-list implementation."""

from __future__ import annotations

import random

from adjacency import Position
from adjacency.core import COLORS
from naive_rules import NaiveGame


def test_thousands_of_random_games_agree_move_by_move() -> None:
    rng = random.Random(20261121)
    games = 0
    plies = 0
    while games < 2000:
        rows, cols = rng.randint(4, 8), rng.randint(4, 8)
        rounds = rng.randint(1, (rows * cols - 8) // 2)
        first = rng.choice(COLORS)
        naive = NaiveGame(rows, cols, rounds, first)
        pos = Position.start(rows, cols, rounds, first)
        assert pos.fen() == naive.fen()
        while naive.plies_left:
            assert pos.legal_moves() == naive.empties()
            move = rng.choice(naive.empties())
            assert pos.flips(move) == naive.would_flip(move)
            naive.play(move)
            pos = pos.play(move)
            assert pos.fen() == naive.fen()
            assert pos.score == naive.score()
            plies += 1
        assert pos.is_over
        games += 1
    assert plies > 20000
