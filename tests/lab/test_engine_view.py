"""Depth against cost and the engine's view, checked against exhaustive search."""

from __future__ import annotations

import random

import pytest

from adjacency import Position
from adjacency.bots.minimax import minimax_value
from adjacency.lab import LabError, deepening_trace, engine_view
from adjacency.lab.engine_view import MAX_SECONDS
from engine_positions import solver_endgame


def exact(position: Position) -> int:
    """The final margin under perfect play for the side to move (plain negamax to the end)."""
    if position.is_over:
        return position.margin()
    return max(-exact(position.play(move)) for move in position.legal_moves())


def endgame(seed: int) -> Position:
    """A 5x5 position with 5 plies left reached by random play (not in the engine's book)."""
    rng = random.Random(seed)
    position = Position.start(5, 5, rounds=8)
    while position.plies_left > 5:
        position = position.play(rng.choice(position.legal_moves()))
    return position


def test_deepening_iterations_are_the_searches_at_each_depth() -> None:
    position = Position.start(6, 6, rounds=6).play("c3")
    trace = deepening_trace(position, 2.0)
    classic, engine = trace.runs
    assert (classic.searcher, engine.searcher) == ("alphabeta", "engine")
    for run in trace.runs:
        depths = [row.depth for row in run.iterations]
        assert depths == list(range(1, len(depths) + 1)) and depths
        totals = [row.total_nodes for row in run.iterations]
        assert totals == sorted(totals)
        assert sum(row.nodes for row in run.iterations) == totals[-1]
        for before, row in zip(run.iterations, run.iterations[1:], strict=False):
            assert row.branching == pytest.approx(row.nodes / before.nodes)
        assert run.limit_depth is None or run.limit_depth in depths
    for row in classic.iterations[:4]:  # (plain minimax deeper would take minutes)
        assert row.value == minimax_value(position, row.depth, prune=True)[0]
    assert trace.to_dict()["runs"][0]["iterations"][0]["depth"] == 1
    assert "<svg" in trace._repr_svg_()


@pytest.mark.parametrize("seed", [3, 11])
def test_engine_view_solves_every_move_within_reach(seed: int) -> None:
    position = endgame(seed)
    view = engine_view(position, MAX_SECONDS)
    assert view.exact and view.iterations[-1].exact
    values = {item.move: item.value for item in view.moves}
    assert set(values) == set(position.legal_moves())
    for move, value in values.items():
        assert value == -exact(position.play(move))
    assert values[view.move] == max(v for v in values.values() if v is not None)
    # Five plies: the bot's short search (a tenth of the view's seconds) reaches the end
    # itself and the solver is not asked; on a machine that cut it short, the solver
    # finished the search and its nodes are its share.
    if view.iterations[0].exact:
        assert len(view.iterations) == 1 and view.solver_share == 0.0
    else:
        assert view.iterations[-1].text == "solved", view.iterations
        assert view.solver_share is not None and 0.0 < view.solver_share <= 1.0
    assert view.table_hit_rate is not None and 0.0 <= view.table_hit_rate <= 1.0


def test_engine_view_shows_the_tables_hit_rate_and_the_solvers_share() -> None:
    view = engine_view(solver_endgame(1), MAX_SECONDS)  # a margin for a busy worker
    last = view.iterations[-1]
    assert view.exact and last.text == "solved"
    assert last.nodes and last.solver_nodes and last.tt_probes and last.tt_hits is not None
    assert 0 < last.solver_nodes <= last.nodes and last.tt_hits <= last.tt_probes
    assert view.solver_share == last.solver_nodes / last.nodes > 0
    assert view.table_hit_rate == last.tt_hits / last.tt_probes
    data = view.to_dict()
    assert data["solver_share"] == view.solver_share
    assert data["iterations"][-1]["tt_probes"] == last.tt_probes
    assert "solver share of the nodes" in view._repr_html_()


def test_engine_view_at_the_start_takes_no_solver_nodes() -> None:
    from adjacency.engine import warmup

    # the kernels loaded first, so that a loaded machine's budget goes to the search: with
    # them loaded inside it, a busy machine had no iteration ended within 0.3 s
    warmup()
    view = engine_view(Position.start(8, 8), 1.0)
    assert not view.exact and view.solver_share == 0.0
    assert view.table_hit_rate is not None and 0.0 <= view.table_hit_rate <= 1.0
    for item in view.iterations:
        assert item.solver_nodes == 0
        assert item.tt_hits is not None and item.tt_probes is not None
        assert item.tt_hits <= item.tt_probes <= (item.nodes or 0)


def test_engine_view_out_of_reach_shows_reports_only() -> None:
    view = engine_view(Position.start(8, 8, rounds=28).play("c3"), 0.3)
    assert not view.exact and view.moves == ()
    assert view.iterations and view.move in Position.start(8, 8, rounds=28).play("c3").legal_moves()


def test_bad_budgets_are_refused() -> None:
    position = Position.start(6, 6, rounds=3)
    with pytest.raises(LabError, match=r"from 0\.1 to 6"):
        deepening_trace(position, 60.0)
    with pytest.raises(LabError, match=r"from 0\.1 to 5"):
        engine_view(position, 0.0)
