"""Null-move pruning and ProbCut: off where the search must be exact, effective elsewhere."""

from __future__ import annotations

import random

import pytest

from adjacency.bots import make_bot
from adjacency.bots.engine_bot import EngineBot
from adjacency.core import Position
from adjacency.core.errors import AdjacencyError
from adjacency.engine import Engine
from adjacency.engine.kernels import layout as L
from adjacency.engine.profiles import V1
from engine_positions import random_position


def test_forward_pruning_is_gated_by_the_reductions_switch() -> None:
    """With reductions off (the exact iterations) null moves and ProbCut never run:
    the same values, moves and node counts as an engine without them."""
    rng = random.Random(5)
    plain = Engine(tt_mb=4, reductions=False, null_reduction=0, probcut=0)
    pruned = Engine(tt_mb=4, reductions=False, null_reduction=2, probcut=16)
    for _ in range(6):
        position = random_position(rng, 8, 8, 30)
        plain.clear()
        pruned.clear()
        first = plain.search(position, depth=7)
        second = pruned.search(position, depth=7)
        assert (first.value, first.move) == (second.value, second.move), position.fen()
        assert plain.nodes == pruned.nodes


@pytest.mark.parametrize(("null", "probcut"), [(2, 0), (0, 12), (3, 16)])
def test_a_search_to_the_end_with_forward_pruning_is_exact(null: int, probcut: int) -> None:
    rng = random.Random(null * 100 + probcut)
    engine = Engine(tt_mb=4, null_reduction=null, probcut=probcut)
    for _ in range(12):
        position = random_position(rng, 5, 5, 9)
        engine.clear()
        result = engine.search(position)
        assert result.exact
        assert result.value == engine.solve(position).value, position.fen()


def test_null_moves_and_probcut_prune_the_tree() -> None:
    position = Position.start(8, 8, rounds=28).play("c3").play("f6")
    nodes = {}
    for null, probcut in ((0, 0), (2, 0), (0, 16)):
        engine = Engine(tt_mb=16, profile="v1", null_reduction=null, probcut=probcut)
        result = engine.search(position, depth=9)
        assert result.move in position.legal_moves()
        nodes[null, probcut] = engine.nodes
    assert nodes[2, 0] < 0.8 * nodes[0, 0]
    assert nodes[0, 16] < 0.8 * nodes[0, 0]


def test_profiles_and_options_set_the_pruning() -> None:
    assert (V1.null_reduction, V1.probcut) == (0, 0)
    engine = Engine(tt_mb=1, profile="v1", null_reduction=3, probcut=20)
    assert int(engine.S[L.CFG + L.CFG_NULL_R]) == 3
    assert int(engine.S[L.CFG + L.CFG_PROBCUT]) == 20
    bot = make_bot("engine:tt=1,null=2,probcut=12")
    assert isinstance(bot, EngineBot)
    assert int(bot.engine.S[L.CFG + L.CFG_NULL_R]) == 2
    assert int(bot.engine.S[L.CFG + L.CFG_PROBCUT]) == 12


@pytest.mark.parametrize(
    "kwargs", [{"null_reduction": 9}, {"null_reduction": -1}, {"probcut": 1001}]
)
def test_out_of_range_pruning_settings_are_refused(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError, match=r"pruning setting (null_reduction|probcut) must be"):
        Engine(tt_mb=1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", ["engine:null=9", "engine:probcut=-2", "engine:null=x"])
def test_out_of_range_bot_options_are_refused(spec: str) -> None:
    with pytest.raises(AdjacencyError, match=r"null|probcut"):
        make_bot(spec)
