"""Held-out error of candidate pattern families, fitted on a sharded data job.

A richer evaluation is chosen by measurement. This script answers the
first question, before any kernel is written: on the positions of a data job
(``adjacency train-eval --kind patterns --data DIR``), do more pattern families
predict the held-out labels better than v4's rows and columns?

Each family is a set of base patterns (squares read in order); a base pattern's
images under the board's eight symmetries are its instances, which share one table,
and a configuration shares its weight with its images under the symmetries that map
the pattern onto itself (a line read backwards, a corner block reflected in the
diagonal), so every candidate scores mirror images alike, as v4 does. The fit is
v4's (``training.ridge_patterns``: ridge least squares per phase of 4 plies left,
window 2, the 7 features and the parity term beside the configurations, or without
the parity with ``--no-parity``, as the weights were before the parity term); every
``--holdout``-th shard is held out, as ``adjacency train-eval`` does. The script
prints, per phase and over all, the RMS error (pieces) of the shipped v4 weights and of
each candidate:

    python benchmarks/bench_pattern_families.py --data /work/data/patterns-s2026 \\
        --sets lines,lines+corner3,lines+corner3+edge2x5 --ridge 100

Families: ``lines`` (the 8 rows and 8 columns, v4's), ``corner3`` (the 3x3 block of
each corner), ``edge2x5`` (each edge's 5 squares from a corner with the 5 beside
them: 8 instances), ``block2x4`` (each edge's middle 4 squares with the 4 inside).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from adjacency.core.position import Position
from adjacency.engine.kernels.layout import PAT_PHASE_WIDTH, PAT_PHASES
from adjacency.engine.kernels.patterns import N_CONFIGS, PARITY, configurations
from adjacency.engine.symmetry import automorphisms
from adjacency.engine.weights_file import UNITS, shipped_patterns
from adjacency.training.dataset import open_job, shard_rows, split
from adjacency.training.fit import design, phase_rows, ridge_patterns


def square(rank: int, file: int) -> int:
    return 8 * rank + file


BASES: dict[str, list[list[int]]] = {
    "lines": [[square(r, f) for f in range(8)] for r in range(4)],
    "corner3": [[square(r, f) for r in range(3) for f in range(3)]],
    "edge2x5": [[square(r, f) for r in range(2) for f in range(5)]],
    "block2x4": [[square(r, f) for r in range(2) for f in range(2, 6)]],
}


class Family:
    """The instances of a family's base patterns and the tied column of every
    configuration (one table per base pattern)."""

    def __init__(self, name: str) -> None:
        maps = automorphisms(Position.start(8, 8, 28).board)
        self.name = name
        self.instances: list[list[int]] = []
        self.canon: list[np.ndarray] = []  # per instance: configuration -> tied column
        width = 0
        for base in BASES[name]:
            n = len(base)
            images: dict[frozenset[int], list[list[int]]] = {}
            for t in maps:
                image = [t.square(s) for s in base]
                images.setdefault(frozenset(image), []).append(image)
            configs = np.arange(3**n)
            digits = np.array([(configs // 3**j) % 3 for j in range(n)])  # digit j of each
            tied = configs.copy()
            first, *others = next(iter(images.values()))  # every set has the same self-maps
            for reading in others:
                # the same squares read in another order: position j of ``reading``
                # is position first.index(reading[j]) of ``first``
                perm = [first.index(s) for s in reading]
                other = sum(digits[perm[j]] * 3**j for j in range(n))
                tied = np.minimum(tied, other)
            kept = np.unique(tied)
            column = np.zeros(3**n, dtype=np.int64)
            column[kept] = np.arange(len(kept))
            table = column[tied] + width
            for readings in images.values():
                self.instances.append(readings[0])
                self.canon.append(table)
            width += len(kept)
        self.width = width

    def columns(self, mover: np.ndarray, opponent: np.ndarray) -> np.ndarray:
        """Each row's tied column of every instance's configuration (read in base 3 along
        the instance: 0 empty, 1 the mover's, 2 the opponent's)."""
        out = np.zeros((len(mover), len(self.instances)), dtype=np.int64)
        for i, (instance, canon) in enumerate(zip(self.instances, self.canon, strict=True)):
            index = np.zeros(len(mover), dtype=np.int64)
            for j, s in enumerate(instance):
                bit = np.uint64(s)
                state = ((mover >> bit) & np.uint64(1)) + 2 * ((opponent >> bit) & np.uint64(1))
                index += state.astype(np.int64) * 3**j
            out[:, i] = canon[index]
        return out


def load(
    directory: Path, holdout: int, shards: int | None = None
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The fitted and the held-out rows of a data job (of its first ``shards`` shards)."""
    job = open_job(directory)
    train, held = split(job, holdout)
    if shards is not None:
        train, held = [i for i in train if i < shards], [i for i in held if i < shards]

    def gather(indices: Sequence[int]) -> dict[str, np.ndarray]:
        parts = []
        for i in indices:
            arrays = job.read(i)
            _, features, labels, plies = shard_rows(arrays)
            x, o, turn = arrays["x"], arrays["o"], arrays["x_to_move"]
            parts.append(
                {
                    "mover": np.where(turn, x, o).astype(np.uint64),
                    "opponent": np.where(turn, o, x).astype(np.uint64),
                    "features": features,
                    "labels": labels,
                    "plies": plies,
                }
            )
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    return gather(train), gather(held)


def fit_and_score(
    families: list[Family],
    train: dict[str, np.ndarray],
    held: dict[str, np.ndarray],
    ridge: float,
    window: int,
    parity: bool = True,
) -> tuple[np.ndarray, float]:
    """Held-out predictions (pieces) and fit seconds of the families together."""
    offsets = np.cumsum([0] + [f.width for f in families])

    def cols(d: dict[str, np.ndarray]) -> np.ndarray:
        return np.concatenate(
            [f.columns(d["mover"], d["opponent"]) + offsets[k] for k, f in enumerate(families)],
            axis=1,
        )

    train_cols, held_cols = cols(train), cols(held)
    width = int(offsets[-1])
    prediction = np.zeros(len(held["labels"]))
    start = time.process_time()
    held_phase = held["plies"] // PAT_PHASE_WIDTH
    for phase in range(PAT_PHASES):
        near = phase_rows(train["plies"], phase, window)
        mine = held_phase == phase
        if near.sum() < 200 or not mine.any():
            continue
        terms = design(train["features"][near], train["plies"][near], parity)
        w = ridge_patterns(train_cols[near], terms, train["labels"][near], ridge, width=width)
        held_terms = design(held["features"][mine], held["plies"][mine], parity)
        prediction[mine] = (w[held_cols[mine]].sum(axis=1) + held_terms @ w[width:]) / UNITS
    return prediction, time.process_time() - start


def shipped(held: dict[str, np.ndarray]) -> np.ndarray:
    """The shipped v4 weights' values (pieces) of the held-out rows: the kernel's own
    configurations (:func:`~adjacency.engine.kernels.patterns.configurations`) looked up
    in its table, plus the features and the parity weight."""
    table, _ = shipped_patterns()  # the kernel's table: raw configurations, features, parity
    pairs = zip(held["mover"].tolist(), held["opponent"].tolist(), strict=True)
    raw = np.array([configurations(me, opp) for me, opp in pairs])
    rows = table[held["plies"] // PAT_PHASE_WIDTH]
    values = np.take_along_axis(rows, raw, axis=1).sum(axis=1)
    terms = design(held["features"], held["plies"])
    values = values + np.einsum("ij,ij->i", terms, rows[:, N_CONFIGS : PARITY + 1])
    return values / UNITS  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--sets", default="lines,lines+corner3")
    parser.add_argument("--ridge", type=float, default=100.0)
    parser.add_argument("--window", type=int, default=2)
    parser.add_argument("--holdout", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--shards", type=int, default=None, help="only shards 0 to N-1")
    parser.add_argument(
        "--no-parity", action="store_true", help="fit the candidates without the parity term"
    )
    args = parser.parse_args()
    train, held = load(args.data, args.holdout, args.shards)
    print(f"train {len(train['labels'])} positions, held out {len(held['labels'])}")
    labels = held["labels"] / UNITS
    predictions = {"v4 shipped": shipped(held)}
    for name in args.sets.split(","):
        families = [Family(part) for part in name.split("+")]
        width = sum(f.width for f in families)
        predictions[name], seconds = fit_and_score(
            families, train, held, args.ridge, args.window, not args.no_parity
        )
        print(f"{name}: {width} weights a phase, fit {seconds:.1f} CPU s")
    phase = held["plies"] // PAT_PHASE_WIDTH
    rows = []
    for p in [*sorted(set(phase.tolist())), None]:
        mask = np.ones(len(labels), dtype=bool) if p is None else phase == p
        span = "all" if p is None else f"{p * 4}-{p * 4 + 3}"
        row = {"plies": span, "n": int(mask.sum())}
        for name, values in predictions.items():
            row[name] = round(float(np.sqrt(np.mean((values[mask] - labels[mask]) ** 2))), 3)
        rows.append(row)
    names = list(predictions)
    print("| plies left | n | " + " | ".join(names) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in names) + " |")
    for row in rows:
        print(
            f"| {row['plies']} | {row['n']} | " + " | ".join(f"{row[n]:.3f}" for n in names) + " |"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
