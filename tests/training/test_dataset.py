"""The sharded training-data job (``train-eval --kind patterns --data DIR``,
:mod:`adjacency.training.dataset`): a job killed by SIGKILL and resumed equals an
uninterrupted one shard for shard, Ctrl-C stops it in one line and --resume finishes it
byte for byte (on a pool of workers, whose shards so equal the serial executor's), a
Ray cluster writes the same shards as the serial executor, the labels agree with an
exact oracle and with fresh searches, the manifest's checksums catch a corrupt shard,
bad directories are one line and exit 2, and the fit streamed from the shards equals
the in-memory fit of the same positions."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from adjacency.cli import main
from adjacency.engine import Engine
from adjacency.engine.kernels.patterns import expand
from adjacency.engine.weights_file import load_patterns
from adjacency.training.dataset import (
    MANIFEST,
    JobSettings,
    generate,
    open_job,
    positions,
    shard_name,
    split,
    start_job,
)
from adjacency.training.fit import Sample, fit_patterns
from adjacency.workers import RayExecutor, SerialExecutor
from oracles import exact_value, within_budget

SHARDS = 24
SETTINGS = JobSettings(
    seed=5, shards=SHARDS, shard_games=1, rounds=(10,), depth=3, exact_plies=4, sample=1.0
)
"""A tiny job: 24 one-game shards of 10-round games, every position kept, depth-3 labels,
exact with at most 4 plies left (the real job solves with 20 left: too slow for a test)."""
ARGV = [
    "train-eval", "--kind", "patterns", "--games", str(SHARDS), "--chunk-games", "1",
    "--rounds", "10", "--depth", "3", "--exact-plies", "4", "--sample", "1", "--seed", "5",
]  # fmt: skip
"""The command line of :data:`SETTINGS` (the other settings at their defaults)."""


def files(directory: Path) -> dict[str, bytes]:
    """Every file of a job directory by name."""
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The job made without interruption by the serial executor."""
    directory = tmp_path_factory.mktemp("reference") / "job"
    job = start_job(directory, SETTINGS, resume=False)
    entries = list(generate(job, SerialExecutor()))
    assert sorted(e["index"] for e in entries) == list(range(SHARDS))
    return directory


def _listed(directory: Path) -> int:
    try:
        return len(json.loads((directory / MANIFEST).read_text())["shards"])
    except (OSError, ValueError):
        return 0


@pytest.mark.slow
def test_a_killed_job_resumed_equals_an_uninterrupted_one_shard_for_shard(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "job"
    argv = [*ARGV, "--data", str(directory), "--no-fit", "--jobs", "1"]
    process = subprocess.Popen(
        [sys.executable, "-m", "adjacency", *argv],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while _listed(directory) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the job finished before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)  # the command and its worker, like a power cut
    process.wait(timeout=30)

    killed = open_job(directory, SETTINGS)
    before = {i: (directory / shard_name(i)).read_bytes() for i in killed.done}
    assert 2 <= len(before) < SHARDS and not killed.complete

    assert main([*argv, "--resume"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["shards"] == SHARDS
    assert summary["labelled_now"] == summary["positions"] - sum(
        e["positions"] for e in killed.done.values()
    )  # only the missing shards were made
    assert all((directory / shard_name(i)).read_bytes() == b for i, b in before.items())
    assert files(directory) == files(reference)  # every shard and the manifest, byte for byte


@pytest.mark.slow
@pytest.mark.parametrize("whom", ["terminal", "driver"])
def test_ctrl_c_stops_the_job_in_one_line_and_resume_finishes_it_byte_for_byte(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str], whom: str
) -> None:
    """SIGINT to the whole process group (a terminal's Ctrl-C: the workers get it too) or
    to the command alone: one line saying how far it got and that --resume continues,
    exit 130, no error; the resumed job equals the uninterrupted one byte for byte. Both
    runs use a pool of two workers (``--jobs 2``), which finish their shards in any
    order: the shards the pool made (most of the job) equal the serial executor's."""
    directory = tmp_path / "job"
    argv = [*ARGV, "--data", str(directory), "--no-fit", "--jobs", "2"]
    process = subprocess.Popen(
        [sys.executable, "-m", "adjacency", *argv],
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while _listed(directory) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the job finished before it could be stopped"
    if whom == "terminal":
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    lines = [line for line in err.splitlines() if not line.lstrip().startswith("shards")]
    assert process.returncode == 130, err
    assert out == ""
    stopped = open_job(directory, SETTINGS)
    assert 2 <= len(stopped.done) < SHARDS
    assert lines == [
        f"stopped with {len(stopped.done)} of {SHARDS} shards written (each one kept): "
        "--resume continues"
    ]

    assert main([*argv, "--resume"]) == 0
    assert json.loads(capsys.readouterr().out)["shards"] == SHARDS
    assert files(directory) == files(reference)  # every shard and the manifest, byte for byte


@pytest.mark.slow
def test_a_ray_cluster_writes_the_same_shards(
    tmp_path: Path, reference: Path, ray_cluster: Any
) -> None:
    """Six shards on the test cluster's two worker nodes; a shard depends on the seed and
    its number, not on the job's length, so they equal the reference's first six."""
    settings = dataclasses.replace(SETTINGS, shards=6)
    job = start_job(tmp_path / "ray", settings, resume=False)
    with RayExecutor() as executor:
        assert sorted(e["index"] for e in generate(job, executor)) == list(range(6))
    for i in range(6):
        assert (tmp_path / "ray" / shard_name(i)).read_bytes() == (
            reference / shard_name(i)
        ).read_bytes()
    listed = json.loads((reference / MANIFEST).read_text())["shards"][:6]
    assert open_job(tmp_path / "ray", settings).manifest()["shards"] == listed


def test_labels_agree_with_an_exact_oracle_and_with_fresh_searches(reference: Path) -> None:
    job = open_job(reference, SETTINGS)
    rng = random.Random(2)
    search, solver = Engine(tt_mb=4, profile="v1"), Engine(tt_mb=4, profile="v4")
    checked = {"oracle": 0, "solver": 0, "search": 0}
    for index in rng.sample(sorted(job.done), 6):
        arrays = job.read(index)
        found = positions(arrays)
        assert (arrays["exact"] == (arrays["plies"] <= SETTINGS.exact_plies)).all()
        assert len(set(arrays["game"].tolist())) == SETTINGS.shard_games
        for position, label, exact in zip(found, arrays["label"], arrays["exact"], strict=True):
            assert position.plies_left >= 2 and not position.is_over
            if exact and within_budget(position, 20_000):
                assert label == exact_value(position), position.fen()  # brute force
                checked["oracle"] += 1
            elif exact:
                solver.clear()  # another profile's solver (other move ordering)
                assert label == solver.solve(position).value, position.fen()
                checked["solver"] += 1
            elif rng.random() < 0.3:
                search.clear()
                assert label == search.search(position, depth=SETTINGS.depth).value
                checked["search"] += 1
    assert min(checked.values()) >= 3, checked


def test_the_manifest_checksums_catch_a_corrupt_shard_and_bad_directories_exit_2(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "job"
    shutil.copytree(reference, directory)
    argv = [*ARGV, "--no-fit", "--jobs", "1"]

    def fails(*extra: str) -> str:
        assert main([*argv, *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1, err
        return err

    shard = directory / shard_name(7)
    content = bytearray(shard.read_bytes())
    content[len(content) // 2] ^= 0xFF
    shard.write_bytes(bytes(content))
    err = fails("--data", str(directory), "--resume")
    assert "shard-00007.npz" in err and "checksum" in err
    assert "checksum" in fails("--data", str(directory), "--resume", "--no-fit")
    assert "no job directory" in fails("--data", str(tmp_path / "missing"), "--resume")
    assert "already holds a job" in fails("--data", str(directory))
    other = fails("--data", str(directory), "--resume", "--seed", "6")
    assert "other settings" in other and "seed 5 (asked 6)" in other
    (tmp_path / "empty").mkdir()
    assert "not a job" in fails("--data", str(tmp_path / "empty"), "--resume")
    (directory / MANIFEST).write_text("{")
    assert "cannot read" in fails("--data", str(directory), "--resume")
    assert "--data" in fails("--resume")
    assert not (tmp_path / "patterns-8x8.json").exists()


def fitted_in_memory(job: Any, indices: list[int], parity: bool = False) -> np.ndarray:
    """The in-memory fit (window 10, ridge 100; ``parity``: with the parity term) of the
    positions of shards ``indices``."""
    samples = []
    for i in indices:
        arrays = job.read(i)
        for position, label, exact in zip(
            positions(arrays), arrays["label"], arrays["exact"], strict=True
        ):
            samples.append(Sample(position.fen(), position.plies_left, float(label), bool(exact)))
    table, _ = fit_patterns(samples, 10, 100.0, parity)
    return table


def test_the_fit_streams_the_shards_and_holds_out_every_fourth(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "job"
    shutil.copytree(reference, directory)
    out = tmp_path / "patterns.json"
    fit = ["--holdout", "4", "--window", "10", "--ridge", "100", "--out", str(out)]
    assert main([*ARGV, "--data", str(directory), "--resume", *fit]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[0])
    job = open_job(directory, SETTINGS)
    train, held = split(job, 4)
    assert held == [3, 7, 11, 15, 19, 23]
    assert summary["labelled_now"] == 0
    assert summary["positions"] == sum(job.done[i]["positions"] for i in train)
    assert summary["held_out_positions"] == sum(job.done[i]["positions"] for i in held)
    assert summary["held_out_rms_pieces"]["all"]["n"] == summary["held_out_positions"]
    # The same positions fitted in memory give the same weights.
    expected = fitted_in_memory(job, train)
    table, version = load_patterns(out)
    assert version == 1 and np.array_equal(table, expand(expected))


def test_fit_only_fits_the_shards_made_so_far_and_makes_none(
    tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "job"
    shutil.copytree(reference, directory)
    lost = [5, *range(20, SHARDS)]  # a job stopped early, one shard lost
    for index in lost:
        (directory / shard_name(index)).unlink()
    out = tmp_path / "patterns.json"
    fit = ["--holdout", "4", "--window", "10", "--ridge", "100", "--out", str(out)]
    assert main([*ARGV, "--data", str(directory), "--fit-only", *fit]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[0])
    assert summary["labelled_now"] == 0
    assert not any((directory / shard_name(i)).exists() for i in lost)
    job = start_job(directory, SETTINGS, resume=True)  # the shards on disk, checked
    assert sorted(job.done) == [i for i in range(20) if i != 5]
    train, held = split(job, 4)
    assert held == [3, 7, 11, 15, 19]
    expected = fitted_in_memory(job, train)
    table, _ = load_patterns(out)
    assert np.array_equal(table, expand(expected))
    meta = json.loads(out.read_text())["training"]
    assert meta["shards"] == sorted(job.done) and meta["command"].endswith("--fit-only")
    # the data is named by the manifest's hash, which pins every shard's own
    manifest = (directory / "manifest.json").read_bytes()
    assert meta["data"]["sha256"] == hashlib.sha256(manifest).hexdigest()
    assert meta["data"]["positions"] == meta["positions"] + meta["held_out_positions"]
    # the training run's provenance: code, libraries, machine, its options and seed
    record = meta["provenance"]
    assert record["settings"]["fit_only"] is True and record["settings"]["ridge"] == 100
    assert record["seeds"] == record["settings"]["seed"] and record["libraries"]["numpy"]
    assert record["machine"]["cores"] >= 1 and record["version"]
    assert "terms" not in json.loads(out.read_text())  # as the shipped v4 file
    # --parity: the parity weight fitted too, the streamed fit again the in-memory one.
    assert main([*ARGV, "--data", str(directory), "--fit-only", "--parity", *fit]) == 0
    content = json.loads(out.read_text())
    assert content["terms"] == ["parity"]
    assert content["training"]["command"].endswith("--fit-only --parity")
    with_parity = fitted_in_memory(job, train, parity=True)
    assert with_parity.shape[1] == expected.shape[1] + 1 and with_parity[:, -1].any()
    assert np.array_equal(load_patterns(out)[0], expand(with_parity))
    assert main([*ARGV, "--data", str(directory), "--fit-only", "--no-fit"]) == 2
    assert main([*ARGV, "--data", str(tmp_path / "none"), "--fit-only", *fit]) == 2
