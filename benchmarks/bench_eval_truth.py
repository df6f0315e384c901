"""Evaluations and searches against exact values: how far from the truth is each?

An evaluation is chosen by its error against exact values. A fit's
held-out error (``adjacency train-eval``) is against its labels, and where the labels
are a search's values (from 17 plies left in the data job), a lower error can mean a
closer copy of the teacher, not of the truth. This script measures against the truth
itself where the solver reaches: on positions drawn fresh (``--set``, ``--seed``; the
sets of :mod:`position_sets`) with ``--plies`` plies left, it solves each position
exactly (the default engine, ``--threads``, a cold table) and prints, per scorer and
per plies left, the RMS error, the mean error (bias: positive means optimistic for the
mover), its standard deviation (the error less the bias) and the largest error, in
pieces of final margin, and the Pearson correlation.

A scorer is ``PROFILE:DEPTH[:PATTERNS]``: depth 0 is the profile's static evaluation
(what the search's leaves see, :meth:`~adjacency.engine.Engine.evaluate`), a depth above
0 that profile's search to that depth (a cold table, one thread), and ``PATTERNS`` a
pattern file for the profile (``adjacency train-eval --kind patterns``; the engine
setting ``patterns``). ``v1:6`` is the data job's teacher (its labels from 17 plies
left are a depth-6 v1 search).

    python benchmarks/bench_eval_truth.py --plies 17,18,19,20 --positions 10
    python benchmarks/bench_eval_truth.py --scorers v4:0,v4:0:lines.json,v1:6 --seed 7
    python benchmarks/bench_eval_truth.py --set random --out truth.jsonl

With ``--data DIR`` the positions are instead those of a data job's held-out shards
(``adjacency train-eval --kind patterns --data DIR``; every ``--holdout``-th shard, as the
fit holds them out) whose labels are exact (at most ``--exact-plies`` left), nothing is
solved, and ``--positions`` (default: all) caps each plies left. The ``all`` row's SD is
the pooled SD within plies left (each plies left's bias taken out).

    python benchmarks/bench_eval_truth.py --data data/run1 --plies 10,11,12,13,14,15,16

With ``--out`` every position's exact value and each scorer's value are written as JSON
lines (the position's FEN among them), so a run can be checked or re-scored later: with
``--cases FILE ...`` the positions and exact values are those of earlier ``--out`` files
(those with ``--plies`` plies left, at most ``--positions`` each, in file order), nothing
is solved, and new weights are measured on the same positions in seconds.

    python benchmarks/bench_eval_truth.py --cases truth.jsonl --scorers v4:0,v4:0:new.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from position_sets import SETS, default_seed, describe, draw  # this folder is on the path
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from adjacency.core.errors import AdjacencyError
from adjacency.core.position import Position
from adjacency.engine import Engine, warmup
from adjacency.engine.weights_file import SHIPPED
from adjacency.training.dataset import open_job, split
from adjacency.training.dataset import positions as shard_positions

SCORERS = "v1:0,v4:0,v1:6,v4:6"


@dataclass(frozen=True)
class Scorer:
    """One way of valuing a position: a profile's static evaluation or its search."""

    profile: str
    depth: int
    patterns: str | None = None

    @property
    def name(self) -> str:
        kind = "static" if self.depth == 0 else f"depth {self.depth}"
        extra = "" if self.patterns is None else f", {Path(self.patterns).name}"
        return f"{self.profile} {kind}{extra}"

    def engine(self) -> Engine:
        patterns = SHIPPED if self.patterns is None else self.patterns
        return Engine(tt_mb=16, profile=self.profile, threads=1, patterns=patterns)

    def value(self, engine: Engine, position: Position) -> float:
        """The mover's value of ``position`` in pieces (a cold table for a search)."""
        if self.depth == 0:
            return engine.evaluate(position)
        engine.clear()
        return engine.search(position, depth=self.depth).value


def parse_scorer(spec: str) -> Scorer:
    """``PROFILE:DEPTH[:PATTERNS]`` (the patterns path may itself hold no colon)."""
    parts = spec.split(":", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise ValueError(f"a scorer is PROFILE:DEPTH[:PATTERNS], got {spec!r}")
    return Scorer(parts[0], int(parts[1]), parts[2] if len(parts) == 3 else None)


@dataclass(frozen=True)
class Errors:
    """The error statistics of one scorer on some positions (pieces)."""

    n: int
    rms: float
    bias: float
    spread: float
    worst: float
    correlation: float


def errors(values: list[float], truth: list[int]) -> Errors:
    """RMS, mean, standard deviation and largest absolute error of ``values`` against
    ``truth``, and their Pearson correlation (``nan`` when either side is constant).

    The standard deviation is the error with the bias taken out: a bias shared by every
    position with the same plies left moves no move choice of a fixed-depth search (its
    leaves all have the same plies left), so it is the column that ranks evaluations."""
    diffs = [v - t for v, t in zip(values, truth, strict=True)]
    rms = math.sqrt(sum(d * d for d in diffs) / len(diffs))
    try:  # a constant side has none: statistics' rounding of its mean can hide that
        if len(set(values)) == 1 or len(set(truth)) == 1:
            raise statistics.StatisticsError("a constant side")
        correlation = statistics.correlation(values, [float(t) for t in truth])
    except statistics.StatisticsError:  # also a side whose spread underflows
        correlation = math.nan
    bias = statistics.fmean(diffs)
    spread = statistics.pstdev(diffs, bias)
    return Errors(len(diffs), rms, bias, spread, max(abs(d) for d in diffs), correlation)


def pooled(groups: list[Errors]) -> float:
    """The standard deviation within groups: each group's bias taken out, then pooled."""
    return math.sqrt(sum(g.n * g.spread**2 for g in groups) / sum(g.n for g in groups))


Case = tuple[Position, int | None]
"""A position and its exact value (``None``: to be solved)."""


def fresh_cases(
    name: str, rounds: int, plies: list[int], count: int, seed: int
) -> dict[int, list[Case]]:
    """``count`` positions of the fresh set ``name`` per plies left, to be solved."""
    return {p: [(q, None) for q in draw(name, rounds, p, count, seed)] for p in plies}


def held_out_cases(
    directory: Path, holdout: int, plies: list[int], count: int | None, shards: int | None = None
) -> dict[int, list[Case]]:
    """The positions of a data job's held-out shards (every ``holdout``-th, as
    ``adjacency train-eval --holdout`` holds them out; with ``shards``, of the first
    ``shards`` only, so a figure stays the same while the job goes on) whose labels are
    exact, per plies left, at most ``count`` each (the first in shard order)."""
    job = open_job(directory)
    cases: dict[int, list[Case]] = {p: [] for p in plies}
    for index in split(job, holdout)[1]:
        if shards is not None and index >= shards:
            continue
        arrays = job.read(index)
        for position, label, exact in zip(
            shard_positions(arrays), arrays["label"], arrays["exact"], strict=True
        ):
            group = cases.get(position.plies_left)
            if exact and group is not None and (count is None or len(group) < count):
                group.append((position, int(label)))
    return cases


def stored_cases(files: list[Path], plies: list[int], count: int | None) -> dict[int, list[Case]]:
    """The positions and exact values of earlier ``--out`` files with ``plies`` plies
    left, at most ``count`` each (the first in file order). A file that cannot be read or
    a line that is not such a record raises :class:`ValueError` naming the file and
    line."""
    cases: dict[int, list[Case]] = {p: [] for p in plies}
    for file in files:
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"--cases: cannot read {str(file)!r}: {error}") from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                position = Position.from_fen(record["fen"])
                exact = record["exact"]
                if not isinstance(exact, int) or isinstance(exact, bool):
                    raise TypeError(f"'exact' is {exact!r}, not a whole number")
            except (ValueError, KeyError, TypeError, AdjacencyError) as error:
                raise ValueError(
                    f"--cases: {str(file)!r} line {number} is not a position with its exact "
                    f"value (an --out record): {error}"
                ) from None
            group = cases.get(position.plies_left)
            if group is not None and (count is None or len(group) < count):
                group.append((position, exact))
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", default="17,18,19,20", help="plies left, comma-separated")
    parser.add_argument(
        "--positions", type=int, default=None, help="per plies left (default 10; --data: all)"
    )
    parser.add_argument("--rounds", type=int, default=28)
    parser.add_argument("--set", default="games", choices=SETS)
    parser.add_argument("--seed", type=int, default=None, help="of the fresh sets (default: now)")
    parser.add_argument("--scorers", default=SCORERS, help="PROFILE:DEPTH[:PATTERNS], ...")
    parser.add_argument("--threads", type=int, default=2, help="of the exact solver")
    parser.add_argument("--out", type=Path, default=None, help="JSON lines, one per position")
    parser.add_argument(
        "--data", type=Path, default=None, help="a data job: its held-out exact labels instead"
    )
    parser.add_argument(
        "--cases",
        type=Path,
        nargs="+",
        default=None,
        help="earlier --out files: their positions and exact values instead (nothing solved)",
    )
    parser.add_argument("--holdout", type=int, default=5, help="with --data: every Nth shard")
    parser.add_argument(
        "--shards", type=int, default=None, help="with --data: only shards 0 to N-1 (default all)"
    )
    args = parser.parse_args(argv)
    try:
        plies = [int(p) for p in args.plies.split(",")]
    except ValueError:
        parser.error(f"--plies: whole numbers separated by commas, got {args.plies!r}")
    try:
        scorers = [parse_scorer(spec) for spec in args.scorers.split(",")]
    except ValueError as error:
        parser.error(str(error))
    if args.data is not None and args.cases is not None:
        parser.error("--data and --cases each name the positions: give one")
    stored = args.data is not None or args.cases is not None
    count = args.positions if args.positions is not None else (None if stored else 10)
    if (count is not None and count < 1) or any(p < 2 or p > 2 * args.rounds for p in plies):
        parser.error("--positions must be at least 1 and every --plies within 2..2*rounds")
    if args.holdout < 1 or (args.shards is not None and args.shards < 1):
        parser.error("--holdout and --shards must be at least 1")
    seed = default_seed() if args.seed is None else args.seed
    console = Console(stderr=True)
    try:
        engines = [scorer.engine() for scorer in scorers]
        solver = Engine(threads=args.threads)
        if args.cases is not None:
            cases = stored_cases(args.cases, plies, count)
            print(
                "position set: the records of " + ", ".join(repr(str(file)) for file in args.cases),
                flush=True,
            )
        elif args.data is None:
            cases = fresh_cases(args.set, args.rounds, plies, count or 10, seed)
            print(describe(args.set, seed), flush=True)
        else:
            cases = held_out_cases(args.data, args.holdout, plies, count, args.shards)
            print(
                f"position set: the held-out shards of the data job {str(args.data)!r} "
                f"(every {args.holdout}th"
                + ("" if args.shards is None else f" of shards 0-{args.shards - 1}")
                + "), positions with exact labels",
                flush=True,
            )
    except (AdjacencyError, ValueError) as error:
        print(f"bench_eval_truth: {error}", file=sys.stderr)
        return 2
    if not any(cases.values()):
        print(f"bench_eval_truth: no position with {args.plies} plies left", file=sys.stderr)
        return 2
    warmup()
    truth: dict[int, list[int]] = {p: [] for p in plies}
    scored: dict[int, list[list[float]]] = {p: [[] for _ in scorers] for p in plies}
    started = time.perf_counter()
    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
    out = args.out.open("w") if args.out else None
    try:
        with Progress(*columns, TimeElapsedColumn(), console=console) as progress:
            total = sum(len(group) for group in cases.values())
            task = progress.add_task("solving and scoring", total=total)
            for p in plies:
                for position, known in cases[p]:
                    if known is None:
                        solver.clear()
                        exact = solver.solve(position).value
                    else:
                        exact = known
                    truth[p].append(exact)
                    row = [s.value(e, position) for s, e in zip(scorers, engines, strict=True)]
                    for k, value in enumerate(row):
                        scored[p][k].append(value)
                    if out is not None:
                        record = {"plies": p, "fen": position.fen(), "exact": exact}
                        record.update({s.name: v for s, v in zip(scorers, row, strict=True)})
                        out.write(json.dumps(record) + "\n")
                    progress.advance(task)
    finally:
        if out is not None:
            out.close()
    table = Table(title="error against the exact value (pieces of final margin)")
    headers = ("scorer", "plies left", "n", "RMS", "mean (bias)", "SD", "largest", "correlation")
    for column in headers:
        table.add_column(column, justify="left" if column == "scorer" else "right")
    plies = [p for p in plies if truth[p]]
    every = [t for p in plies for t in truth[p]]
    for k, scorer in enumerate(scorers):
        groups = [(str(p), scored[p][k], truth[p]) for p in plies]
        groups.append(("all", [v for p in plies for v in scored[p][k]], every))
        for label, values, solved in groups:
            e = errors(values, solved)
            if label == "all":
                e = replace(e, spread=pooled([errors(v, t) for _, v, t in groups[:-1]]))
            table.add_row(
                scorer.name if label == str(plies[0]) else "",
                label,
                str(e.n),
                f"{e.rms:.2f}",
                f"{e.bias:+.2f}",
                f"{e.spread:.2f}",
                f"{e.worst:.1f}",
                f"{e.correlation:.2f}",
            )
        table.add_section()
    Console(width=110).print(table)
    print(f"{time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    raise SystemExit(main())
