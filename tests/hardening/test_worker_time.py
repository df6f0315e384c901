"""The worker time by kind that ends every run (tests/worker_time.py), run on a small suite
of its own in a child pytest under xdist: the kind is named where a test runs and added up
where the reports arrive."""

from __future__ import annotations

from pathlib import Path

from plugin_suite import run_plugin_suite

UNDER_XDIST = "-n 1 -W ignore::pytest.PytestUnknownMarkWarning"
"""One xdist worker; the suite's markers unregistered in the child (its config is empty)."""

LEAGUE = """
from league_helpers import thread_server

def test_beside_a_league_starter():
    assert thread_server
"""

SUITE = """
import time

import pytest

@pytest.mark.browser
@pytest.mark.sandbox
def test_in_a_browser():
    time.sleep(0.4)

@pytest.mark.jvm
def test_with_a_jdk():
    pass

@pytest.fixture
def slow_teardown():
    yield
    time.sleep(0.3)

def test_plain(slow_teardown):
    pass
"""


def test_every_kind_that_ran_is_listed_with_its_tests_and_seconds(tmp_path: Path) -> None:
    """The first matching kind wins (browser over sandbox); a module holding a league
    starter is a league server's; teardown counts; the table comes from one xdist worker's
    reports."""
    (tmp_path / "test_league.py").write_text(LEAGUE)
    run = run_plugin_suite(tmp_path, "worker_time", SUITE, None, PYTEST_ADDOPTS=UNDER_XDIST)
    assert run.returncode == 0, run.stdout + run.stderr
    table = run.stdout.split("worker time by kind")[-1].splitlines()
    lines = table[2 : 2 + next(n for n, line in enumerate(table[2:]) if line.startswith("all")) + 1]
    rows = {line[:27].strip(): line[27:].split() for line in lines}
    assert list(rows) == [
        "browser",
        "other sandbox and hosting",
        "league servers",
        "everything else",
        "all",
    ], run.stdout
    assert rows["browser"][2] == "1" and float(rows["browser"][0]) >= 0.4, run.stdout
    assert rows["everything else"][2] == "1", run.stdout
    assert float(rows["everything else"][0]) >= 0.3, run.stdout
    assert rows["all"][2] == "4", run.stdout
