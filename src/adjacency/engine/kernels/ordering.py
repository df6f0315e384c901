"""Steps shared by the search and the solver: move keys, lazy selection, hashing, control.

Both kernels build a ply's move list in ``S[MOVES + 64 * ply:]`` with one ordering
key per move in ``S[SCORES + 64 * ply:]`` (bigger first), pick moves lazily with
:func:`bring_best_forward`, hash children incrementally with :func:`child_hash`
and poll :func:`should_stop` at every interior node. A key is a sum of fields
that never overlap, so each term decides only among moves that tie on the terms
above it::

    TT_MOVE_KEY          the table's move (or the root's previous best)
    static << STATIC_SHIFT   the child's evaluation + EVAL_BIAS, or its flips
    KILLER_KEYS[0 or 1]  the ply's first or second killer move
    history              the history counter, capped at HISTORY_CAP
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import ONE, U64, ZERO, kernel, lowest
from .evaluate import score
from .layout import (
    CFG,
    CFG_NODES,
    CTL,
    CTL_ABORT,
    MOVES,
    ROOT,
    ROOT_MOVE,
    ROOT_VALUE,
    SCORES,
    STAT_NODES,
    STATS,
    Z_O,
    Z_SIDE,
    Z_X,
    ZOB,
)

TT_MOVE_KEY = 1 << 40
STATIC_SHIFT = 24
EVAL_BIAS = 8192
"""Added to a child's evaluation (search units, |value| < 8192) to make its key positive."""
KILLER_FIRST_KEY = 1 << 22
KILLER_SECOND_KEY = 1 << 21
HISTORY_CAP = (1 << 20) - 1


@kernel
def bring_best_forward(base: int, i: int, n: int, S: Any) -> None:
    """Selection-sort step: swap the best-scored of moves ``i..n-1`` of a ply's list to ``i``.

    Sorting lazily pays because a cutoff usually comes from one of the first moves.
    Only ``S[SCORES + base + i]`` is left stale: it is never read again.
    """
    j = i
    top = S[SCORES + base + i]
    for k in range(i + 1, n):
        if S[SCORES + base + k] > top:
            top = S[SCORES + base + k]
            j = k
    if j != i:
        t = S[MOVES + base + i]
        S[MOVES + base + i] = S[MOVES + base + j]
        S[MOVES + base + j] = t
        S[SCORES + base + j] = S[SCORES + base + i]


@kernel
def child_score(me: U64, opp: U64, sq: int, flips: U64, plies: int, U: Any, S: Any) -> int:
    """The mover's hand-tuned score (:func:`~adjacency.engine.kernels.evaluate.score`, tapered) of
    the child after playing ``sq`` converting ``flips``: the search's ordering key in
    every evaluation mode (the caller has the flips at hand already).

    With the learned evaluation, ordering by it instead of this score took about as
    many nodes to the same depth and ~40% more time (docs/engine.md).
    """
    child_opp = me | (ONE << np.uint64(sq)) | flips
    return -score(opp ^ flips, child_opp, plies - 1, True, U, S)  # type: ignore[no-any-return]


@kernel
def child_hash(h: U64, sq: int, flips: U64, color: int, U: Any) -> U64:
    """The Zobrist hash after ``color`` (0 X, 1 O) plays ``sq`` converting ``flips``."""
    nh = h ^ U[ZOB + Z_X + color * Z_O + sq] ^ U[ZOB + Z_SIDE]
    f = flips
    while f != ZERO:
        b = lowest(f)
        nh ^= U[ZOB + Z_X + b] ^ U[ZOB + Z_O + b]
        f &= f - ONE
    return nh


@kernel
def should_stop(S: Any) -> bool:
    """True once the abort flag is set; sets it when the node limit is reached."""
    if S[CTL + CTL_ABORT] != 0:
        return True
    limit = S[CFG + CFG_NODES]
    if limit > 0 and S[STATS + STAT_NODES] >= limit:
        S[CTL + CTL_ABORT] = 1
        return True
    return False


@kernel
def record_root(value: int, move: int, S: Any) -> None:
    """Remember the root's best value and move so far (read by the driver on abort)."""
    S[ROOT + ROOT_VALUE] = value
    S[ROOT + ROOT_MOVE] = move
