"""The population benchmark (benchmarks/bench_course_population.py) runs end to end on
course-shaped projects written here, each sent as its Download ZIP to a league made as
the tutorial says and served by a real ``league serve`` process: one that plays is
accepted with the bot its form shows and reaches a game ended on the board; one written
for a later Java, on a server without the newer Java, is refused saying which; the table
and the load are printed. One project a test, so that each stays within the suite's time
budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjacency.hosting.newer_jdk import NEWER_JAVA_ENV
from cli_helpers import run_script
from fx_course_projects import NEEDS_JAVA_19, SHAPES, Shape, download_zip
from league_helpers import REPO, env
from sandbox_helpers import own_sandboxes

pytestmark = [pytest.mark.slow, pytest.mark.jvm]

SCRIPT = REPO / "benchmarks" / "bench_course_population.py"


def bench(
    tmp_path: Path, shape: Shape, more: dict[str, str] | None = None
) -> tuple[dict[str, Any], str]:
    """The benchmark on the one project of ``shape`` (its Download ZIP, in a folder of
    its own), ``more`` in its environment: its row and what it printed."""
    zips = tmp_path / "zips"
    zips.mkdir()
    download_zip(shape, zips / f"{shape.name}-main.zip", sdk_bytes=1 << 10)
    rows_file = tmp_path / "rows.json"
    run = run_script(SCRIPT, str(zips), "--rounds", "2", "--pace", "0", "--timeout", "45",
                     "--json", str(rows_file), env={**env(), **(more or {})}, cwd=tmp_path,
                     timeout=58)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{shape.name}-main" in run.stdout and "load average before" in run.stdout
    (row,) = json.loads(rows_file.read_text())
    assert row["project"] == f"{shape.name}-main"
    return row, run.stdout


def test_a_project_that_plays_is_timed_to_its_first_game(tmp_path: Path, fx_tools: None) -> None:
    row, _ = bench(tmp_path, SHAPES[1])  # one bot-type box: Minimax (its default)
    assert row["verdict"] == "accepted", row
    assert row["plays"] == "Minimax as O", row
    assert "botType=Minimax" in row["choice"], row
    assert 0 < row["to_verdict"] <= row["to_game"], row
    assert not own_sandboxes()


def test_a_refused_project_is_told_with_its_reason(tmp_path: Path, fx_tools: None) -> None:
    missing = {NEWER_JAVA_ENV: str(tmp_path / "no-newer-java")}  # the server's Java 17 alone
    row, printed = bench(tmp_path, NEEDS_JAVA_19, missing)
    assert row["verdict"] == "refused" and row["to_game"] is None, row
    assert "its sources need Java 19 or newer" in row["reason"], row
    assert "refused" in printed
