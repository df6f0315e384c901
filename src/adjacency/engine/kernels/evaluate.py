"""Static evaluation of positions that are not final, in search units (1/16 piece).

The weights live at ``S[W:]`` (:mod:`adjacency.engine.kernels.layout`)::

    S[W + W_MODE]      0: material only (the plain minimax reference), 1: positional (the
                       hand-tuned terms below), 2: learned (weights per feature of
                       :mod:`adjacency.engine.kernels.features` per plies left at ``S[PW:]``),
                       3: pattern (weights per line configuration and per feature per
                       phase at ``S[PAT:]``, :mod:`adjacency.engine.kernels.patterns`)
    S[W + W_EXPOSURE]  per piece of the opponent's minus the mover's that touches an empty square
    S[W + W_TEMPO]     per piece the mover wins with its best immediate move (1 + 2 * flips)
    S[W + W_PARITY]    +1 if the mover makes the last move of the game (plies left odd), else -1
    S[W + W_HORIZON]   with fewer plies left than this, exposure counts in proportion to the
                       plies left (0: never tapered)
    S[W + W_LEARNED_SPARE]  in learned and pattern modes, positions whose game will end with
                       at least this many squares empty use the hand-tuned terms (0: never)

Final positions (no plies left) are always scored exactly: ``16 * margin``; so are
positions with one ply left in positional mode (the mover's best move ends the game:
``16 * (margin + 1 + 2 * best flips)``), which removes the horizon error at the
game's last ply (the unanswerable last conversion, decisive in short games).
docs/engine.md explains each term and how its weight was chosen.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import U64, kernel, max_gain, popcount, spread
from .features import N_FEATURES, features
from .layout import (
    CFG,
    CFG_SOLVE_TEMPO,
    FEAT,
    GEO,
    GEO_FULL,
    LEARNED,
    MATERIAL,
    PAT,
    PAT_PHASE_WIDTH,
    PAT_STRIDE,
    PATTERN,
    POSITIONAL,
    PW,
    PW_STRIDE,
    SCALE,
    W_EXPOSURE,
    W_HORIZON,
    W_LEARNED_SPARE,
    W_MODE,
    W_PARITY,
    W_TEMPO,
    W,
)
from .patterns import N_CONFIGS, PARITY, pattern_sum

LEARNED_SHIFT = 4
"""Learned and pattern weights are in 1/256 piece: their sum is shifted right by this to
search units."""

DEFAULT_WEIGHTS = (POSITIONAL, 16, 6, 0, 16)
"""mode, exposure, tempo, parity, horizon (see docs/engine.md for how they were chosen)."""


def weights(mode: str = "positional", values: tuple[int, ...] = DEFAULT_WEIGHTS) -> np.ndarray:
    """The weight array ``values``, switched to material only if ``mode`` is ``"material"``."""
    w = np.array(values, dtype=np.int64)
    if mode == "material":
        w[0] = MATERIAL
    return w


@kernel
def evaluate(me: U64, opp: U64, plies: int, U: Any, S: Any) -> int:
    """The mover's score of a position (``me`` to move, ``plies`` left): the learned
    evaluation in learned mode (from 2 plies left), else :func:`score` with the taper.

    The learned weights are per plies left, and 14 plies left means a nearly full
    board in a 28-round game but a nearly empty one in an 8-round game; the training
    games mix both, and in short games the learned evaluation lost to the hand-tuned
    one (docs/engine.md). So with ``W_LEARNED_SPARE = k > 0``, positions whose game
    ends with ``k`` or more squares still empty use the hand-tuned score. The pattern
    evaluation (pattern mode) is used the same way."""
    mode = S[W + W_MODE]
    if mode >= LEARNED and plies >= 2:
        spare = S[W + W_LEARNED_SPARE]
        if spare == 0 or popcount(U[GEO + GEO_FULL] & ~(me | opp)) - plies < spare:
            if mode == PATTERN:
                return pattern(me, opp, plies, U, S)
            return learned(me, opp, plies, U, S)
    return score(me, opp, plies, True, U, S)


@kernel
def score(me: U64, opp: U64, plies: int, taper: bool, U: Any, S: Any) -> int:
    """The hand-tuned evaluation, with the exposure taper of ``W_HORIZON`` only if ``taper``.

    Move ordering uses it in every mode: ordering by the learned evaluation instead
    cost the search ~40% more time to the same depth and (with the first, 27-feature
    version) the solver 2x (docs/engine.md); in learned mode ``S[W:]`` holds v1's weights.

    The exact solver orders its moves by the untapered score: there the taper made
    the bench suite's 16- and 18-empty solves take 58% more nodes.
    """
    diff = popcount(me) - popcount(opp)
    if plies == 0 or S[W + W_MODE] == MATERIAL:
        return diff * SCALE
    empty = U[GEO + GEO_FULL] & ~(me | opp)
    gain = 1 + 2 * max_gain(opp, empty, U)
    if plies == 1:
        return (diff + gain) * SCALE
    front = spread(empty, U)
    exposure = popcount(opp & front) - popcount(me & front)
    parity = 1 if plies & 1 else -1
    # An exposed piece is a liability only while the opponent has moves left to take it:
    # near the end of the game (short games) exposure counts in proportion to the plies left.
    exposure_weight = S[W + W_EXPOSURE]
    horizon = S[W + W_HORIZON]
    if taper and plies < horizon:
        exposure_weight = exposure_weight * plies // horizon
    # Untapered is the solver's ordering, which has its own tempo weight (layout.py).
    tempo = S[W + W_TEMPO] if taper else S[CFG + CFG_SOLVE_TEMPO]
    return (  # type: ignore[no-any-return]
        diff * SCALE + exposure_weight * exposure + tempo * gain + S[W + W_PARITY] * parity
    )


@kernel
def learned(me: U64, opp: U64, plies: int, U: Any, S: Any) -> int:
    """The learned evaluation: features times the weights of this many plies left."""
    features(me, opp, U, S, FEAT)
    row = PW + PW_STRIDE * plies
    total = 0
    for k in range(N_FEATURES):
        total += S[FEAT + k] * S[row + k]
    return total >> LEARNED_SHIFT  # type: ignore[no-any-return]


@kernel
def pattern(me: U64, opp: U64, plies: int, U: Any, S: Any) -> int:
    """The pattern evaluation: the weights of the position's line configurations plus the
    features times their weights plus or minus the parity weight (plus when the mover
    makes the game's last move), all of the phase ``plies // PAT_PHASE_WIDTH``."""
    at = PAT + PAT_STRIDE * (plies // PAT_PHASE_WIDTH)
    total = pattern_sum(me, opp, S, at)
    features(me, opp, U, S, FEAT)
    for k in range(N_FEATURES):
        total += S[FEAT + k] * S[at + N_CONFIGS + k]
    total += S[at + PARITY] if plies & 1 else -S[at + PARITY]
    return total >> LEARNED_SHIFT  # type: ignore[no-any-return]
