"""The backed-up target (``train-eval --data DIR --target backup``,
:mod:`adjacency.training.backed_up`): its schedule fits every phase before a search's leaves
need it, on rows with fewer plies left only; on a 4x4 board where every position is
enumerated and solved by the brute-force oracle, backing up with a fit that can hold every
position (one weight per position) equals the exact values at every search depth, full
depth included; and through the command, searches to the end give the exact solver's
values, whose fit the weights file holds."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.cli import main
from adjacency.core import Position
from adjacency.engine import Engine
from adjacency.engine.kernels.patterns import expand
from adjacency.engine.weights_file import load_patterns
from adjacency.training.backed_up import Fit, Label, back_up, schedule
from adjacency.training.dataset import open_job, positions, split
from adjacency.training.fit import Sample, fit_patterns, ridge_patterns
from oracles import exact_value


@settings(max_examples=300, deadline=None)
@given(
    pending=st.sets(st.integers(2, 40), max_size=30),
    depth=st.integers(1, 7),
    width=st.integers(1, 5),
    window=st.integers(0, 3),
)
def test_every_phase_is_fitted_on_fewer_plies_left_before_a_search_leaf_needs_it(
    pending: set[int], depth: int, width: int, window: int
) -> None:
    steps = schedule(pending, depth, width, window)
    labelled: list[int] = []
    latest: dict[int, Fit] = {}
    for step in steps:
        if isinstance(step, Fit):
            assert step.low == max(step.phase * width - window, 0)
            assert step.phase * width <= step.high <= step.phase * width + width - 1
            # every pending row it fits is labelled already
            assert all(p in labelled for p in pending if step.low <= p <= step.high)
            previous = latest.get(step.phase)
            assert previous is None or previous.high < step.high  # refitted only on new rows
            latest[step.phase] = step
            continue
        assert isinstance(step, Label)
        assert not labelled or labelled[-1] < step.plies  # outward from the end
        assert step.depth == min(depth, step.plies)
        leaf = step.plies - depth
        if leaf >= 2:
            fitted = latest[leaf // width]  # the leaves' phase is fitted ...
            # ... on every row of its range with fewer plies left than the searched ones
            assert fitted.high == min(leaf // width * width + width - 1, step.plies - 1)
        labelled.append(step.plies)
    assert labelled == sorted(pending)
    fits = [s for s in steps if isinstance(s, Fit)]
    if depth >= width:  # the leaves lie in earlier phases: one fit a phase
        assert len(fits) == len({f.phase for f in fits})


def reachable(start: Position) -> list[Position]:
    """Every position (not finished) reachable from ``start``."""
    seen = {start}
    frontier = [start]
    while frontier:
        position = frontier.pop()
        for square in position.legal_squares():
            child = position.play(square)
            if not child.is_over and child not in seen:
                seen.add(child)
                frontier.append(child)
    return sorted(seen, key=lambda p: (p.plies_left, p.fen()))


@pytest.mark.parametrize("depth", [1, 2, 3, 8])
def test_backed_up_values_equal_the_brute_force_oracle_on_every_4x4_position(depth: int) -> None:
    """4x4, 4 rounds: every position enumerated, those with at most 2 plies left labelled
    exactly, the rest backed up by a negamax of ``depth`` over Position (8: to the end)
    whose leaves read the phase fitted so far (one ridge weight per position, so the fit
    holds each label; a leaf outside what its phase was fitted on is a KeyError)."""
    rows = reachable(Position.start(4, 4, 4))
    memo: dict[Position, int] = {}
    truth = [exact_value(p, memo) for p in rows]
    plies = np.array([p.plies_left for p in rows])
    labels = np.array(
        [float(t) if p.plies_left <= 2 else np.nan for p, t in zip(rows, truth, strict=True)]
    )
    width, window = 2, 1
    phases: dict[int, dict[Position, float]] = {}
    read: list[int] = []

    def fit(step: Fit) -> None:
        here = np.flatnonzero((plies >= step.low) & (plies <= step.high))
        assert not np.isnan(labels[here]).any()
        columns = np.arange(len(here))[:, None]
        w = ridge_patterns(columns, np.zeros((len(here), 0)), labels[here], 1e-9, len(here))
        phases[step.phase] = {rows[i]: float(w[k]) for k, i in enumerate(here)}

    def value(position: Position, left: int) -> float:
        if position.is_over:
            return position.margin()
        if left == 0 and position.plies_left >= 2:
            read.append(position.plies_left)
            return phases[position.plies_left // width][position]
        best = -np.inf
        for square in position.legal_squares():
            child = position.play(square)
            v = child.margin(position.turn) if child.is_over else value(child, max(left - 1, 0))
            if not child.is_over and child.turn != position.turn:
                v = -v
            best = max(best, v)
        return float(best)

    def label(step: Label) -> None:
        for i in np.flatnonzero(plies == step.plies):
            labels[i] = value(rows[i], step.depth)

    pending = sorted(set(plies[plies > 2].tolist()))
    back_up(schedule(pending, depth, width, window), fit, label)
    assert labels.tolist() == pytest.approx([float(t) for t in truth], abs=1e-4)
    assert bool(read) == (depth <= 6)  # the shallow searches did read fitted leaves
    assert len(rows) > 100 and len(set(truth)) > 3


ARGV = [
    "train-eval", "--kind", "patterns", "--games", "64", "--chunk-games", "4",
    "--rounds", "3", "--depth", "2", "--exact-plies", "2", "--sample", "1", "--seed", "9",
]  # fmt: skip
"""A tiny job made by the command: 16 shards of four 3-round games (6 plies), every
position kept, exact with at most 2 plies left."""


def test_the_command_backs_up_searches_to_the_end_into_the_exact_values_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "job"
    assert main([*ARGV, "--data", str(directory), "--no-fit", "--jobs", "1"]) == 0
    capsys.readouterr()
    out = tmp_path / "backup.json"
    fit = ["--holdout", "4", "--window", "10", "--ridge", "100", "--out", str(out)]
    argv = [*ARGV, "--data", str(directory), "--fit-only", "--target", "backup", *fit]
    assert main([*argv, "--backup-depth", "6"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[0])
    job = open_job(directory)
    train, held = split(job, 4)
    engine = Engine(tt_mb=4, threads=1)
    samples = []
    for i in train:
        for position in positions(job.read(i)):
            engine.clear()
            exact = float(engine.solve(position).value)
            samples.append(Sample(position.fen(), position.plies_left, exact, True))
    expected, _ = fit_patterns(samples, 10, 100.0)
    assert np.array_equal(load_patterns(out)[0], expand(expected))
    command = json.loads(out.read_text())["training"]["command"]
    assert command.endswith("--target backup --backup-depth 6")
    # the held-out rows were backed up too: exact, so the fit's error is its own
    assert summary["held_out_rms_pieces"]["all"]["n"] == sum(job.done[i]["positions"] for i in held)

    assert main([*ARGV, "--data", str(directory), "--fit-only", "--backup-depth", "3", *fit]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--backup-depth" in err
