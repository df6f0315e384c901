"""The solved-game tests' oracle: the suite's brute force (:mod:`oracles`) as fixtures.

It shares nothing with the engine but the rules core, so a bug in the solver, the split
root, the symmetry pruning or the book cannot hide behind it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjacency.core import Position
from oracles import exact_value, move_values


@pytest.fixture
def brute() -> Callable[[Position], int]:
    return exact_value


@pytest.fixture
def brute_moves() -> Callable[[Position], dict[str, int]]:
    return move_values
