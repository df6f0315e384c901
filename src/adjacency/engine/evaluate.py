"""Static evaluation of positions that are not final, in search units (1/16 piece).

The weights live at ``S[W:]`` (:mod:`adjacency.engine.layout`)::

    w[0] mode      0: material only (the plain minimax reference), 1: positional
    w[1] exposure  per piece of the opponent's minus the mover's that touches an empty square
    w[2] tempo     per piece the mover wins with its best immediate move (1 + 2 * flips)
    w[3] parity    +1 if the mover makes the last move of the game (plies left odd), else -1

Final positions (no plies left) are always scored exactly: ``16 * margin``.
docs/engine.md explains each term and how its weight was chosen.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import U64, kernel, max_gain, popcount, spread
from .layout import GEO, W

SCALE = 16
"""Search units per piece."""

MATERIAL = 0
POSITIONAL = 1

DEFAULT_WEIGHTS = (POSITIONAL, 16, 6, 0)
"""mode, exposure, tempo, parity (see docs/engine.md for how they were chosen)."""


def weights(mode: str = "positional", values: tuple[int, ...] = DEFAULT_WEIGHTS) -> np.ndarray:
    """The weight array for ``mode`` ``"material"`` or ``"positional"``."""
    w = np.array(values, dtype=np.int64)
    w[0] = MATERIAL if mode == "material" else POSITIONAL
    return w


@kernel
def evaluate(me: U64, opp: U64, plies: int, U: Any, S: Any) -> int:
    """The mover's score of a position (``me`` to move, ``plies`` left)."""
    diff = popcount(me) - popcount(opp)
    if plies == 0 or S[W] == MATERIAL:
        return diff * SCALE
    empty = U[GEO] & ~(me | opp)
    front = spread(empty, U)
    exposure = popcount(opp & front) - popcount(me & front)
    gain = 1 + 2 * max_gain(opp, empty, U)
    parity = 1 if plies & 1 else -1
    return diff * SCALE + S[W + 1] * exposure + S[W + 2] * gain + S[W + 3] * parity  # type: ignore[no-any-return]
