"""The suite's hang guard (:mod:`hang_guard`), run on a small suite of its own in a
child pytest with pytest-timeout's limit of 1 s."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from plugin_suite import run_plugin_suite

SUITE = """
import time

import pytest

def test_a_second_and_a_half():
    time.sleep(1.5)

@pytest.mark.timeout(0.5)
def test_its_own_limit():
    time.sleep(0.8)
"""


def run_suite(tmp_path: Path, load: str) -> subprocess.CompletedProcess[str]:
    return run_plugin_suite(
        tmp_path, "hang_guard", SUITE, None, ("--timeout", "1"), ADJACENCY_TEST_LOAD=load
    )


def test_on_the_suite_s_own_load_a_test_past_its_limit_is_ended(tmp_path: Path) -> None:
    run = run_suite(tmp_path, "2")
    assert run.returncode == 1, run.stdout
    assert "2 failed" in run.stdout, run.stdout
    assert "Timeout" in run.stdout


def test_beside_other_work_each_limit_grows_with_the_load(tmp_path: Path) -> None:
    """At 5 tasks a core (a load of 10 on 2 cores) each limit is 2.5 times its own:
    2.5 s for the run's, 1.25 s for the test's own mark, and both tests pass."""
    run = run_suite(tmp_path, "5")
    assert run.returncode == 0, run.stdout
    assert "2 passed" in run.stdout, run.stdout


def test_a_load_that_is_not_a_number_is_a_usage_error(tmp_path: Path) -> None:
    run = run_suite(tmp_path, "busy")
    assert run.returncode == 4, run.stdout + run.stderr
    assert "ADJACENCY_TEST_LOAD='busy' is not a number" in run.stdout + run.stderr


def test_the_guard_s_examples_hold() -> None:
    import doctest

    import hang_guard

    assert doctest.testmod(hang_guard).failed == 0


def test_the_suite_s_own_waits_stretch_as_its_limits_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """``wait_until``'s deadline and ``run_in_group``'s timeout (:func:`hang_guard.guard`)."""
    from hang_guard import LOAD_VARIABLE, guard

    monkeypatch.setenv(LOAD_VARIABLE, "1")
    assert guard(55.0) == 55.0
    monkeypatch.setenv(LOAD_VARIABLE, "5")
    assert guard(55.0) == 137.5
    monkeypatch.setenv(LOAD_VARIABLE, "40")
    assert guard(55.0) == 275.0
