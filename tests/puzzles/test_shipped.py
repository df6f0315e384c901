"""The shipped puzzle set: a thousand puzzles or more, well formed, and a random sample
of them proved again by the solver (a new sample every run; its seed is in the message)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from adjacency.cli import main
from adjacency.core import Position
from adjacency.puzzles import THEMES, load_shipped, puzzle_id
from adjacency.puzzles.prove import verify

SAMPLE = 8
"""Puzzles re-proved per run: up to 14 plies left, well under a second each here."""


def test_the_shipped_set_holds_a_thousand_distinct_puzzles_sorted_by_id() -> None:
    puzzles = load_shipped()
    assert len(puzzles) >= 1000
    ids = [p.id for p in puzzles]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    for puzzle in puzzles:
        position = Position.from_fen(puzzle.position)
        assert puzzle.id == puzzle_id(position.fen())
        assert 8 <= puzzle.plies_left <= 16 and len(position.legal_moves()) >= 4
        assert puzzle.value >= 0 and set(puzzle.themes) <= set(THEMES)
        assert ("only-win" in puzzle.themes) == (puzzle.value > 0)
        assert puzzle.source.startswith(("league", "arena", "web", "data:"))
        assert 600 <= puzzle.rating <= 2400
        # every other move is refuted: worse in outcome class than the solution's
        for step in puzzle.refutations:
            assert all((r.value > 0) - (r.value < 0) < (puzzle.value > 0) for r in step)
    # the themes are not all one name
    counts = Counter(name for p in puzzles for name in p.themes)
    assert len(counts) >= 4


def test_a_random_sample_of_the_shipped_set_is_proved_again() -> None:
    seed = random.SystemRandom().randrange(2**32)
    puzzles = random.Random(seed).sample(load_shipped(), SAMPLE)
    for puzzle in puzzles:
        assert verify(puzzle) is None, f"sample seed {seed}: {puzzle.id} {verify(puzzle)}"


def test_show_reads_the_shipped_set_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = load_shipped()[0]
    assert main(["puzzles", "show", puzzle.id]) == 0
    shown = capsys.readouterr().out
    assert puzzle.position in shown and f"solution: {' '.join(puzzle.solution)}" in shown
