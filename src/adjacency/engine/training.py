"""Training the learned evaluation: self-play positions, deeper-search labels, least squares.

The recipe of Logistello and Edax, scaled to this game: play many games with a
fast player that makes some random moves (for variety), label each position
with a deeper search of the reference engine (``profile="v1"``) or, within
``exact_plies`` of the end, with the exact solver, and fit for every number of
plies left the weights that predict the label from the position's features
(:mod:`adjacency.engine.features`) by ridge-regularised least squares over the
positions with about that many plies left. The weights are written as a
versioned JSON file (:func:`adjacency.engine.weights_file.save_weights`), which
:func:`adjacency.engine.weights_file.load_weights` turns into the table the kernels read.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import Position
from ..core.errors import InvalidSettingsError
from .bits import write_geometry
from .driver import Engine
from .features import N_FEATURES, feature_vector
from .layout import MAX_SQUARES, PW_STRIDE, TT
from .weights_file import UNITS

Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``."""


@dataclass(frozen=True)
class Sample:
    """A labelled position: the final margin expected for the side to move, in pieces."""

    fen: str
    plies: int
    label: float
    exact: bool


def self_play_positions(
    rng: random.Random,
    games: int,
    rounds: Sequence[int] = (8, 12, 16, 20, 24, 28),
    depth: int = 2,
    epsilon: float = 0.2,
    progress: Progress | None = None,
) -> list[Position]:
    """Positions (not final, at least 2 plies left) of ``games`` 8x8 games of a depth-``depth``
    v1 search that plays a random move with probability ``epsilon``."""
    engine = Engine(tt_mb=4, profile="v1")
    found: list[Position] = []
    for game in range(games):
        position = Position.start(8, 8, rng.choice(list(rounds)))
        engine.clear()
        while position.plies_left >= 2:
            found.append(position)
            if rng.random() < epsilon:
                move = rng.choice(position.legal_squares())
            else:
                move = position.board.square(engine.search(position, depth=depth).move)
            position = position.play(move)
        if progress is not None:
            progress("self-play", game + 1, games)
    return found


def label_positions(
    positions: Sequence[Position],
    depth: int = 6,
    exact_plies: int = 8,
    progress: Progress | None = None,
) -> list[Sample]:
    """Label each position by a depth-``depth`` v1 search, or exactly within ``exact_plies``."""
    engine = Engine(tt_mb=16, profile="v1")
    samples = []
    for i, position in enumerate(positions):
        engine.clear()
        if position.plies_left <= exact_plies:
            label, exact = float(engine.solve(position).value), True
        else:
            label, exact = engine.search(position, depth=depth).value, False
        samples.append(Sample(position.fen(), position.plies_left, label, exact))
        if progress is not None and (i + 1) % 50 == 0:
            progress("labels", i + 1, len(positions))
    return samples


def feature_matrix(samples: Sequence[Sample]) -> np.ndarray:
    """One row of features per sample."""
    U = np.zeros(TT, dtype=np.uint64)
    board = None
    rows = np.zeros((len(samples), N_FEATURES), dtype=np.float64)
    for i, sample in enumerate(samples):
        position = Position.from_fen(sample.fen)
        if position.board != board:
            write_geometry(position.board, U)
            board = position.board
        rows[i] = feature_vector(position.mover, position.opponent, U)
    return rows


def fit(
    samples: Sequence[Sample], window: int = 2, ridge: float = 1.0
) -> tuple[np.ndarray, dict[str, Any]]:
    """Weights per plies left (rows 0..64, in 1/UNITS piece) and fit statistics.

    Row ``p`` is the ridge least-squares fit over the samples with ``p - window`` to
    ``p + window`` plies left; plies with fewer samples than features copy the nearest
    fitted row. Rows 0 and 1 stay zero (those positions are scored exactly). Raises
    :class:`~adjacency.core.errors.InvalidSettingsError` when no phase has enough samples.
    """
    X = feature_matrix(samples)
    y = np.array([s.label for s in samples]) * UNITS
    plies = np.array([s.plies for s in samples])
    table = np.zeros((MAX_SQUARES + 1, PW_STRIDE), dtype=np.int64)
    fitted: dict[int, np.ndarray] = {}
    residuals: dict[int, float] = {}
    for p in range(2, MAX_SQUARES + 1):
        near = np.abs(plies - p) <= window
        if near.sum() < 2 * N_FEATURES:
            continue
        A, b = X[near], y[near]
        # The penalty is ridge * |w|^2 with w in pieces (the labels are in 1/UNITS).
        w = np.linalg.solve(A.T @ A + ridge * np.eye(N_FEATURES), A.T @ b)
        fitted[p] = w
        here = plies[near] == p
        if here.any():
            error = A[here] @ w - b[here]
            residuals[p] = round(float(np.sqrt(np.mean(error**2)) / UNITS), 3)
    if not fitted:
        raise InvalidSettingsError(
            f"too few positions ({len(samples)}) to fit any phase: every phase needs "
            f"{2 * N_FEATURES} within its window; play more games or widen the window"
        )
    known = sorted(fitted)
    for p in range(2, MAX_SQUARES + 1):
        nearest = min(known, key=lambda q: (abs(q - p), q))
        table[p, :N_FEATURES] = np.round(fitted[nearest]).astype(np.int64)
    stats = {"samples": len(samples), "rms_error_pieces": residuals, "fitted_plies": known}
    return table, stats
