"""Small unfinished positions for the lab's property tests (searched exhaustively by oracles)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from adjacency import Position
from adjacency.core import COLORS


@st.composite
def small_positions(draw: st.DrawFn, max_empty: int = 10) -> Position:
    """A position with moves left on a board of 4x4 to 4x5 with at most ``max_empty`` empty
    squares, reached by random play (so an exhaustive oracle stays within a second)."""
    rows, cols = 4, draw(st.integers(4, 5))
    rounds = (rows * cols - 8) // 2
    position = Position.start(rows, cols, rounds, draw(st.sampled_from(COLORS)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    needed = max(0, position.empty.bit_count() - max_empty)
    for _ in range(draw(st.integers(needed, position.plies_left - 1))):
        position = position.play(rng.choice(position.legal_moves()))
    return position
