"""The pattern evaluation's patterns: every row and column, weighted per line class.

Edax values an Othello position by a weight per configuration of each of a set of
board patterns (lines, corner regions), one table per game phase, fitted by least
squares. Here a move changes only the square played and its four orthogonal
neighbours, and the row and the column through a square hold all four of them, so
the patterns are the 8 rows and 8 columns of the 8x8 board (the pattern evaluation
is 8x8 only, like the learned one): a line's configuration says which of its pieces
are exposed to an empty square along it, what its empty squares would win, and
where the line's pieces are fixed for good.

The 16 lines fall into four classes under the board's eight symmetries: the edge
lines, the second, the third and the fourth lines from an edge (4 lines each). A
line's configuration is read along the line, ``index = sum(state(s_j) * 3**j)`` over
its squares ``s_j`` (rows from file a, columns from rank 1), with state 0 empty, 1 the
mover's, 2 the opponent's; 3^8 = 6561 configurations per class. A symmetry maps a
line onto a line of its class read forwards or backwards, so a configuration and its
reverse share one weight (:data:`CANON`: 3321 weights per class), and the score is
the same for a position and its mirror images by construction.

Crosses (a square and its four neighbours, 64 instances in ten classes of 27 to
243 configurations) were tried first: on the same held-out positions they predicted
no better than the lines and their evaluation took ~8x as long, 64 instances of five
squares read one by one against 16 table look-ups of a whole line (docs/engine.md,
Pattern evaluation).

The weight of line ``i`` is ``S[at + OFFSET[i] + index]``; the phase's table
(``S[PAT + PAT_STRIDE * phase:]``, :mod:`.layout`) holds the :data:`N_CONFIGS`
configuration weights and then one weight per feature of :mod:`.features`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .bits import U64, kernel
from .features import N_FEATURES
from .layout import PAT_STRIDE

PATTERN_SET = "lines"
"""The name of this pattern set in weights files."""
LINE = 8
CONFIGS = 3**LINE
"""Configurations of one line."""

TERNARY = np.array([sum(((b >> j) & 1) * 3**j for j in range(LINE)) for b in range(256)])
"""``TERNARY[b]``: the base-3 number whose digit ``j`` is bit ``j`` of the byte ``b``."""


def _reverse(index: int) -> int:
    """The configuration read the other way along the line."""
    return sum(((index // 3**j) % 3) * 3 ** (LINE - 1 - j) for j in range(LINE))


def _build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each line's class and first configuration, and the canonical column of every
    configuration (the smaller of it and its reverse, numbered in order)."""
    classes = np.array([min(k, LINE - 1 - k) for k in range(LINE)] * 2, dtype=np.int64)
    offsets = classes * CONFIGS
    canonical = np.array([min(x, _reverse(x)) for x in range(CONFIGS)])
    kept = np.unique(canonical)
    column = np.zeros(CONFIGS, dtype=np.int64)
    column[kept] = np.arange(len(kept))
    per_class = column[canonical]
    canon = np.concatenate([per_class + k * len(kept) for k in range(LINE // 2)])
    return classes, offsets, canon


CLASS, OFFSET, CANON = _build()
"""``CLASS[i]``, ``OFFSET[i]``: line ``i``'s class (0 edge .. 3 fourth line) and first
configuration (lines 0-7 are the rows from rank 1, 8-15 the columns from file a);
``CANON[x]``: the fitted weight (column) that configuration ``x`` uses."""
N_INSTANCES = len(CLASS)
N_CONFIGS = len(CANON)
"""Configurations per phase (all classes)."""
N_CANON = int(CANON.max()) + 1
"""Distinct weights per phase once a configuration and its reverse share one."""
PARITY = N_CONFIGS + N_FEATURES
"""Where a phase's table holds the parity weight: added when the mover makes the game's
last move (odd plies left), subtracted otherwise. A phase spans plies left of both
parities, and measured against exact values every evaluation without this term was off
by 2-4 pieces one way at even plies left and the other way at odd ones (the last
mover's edge; docs/engine.md): a weight per phase for the bias feature cannot follow
that, and fitting without it spent the patterns' weights on it."""
N_WEIGHTS = N_CANON + N_FEATURES + 1
"""Fitted weights per phase: the canonical configurations, the features, the parity."""
if PARITY + 1 > PAT_STRIDE:
    raise RuntimeError(f"{N_CONFIGS} + {N_FEATURES} + 1 weights do not fit layout.PAT_STRIDE")

K1 = np.uint64(0x5500550055005500)
K2 = np.uint64(0x3333000033330000)
K4 = np.uint64(0x0F0F0F0F00000000)


def expand(fitted: np.ndarray) -> np.ndarray:
    """The kernel's table (rows of ``PAT_STRIDE``) from fitted rows of :data:`N_WEIGHTS`
    (canonical configuration weights, then the feature weights and the parity weight),
    or of one fewer (a fit without the parity term: its weight is 0)."""
    table = np.zeros((len(fitted), PAT_STRIDE), dtype=np.int64)
    table[:, :N_CONFIGS] = fitted[:, CANON]
    table[:, N_CONFIGS : N_CONFIGS + fitted.shape[1] - N_CANON] = fitted[:, N_CANON:]
    return table


@kernel
def transpose(b: U64) -> U64:
    """The 8x8 bitboard reflected in the a1-h8 diagonal: rank ``r`` file ``f`` goes to
    rank ``f`` file ``r`` (three delta swaps), so columns become rows."""
    t = K4 & (b ^ (b << np.uint64(28)))
    b ^= t ^ (t >> np.uint64(28))
    t = K2 & (b ^ (b << np.uint64(14)))
    b ^= t ^ (t >> np.uint64(14))
    t = K1 & (b ^ (b << np.uint64(7)))
    b ^= t ^ (t >> np.uint64(7))
    return b


@kernel
def _line(me: U64, opp: U64, k: int) -> int:
    """The configuration of rank ``k`` of (``me``, ``opp``), read from file a."""
    shift = np.uint64(8 * k)
    byte = np.uint64(255)
    return TERNARY[(me >> shift) & byte] + 2 * TERNARY[(opp >> shift) & byte]  # type: ignore[no-any-return]


@kernel
def indices(me: U64, opp: U64, out: Any) -> None:
    """Write each line's configuration, ``OFFSET[i] + index``, to ``out[i]``."""
    me_t, opp_t = transpose(me), transpose(opp)
    for k in range(LINE):
        out[k] = OFFSET[k] + _line(me, opp, k)
        out[LINE + k] = OFFSET[LINE + k] + _line(me_t, opp_t, k)


@kernel
def pattern_sum(me: U64, opp: U64, S: Any, at: int) -> int:
    """The sum over the 16 lines of ``S[at + OFFSET[i] + index]`` (``me`` to move)."""
    me_t, opp_t = transpose(me), transpose(opp)
    total = 0
    for k in range(LINE):
        total += S[at + OFFSET[k] + _line(me, opp, k)]
        total += S[at + OFFSET[LINE + k] + _line(me_t, opp_t, k)]
    return total


def configurations(me: int, opp: int) -> np.ndarray:
    """The :data:`N_INSTANCES` configurations of one position (for training and tests)."""
    out = np.zeros(N_INSTANCES, dtype=np.int64)
    indices(np.uint64(me), np.uint64(opp), out)
    return out
