"""The suite's time guard, run on a small suite of its own in a child pytest."""

from __future__ import annotations

import subprocess
from pathlib import Path

from plugin_suite import run_plugin_suite

SUITE = """
import time

import pytest

def test_quick():
    assert True

@pytest.fixture
def slow_setup():
    time.sleep(0.3)
    yield
    time.sleep(0.3)

def test_slow_in_its_fixture(slow_setup):
    assert True

def test_slow_in_its_body():
    time.sleep(0.8)
"""


def run_suite(
    tmp_path: Path, ci: str | None, budget: str = "0.5", body: str = SUITE
) -> subprocess.CompletedProcess[str]:
    return run_plugin_suite(tmp_path, "time_guard", body, ci, ADJACENCY_TEST_BUDGET=budget)


def test_tests_over_the_budget_are_named_with_their_whole_time(tmp_path: Path) -> None:
    """Setup and teardown count: the fixture's two sleeps put its test over 0.5 s."""
    run = run_suite(tmp_path, ci=None)
    assert run.returncode == 0, run.stdout
    assert "2 test(s) took longer than 0.5 s" in run.stdout, run.stdout
    named = [
        line for line in run.stdout.splitlines() if line.strip().endswith(("_body", "_fixture"))
    ]
    assert [line.split()[-1].rsplit("::", 1)[-1] for line in named] == [
        "test_slow_in_its_body",
        "test_slow_in_its_fixture",
    ], run.stdout  # slowest first
    assert "test_quick" not in run.stdout.split("tests over the time budget")[-1]


def test_under_ci_a_test_over_the_budget_fails_the_run(tmp_path: Path) -> None:
    run = run_suite(tmp_path, ci="true")
    assert run.returncode == 1, run.stdout
    assert "a test over the time budget fails the run" in run.stdout


def test_a_run_within_the_budget_says_nothing_and_passes_under_ci(tmp_path: Path) -> None:
    run = run_suite(tmp_path, ci="true", budget="30")
    assert run.returncode == 0, run.stdout
    assert "time budget" not in run.stdout


def test_a_budget_that_is_not_a_number_is_a_usage_error(tmp_path: Path) -> None:
    run = run_suite(tmp_path, ci=None, budget="soon")
    assert run.returncode == 4, run.stdout + run.stderr
    assert "ADJACENCY_TEST_BUDGET='soon' is not a number of seconds" in run.stdout + run.stderr
