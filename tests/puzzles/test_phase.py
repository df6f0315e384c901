"""The phase of a puzzle (``Puzzle.phase``, ``phase_of``): the bounds docs/puzzles.md
states (endgame up to 14 plies left, middle game 15 to 28, opening more), for every
count of plies left an 8x8 game can have, and the shipped builds' puzzles each of the
phase its build was made for."""

from __future__ import annotations

from adjacency.puzzles import PHASES, load_shipped, phase_of

STATED = {"endgame": range(1, 15), "middlegame": range(15, 29), "opening": range(29, 65)}
"""The plies left of each phase, as docs/puzzles.md states them."""


def test_each_count_of_plies_left_has_the_stated_phase() -> None:
    assert set(PHASES) == set(STATED)
    for plies in range(1, 65):
        assert plies in STATED[phase_of(plies)], plies


def test_the_shipped_puzzles_are_of_the_endgame_and_the_middle_game() -> None:
    for puzzle in load_shipped():
        assert puzzle.phase == phase_of(puzzle.plies_left)
        assert puzzle.phase == ("endgame" if puzzle.plies_left <= 14 else "middlegame")
