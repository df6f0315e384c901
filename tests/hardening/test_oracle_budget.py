"""The suite's brute-force oracle (tests/oracles.py) keeps to its budget whatever is drawn."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from oracles import (
    ORACLE_LEAVES,
    OracleBudgetExceeded,
    exact_value,
    move_values,
    play_into_budget,
    tree_bound,
    within_budget,
)

SHAPES = [(4, 4, 3), (4, 5, 4), (5, 5, 4), (6, 6, 6), (8, 8, 28)]


def sequences(position: Position) -> int:
    """Move sequences to the end, counted by playing every one of them."""
    if position.is_over:
        return 1
    return sum(sequences(position.play(s)) for s in position.legal_squares())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_the_tree_bound_counts_the_sequences_of_small_positions(seed: int) -> None:
    rng = random.Random(seed)
    position = play_into_budget(Position.start(4, 4, 4), rng, leaves=2_000)
    assert sequences(position) <= tree_bound(position)


@settings(max_examples=40)
@given(st.integers(0, 10**6), st.sampled_from(SHAPES))
def test_positions_played_into_the_budget_are_within_it_and_not_over(
    seed: int, shape: tuple[int, int, int]
) -> None:
    start = Position.start(*shape)
    position = play_into_budget(start, random.Random(seed))
    assert within_budget(position) and tree_bound(position) <= ORACLE_LEAVES
    assert not position.is_over and position.plies_left <= start.plies_left


def test_a_position_over_the_budget_fails_at_once_instead_of_hanging() -> None:
    """5x5 at 4 rounds from the start: 4e10 sequences; the oracle stops at its budget."""
    start = Position.start(5, 5, 4)
    assert not within_budget(start)
    with pytest.raises(OracleBudgetExceeded, match="valued 2,000 positions without finishing"):
        exact_value(start, budget=2_000)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(SHAPES[:3]))
def test_the_value_is_the_best_move_value(seed: int, shape: tuple[int, int, int]) -> None:
    position = play_into_budget(Position.start(*shape), random.Random(seed), leaves=100_000)
    memo: dict[Position, int] = {}
    values = move_values(position, memo)
    assert set(values) == set(position.legal_moves())
    assert exact_value(position, memo) == max(values.values()) == exact_value(position)
