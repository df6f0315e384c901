"""The proof against the suite's brute-force oracle (tests/oracles.py) on small boards.

The oracle shares nothing with the engine but the rules core: every value, every only
move, every reply of a puzzle is recomputed by plain negamax, and a position the prover
turns down must be one where the oracle finds no single move keeping the best outcome.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.puzzles import Puzzle, Refutation
from adjacency.puzzles.prove import Rules, prove, verify
from oracles import move_values, play_into_budget

EVERY = Rules(min_plies=1, max_plies=64, min_moves=2, obvious_gap=99)
"""Rules that admit every position with two moves or more and never call a move obvious:
the proof alone decides."""
LEAVES = 100_000
"""The oracle's tree per drawn position (tests/oracles.py: a second at most)."""


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def oracle_only_move(
    position: Position, memo: dict[Position, int]
) -> tuple[str | None, dict[str, int]]:
    """The oracle's only move keeping the best outcome class (or ``None``) and the values."""
    values = move_values(position, memo)
    if len(values) < 2:
        return None, values
    best = max(sign(v) for v in values.values())
    keepers = [m for m, v in values.items() if sign(v) == best]
    return (keepers[0] if len(keepers) == 1 and best >= 0 else None), values


def oracle_after(root: Position, position: Position, memo: dict[Position, int]) -> int:
    """The oracle's value of ``position`` for ``root``'s side to move."""
    if position.is_over:
        return position.margin(root.turn)
    values = move_values(position, memo)
    best = max(values.values())
    return best if position.turn == root.turn else -best


def drawn(seed: int, shape: tuple[int, int, int]) -> Position:
    rows, cols, rounds = shape
    rng = random.Random(seed)
    start = Position.start(rows, cols, rounds, rng.choice(["x", "o"]))
    position = play_into_budget(start, rng, LEAVES)
    for _ in range(rng.randrange(3)):  # some shorter positions too
        if position.plies_left > 2:
            position = position.play(rng.choice(position.legal_squares()))
    return position


def greedy_gap(position: Position, move: str) -> int:
    """How many pieces ``move`` converts more than the best other move (its flips)."""
    counts = {m: len(position.flips(m)) for m in position.legal_moves()}
    mine = counts.pop(move)
    return mine - max(counts.values())


SHAPES = st.sampled_from([(4, 4, 3), (4, 4, 4), (4, 5, 4), (5, 4, 5), (5, 5, 4)])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), SHAPES)
def test_a_puzzle_is_exactly_what_brute_force_finds(seed: int, shape: tuple[int, int, int]) -> None:
    position = drawn(seed, shape)
    memo: dict[Position, int] = {}
    only, values = oracle_only_move(position, memo)
    puzzle = prove(position, "web", EVERY)
    if only is None:
        assert puzzle is None, f"{position.fen()}: no single move keeps the best outcome"
        return
    assert puzzle is not None, f"{position.fen()}: {only} alone keeps the best outcome"
    assert puzzle.best == only
    assert puzzle.value == values[only]
    assert len(puzzle.solution) % 2 == 1 and len(puzzle.refutations) <= 3
    here = position
    for step, refutations in enumerate(puzzle.refutations):
        move = puzzle.solution[2 * step]
        step_only, step_values = oracle_only_move(here, memo)
        assert move == step_only, f"step {step + 1} of {position.fen()}"
        assert step_values[move] == puzzle.value  # perfect play keeps the value
        assert {r.move: r.value for r in refutations} == {
            m: v for m, v in step_values.items() if m != move
        }
        for refutation in refutations:
            after = here.play(refutation.move)
            assert (refutation.reply is None) == after.is_over
            if refutation.reply is not None:
                held = oracle_after(here, after.play(refutation.reply), memo)
                assert held == refutation.value, f"{refutation} does not refute"
        if 2 * step + 1 < len(puzzle.solution):
            here = here.play(move).play(puzzle.solution[2 * step + 1])
            assert oracle_after(position, here, memo) == puzzle.value, "not a best reply"
    # The obvious filter: with the default gap the same position is turned down exactly
    # when its only move out-converts every other move by 2 or more.
    with_filter = prove(position, "web", Rules(min_plies=1, max_plies=64, min_moves=2))
    assert (with_filter is None) == (greedy_gap(position, only) >= 2)


def test_the_drawn_positions_hold_puzzles_of_several_steps() -> None:
    """The differential above is not vacuous: the shapes it draws give puzzles, some of
    them with a line of more than one solver move."""
    found = [prove(drawn(seed, (4, 5, 4)), "web", EVERY) for seed in range(100)]
    puzzles = [p for p in found if p is not None]
    assert len(puzzles) >= 5
    assert any(len(p.solution) > 1 for p in puzzles)


def test_verify_accepts_a_proof_and_names_what_is_wrong_in_a_tampered_one() -> None:
    puzzle = next(
        p for p in (prove(drawn(seed, (4, 5, 4)), "web", EVERY) for seed in range(60)) if p
    )
    assert verify(puzzle) is None
    first = puzzle.refutations[0]
    wrong_value = Refutation(first[0].move, first[0].value + 2, first[0].reply)
    tampered = [
        Puzzle(**{**puzzle.__dict__, "value": puzzle.value + 2}),
        Puzzle(
            **{
                **puzzle.__dict__,
                "refutations": ((wrong_value, *first[1:]), *puzzle.refutations[1:]),
            }
        ),
        Puzzle(**{**puzzle.__dict__, "refutations": (first[1:], *puzzle.refutations[1:])}),
        Puzzle(**{**puzzle.__dict__, "solution": (first[0].move, *puzzle.solution[1:])}),
    ]
    for bad in tampered:
        problem = verify(bad)
        assert problem is not None and "\n" not in problem
