"""Static evaluation of positions that are not final, in search units (1/16 piece).

``w`` is an ``int64`` weight array::

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

SCALE = 16
"""Search units per piece."""

MATERIAL = 0
POSITIONAL = 1

DEFAULT_WEIGHTS = (POSITIONAL, 3, 6, 8)
"""mode, exposure, tempo, parity (see docs/engine.md for how they were chosen)."""


def weights(mode: str = "positional", values: tuple[int, ...] = DEFAULT_WEIGHTS) -> np.ndarray:
    """The weight array for ``mode`` ``"material"`` or ``"positional"``."""
    w = np.array(values, dtype=np.int64)
    w[0] = MATERIAL if mode == "material" else POSITIONAL
    return w


@kernel
def evaluate(me: U64, opp: U64, plies: int, geo: Any, w: Any) -> int:
    """The mover's score of a position (``me`` to move, ``plies`` left)."""
    diff = popcount(me) - popcount(opp)
    if plies == 0 or w[0] == MATERIAL:
        return diff * SCALE
    empty = geo[0] & ~(me | opp)
    front = spread(empty, geo)
    exposure = popcount(opp & front) - popcount(me & front)
    gain = 1 + 2 * max_gain(opp, empty, geo)
    parity = 1 if plies & 1 else -1
    return diff * SCALE + w[1] * exposure + w[2] * gain + w[3] * parity  # type: ignore[no-any-return]
