"""Training the learned evaluation: self-play positions, deeper-search labels, least squares.

The recipe of Logistello and Edax, scaled to this game: play many games with a
fast player that makes some random moves (for variety), label each position
with a deeper search of the reference engine (``profile="v1"``) or, within
``exact_plies`` of the end, with the exact solver, and fit for every number of
plies left the weights that predict the label from the position's features
(:mod:`adjacency.engine.kernels.features`) by ridge-regularised least squares over the
positions with about that many plies left. The weights are written as a
versioned JSON file (:func:`adjacency.engine.weights_file.save_weights`), which
:func:`adjacency.engine.weights_file.load_weights` turns into the table the kernels read.

The pattern evaluation (:mod:`adjacency.engine.kernels.patterns`) is trained the same way,
but its positions are generated on an executor (:mod:`adjacency.workers`) in
chunks of games (:class:`Chunk`, :func:`generate_samples`): each chunk's random
stream is seeded from the run's seed and the chunk's number, and the results are
put in chunk order, so the samples, and the weights fitted from them, are the same
byte for byte whatever the number or kind of workers. :func:`fit_patterns` fits
per phase, by ridge least squares over the one-hot columns of the line
configurations plus the features, solved by conjugate gradients on the normal
equations (13,291 weights per phase: too many for a dense solve), every product
a ``numpy`` gather or ``bincount``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core import Position
from ..core.errors import InvalidSettingsError
from ..engine import Engine
from ..engine.kernels.bits import write_geometry
from ..engine.kernels.features import N_FEATURES, feature_vector
from ..engine.kernels.layout import MAX_SQUARES, PAT_PHASE_WIDTH, PAT_PHASES, PW_STRIDE, TT
from ..engine.kernels.patterns import CANON, N_CANON, N_INSTANCES, N_WEIGHTS, configurations
from ..engine.weights_file import UNITS, WeightsError, has_parity, load_weights
from ..workers.executor import Executor

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
    v1 search that plays a random move with probability ``epsilon`` (one search thread:
    the same ``rng`` state gives the same positions)."""
    engine = Engine(tt_mb=4, profile="v1", threads=1)
    found: list[Position] = []
    for game in range(games):
        position = Position.start(8, 8, rng.choice(list(rounds)))
        engine.clear()
        found += play_game(rng, position, (engine, engine), (depth, depth), epsilon)
        if progress is not None:
            progress("self-play", game + 1, games)
    return found


def play_game(
    rng: random.Random,
    position: Position,
    engines: tuple[Engine, Engine],
    depths: tuple[int, int],
    epsilon: float,
    random_plies: int = 0,
) -> list[Position]:
    """The positions (at least 2 plies left) of one game from ``position``: the first
    ``random_plies`` moves are drawn uniformly at random (a randomised opening), then the
    side that made the first move plays ``engines[0]`` at ``depths[0]`` and the other
    ``engines[1]`` at ``depths[1]``, each move random instead with probability ``epsilon``.

    The only source of chance is ``rng`` (a random opening ply draws no ``rng.random()``),
    and the engines search with one thread, so the same ``rng`` state and engine tables
    give the same game: the self-play of the learned evaluation and the sharded data job
    (:mod:`adjacency.training.dataset`) both play through here."""
    found: list[Position] = []
    ply = 0
    while position.plies_left >= 2:
        found.append(position)
        if ply < random_plies or rng.random() < epsilon:
            move = rng.choice(position.legal_squares())
        else:
            engine, depth = engines[ply % 2], depths[ply % 2]
            move = position.board.square(engine.search(position, depth=depth).move)
        position = position.play(move)
        ply += 1
    return found


def label_positions(
    positions: Sequence[Position],
    depth: int = 6,
    exact_plies: int = 8,
    progress: Progress | None = None,
) -> list[Sample]:
    """Label each position by a depth-``depth`` v1 search, or exactly within ``exact_plies``
    (one search thread and a cleared table per position: the labels are reproducible)."""
    engine = Engine(tt_mb=16, profile="v1", threads=1)
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


def data_record(samples: Sequence[Sample]) -> dict[str, Any]:
    """What identifies a run's training data, for its weights file's ``training``
    section (``data``): ``sha256``, of its labelled positions in the order they were
    generated, each ``[fen, plies, label, exact]``, as one compact JSON list (a label as
    Python writes a float, so exactly), ``hashed`` saying so, and ``positions``. Two runs
    hash equal exactly when they generated the same positions with the same labels."""
    rows = [[s.fen, s.plies, s.label, s.exact] for s in samples]
    text = json.dumps(rows, separators=(",", ":"))
    return {
        "sha256": hashlib.sha256(text.encode("ascii")).hexdigest(),
        "hashed": "the labelled positions in order, [fen, plies, label, exact] each, as JSON",
        "positions": len(rows),
    }


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


@dataclass(frozen=True)
class Chunk:
    """One unit of training work: ``games`` self-play games and their labels.

    Its random stream is seeded by ``f"{seed}/{index}"`` alone, so a chunk's samples do
    not depend on which worker runs it or what that worker ran before."""

    seed: int
    index: int
    games: int
    rounds: tuple[int, ...]
    depth: int
    exact_plies: int
    epsilon: float = 0.2
    play_depth: int = 2


def label_chunk(chunk: Chunk) -> list[Sample]:
    """Play and label one chunk's games (in the calling process; fresh engines)."""
    rng = random.Random(f"{chunk.seed}/{chunk.index}")
    positions = self_play_positions(rng, chunk.games, chunk.rounds, chunk.play_depth, chunk.epsilon)
    return label_positions(positions, chunk.depth, chunk.exact_plies)


def chunks(
    seed: int,
    games: int,
    chunk_games: int,
    rounds: tuple[int, ...],
    depth: int,
    exact_plies: int,
) -> list[Chunk]:
    """The chunks of a run of ``games`` games, ``chunk_games`` per chunk (the last may
    have fewer)."""
    return [
        Chunk(seed, i, min(chunk_games, games - start), rounds, depth, exact_plies)
        for i, start in enumerate(range(0, games, chunk_games))
    ]


def generate_samples(
    executor: Executor, work: Sequence[Chunk], progress: Progress | None = None
) -> list[list[Sample]]:
    """Every chunk's samples, in chunk order (the same for any executor)."""
    done: dict[int, list[Sample]] = {}
    for chunk, samples in executor.map_unordered(label_chunk, work):
        done[chunk.index] = samples
        if progress is not None:
            progress("chunks", len(done), len(work))
    return [done[chunk.index] for chunk in work]


def pattern_columns(samples: Sequence[Sample]) -> tuple[np.ndarray, np.ndarray]:
    """Per sample, the fitted column of each instance's configuration (``N_INSTANCES``
    columns, :data:`~adjacency.engine.kernels.patterns.CANON`) and the features. 8x8 only."""
    positions = [Position.from_fen(sample.fen) for sample in samples]
    return bitboard_columns(
        np.array([p.mover for p in positions], dtype=np.uint64),
        np.array([p.opponent for p in positions], dtype=np.uint64),
    )


def bitboard_columns(mover: np.ndarray, opponent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`pattern_columns` of 8x8 positions given as the side to move's and the
    opponent's bitboards (``uint64`` arrays): what the sharded data job stores."""
    U = np.zeros(TT, dtype=np.uint64)
    write_geometry(Position.start(8, 8, 28).board, U)
    columns = np.zeros((len(mover), N_INSTANCES), dtype=np.int64)
    rows = np.zeros((len(mover), N_FEATURES), dtype=np.float64)
    for i, (me, opp) in enumerate(zip(mover.tolist(), opponent.tolist(), strict=True)):
        columns[i] = CANON[configurations(me, opp)]
        rows[i] = feature_vector(me, opp, U)
    return columns, rows


def dot(a: np.ndarray, b: np.ndarray) -> float:
    """The inner product of two vectors, summed by numpy in this thread (pairwise, the
    same sum on every machine), never handed to BLAS's threads."""
    return float(np.multiply(a, b).sum())


def ridge_patterns(
    columns: np.ndarray,
    features: np.ndarray,
    labels: np.ndarray,
    ridge: float,
    width: int = N_CANON,
    iterations: int = 1000,
    tolerance: float = 1e-9,
) -> np.ndarray:
    """The ridge least-squares weights (``width`` one-hot weights, then one per feature)
    predicting ``labels`` from the one-hot ``columns`` (each row's configurations,
    values below ``width``) and the ``features`` of the same rows.

    Minimises ``|A w - labels|^2 + ridge * |w|^2`` (``A`` the one-hot columns beside the
    features) by conjugate gradients on the normal equations with a diagonal
    preconditioner, from ``w = 0``, until the residual is below ``tolerance`` times
    the right-hand side or after ``iterations`` steps. Deterministic; a column no row
    uses gets weight 0. ``ridge`` must be above 0.

    The iteration's inner products are :func:`dot`'s, not BLAS's: BLAS splits a product
    of more than 10,000 terms (every one here: ``width`` is :data:`N_CANON`) across its
    threads, which makes the sums depend on the thread count and each step wait for a
    second thread to be scheduled, seconds a fit on a loaded machine."""
    k = columns.shape[1]
    flat = columns.ravel()

    def apply(w: np.ndarray) -> np.ndarray:
        return w[:width][columns].sum(axis=1) + features @ w[width:]  # type: ignore[no-any-return]

    def adjoint(r: np.ndarray) -> np.ndarray:
        out = np.bincount(flat, weights=np.repeat(r, k), minlength=width)
        return np.concatenate([out, features.T @ r])

    diagonal = np.concatenate([np.bincount(flat, minlength=width), (features**2).sum(axis=0)])
    diagonal = diagonal + ridge
    b = adjoint(labels)
    w = np.zeros(width + features.shape[1])
    r = b.copy()
    z = r / diagonal
    p = z.copy()
    rz = dot(r, z)
    limit = tolerance * float(np.sqrt(dot(b, b)))
    for _ in range(iterations):
        if float(np.sqrt(dot(r, r))) <= limit:
            break
        q = adjoint(apply(p)) + ridge * p
        step = rz / dot(p, q)
        w += step * p
        r -= step * q
        z = r / diagonal
        rz, previous = dot(r, z), rz
        p = z + (rz / previous) * p
    return w


def phase_rows(plies: np.ndarray, phase: int, window: int) -> np.ndarray:
    """The rows whose plies left lie in ``phase`` widened by ``window`` plies each side."""
    low = phase * PAT_PHASE_WIDTH - window
    return (plies >= low) & (plies < low + PAT_PHASE_WIDTH + 2 * window)  # type: ignore[no-any-return]


PhaseRows = Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
"""``rows(phase, window)``: the pattern columns, features, labels (1/UNITS piece) and
plies left of the training rows whose plies left lie in ``phase`` widened by ``window``
(:func:`phase_rows`), in a fixed order."""


def fit_patterns(
    samples: Sequence[Sample], window: int = 2, ridge: float = 1.0, parity: bool = False
) -> tuple[np.ndarray, dict[str, Any]]:
    """Pattern weights fitted on ``samples`` (:func:`fit_pattern_phases`, all in memory)."""
    columns, features = pattern_columns(samples)
    labels = np.array([s.label for s in samples]) * UNITS
    plies = np.array([s.plies for s in samples])

    def rows(phase: int, widen: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        near = phase_rows(plies, phase, widen)
        return columns[near], features[near], labels[near], plies[near]

    return fit_pattern_phases(rows, len(samples), window, ridge, parity)


def fit_pattern_phases(
    rows: PhaseRows, count: int, window: int = 2, ridge: float = 1.0, parity: bool = False
) -> tuple[np.ndarray, dict[str, Any]]:
    """Pattern weights (``PAT_PHASES`` rows of ``N_WEIGHTS``, in 1/UNITS piece) and fit
    statistics (in-sample RMS error per phase, in pieces) from ``count`` training rows
    that ``rows`` hands out one phase at a time (so a caller may stream them from disk
    and hold only one phase's rows in memory).

    Phase ``b`` (``b * PAT_PHASE_WIDTH`` to ``b * PAT_PHASE_WIDTH + 3`` plies left) is
    fitted on the rows with plies left in it or within ``window`` of it; a phase
    with fewer than 200 rows copies the nearest fitted one (phase 0, with 0-3
    plies left, is fitted like the others: positions with 0 or 1 ply left are scored
    exactly and never reach it). With ``parity`` each phase also fits the parity weight
    (:data:`~adjacency.engine.kernels.patterns.PARITY`) and its rows are ``N_WEIGHTS``
    long; without it they are one weight shorter, as the shipped v4 file's. Raises
    :class:`~adjacency.core.errors.InvalidSettingsError` when no phase has enough."""
    fitted: dict[int, np.ndarray] = {}
    residuals: dict[str, float] = {}
    for phase in range(PAT_PHASES):
        columns, features, labels, plies = rows(phase, window)
        if len(labels) < 200:
            continue
        w = ridge_patterns(columns, design(features, plies, parity), labels, ridge)
        fitted[phase] = w
        here = phase_rows(plies, phase, 0)
        if here.any():
            error = predict(columns[here], features[here], plies[here], w) - labels[here]
            residuals[str(phase)] = round(float(np.sqrt(np.mean(error**2)) / UNITS), 3)
    if not fitted:
        raise InvalidSettingsError(
            f"too few positions ({count}) to fit any phase: every phase needs 200 "
            "within its window; play more games or widen the window"
        )
    known = sorted(fitted)
    table = np.zeros((PAT_PHASES, N_WEIGHTS - (not parity)), dtype=np.int64)
    for phase in range(PAT_PHASES):
        nearest = min(known, key=lambda q: (abs(q - phase), q))
        table[phase] = np.round(fitted[nearest]).astype(np.int64)
    return table, {"samples": count, "rms_error_pieces": residuals, "fitted_phases": known}


def parity_column(plies: np.ndarray) -> np.ndarray:
    """The parity term of rows with ``plies`` left: 1 when the mover makes the game's
    last move (odd plies left), else -1 (:data:`~adjacency.engine.kernels.patterns.PARITY`)."""
    return np.where(plies % 2 == 1, 1.0, -1.0)


def design(features: np.ndarray, plies: np.ndarray, parity: bool = True) -> np.ndarray:
    """The rows' fitted terms after the configurations: the features, then (``parity``)
    the parity term."""
    if not parity:
        return features
    return np.hstack([features, parity_column(plies)[:, None]])


def predict(
    columns: np.ndarray, features: np.ndarray, plies: np.ndarray, w: np.ndarray
) -> np.ndarray:
    """Each row's pattern evaluation with the fitted weights ``w`` (no rounding; ``w`` of
    one weight fewer than :data:`N_WEIGHTS`: a fit without the parity term)."""
    terms = design(features, plies, has_parity(w))
    return w[columns].sum(axis=1) + terms @ w[N_CANON:]  # type: ignore[no-any-return]


SAMPLES_FORMAT = "adjacency-samples"
"""The ``format`` field of a labelled-positions file (:func:`save_samples`)."""


def save_samples(path: Path, work: Sequence[Chunk], labelled: Sequence[Sequence[Sample]]) -> None:
    """Write the chunks' settings and their labelled positions to ``path`` (JSON)."""
    content = {
        "format": SAMPLES_FORMAT,
        "chunks": [asdict(chunk) for chunk in work],
        "samples": [[[s.fen, s.plies, s.label, s.exact] for s in group] for group in labelled],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, separators=(",", ":")) + "\n", encoding="utf-8")


def load_samples(path: Path, work: Sequence[Chunk]) -> list[list[Sample]]:
    """The labelled chunks of a :func:`save_samples` file made for exactly the chunks
    ``work``; :class:`~adjacency.engine.weights_file.WeightsError` naming the file if it
    cannot be read, is not such a file or was made with other settings."""
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
        if content.get("format") != SAMPLES_FORMAT:
            raise ValueError(f"format must be {SAMPLES_FORMAT!r}")
        made = [Chunk(**{**c, "rounds": tuple(c["rounds"])}) for c in content["chunks"]]
        if made != list(work):
            raise ValueError("it was made with other settings (games, seed, rounds, depth, ...)")
        groups = content["samples"]
        if len(groups) != len(work):
            raise ValueError("it does not hold every chunk")
        return [
            [
                Sample(str(fen), int(plies), float(label), bool(exact))
                for fen, plies, label, exact in group
            ]
            for group in groups
        ]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise WeightsError(f"cannot read labelled positions {str(path)!r}: {exc}") from None


def holdout_errors(
    train: Sequence[Sample], test: Sequence[Sample], table: np.ndarray, window: int
) -> dict[str, dict[str, float]]:
    """RMS errors (pieces) on the held-out ``test`` labels, per phase and over all
    (``"all"``): of the pattern weights ``table`` (fitted on ``train``), of the 7-feature
    learned evaluation refitted on ``train`` (:func:`fit`, same window, ridge 1) and of
    the shipped learned weights; ``n`` is the phase's number of held-out positions.
    ``table`` holds the fitted rows (``PAT_PHASES`` of ``N_WEIGHTS``, as :func:`fit_patterns`
    returns them)."""
    columns, features = pattern_columns(test)
    labels = np.array([s.label for s in test])
    plies = np.array([s.plies for s in test])
    refit, _ = fit(train, window, 1.0)
    learned = np.einsum("ij,ij->i", features, refit[plies, :N_FEATURES]) / UNITS
    return holdout_table(columns, features, labels, plies, table, {"features_refit": learned})


def holdout_table(
    columns: np.ndarray,
    features: np.ndarray,
    labels: np.ndarray,
    plies: np.ndarray,
    table: np.ndarray,
    others: dict[str, np.ndarray] | None = None,
) -> dict[str, dict[str, float]]:
    """RMS errors (pieces) against held-out ``labels`` (pieces), per phase and over all
    (``"all"``): of the pattern weights ``table``, of the predictions ``others`` (name:
    one value per row, pieces; shown after the patterns) and of the shipped learned
    weights (``features_shipped``); ``n`` is the phase's number of rows. ``columns`` and
    ``features`` are the rows' :func:`pattern_columns`."""
    phases = plies // PAT_PHASE_WIDTH
    patterns = table[phases[:, None], columns].sum(axis=1)
    rows = design(features, plies, has_parity(table))
    terms = np.einsum("ij,ij->i", rows, table[phases, N_CANON:])
    patterns = (patterns + terms) / UNITS
    shipped, _ = load_weights()
    shipped_values = np.einsum("ij,ij->i", features, shipped[plies, :N_FEATURES]) / UNITS
    predictions = {"patterns": patterns, **(others or {}), "features_shipped": shipped_values}

    def rms(mask: np.ndarray) -> dict[str, float]:
        row = {"n": float(mask.sum())}
        for name, values in predictions.items():
            row[name] = round(float(np.sqrt(np.mean((values[mask] - labels[mask]) ** 2))), 3)
        return row

    result = {
        str(phase): rms(phases == phase) for phase in range(PAT_PHASES) if (phases == phase).any()
    }
    result["all"] = rms(np.ones(len(labels), dtype=bool))
    return result
