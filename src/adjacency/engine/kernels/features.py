"""Local-configuration features of a position, for the learned evaluation.

In this game a move changes only the square played and its four orthogonal
neighbours, so a position's prospects are a matter of local configurations:
which pieces can still be taken, and what the best empty square would win.
Logistello and Edax value Othello positions by weights per pattern of squares
per game phase; here the local configuration of a piece is whether it touches
an empty square, and the weights are fitted per number of plies left
(:mod:`adjacency.training.fit`). The features, from the mover's view, all
bit-parallel (no loop over squares):

* ``MINE_OPEN``, ``THEIRS_OPEN``: the mover's / the opponent's pieces that touch an
  empty square (they can still be converted);
* ``MINE_FIXED``, ``THEIRS_FIXED``: pieces with no empty neighbour (fixed for good;
  the four counts together give the material);
* ``GAIN``, ``THREAT``: the most pieces the mover / the opponent could convert with
  one move;
* ``BIAS``: constant 1 (the side to move's edge with this many plies left).

A richer set, 27 counts of neighbourhood classes (empty squares by how many of
each side's pieces they touch, pieces by how many empty squares they touch),
predicted the training labels only slightly better (held-out RMS error 0.42
against 0.45 pieces with 21+ plies left, 0.62 against 0.65 with 9-20) and made
the search 1.5x slower per node, so these seven are used (docs/engine.md).
:mod:`adjacency.engine.kernels.evaluate` takes the dot product with the weights of the
position's phase.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import U64, kernel, max_gain, popcount, spread
from .layout import GEO, GEO_FULL, PW_STRIDE

MINE_OPEN = 0
THEIRS_OPEN = 1
MINE_FIXED = 2
THEIRS_FIXED = 3
GAIN = 4
THREAT = 5
BIAS = 6
N_FEATURES = 7
if N_FEATURES > PW_STRIDE:
    raise RuntimeError(f"{N_FEATURES} features do not fit layout.PW_STRIDE = {PW_STRIDE}")

NAMES = ("mine_open", "theirs_open", "mine_fixed", "theirs_fixed", "gain", "threat", "bias")


@kernel
def features(me: U64, opp: U64, U: Any, F: Any, at: int) -> None:
    """Write the :data:`N_FEATURES` counts of (``me`` to move) to ``F[at:]``."""
    empty = U[GEO + GEO_FULL] & ~(me | opp)
    front = spread(empty, U)
    F[at + MINE_OPEN] = popcount(me & front)
    F[at + THEIRS_OPEN] = popcount(opp & front)
    F[at + MINE_FIXED] = popcount(me & ~front)
    F[at + THEIRS_FIXED] = popcount(opp & ~front)
    F[at + GAIN] = max_gain(opp, empty, U)
    F[at + THREAT] = max_gain(me, empty, U)
    F[at + BIAS] = 1


def feature_vector(me: int, opp: int, U: np.ndarray) -> np.ndarray:
    """The features of one position as a numpy vector (for training and tests)."""
    F = np.zeros(N_FEATURES, dtype=np.int64)
    features(np.uint64(me), np.uint64(opp), U, F, 0)
    return F
