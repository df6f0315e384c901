"""The exact solver equals brute force; win/draw/loss agrees; a second process uses the cache."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.kernels import layout as L
from adjacency.engine.kernels.layout import SOLVE_CAPTURES_FIRST
from adjacency.engine.kernels.solver import (
    ENDGAME_THRESHOLDS,
    OPEN_END,
    OPEN_THRESHOLDS,
    thresholds,
)
from engine_positions import (
    assert_solves_like_brute_force,
    random_endgame,
    random_short_game,
    split_engines,
)
from oracles import exact_value


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (4, 6), (5, 5), (5, 7), (6, 6), (8, 8)])
def test_solver_equals_brute_force(rows: int, cols: int) -> None:
    # 1, 2 and 4 threads (every node of 5+ plies a split point) against one brute force.
    rng = random.Random(rows * 100 + cols)
    engines = split_engines()
    for _ in range(25):
        position = random_endgame(rng, rows, cols, 9)
        memo: dict[Position, int] = {}
        for engine in engines:
            assert_solves_like_brute_force(engine, position, memo)


def test_short_games_use_the_open_settings_and_equal_brute_force() -> None:
    rng = random.Random(55)
    engines = split_engines()
    for _ in range(4):
        position = random_short_game(rng, 5, 5, OPEN_END)
        empties, plies = position.empty.bit_count(), position.plies_left
        assert thresholds(empties, plies) == OPEN_THRESHOLDS
        memo: dict[Position, int] = {}
        exact = exact_value(position, memo)
        for engine in engines:
            solved = engine.solve(position)
            assert solved.complete and solved.value == exact, (position.fen(), engine.threads)
            after = position.play(solved.best)
            assert -exact_value(after, memo) == exact
            assert engine.solve(position, wld=True).value == (exact > 0) - (exact < 0)


def test_short_8x8_games_equal_a_full_width_search_to_the_end() -> None:
    # 7 plies left over ~45 empty squares: the table, ETC and ordering all work in the
    # solver; the search kernel (material evaluation, no reductions) is the oracle.
    rng = random.Random(8)
    solver = Engine(tt_mb=8)
    searcher = Engine(tt_mb=8, evaluation="material", reductions=False)
    for _ in range(8):
        position = Position.start(8, 8, 8)
        while position.plies_left > 7:
            position = position.play(rng.choice(position.legal_squares()))
        assert thresholds(position.empty.bit_count(), position.plies_left) == OPEN_THRESHOLDS
        full = searcher.search(position, depth=position.plies_left)
        assert full.exact
        solved = solver.solve(position)
        assert solved.complete and solved.value == full.value, position.fen()


def test_captures_first_keeps_values_and_saves_nodes_in_short_games() -> None:
    # v3's solver tries converting moves first with 3-4 plies left; v1's does not.
    assert Engine(tt_mb=1, profile="v1").S[L.CFG + L.CFG_SOLVE_FEATURES] == 0
    rng = random.Random(12)
    plain, first = Engine(tt_mb=8, profile="v3"), Engine(tt_mb=8, profile="v3")
    assert first.S[L.CFG + L.CFG_SOLVE_FEATURES] == SOLVE_CAPTURES_FIRST
    plain.S[L.CFG + L.CFG_SOLVE_FEATURES] = 0
    nodes = [0, 0]
    for _ in range(6):
        position = Position.start(8, 8, 8)
        while position.plies_left > 7:
            position = position.play(rng.choice(position.legal_squares()))
        values = []
        for k, engine in enumerate((plain, first)):
            engine.clear()
            values.append(engine.solve(position, guess=0).value)
            nodes[k] += engine.nodes
        assert values[0] == values[1], position.fen()
    assert nodes[1] < nodes[0]


def test_threshold_choice() -> None:
    assert thresholds(18, 18) == ENDGAME_THRESHOLDS  # a 28-round endgame fills the board
    assert thresholds(11, 4) == ENDGAME_THRESHOLDS
    assert thresholds(12, 4) == OPEN_THRESHOLDS
    assert thresholds(44, 12) == OPEN_THRESHOLDS  # an 8-round game on 8x8


def test_fixed_thresholds_give_the_same_values() -> None:
    rng = random.Random(9)
    automatic, fixed = Engine(tt_mb=2), Engine(tt_mb=2)
    fixed.solver_thresholds = ENDGAME_THRESHOLDS
    for _ in range(10):
        position = random_short_game(rng, 5, 6, OPEN_END)
        assert automatic.solve(position).value == fixed.solve(position).value


def test_solver_with_a_guess_far_off_and_a_tiny_table() -> None:
    rng = random.Random(5)
    engine = Engine(tt_mb=0.001)
    for _ in range(20):
        position = random_endgame(rng, 5, 6, 9)
        assert engine.solve(position, guess=30.0).value == exact_value(position)


def test_solver_gives_up_on_the_node_budget() -> None:
    position = Position.from_fen(
        "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox2xoxx/ooo2oxx/oooo2xo/xoxox2o x 18"
    )
    result = Engine(tt_mb=1).solve(position, nodes=5000, guess=0)
    assert not result.complete


def test_a_second_process_loads_the_cache_and_runs() -> None:
    """Cached recursive kernels load and run in a fresh process (numba once failed to)."""
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
        assert value == exact_value(position)
        assert move in position.legal_moves()
