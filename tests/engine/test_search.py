"""The search equals plain minimax (material evaluation) with and without the table, PVS and
MTD(f) alike; the bot honours its interface."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from adjacency.bots import Limit, make_bot
from adjacency.bots.minimax import minimax_value
from adjacency.core import Position
from adjacency.engine import Engine, warmup
from adjacency.engine.kernels.bits import write_geometry
from adjacency.engine.kernels.evaluate import DEFAULT_WEIGHTS, evaluate, weights
from adjacency.engine.kernels.layout import I_SIZE, ORDER_ALL, SCALE, W
from adjacency.engine.kernels.transposition import shared_words
from engine_positions import random_position


def _engines() -> dict[str, Engine]:
    """Full-width engines (no late move reductions, which are forward pruning)."""
    return {
        "pvs+tt": Engine(tt_mb=4, evaluation="material", reductions=False),
        "pvs-tt": Engine(tt_mb=4, evaluation="material", use_tt=False, reductions=False),
        "mtdf+tt": Engine(tt_mb=4, evaluation="material", driver="mtdf", reductions=False),
        "pvs+tt,no ordering": Engine(tt_mb=4, evaluation="material", ordering=0, reductions=False),
        "pvs+tiny tt": Engine(
            tt_mb=0.001, evaluation="material", ordering=ORDER_ALL, reductions=False
        ),
    }


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_engine_value_equals_plain_minimax(depth: int) -> None:
    rng = random.Random(depth)
    engines = _engines()
    count = 0
    while count < 60:
        rows, cols = rng.choice([(4, 4), (4, 5), (5, 5), (5, 6), (6, 6), (4, 8), (8, 8)])
        if depth == 4 and rows * cols > 30:
            continue  # plain minimax in Python is too slow there; depth 3 covers them
        position = random_position(rng, rows, cols, 14)
        expected, _ = minimax_value(position, depth)
        for name, engine in engines.items():
            engine.clear()
            result = engine.search(position, depth=depth)
            assert result.value == expected, (name, position.fen(), depth)
            assert result.move in position.legal_moves()
        count += 1


def test_engine_value_equals_alphabeta_on_8x8_depth_4() -> None:
    rng = random.Random(44)
    engines = _engines()
    for _ in range(12):
        position = random_position(rng, 8, 8, 40)
        expected, _ = minimax_value(position, 4, prune=True)
        for name, engine in engines.items():
            engine.clear()
            assert engine.search(position, depth=4).value == expected, (name, position.fen())


def test_positional_search_to_the_end_is_exact() -> None:
    """Searching as deep as the plies left scores final positions exactly."""
    rng = random.Random(9)
    engine = Engine(tt_mb=4)
    for _ in range(20):
        position = random_position(rng, 4, 5, 7)
        result = engine.search(position)
        assert result.exact
        assert result.value == engine.solve(position).value


def test_bot_returns_legal_moves_with_tiny_budgets() -> None:
    warmup()
    bot = make_bot("engine:tt=8", seed=3)
    position = Position.start()
    for budget in (0.001, 0.01, 0.05):
        move = bot.choose_move(position, Limit(time=budget))
        assert move in position.legal_moves()
        position = position.play(move)
    endgame = Position.from_fen("2oo/xoox/xxo1/xx1o x 2")
    assert bot.choose_move(endgame, Limit(time=0.05)) in endgame.legal_moves()
    assert bot.report is not None


def test_bot_options_and_depth_limit() -> None:
    bot = make_bot("engine:depth=3,driver=mtdf,eval=material,tt=2,solve=false")
    move = bot.choose_move(Position.start(5, 5, 8), Limit(time=None))
    assert move in Position.start(5, 5, 8).legal_moves()
    assert bot.report is not None and bot.report.depth == 3


def test_stop_interrupts_an_unlimited_search() -> None:
    warmup()
    bot = make_bot("engine:solve=false")
    timer = threading.Timer(0.3, bot.stop)
    timer.start()
    move = bot.choose_move(Position.start(), Limit(time=None))
    timer.join()
    assert move in Position.start().legal_moves()


def test_node_limit_stops_the_search() -> None:
    engine = Engine(tt_mb=1)
    result = engine.search(Position.start(), nodes=20000)
    assert result.move in Position.start().legal_moves()
    assert result.nodes < 20000 + 200


def test_finished_positions_are_refused() -> None:
    finished = Position.from_fen("xxoo/xxoo/xxoo/xxoo x 0")
    engine = Engine(tt_mb=1)
    with pytest.raises(ValueError, match="finished game"):
        engine.search(finished)
    with pytest.raises(ValueError, match="finished game"):
        engine.solve(finished)
    with pytest.raises(ValueError, match="driver must be one of pvs, mtdf"):
        Engine(driver="sss")


def test_last_ply_is_evaluated_exactly_and_ends_the_search_early() -> None:
    """With one ply left the positional evaluation is the exact final margin, so a search
    of ``plies_left - 1`` plies is exact (and the driver stops there)."""
    rng = random.Random(11)
    engine = Engine(tt_mb=4)
    for _ in range(12):
        position = random_position(rng, 6, 6, 6)
        if position.plies_left < 2:
            continue
        result = engine.search(position)
        assert result.exact
        assert result.depth == position.plies_left - 1, position.fen()
        assert result.value == engine.solve(position).value, position.fen()
    U = shared_words(0.01)
    write_geometry(Position.start(5, 6, 1).board, U)
    S = np.zeros(I_SIZE, dtype=np.int64)
    S[W : W + len(DEFAULT_WEIGHTS)] = weights("positional")
    for _ in range(20):
        position = random_position(rng, 5, 6, 1)
        best = max(position.play(sq).margin(position.turn) for sq in position.legal_squares())
        me, opp = np.uint64(position.mover), np.uint64(position.opponent)
        assert evaluate(me, opp, 1, U, S) == SCALE * best, position.fen()


class _Clock:
    """A stand-in for the searcher's ``time`` module whose clock moves ``step`` seconds at
    each reading: the driver reads it once at the start and once after each iteration, so
    iteration ``d`` ends at ``d * step`` whatever the machine's speed."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now - self.step


@pytest.mark.parametrize(
    ("fraction", "iterations"),
    [(None, 5), (0.4, 5), (0.25, 3), (0.75, 8), (1.0, 11)],
)
def test_no_iteration_starts_after_the_settings_fraction_of_the_time(
    monkeypatch: pytest.MonkeyPatch, fraction: float | None, iterations: int
) -> None:
    # The profile's fraction (v4: 0.4) when unset; 1.0 iterates until the deadline. With a
    # 1,000-second budget and every iteration "taking" 100 seconds, the driver starts
    # iteration d + 1 only while d * 100 <= fraction * 1,000 (the real timer never fires).
    from adjacency.engine import searcher

    monkeypatch.setattr(searcher, "time", _Clock(100.0))
    engine = Engine(tt_mb=1, next_iteration=fraction)
    position = Position.start(8, 8, 28)
    result = engine.search(position, seconds=1000.0)
    assert result.depth == iterations
    assert not result.exact and not engine.stopped
