"""Threads: Lazy SMP for the search, split points for the solver; values equal one thread's."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.bench import SUITE
from adjacency.engine.kernels import layout as L
from adjacency.engine.parallel_solve import (
    ENDGAME_SPLIT_DEPTH,
    ENDGAME_SPLIT_FLOOR,
    ENDGAME_SPLIT_ROOT,
    SPLIT_FLOOR,
    SplitPoint,
    Splitter,
    split_floor,
)
from engine_positions import (
    assert_solves_like_brute_force,
    random_endgame,
    random_short_game,
    split_engines,
)
from oracles import exact_value

SUITE_POSITIONS = dict(SUITE)


@pytest.mark.parametrize("threads", [2, 4])
def test_parallel_solver_equals_brute_force(threads: int) -> None:
    rng = random.Random(threads)
    (engine,) = split_engines(counts=(threads,))
    for _ in range(10):
        assert_solves_like_brute_force(engine, random_endgame(rng, 6, 6, 8))
    short = random_short_game(rng, 5, 5, 8)
    assert engine.solve(short).value == exact_value(short)


@pytest.mark.parametrize("threads", [2, 4])
def test_parallel_solver_equals_single_thread_on_8x8_endgames(threads: int) -> None:
    # 12-14 empties, with the default split depth: big enough to split near the root.
    for name in ("end14-1", "end14-2", "end12-1"):
        position = Position.from_fen(SUITE_POSITIONS[name])
        single = Engine(tt_mb=16).solve(position)
        engine = Engine(tt_mb=16, threads=threads)
        engine.split_floor = SPLIT_FLOOR  # by default these run on one thread (below)
        parallel = engine.solve(position)
        assert (parallel.value, parallel.complete) == (single.value, True), name
        assert Engine(tt_mb=16).solve(position.play(parallel.best)).value == -single.value
    rng = random.Random(3)
    for _ in range(3):
        position = random_endgame(rng, 8, 8, 12)
        assert (
            Engine(tt_mb=4, threads=threads).solve(position, wld=True).value
            == Engine(tt_mb=4).solve(position, wld=True).value
        )


def test_short_endgame_solves_run_on_one_thread() -> None:
    # Where the board fills, solves with under 17 plies left are too small to pay for
    # split nodes' Python and wake-ups: two threads solve them as one, node for node.
    assert split_floor(14, 14) == split_floor(18, 16) == ENDGAME_SPLIT_ROOT == 17
    assert split_floor(18, 17) == split_floor(20, 18) == ENDGAME_SPLIT_FLOOR == 15
    assert split_floor(22, 20) == 20 - ENDGAME_SPLIT_DEPTH == 17
    assert split_floor(45, 11) == SPLIT_FLOOR == 9  # short games: some 45 moves a node
    position = Position.from_fen(SUITE_POSITIONS["end16-1"])
    single, two = Engine(tt_mb=16), Engine(tt_mb=16, threads=2)
    expected = single.solve(position, guess=-6)
    solved = two.solve(position, guess=-6)
    assert (solved.value, solved.best, solved.nodes) == (
        expected.value,
        expected.best,
        expected.nodes,
    )
    assert two.helpers is not None and two.helpers.nodes == 0
    # From 17 plies left the helper takes part (one probe of an 18-empty solve).
    assert two.probe(Position.from_fen(SUITE_POSITIONS["end18-3"]), 4).high
    assert two.helpers.nodes > 0


def test_random_play_positions_solve_alike_on_one_and_two_threads() -> None:
    # Uniformly random play (not the self-play the solver was tuned on), 17 plies left
    # of a 28-round 8x8 game: the split solver's values equal one thread's.
    rng = random.Random(36)
    for _ in range(2):
        position = Position.start(rounds=28)
        while position.plies_left > 17:
            position = position.play(rng.choice(position.legal_squares()))
        one = Engine(tt_mb=16).solve(position)
        two = Engine(tt_mb=16, threads=2)
        assert two.solve(position).value == one.value, position.fen()
        assert two.helpers is not None and two.helpers.nodes > 0


def test_split_nodes_search_the_kernels_tree() -> None:
    # With one thread's state the split nodes (Python) order, search and store exactly as
    # the kernel does: the same value, best move and node count.
    position = Position.from_fen(SUITE_POSITIONS["end14-1"])
    kernel, split = Engine(tt_mb=16), Engine(tt_mb=16)
    expected = kernel.probe(position, -8)
    split._begin(position, None)
    split.S[L.CFG + L.CFG_SOLVE_TT : L.CFG + L.CFG_SOLVE_TWO_PLY + 1] = kernel.S[
        L.CFG + L.CFG_SOLVE_TT : L.CFG + L.CFG_SOLVE_TWO_PLY + 1
    ]
    h = split._hash(position)
    me, opp = np.uint64(position.mover), np.uint64(position.opponent)
    splitter = Splitter(split.U, [split.S], 64, 0, lambda: False)
    value = splitter.run(me, opp, position.plies_left, -9, -8, h, 0, lambda run: run())
    assert value is not None and (value >= -8) == expected.high
    assert int(split.S[L.STATS + L.STAT_NODES]) == expected.nodes
    assert split.S[L.ROOT + L.ROOT_MOVE] == kernel.S[L.ROOT + L.ROOT_MOVE]


def test_threads_share_one_tree_rather_than_race() -> None:
    # Lazy SMP's threads each searched the whole probe (1.6-1.7x the nodes of one thread
    # in all); split points hand each subtree to one thread.
    position = Position.from_fen(SUITE_POSITIONS["end16-1"])
    single = Engine(tt_mb=16)
    single.solve(position, guess=-6)
    split = Engine(tt_mb=16, threads=2)
    split.split_floor = ENDGAME_SPLIT_FLOOR  # by default 16 plies run on one thread
    assert split.solve(position, guess=-6).value == -6
    assert split.helpers is not None and split.helpers.nodes > 0
    assert split.nodes < 1.3 * single.nodes


def test_node_limit_stops_every_solver_thread() -> None:
    position = Position.from_fen(SUITE_POSITIONS["end16-1"])
    engine = Engine(tt_mb=4, threads=2)
    engine.split_floor = ENDGAME_SPLIT_FLOOR  # by default 16 plies run on one thread
    before = threading.active_count()
    result = engine.solve(position, nodes=20000, guess=0)
    assert not result.complete and engine.stopped
    assert threading.active_count() == before
    assert engine.solve(position).value == -6 and not engine.stopped


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


def test_a_bug_in_a_helper_thread_is_raised_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    # A task lost to an exception would make the value wrong: the solve raises instead.
    original = Splitter._run

    def broken(self: Splitter, w: int, point: SplitPoint, index: int) -> None:
        if w > 0:
            raise RuntimeError("a bug in a helper")
        original(self, w, point, index)

    monkeypatch.setattr(Splitter, "_run", broken)
    engine = Engine(tt_mb=4, threads=2)
    engine.split_floor = ENDGAME_SPLIT_FLOOR  # by default 16 plies run on one thread
    before = threading.active_count()
    with pytest.raises(RuntimeError, match="a bug in a helper"):
        engine.solve(Position.from_fen(SUITE_POSITIONS["end16-1"]))
    assert threading.active_count() == before
