"""Puzzles proven by the exact solver: the model, the shipped set, the proof and the build.

Importing this package loads only the model (:mod:`adjacency.puzzles.model`): the
browser page and the league can serve puzzles without the compiled engine. The proof
(:mod:`adjacency.puzzles.prove`) and the build job (:mod:`adjacency.puzzles.build`)
import the engine and the executors when they are imported. docs/puzzles.md is the
reference.
"""

from __future__ import annotations

from .model import (
    PHASES,
    THEMES,
    Phase,
    Puzzle,
    PuzzleFileError,
    Refutation,
    load_puzzles,
    load_shipped,
    phase_of,
    puzzle_id,
)

__all__ = [
    "PHASES",
    "THEMES",
    "Phase",
    "Puzzle",
    "PuzzleFileError",
    "Refutation",
    "load_puzzles",
    "load_shipped",
    "phase_of",
    "puzzle_id",
]
