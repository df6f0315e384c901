"""The pattern evaluation's patterns: every square's cross, weighted per square class.

Edax values an Othello position by a weight per configuration of each of a set of
board patterns (lines, corner regions), one table per game phase, fitted by least
squares. Here a move changes only the square played and its four orthogonal
neighbours, so the natural pattern is that *cross*: a square and its neighbours.
Its configuration says everything local about the square: whether a piece there
can still be converted (it touches an empty square) and by how many of the
opponent's neighbours it is exposed, or what an empty square would win for
either side. Lines (rows and columns, 3^8 configurations each) hold a square's
neighbours too, but only two at a time per line, and need far more data: four
line classes of 3^8 configurations per phase against the few thousand positions
per phase that the training can label (docs/engine.md, Pattern evaluation).

The 64 crosses of the 8x8 board (the pattern evaluation is 8x8 only, like the
learned one) fall into the ten classes of squares under the board's eight
symmetries: one corner class (a cross of 3 squares, 27 configurations), three
edge classes (4 squares, 81) and six interior classes (5 squares, 243); 1728
configurations per phase in all. Every instance of a class lists its squares as
the image of the class representative's list under a board symmetry, and the
configurations that a symmetry fixing the instance's centre permutes into each
other share one weight (:data:`CANON`), so the score is the same for a position
and its mirror images by construction.

A configuration's index is ``sum(state(s_j) * 3**j)`` over the instance's squares
``s_j`` (centre first), with state 0 empty, 1 the mover's, 2 the opponent's; the
weight of instance ``i`` is ``S[at + OFFSET[i] + index]``. The phase's table
(``S[PAT + PAT_STRIDE * phase:]``, :mod:`.layout`) holds the :data:`N_CONFIGS`
configuration weights and then one weight per feature of :mod:`.features`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import board as make_board
from .bits import U64, kernel
from .features import N_FEATURES
from .layout import PAT_STRIDE
from .symmetry import automorphisms

PATTERN_BOARD = (8, 8)
"""The board the pattern tables describe (rows, columns)."""
PATTERN_SET = "crosses"
"""The name of this pattern set in weights files."""

DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""The representative's neighbours are listed in this order (up, right, down, left)."""


def _build() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Instance squares, lengths, offsets and classes, the class of each square and the
    canonical column of every configuration (see the module docstring)."""
    rows, cols = PATTERN_BOARD
    geometry = make_board(rows, cols)
    maps = automorphisms(geometry)
    size = rows * cols
    squares = np.full((size, 5), -1, dtype=np.int64)
    lengths = np.zeros(size, dtype=np.int64)
    offsets = np.zeros(size, dtype=np.int64)
    classes = np.full(size, -1, dtype=np.int64)
    canon: list[int] = []
    for rep in range(size):
        if classes[rep] >= 0:
            continue
        r, c = divmod(rep, cols)
        base = [rep] + [
            (r + dr) * cols + c + dc
            for dr, dc in DIRECTIONS
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        ]
        k = len(base)
        offset = len(canon)
        klass = int(classes.max()) + 1
        perms: list[list[int]] = []
        for transform in maps:
            image = [transform.square(s) for s in base]
            centre = image[0]
            if classes[centre] < 0:
                classes[centre] = klass
                squares[centre, :k] = image
                lengths[centre] = k
                offsets[centre] = offset
            if centre == rep:  # a symmetry fixing the representative permutes its cross
                perms.append([base.index(s) for s in image])
        for index in range(3**k):
            digits = [(index // 3**j) % 3 for j in range(k)]
            images = []
            for perm in perms:
                # The digit at position j moves to position perm[j].
                moved = [0] * k
                for j in range(k):
                    moved[perm[j]] = digits[j]
                images.append(sum(d * 3**j for j, d in enumerate(moved)))
            canon.append(offset + min(images))
    # Number the canonical configurations 0..N_CANON-1 in order of first appearance.
    numbers: dict[int, int] = {}
    columns = np.array([numbers.setdefault(x, len(numbers)) for x in canon], dtype=np.int64)
    return squares, lengths, offsets, classes, columns


SQUARES, LENGTHS, OFFSET, CLASS, CANON = _build()
"""``SQUARES[i, :LENGTHS[i]]``: the squares of the cross centred on square ``i`` (centre
first); ``OFFSET[i]``: the first configuration of its class; ``CLASS[i]``: its class
(0-9); ``CANON[x]``: the fitted weight (column) that configuration ``x`` uses."""
N_INSTANCES = len(SQUARES)
N_CLASSES = int(CLASS.max()) + 1
N_CONFIGS = len(CANON)
"""Configurations per phase (all classes)."""
N_CANON = int(CANON.max()) + 1
"""Distinct weights per phase once symmetric configurations share one."""
N_WEIGHTS = N_CANON + N_FEATURES
"""Fitted weights per phase: the canonical configurations, then the features."""
if N_CONFIGS + N_FEATURES > PAT_STRIDE:
    raise RuntimeError(f"{N_CONFIGS} + {N_FEATURES} weights do not fit layout.PAT_STRIDE")


def expand(fitted: np.ndarray) -> np.ndarray:
    """The kernel's table (rows of ``PAT_STRIDE``) from fitted rows of :data:`N_WEIGHTS`
    (canonical configuration weights, then feature weights)."""
    table = np.zeros((len(fitted), PAT_STRIDE), dtype=np.int64)
    table[:, :N_CONFIGS] = fitted[:, CANON]
    table[:, N_CONFIGS : N_CONFIGS + N_FEATURES] = fitted[:, N_CANON:]
    return table


@kernel
def indices(me: U64, opp: U64, out: Any) -> None:
    """Write each instance's configuration, ``OFFSET[i] + index``, to ``out[i]``."""
    for i in range(N_INSTANCES):
        index = 0
        for j in range(LENGTHS[i] - 1, -1, -1):
            sq = np.uint64(SQUARES[i, j])
            index = index * 3 + np.int64((me >> sq) & np.uint64(1))
            index += 2 * np.int64((opp >> sq) & np.uint64(1))
        out[i] = OFFSET[i] + index


@kernel
def pattern_sum(me: U64, opp: U64, S: Any, at: int) -> int:
    """The sum over the instances of ``S[at + OFFSET[i] + index]`` (``me`` to move)."""
    total = 0
    for i in range(N_INSTANCES):
        index = 0
        for j in range(LENGTHS[i] - 1, -1, -1):
            sq = np.uint64(SQUARES[i, j])
            index = index * 3 + np.int64((me >> sq) & np.uint64(1))
            index += 2 * np.int64((opp >> sq) & np.uint64(1))
        total += S[at + OFFSET[i] + index]
    return total


def configurations(me: int, opp: int) -> np.ndarray:
    """The :data:`N_INSTANCES` configurations of one position (for training and tests)."""
    out = np.zeros(N_INSTANCES, dtype=np.int64)
    indices(np.uint64(me), np.uint64(opp), out)
    return out
