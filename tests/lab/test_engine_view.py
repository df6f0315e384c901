"""Depth against cost and the engine's view, checked against exhaustive search."""

from __future__ import annotations

import random

import pytest

from adjacency import Position
from adjacency.bots.minimax import minimax_value
from adjacency.lab import LabError, deepening_trace, engine_view


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
    view = engine_view(position, 1.0)
    assert view.exact and view.iterations[-1].exact
    values = {item.move: item.value for item in view.moves}
    assert set(values) == set(position.legal_moves())
    for move, value in values.items():
        assert value == -exact(position.play(move))
    assert values[view.move] == max(v for v in values.values() if v is not None)
    assert view.table_hit_rate is None and view.solver_share is None


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
