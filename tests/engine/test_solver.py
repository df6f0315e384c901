"""The exact solver equals brute force; win/draw/loss agrees; a second process uses the cache."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from adjacency.core import Position
from adjacency.engine import Engine
from engine_positions import brute_force, random_endgame


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 6), (5, 5), (5, 7), (6, 6), (8, 8)])
def test_solver_equals_brute_force(rows: int, cols: int) -> None:
    rng = random.Random(rows * 100 + cols)
    engine = Engine(tt_mb=2)
    for _ in range(25):
        position = random_endgame(rng, rows, cols, 9)
        memo: dict[Position, int] = {}
        exact = brute_force(position, memo)
        solved = engine.solve(position)
        assert solved.complete and solved.value == exact, position.fen()
        # The best move really achieves the value.
        after = position.play(solved.best)
        assert (
            after.margin(position.turn) if after.is_over else -brute_force(after, memo)
        ) == exact
        wld = engine.solve(position, wld=True)
        assert wld.value == (exact > 0) - (exact < 0), position.fen()
        assert (wld.best in position.legal_moves()) and wld.complete


def test_solver_with_a_guess_far_off_and_a_tiny_table() -> None:
    rng = random.Random(5)
    engine = Engine(tt_mb=0.001)
    for _ in range(20):
        position = random_endgame(rng, 5, 6, 9)
        assert engine.solve(position, guess=30.0).value == brute_force(position)


def test_solver_gives_up_on_the_node_budget() -> None:
    position = Position.from_fen(
        "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox2xoxx/ooo2oxx/oooo2xo/xoxox2o x 18"
    )
    result = Engine(tt_mb=1).solve(position, nodes=5000, guess=0)
    assert not result.complete


def test_a_second_process_loads_the_cache_and_runs() -> None:
    """numba issue #6061: cached recursive kernels must load and run in a fresh process."""
    script = (
        "import json; from adjacency.engine import Engine, warmup; warmup(); "
        "from adjacency.core import Position; "
        "p = Position.from_fen('2oo/xoox/x3/xx2 o 5'); e = Engine(tt_mb=1); "
        "print(json.dumps([e.solve(p).value, e.search(p, depth=3).move]))"
    )
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=240
        )
        assert done.returncode == 0, done.stderr
        value, move = json.loads(done.stdout)
        position = Position.from_fen("2oo/xoox/x3/xx2 o 5")
        assert value == brute_force(position)
        assert move in position.legal_moves()
