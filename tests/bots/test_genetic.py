"""The two genetic algorithms: elitism, repair, fitness and the game tree."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.bots import Limit, Thinking, make_bot
from adjacency.bots.gametree import GameTreeSettings, Tree, evolve_tree, repair
from adjacency.bots.genetic import GeneticSettings, Simulator, crossover, evolve, mutate
from core_strategies import positions


def play_out(position: Position, chromosome: tuple[int, ...]) -> int:
    """Fitness the slow way; fails if the chromosome is not legal as written."""
    me = position.turn
    for square in chromosome:
        assert not position.is_over
        position = position.play(square)  # raises IllegalMoveError on an occupied square
        if position.is_over:
            break
        # The opponent model: most conversions, lowest square index on ties.
        reply = max(position.legal_squares(), key=lambda sq: (len(position.flips(sq)), -sq))
        position = position.play(reply)
    return position.margin(me)


@pytest.mark.parametrize("seed", range(6))
def test_best_fitness_never_decreases_with_elitism(seed: int) -> None:
    rng = random.Random(seed)
    position = Position.start(rng.choice([6, 8]), 8, 20)
    for _ in range(rng.randint(0, 20)):
        position = position.play(rng.choice(position.legal_squares()))
    settings = GeneticSettings(population=20, generations=25, horizon=4, mutation=0.3, elitism=1)
    run = evolve(position, settings, random.Random(seed))
    assert len(run.history) == 26
    assert all(a <= b for a, b in zip(run.history, run.history[1:], strict=False))
    assert run.fitness == run.history[-1] == play_out(position, run.best)


@hsettings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 10_000), st.integers(1, 6))
def test_repaired_chromosomes_are_legal(position: Position, seed: int, horizon: int) -> None:
    assume(not position.is_over)
    rng = random.Random(seed)
    simulator = Simulator(position, rng)
    length = simulator.length(horizon)
    squares = position.legal_squares()
    parents = [simulator.random_chromosome(length) for _ in range(2)]
    for child in crossover(parents[0], parents[1], rng):
        broken = mutate(child, 0.5, squares, rng)
        repaired, fitness = simulator.evaluate(broken)
        assert len(repaired) == length
        assert fitness == play_out(position, repaired)
        assert simulator.evaluate(repaired) == (repaired, fitness)  # no second repair


@hsettings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 10_000))
def test_game_tree_lines_are_repaired_and_valued_by_negamax(position: Position, seed: int) -> None:
    assume(not position.is_over)
    rng = random.Random(seed)
    squares = position.legal_squares()
    depth = min(3, position.plies_left)
    lines = [
        repair(tuple(rng.choice(squares) for _ in range(depth)), squares, rng) for _ in range(8)
    ]
    tree = Tree(position)
    for line in lines:
        assert len(set(line)) == len(line)
        tree.add(line)
    tree.evaluate()

    def value(prefix: tuple[int, ...]) -> int:
        # Negamax over the lines in the tree, computed with the core's rules.
        if len(prefix) == depth:
            replay = position
            for square in prefix:
                replay = replay.play(square)
            return replay.margin()
        followers = {line[len(prefix)] for line in lines if line[: len(prefix)] == prefix}
        return max(-value((*prefix, sq)) for sq in followers)

    assert tree.root.value == value(())
    principal = tree.principal_line()
    assert principal in lines and tree.survival(principal) == depth
    assert all(0 <= tree.survival(line) <= depth for line in lines)


def test_game_tree_bot_plays_the_root_child_negamax_prefers() -> None:
    position = Position.start(6, 6, 12).play("c3").play("d4")
    result = evolve_tree(
        position, GameTreeSettings(population=30, generations=10, depth=3), random.Random(4)
    )
    assert result.generations == 10
    best = max(result.tree.root.children.items(), key=lambda item: (-item[1].value, -item[0]))
    assert result.line[0] == best[0]
    assert result.value == -best[1].value
    reports: list[Thinking] = []
    move = make_bot("gatree:depth=3", seed=4).choose_move(
        position, Limit(time=None), reports.append
    )
    assert move in position.legal_moves() and reports[-1].pv[0] == move


def test_genetic_bot_plays_the_first_gene_of_its_best_chromosome() -> None:
    position = Position.start(6, 6, 12)
    reports: list[Thinking] = []
    bot = make_bot("genetic:generations=5", seed=2)
    move = bot.choose_move(position, Limit(time=None), reports.append)
    assert reports[-1].pv[0] == move and len(reports[-1].pv) == 4
