"""The build job: resume byte for byte (a kill inside the library, a SIGKILL of the
command), the checkpoint's refusals, the count."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.cli.puzzle_commands import read_sources
from adjacency.puzzles import Puzzle, load_puzzles
from adjacency.puzzles.build import BuildError, BuildSettings, Candidate, build, checkpoint_path
from adjacency.puzzles.prove import Rules
from adjacency.workers.executor import SerialExecutor
from puzzle_helpers import RULES, game_candidates, web_database

SETTINGS = BuildSettings(count=24, seed=7, rules=RULES)


@pytest.fixture(scope="module")
def candidates() -> list[Candidate]:
    return game_candidates(40, seed=11)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, candidates: list[Candidate]) -> bytes:
    """The file of an uninterrupted build."""
    out = tmp_path_factory.mktemp("reference") / "puzzles.jsonl.gz"
    figures = build(candidates, SETTINGS, out, SerialExecutor())
    assert figures.kept == SETTINGS.count and figures.resumed_batches == 0
    assert not checkpoint_path(out).exists()
    return out.read_bytes()


def test_a_build_stopped_and_resumed_writes_the_same_bytes(
    tmp_path: Path, candidates: list[Candidate], reference: bytes
) -> None:
    out = tmp_path / "puzzles.jsonl.gz"
    with pytest.raises(KeyboardInterrupt):
        build(candidates, SETTINGS, out, SerialExecutor(), stop_after=1)
    partial = checkpoint_path(out)
    assert not out.exists() and len(partial.read_text().splitlines()) == 2
    with partial.open("a") as handle:
        handle.write('{"batch":5,"examined":3')  # a line torn by the kill
    with pytest.raises(BuildError, match="--resume"):
        build(candidates, SETTINGS, out, SerialExecutor())
    other = BuildSettings(count=24, seed=8, rules=RULES)
    with pytest.raises(BuildError, match="other settings"):
        build(candidates, other, out, SerialExecutor(), resume=True)
    figures = build(candidates, SETTINGS, out, SerialExecutor(), resume=True)
    assert figures.resumed_batches == 1
    assert out.read_bytes() == reference
    assert not partial.exists()


def test_the_file_is_sorted_by_id_and_a_larger_count_extends_it(
    tmp_path: Path, candidates: list[Candidate], reference: bytes
) -> None:
    out = tmp_path / "puzzles.jsonl"
    with pytest.raises(KeyboardInterrupt):
        build(
            candidates,
            BuildSettings(count=24, seed=7, rules=RULES),
            out,
            SerialExecutor(),
            stop_after=2,
        )
    bigger = BuildSettings(count=30, seed=7, rules=RULES)
    figures = build(candidates, bigger, out, SerialExecutor(), resume=True)
    assert figures.resumed_batches == 2 and figures.kept == 30
    puzzles = load_puzzles(out)
    ids = [p.id for p in puzzles]
    assert ids == sorted(ids) and len(set(ids)) == 30
    shipped_before = {p.id for p in load_puzzles_bytes(tmp_path, reference)}
    assert shipped_before < set(ids)  # the first 24 in candidate order are kept


def load_puzzles_bytes(folder: Path, data: bytes) -> list[Puzzle]:
    path = folder / "reference.jsonl.gz"
    path.write_bytes(data)
    return load_puzzles(path)


def test_too_few_candidates_is_one_clear_error(tmp_path: Path, candidates: list[Candidate]) -> None:
    out = tmp_path / "puzzles.jsonl"
    with pytest.raises(BuildError, match=r"only .* puzzles in .* candidates, 100000 asked"):
        build(candidates[:50], BuildSettings(100_000, 7, RULES), out, SerialExecutor())
    assert not out.exists()


def _batches(partial: Path) -> int:
    try:
        return max(0, len(partial.read_text().splitlines()) - 1)
    except OSError:
        return 0


@pytest.mark.slow
def test_a_killed_command_resumed_equals_an_uninterrupted_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = web_database(tmp_path / "games.sqlite3", 120, seed=5)
    before = database.read_bytes()
    argv = ["puzzles", "build", "--from", f"web:{database}", "--count", "30", "--seed", "3"]
    argv += ["--min-plies", "2", "--max-plies", "10", "-j", "1"]
    # The uninterrupted file, built in this process by the serial executor from the
    # command's own reading of the database (the result does not depend on the executor).
    reference = tmp_path / "reference.jsonl"
    settings = BuildSettings(count=30, seed=3, rules=Rules(min_plies=2, max_plies=10))
    build(read_sources([f"web:{database}"]), settings, reference, SerialExecutor())

    out = tmp_path / "killed.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "adjacency", *argv, "--out", str(out)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    partial = checkpoint_path(out)
    deadline = time.monotonic() + 50
    while _batches(partial) < 1 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert process.poll() is None, "the build finished before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)  # the command and its worker, like a power cut
    process.wait(timeout=30)
    assert not out.exists() and _batches(partial) >= 1

    assert main([*argv, "--out", str(out), "--resume"]) == 0
    summary = capsys.readouterr().out
    assert "30 puzzles written" in summary and "positions/s" in summary
    assert "batches from the checkpoint" in summary
    assert out.read_bytes() == reference.read_bytes()
    assert database.read_bytes() == before  # the source was only read
