"""The suite's skip guard, run on a small suite of its own in a child pytest."""

from __future__ import annotations

import subprocess
from pathlib import Path

from plugin_suite import run_plugin_suite

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
    return run_plugin_suite(tmp_path, "skip_guard", body, ci)


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
