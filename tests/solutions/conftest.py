"""An independent oracle for the solved-game tests: plain negamax over the core's Position.

No alpha-beta, no table, no move ordering, no symmetry, no shortcut for the last
plies: every move sequence to the end is played out with ``Position.play`` and
scored by ``Position.margin``. It shares nothing with the engine but the rules
core, so a bug in the solver, the split root, the symmetry pruning or the book
cannot hide behind it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjacency.core import Position


def negamax(position: Position) -> int:
    """The final margin under perfect play for the side to move."""
    if position.is_over:
        return position.margin()
    return max(-negamax(position.play(square)) for square in position.legal_squares())


def move_values(position: Position) -> dict[str, int]:
    """Each legal move's value for the side to move (negamax of the child, negated)."""
    return {
        position.board.name(square): -negamax(position.play(square))
        for square in position.legal_squares()
    }


@pytest.fixture
def brute() -> Callable[[Position], int]:
    return negamax


@pytest.fixture
def brute_moves() -> Callable[[Position], dict[str, int]]:
    return move_values
