"""Engine.probe answers "is the exact value >= beta?" as brute force and Engine.solve do."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.searcher import margin_parity
from engine_positions import random_endgame, random_short_game, split_engines
from oracles import exact_value

ENGINE = Engine(tt_mb=2)
SPLIT = {engine.threads: engine for engine in split_engines()}


def _check(engine: Engine, position: Position, exact: int, beta: int) -> None:
    result = engine.probe(position, beta)
    assert result.complete and result.beta == beta
    assert result.high == (exact >= beta), (position.fen(), beta, exact)
    # Fail-soft: a true bound on the right side of the exact value, of the margin's parity.
    if result.high:
        assert beta <= result.bound <= exact
    else:
        assert exact <= result.bound < beta
    assert (result.bound - margin_parity(position)) % 2 == 0


@pytest.mark.parametrize(("rows", "cols"), [(4, 5), (5, 5), (6, 6), (8, 8)])
def test_probe_equals_brute_force_around_the_value(rows: int, cols: int) -> None:
    rng = random.Random(rows * 10 + cols)
    for _ in range(8):
        position = random_endgame(rng, rows, cols, 8)
        exact = exact_value(position)
        for beta in range(exact - 3, exact + 4):
            _check(ENGINE, position, exact, beta)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    offset=st.integers(-6, 6),
    short=st.booleans(),
    threads=st.sampled_from([1, 2, 4]),
)
def test_probe_agrees_with_solve(seed: int, offset: int, short: bool, threads: int) -> None:
    # The probe of an engine whose threads split the tree agrees with the 1-thread solve.
    rng = random.Random(seed)
    position = random_short_game(rng, 6, 6, 8) if short else random_endgame(rng, 6, 6, 10)
    exact = ENGINE.solve(position).value
    _check(SPLIT[threads], position, exact, exact + offset)


def test_probe_with_an_empty_table_and_far_windows() -> None:
    rng = random.Random(3)
    engine = Engine(tt_mb=0.001)
    for _ in range(10):
        position = random_endgame(rng, 5, 6, 9)
        exact = exact_value(position)
        for beta in (-40, exact, exact + 1, 40):
            _check(engine, position, exact, beta)


def test_probe_gives_up_on_the_node_budget() -> None:
    position = Position.from_fen(
        "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox2xoxx/ooo2oxx/oooo2xo/xoxox2o x 18"
    )
    assert not Engine(tt_mb=1).probe(position, 0, nodes=5000).complete


def test_probe_rejects_bad_input() -> None:
    over = Position.from_fen("xxxx/oooo/xxxx/oooo x 0")
    with pytest.raises(ValueError, match="finished"):
        ENGINE.probe(over, 0)
    with pytest.raises(ValueError, match="beta"):
        ENGINE.probe(Position.start(5, 5, 3), 0.5)  # type: ignore[arg-type]
