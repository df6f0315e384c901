"""Hypothesis strategies for boards, settings and random games (shared by tests)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from adjacency import Position
from adjacency.core import COLORS, Color, board


@st.composite
def settings(draw: st.DrawFn) -> tuple[int, int, int, Color]:
    """(rows, cols, rounds, first) over every legal board size and round count."""
    rows = draw(st.integers(4, 8))
    cols = draw(st.integers(4, 8))
    rounds = draw(st.integers(1, board(rows, cols).max_rounds()))
    first = draw(st.sampled_from(COLORS))
    return rows, cols, rounds, first


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position reached by random play from a random start (possibly finished)."""
    rows, cols, rounds, first = draw(settings())
    pos = Position.start(rows, cols, rounds, first)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 2 * rounds))):
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos
