"""The backed-up target: labels from shallow searches over the evaluation already fitted
nearer the end, phase by phase outward from the solved zone (``train-eval --target backup``).

The recipe Othello programs were trained by (Buro's Logistello): the positions are
grouped by plies left; those the solver labelled (at most the job's ``exact_plies``
left) keep their exact values; every other position with ``p`` plies left is labelled
by a depth-``d`` search whose leaves, ``p - d`` plies left, are scored by the
evaluation already fitted for that many plies left, so the end's exact values are
carried outward one stage at a time instead of a fixed-depth search of the hand-made
v1 evaluation (the ``search`` target) or the game's later outcome (``outcome``).

**Order** (:func:`schedule`, pure). The plies left to label are visited in increasing
order. Before the positions with ``p`` plies left are searched, the phase of their
leaves (``(p - d) // width``; leaves with fewer than ``scored_below`` plies left are
scored exactly by the search and need none) is fitted on every labelled row with plies
left from ``window`` below the phase's first to ``min(phase's last, p - 1)``: rows
with fewer plies left than ``p``, all labelled by then (:class:`Fit`). A phase is fitted
again only when that range has grown, which happens with ``d`` below the phase width
(a leaf in the phase being labelled). The window reaches only toward the end: the rows
above are not labelled yet. :func:`back_up` runs the schedule with the caller's fit
and label steps; the order is all it decides.

**8x8 pattern weights** (:func:`job_labels`). The fit of a phase is the ridge
least-squares pattern fit of :func:`adjacency.training.fit.ridge_patterns` over the
training rows (the held-out rows are labelled, never fitted); the search is the pattern
engine (profile ``v4`` on a 28-round board, where its pattern evaluation plays) with the
interim weights written to a pattern file, full width (no reductions, no ProbCut), one
thread and a cleared table per position, so the labels are reproducible. Its leaves
inside the solved zone are scored by the phases fitted on the exact labels, not
solved: an exact leaf costs a solve (0.3 s at 16 plies left), a fitted one 30 us.
The weights the command writes are then fitted on these labels as for any target
(:func:`adjacency.training.fit.fit_pattern_phases`, the usual window both sides).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.errors import InvalidSettingsError
from ..engine import Engine
from ..engine.kernels.layout import PAT_PHASE_WIDTH, PAT_PHASES
from ..engine.kernels.patterns import N_WEIGHTS
from ..engine.weights_file import UNITS, save_patterns
from .dataset import Job, positions
from .fit import Progress, bitboard_columns, design, ridge_patterns


@dataclass(frozen=True)
class Fit:
    """Fit ``phase`` on the labelled rows with ``low`` to ``high`` plies left (inclusive)."""

    phase: int
    low: int
    high: int


@dataclass(frozen=True)
class Label:
    """Label the rows with ``plies`` left by a search to ``depth`` (the depth asked for,
    or the plies left when fewer: a search to the end)."""

    plies: int
    depth: int


Step = Fit | Label
"""One step of a :func:`schedule`."""


def schedule(
    pending: Iterable[int], depth: int, width: int, window: int, scored_below: int = 2
) -> list[Step]:
    """The fits and labellings, in order, that back up the rows with plies left ``pending``
    (those not labelled exactly) by depth-``depth`` searches, the evaluation in phases of
    ``width`` plies, each fitted on ``window`` more plies toward the end (see the module
    docstring). Leaves with fewer than ``scored_below`` plies left need no fit (the
    engine scores a finished game and the last ply exactly). ``ValueError`` for a depth
    or width below 1 or a negative window."""
    if depth < 1 or width < 1 or window < 0:
        raise ValueError(
            f"depth and width must be at least 1 and window 0, got {depth, width, window}"
        )
    steps: list[Step] = []
    fitted: dict[int, int] = {}  # phase: the last ply left its latest fit covered
    for plies in sorted(set(pending)):
        leaf = plies - depth
        if leaf >= scored_below:
            phase = leaf // width
            high = min(phase * width + width - 1, plies - 1)
            if fitted.get(phase, -1) < high:
                steps.append(Fit(phase, max(phase * width - window, 0), high))
                fitted[phase] = high
        steps.append(Label(plies, min(depth, plies)))
    return steps


def back_up(
    steps: Sequence[Step], fit: Callable[[Fit], None], label: Callable[[Label], None]
) -> None:
    """Run ``steps`` (:func:`schedule`) in order: ``fit`` for each :class:`Fit`, ``label``
    for each :class:`Label`."""
    for step in steps:
        if isinstance(step, Fit):
            fit(step)
        else:
            label(step)


def job_labels(
    job: Job,
    train: Sequence[int],
    held: Sequence[int],
    depth: int = 4,
    window: int = 2,
    ridge: float = 100.0,
    parity: bool = False,
    progress: Progress | None = None,
) -> dict[int, np.ndarray]:
    """The backed-up labels (pieces, for the side to move) of the shards ``train`` and
    ``held`` of ``job``, by shard: exact rows keep their labels, every other row gets
    the value of a depth-``depth`` pattern-engine search over the phases fitted so far
    (fitted on the ``train`` rows only, with ``ridge`` and ``parity`` as the command's
    fit; see the module docstring). :class:`InvalidSettingsError` for a depth below 1."""
    if depth < 1:
        raise InvalidSettingsError(f"--backup-depth must be at least 1, got {depth}")
    indices = [*train, *held]
    shards = [job.read(i) for i in indices]
    sizes = [len(a["label"]) for a in shards]
    arrays = {name: np.concatenate([a[name] for a in shards]) for name in shards[0]}
    plies = arrays["plies"].astype(np.int64)
    exact = arrays["exact"].astype(bool)
    labels = arrays["label"].astype(np.float64).copy()
    fitting = set(train)
    fitted = np.concatenate([np.full(n, i in fitting) for i, n in zip(indices, sizes, strict=True)])
    mover = np.where(arrays["x_to_move"], arrays["x"], arrays["o"])
    opponent = np.where(arrays["x_to_move"], arrays["o"], arrays["x"])
    table = np.zeros((PAT_PHASES, N_WEIGHTS - (not parity)), dtype=np.int64)
    columns: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # plies left: the train rows'

    def rows_at(p: int) -> tuple[np.ndarray, np.ndarray]:
        if p not in columns:
            here = fitted & (plies == p)
            columns[p] = bitboard_columns(mover[here], opponent[here])
        return columns[p]

    steps = schedule(np.unique(plies[~exact]).tolist(), depth, PAT_PHASE_WIDTH, window)
    with tempfile.TemporaryDirectory(prefix="backup-") as folder:
        engine: list[Engine] = []

        def fit_phase(step: Fit) -> None:
            span = range(step.low, step.high + 1)
            parts = [rows_at(p) for p in span]
            y = np.concatenate([labels[fitted & (plies == p)] for p in span]) * UNITS
            if len(y):
                cols = np.concatenate([c for c, _ in parts])
                feats = np.concatenate([f for _, f in parts])
                rows_plies = np.concatenate([plies[fitted & (plies == p)] for p in span])
                w = ridge_patterns(cols, design(feats, rows_plies, parity), y, ridge)
                table[step.phase] = np.round(w).astype(np.int64)
            path = Path(folder) / f"phase-{step.phase}-to-{step.high}.json"
            save_patterns(table, path, 1, {"backup": "interim"})
            engine[:] = [
                Engine(
                    tt_mb=16, profile="v4", threads=1, patterns=str(path),
                    reductions=False, probcut=0,
                )
            ]  # fmt: skip

        def label(step: Label) -> None:
            rows = np.flatnonzero((plies == step.plies) & ~exact)
            if not engine:  # no leaf needs a fit (searches to the end or the last ply)
                engine.append(
                    Engine(tt_mb=16, profile="v4", threads=1, reductions=False, probcut=0)
                )
            found = positions(
                {name: arrays[name][rows] for name in ("x", "o", "x_to_move", "plies")}
            )
            for row, position in zip(rows.tolist(), found, strict=True):
                engine[0].clear()
                labels[row] = engine[0].search(position, depth=step.depth).value
            if progress is not None:
                progress("backup", step.plies, int(plies.max()))

        back_up(steps, fit_phase, label)
    out: dict[int, np.ndarray] = {}
    start = 0
    for index, size in zip(indices, sizes, strict=True):
        out[index] = labels[start : start + size]
        start += size
    return out
