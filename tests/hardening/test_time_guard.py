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


FLAKY = """
import time
from pathlib import Path

def test_fails_once(tmp_path_factory):
    time.sleep(0.3)
    mark = Path(__file__).with_name("failed-once")
    if not mark.exists():
        mark.touch()
        raise AssertionError("held off its core")
"""


def run_suite(
    tmp_path: Path,
    ci: str | None,
    budget: str = "0.5",
    body: str = SUITE,
    args: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    return run_plugin_suite(tmp_path, "time_guard", body, ci, args, ADJACENCY_TEST_BUDGET=budget)


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


def test_a_test_run_again_is_named_and_each_attempt_is_timed_on_its_own(tmp_path: Path) -> None:
    """As ``make test`` runs (``--reruns 1``): the failed attempt and the passing one take
    0.3 s each, within a 0.5 s budget each, so the run passes under CI; the test that
    failed once is still named, with its failure."""
    run = run_suite(tmp_path, ci="true", body=FLAKY, args=("--reruns", "1", "-raR"))
    assert run.returncode == 0, run.stdout
    assert "1 test(s) failed and were run again:" in run.stdout, run.stdout
    assert "test_small.py::test_fails_once" in run.stdout.split("were run again")[-1]
    assert "held off its core" in run.stdout, run.stdout
    assert "time budget" not in run.stdout, run.stdout
    plain = tmp_path / "plain"
    plain.mkdir()
    once = run_suite(plain, ci="true", body=FLAKY)
    assert once.returncode == 1, once.stdout  # without --reruns, the failure fails the run
    assert "were run again" not in once.stdout
