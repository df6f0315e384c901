"""``Engine.evaluate``, the static evaluation a search's leaves see: a depth-1 search is
the best child's evaluation (the kernel's own search, differentially), the evaluation is
exact where the docstring says so (finished games; one ply left outside material mode:
against the brute-force oracle) and it leaves the engine as it found it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.engine import Engine
from engine_positions import random_game_position, random_position
from oracles import exact_value

ENGINES = {name: Engine(tt_mb=4, profile=name) for name in ("v1", "v4")}
MATERIAL = Engine(tt_mb=4, profile="v4", evaluation="material")


def game_position(seed: int, rounds: int = 28) -> Position:
    """An 8x8 position of a random game with a random number of plies played."""
    rng = random.Random(seed)
    position = Position.start(rounds=rounds)
    for _ in range(rng.randint(0, position.plies_left - 2)):
        position = position.play(rng.choice(position.legal_squares()))
    return position


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(sorted(ENGINES)))
def test_a_depth_one_search_is_the_best_childs_evaluation(seed: int, profile: str) -> None:
    engine = ENGINES[profile]
    position = game_position(seed)
    children = [position.play(square) for square in position.legal_squares()]
    best = max(-engine.evaluate(child) for child in children)
    assert engine.search(position, depth=1).value == best


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9))
def test_a_depth_one_search_is_the_best_childs_evaluation_on_other_boards(seed: int) -> None:
    position = random_game_position(random.Random(seed))
    engine = ENGINES["v4"]  # off 8x8 the hand-tuned evaluation
    children = [position.play(square) for square in position.legal_squares()]
    assert engine.search(position, depth=1).value == max(-engine.evaluate(c) for c in children)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["v1", "v4"]))
def test_one_ply_left_is_scored_exactly(seed: int, profile: str) -> None:
    rng = random.Random(seed)
    position = random_position(rng, rng.randint(4, 8), rng.randint(4, 8), 1)
    assert position.plies_left == 1
    assert ENGINES[profile].evaluate(position) == exact_value(position)
    on_8x8 = game_position(seed)
    while on_8x8.plies_left > 1:
        on_8x8 = on_8x8.play(rng.choice(on_8x8.legal_squares()))
    assert ENGINES[profile].evaluate(on_8x8) == exact_value(on_8x8)


def test_a_finished_game_is_its_margin_and_material_mode_counts_pieces() -> None:
    rng = random.Random(5)
    position = Position.start(rounds=6)
    while not position.is_over:
        position = position.play(rng.choice(position.legal_squares()))
    for engine in (*ENGINES.values(), MATERIAL):
        assert engine.evaluate(position) == position.margin()
    middle = game_position(9)
    assert MATERIAL.evaluate(middle) == middle.margin()
    # The learned evaluations are not the material count (nor one another).
    values = {name: engine.evaluate(middle) for name, engine in ENGINES.items()}
    assert len(set(values.values())) == 2 and middle.margin() not in values.values()


def test_evaluating_changes_no_later_search() -> None:
    """Between two searches (the table, history and killers of the first kept for the
    second) evaluations change nothing the second search sees, on the same board or
    on another one."""
    first, second = game_position(11), game_position(12)
    plain = Engine(tt_mb=4, profile="v4")
    plain.search(first, depth=5)
    expected = plain.search(second, depth=5)
    engine = Engine(tt_mb=4, profile="v4")
    engine.search(first, depth=5)
    for seed in range(5):
        engine.evaluate(game_position(seed, rounds=10))  # another board length, other plies
        engine.evaluate(random_game_position(random.Random(seed)))  # another board
    again = engine.search(second, depth=5)
    assert (again.value, again.move, again.nodes) == (expected.value, expected.move, expected.nodes)
