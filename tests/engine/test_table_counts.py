"""The engine's search statistics: the transposition table's probes and hits and the exact
solver's nodes, each read from the kernels' own counters and carried into the reports."""

from __future__ import annotations

from adjacency.bots import Limit, Thinking, make_bot
from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.kernels import layout as L
from engine_positions import solver_endgame


def test_search_counts_probes_and_hits_within_its_nodes() -> None:
    position = Position.start(8, 8)
    engine = Engine(tt_mb=4)
    shallow = engine.search(position, depth=1)
    assert (shallow.tt_probes, shallow.tt_hits) == (0, 0)  # depth 1 is below the table's depth
    result = engine.search(position, depth=5)
    assert 0 < result.tt_hits <= result.tt_probes <= result.nodes
    assert (result.tt_probes, result.tt_hits) == engine.table_counts
    without = Engine(tt_mb=4, use_tt=False).search(position, depth=5)
    assert (without.tt_probes, without.tt_hits) == (0, 0) and without.nodes > 0


def test_threads_add_up_their_counts() -> None:
    engine = Engine(tt_mb=4, threads=2)
    result = engine.search(Position.start(8, 8), depth=5)
    assert 0 < result.tt_hits <= result.tt_probes <= result.nodes
    main_thread = int(engine.S[L.STATS + L.STAT_TT_PROBES])
    assert 0 < main_thread <= result.tt_probes  # the helper's probes are added


def test_solver_counts_probes_and_hits_within_its_nodes() -> None:
    engine = Engine(tt_mb=4)
    solved = engine.solve(solver_endgame(1))
    assert solved.complete
    assert 0 < solved.tt_hits <= solved.tt_probes <= solved.nodes


def reports(spec: str, position: Position, seconds: float) -> list[Thinking]:
    bot = make_bot(spec)
    seen: list[Thinking] = []
    try:
        bot.choose_move(position, Limit(time=seconds), seen.append)
    finally:
        bot.close()
    return seen


def test_the_bot_reports_the_solvers_share_of_the_nodes() -> None:
    seen = reports("engine:book=off", solver_endgame(2), 2.0)
    first, last = seen[0], seen[-1]
    assert first.solver_nodes == 0 and not first.exact  # the short search before the solve
    assert last.text == "solved" and last.exact
    assert first.nodes is not None and last.nodes is not None and last.solver_nodes is not None
    assert 0 < last.solver_nodes <= last.nodes
    assert last.solver_nodes == last.nodes - first.nodes  # the rest is the solver's
    for report in seen:
        assert report.tt_hits is not None and report.tt_probes is not None
        assert 0 <= report.tt_hits <= report.tt_probes <= (report.nodes or 0)


def test_a_shallow_search_at_the_start_takes_no_solver_nodes() -> None:
    seen = reports("engine:depth=4,book=off", Position.start(8, 8), 5.0)
    assert seen and all(report.solver_nodes == 0 for report in seen)
    assert seen[-1].depth == 4 and seen[-1].tt_probes
