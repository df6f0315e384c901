"""Minimax and alpha-beta: exact values, node savings, iterative deepening, the game's end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.bots import BotError, Limit, Thinking, make_bot
from adjacency.bots.minimax import minimax_value
from core_strategies import positions
from engine_positions import random_game_position
from oracles import fixed_depth_value


@hsettings(max_examples=120, deadline=None)
@given(positions(), st.integers(0, 3))
def test_minimax_value_matches_the_rules(position: Position, depth: int) -> None:
    if depth == 3 and position.empty.bit_count() > 20:
        depth = 2
    value, nodes = minimax_value(position, depth)
    assert value == fixed_depth_value(position, depth)
    assert nodes >= 1
    assert minimax_value(position, depth, prune=True)[0] == value


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_alphabeta_equals_minimax_and_visits_fewer_nodes(depth: int) -> None:
    rng = random.Random(depth)
    plain_total = pruned_total = 0
    for _ in range(25):
        position = random_game_position(rng, max_empty=30 if depth == 4 else 64)
        plain, plain_nodes = minimax_value(position, depth)
        for order in (True, False):
            pruned, pruned_nodes = minimax_value(position, depth, prune=True, order=order)
            assert pruned == plain, position.fen()
            assert pruned_nodes <= plain_nodes, position.fen()
        plain_total += plain_nodes
        pruned_total += minimax_value(position, depth, prune=True)[1]
    if depth >= 3:  # depth 1 has nothing to prune; depth 2 only prunes at the frontier
        assert pruned_total < plain_total


def test_minimax_value_never_searches_past_the_end() -> None:
    position = Position.from_fen("6oo/6oo/8/8/8/8/xx6/xx6 x 3")
    assert minimax_value(position, 10) == minimax_value(position, 3)
    finished = Position.from_fen("6oo/6oo/8/8/8/8/xx6/xx6 x 0")
    assert minimax_value(finished, 4) == (0, 1)
    with pytest.raises(BotError, match="depth"):
        minimax_value(position, -1)


@pytest.mark.parametrize("spec", ["minimax", "alphabeta", "alphabeta:table=false,order=false"])
def test_search_bots_play_the_minimax_best_move_at_their_depth(spec: str) -> None:
    rng = random.Random(11)
    for _ in range(12):
        position = random_game_position(rng, max_empty=24)
        reports: list[Thinking] = []
        bot = make_bot(spec)
        move = bot.choose_move(position, Limit(time=None, depth=3), reports.append)
        depth = min(3, position.plies_left)
        best = minimax_value(position, depth)[0]
        assert [r.depth for r in reports] == list(range(1, depth + 1))
        assert reports[-1].score == best
        assert reports[-1].exact == (depth == position.plies_left)
        assert -minimax_value(position.play(move), depth - 1)[0] == best
        replay = position
        for square in reports[-1].pv:  # the principal variation is a legal line
            replay = replay.play(square)
        assert 1 <= len(reports[-1].pv) <= depth


def test_iterative_deepening_stops_at_the_end_of_the_game() -> None:
    position = Position.from_fen("6oo/6oo/8/8/8/8/xx6/xx6 o 4")
    reports: list[Thinking] = []
    make_bot("alphabeta").choose_move(position, Limit(time=None), reports.append)
    assert [r.depth for r in reports] == [1, 2, 3, 4]
    assert reports[-1].exact
    assert reports[-1].score == minimax_value(position, 4)[0]


def test_depth_option_and_limit_both_cap_the_search() -> None:
    position = Position.start(6, 6, 10)
    reports: list[Thinking] = []
    make_bot("alphabeta:depth=2").choose_move(position, Limit(time=None, depth=5), reports.append)
    assert reports[-1].depth == 2
    make_bot("minimax:depth=4").choose_move(position, Limit(time=None, depth=1), reports.append)
    assert reports[-1].depth == 1


def test_node_limit_stops_the_search_with_a_completed_iteration() -> None:
    position = Position.start()
    reports: list[Thinking] = []
    bot = make_bot("minimax")
    move = bot.choose_move(position, Limit(time=None, nodes=20_000), reports.append)
    assert move in position.legal_moves()
    assert reports and reports[-1].depth == 2  # depth 3 needs about 170,000 nodes


@pytest.mark.parametrize("seed", range(4))
def test_transposition_table_keeps_every_iteration_exact(seed: int) -> None:
    """Iterative deepening with the table reports exactly the fixed-depth minimax values."""
    rng = random.Random(100 + seed)
    for _ in range(6):
        position = random_game_position(rng, max_empty=26)
        reports: list[Thinking] = []
        make_bot("alphabeta:depth=4").choose_move(position, Limit(time=None), reports.append)
        for report in reports:
            assert report.depth is not None
            assert report.score == minimax_value(position, report.depth)[0], position.fen()
