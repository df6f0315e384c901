"""Lazy SMP: helper threads share the table; solver values equal the single-thread ones."""

from __future__ import annotations

import random
import threading

import pytest

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.bench import SUITE
from engine_positions import (
    assert_solves_like_brute_force,
    brute_force,
    random_endgame,
    random_short_game,
)

SUITE_POSITIONS = dict(SUITE)


@pytest.mark.parametrize("threads", [2, 3])
def test_parallel_solver_equals_brute_force(threads: int) -> None:
    rng = random.Random(threads)
    engine = Engine(tt_mb=2, threads=threads)
    for _ in range(10):
        assert_solves_like_brute_force(engine, random_endgame(rng, 6, 6, 8))
    short = random_short_game(rng, 5, 5, 8)
    assert engine.solve(short).value == brute_force(short)


def test_parallel_solver_equals_single_thread_on_8x8_endgames() -> None:
    # 14 empties: big enough that every thread works on the root at once.
    for name in ("end14-1", "end14-2", "end12-1"):
        position = Position.from_fen(SUITE_POSITIONS[name])
        single = Engine(tt_mb=16).solve(position)
        parallel = Engine(tt_mb=16, threads=2).solve(position)
        assert (parallel.value, parallel.complete) == (single.value, True), name
        assert Engine(tt_mb=16).solve(position.play(parallel.best)).value == -single.value
    rng = random.Random(3)
    for _ in range(3):
        position = random_endgame(rng, 8, 8, 12)
        assert (
            Engine(tt_mb=4, threads=2).solve(position, wld=True).value
            == Engine(tt_mb=4).solve(position, wld=True).value
        )


def test_parallel_search_is_exact_at_the_end_and_counts_every_thread() -> None:
    position = Position.from_fen(SUITE_POSITIONS["end12-2"])
    exact = Engine(tt_mb=8).solve(position).value
    engine = Engine(tt_mb=8, threads=2)
    result = engine.search(position)
    assert result.exact and result.value == exact
    assert engine.helpers is not None and engine.helpers.nodes > 0
    assert result.nodes == engine.nodes > engine.helpers.nodes


def test_stop_and_time_limits_end_every_thread() -> None:
    engine = Engine(tt_mb=8, threads=2)
    before = threading.active_count()
    result = engine.search(Position.start(), seconds=0.2)
    assert result.depth >= 1 and result.move in Position.start().legal_moves()
    stopper = threading.Timer(0.2, engine.stop)
    stopper.start()
    solved = engine.solve(Position.start(), wld=True)
    stopper.join()
    assert not solved.complete and engine.stopped
    assert threading.active_count() == before


def test_threads_option_and_errors() -> None:
    bot = make_bot("engine:threads=2,tt=4,depth=4")
    start = Position.start(6, 6, 6)
    assert bot.choose_move(start, Limit()) in start.legal_moves()
    with pytest.raises(ValueError, match="threads must be a whole number from 1 to 256, got 0"):
        Engine(threads=0)
    with pytest.raises(ValueError, match="option threads='-1' is out of range"):
        make_bot("engine:threads=-1")


def test_default_threads_are_one_unless_the_process_runs_one_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from adjacency.engine import threads

    monkeypatch.setattr(threads, "_process_default", [1])
    assert make_bot("engine:tt=1").engine.threads == 1  # type: ignore[attr-defined]
    monkeypatch.setattr("os.cpu_count", lambda: 3)
    threads.use_all_cores()
    assert make_bot("engine:tt=1").engine.threads == 3  # type: ignore[attr-defined]
    assert make_bot("engine:tt=1,threads=2").engine.threads == 2  # type: ignore[attr-defined]
