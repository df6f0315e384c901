"""The suite's skip guard, run on a small suite of its own in a child pytest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
SUITE = """
import pytest

def test_runs():
    assert True

def test_needs_a_browser():
    pytest.skip("no browser here")
"""


def run_suite(
    tmp_path: Path, ci: str | None, body: str = SUITE
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_small.py").write_text(body)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "skip_guard", "-p", "no:cacheprovider",
         "-q", "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip


def test_a_skip_is_named_in_the_last_lines(tmp_path: Path) -> None:
    run = run_suite(tmp_path, ci=None)
    assert run.returncode == 0, run.stdout
    tail = run.stdout.strip().splitlines()[-6:]
    assert any("NOT EVERYTHING RAN: 1 test(s) skipped" in line for line in tail), run.stdout
    assert any("test_needs_a_browser: no browser here" in line for line in tail), run.stdout


def test_under_ci_a_skip_fails_the_run(tmp_path: Path) -> None:
    run = run_suite(tmp_path, ci="true")
    assert run.returncode == 1, run.stdout
    assert "a skipped test fails the run" in run.stdout


def test_a_run_without_skips_says_nothing_and_passes_under_ci(tmp_path: Path) -> None:
    run = run_suite(tmp_path, ci="true", body="def test_runs():\n    assert True\n")
    assert run.returncode == 0, run.stdout
    assert "NOT EVERYTHING RAN" not in run.stdout
