"""A pytest plugin: no test takes longer than the suite's budget (loaded by tests/conftest.py).

A test is judged by its whole time: setup, call and teardown, as pytest's
``--durations`` reports them (a session fixture's start-up counts towards the first test
that uses it). Every test must finish within :data:`BUDGET_SECONDS` on the project's
2-core machine whatever hypothesis draws: a slow test is split, or its oracle bounded
(``tests/oracles.py``). The run ends with a section naming each test over the budget; with
the environment variable ``CI`` set (as ``.ci/run`` runs), such a test also fails the run,
so a suite that creeps towards CI's time limit is caught while it is one test, not twenty.
``make test`` also prints pytest's 15 slowest durations, so each run shows how close the
slowest tests are.
"""

from __future__ import annotations

import os
from collections import defaultdict

import pytest

BUDGET_SECONDS = 60.0
"""The most one test (setup, call and teardown together) may take."""

BUDGET_VARIABLE = "ADJACENCY_TEST_BUDGET"
"""Overrides :data:`BUDGET_SECONDS` (seconds): the guard's own tests use a small budget."""

FAILURE_LINES = 40
"""How many of a failed attempt's last traceback lines the run shows for a test run again."""

STRICT_VARIABLE = "CI"
"""When set (non-empty), a test over the budget makes the run fail (exit status 1)."""

_TIMES: dict[str, float] = defaultdict(float)
"""Each test's seconds so far in its current attempt, by node id (in this process: the
controller under xdist)."""

_RETRIED: dict[str, list[tuple[float, str]]] = defaultdict(list)
"""The seconds and the failure (its traceback's last lines) of each failed attempt of a
test that ``make test`` ran again (pytest-rerunfailures' ``--reruns``), by node id: each
attempt is judged on its own, and the run names every test that failed once, so a flaky
test is seen, not hidden."""


def budget() -> float:
    """The budget in force: the environment's override, else :data:`BUDGET_SECONDS`."""
    text = os.environ.get(BUDGET_VARIABLE, "")
    try:
        return float(text) if text else BUDGET_SECONDS
    except ValueError:
        raise pytest.UsageError(f"{BUDGET_VARIABLE}={text!r} is not a number of seconds") from None


def pytest_configure(config: pytest.Config) -> None:
    _TIMES.clear()
    _RETRIED.clear()
    budget()  # a bad override is a usage error before any test runs


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Adds each phase's duration to its test's attempt (the controller gets every report
    under xdist); a failed attempt that is run again ends that attempt."""
    _TIMES[report.nodeid] += report.duration
    if str(report.outcome) == "rerun":  # pytest-rerunfailures sets it beyond pytest's three
        failure = "\n".join(report.longreprtext.splitlines()[-FAILURE_LINES:])
        _RETRIED[report.nodeid].append((_TIMES.pop(report.nodeid), failure))


def over_budget() -> list[tuple[str, float]]:
    """The tests that took longer than the budget, slowest first."""
    limit = budget()
    return sorted(
        ((nodeid, seconds) for nodeid, seconds in _TIMES.items() if seconds > limit),
        key=lambda item: -item[1],
    )


def retried() -> list[tuple[str, list[tuple[float, str]]]]:
    """The tests that failed and were run again, with each failed attempt's seconds and
    failure."""
    return sorted(_RETRIED.items())


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    again = retried()
    if again:
        terminalreporter.section("tests that failed and were run again", sep="!", yellow=True)
        terminalreporter.write_line(f"{len(again)} test(s) failed and were run again:", yellow=True)
        for nodeid, attempts in again:
            for seconds, failure in attempts:
                terminalreporter.write_line(
                    f"  failed after {seconds:.1f} s  {nodeid}", yellow=True
                )
                for line in failure.splitlines():
                    terminalreporter.write_line(f"    {line}")
    slow = over_budget()
    if not slow:
        return
    terminalreporter.section("tests over the time budget", sep="!", red=True, bold=True)
    terminalreporter.write_line(
        f"{len(slow)} test(s) took longer than {budget():g} s (setup, call and teardown):",
        red=True,
    )
    for nodeid, seconds in slow:
        terminalreporter.write_line(f"  {seconds:7.1f} s  {nodeid}", red=True)
    if os.environ.get(STRICT_VARIABLE):
        terminalreporter.write_line(
            f"{STRICT_VARIABLE} is set: a test over the time budget fails the run",
            red=True,
            bold=True,
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if exitstatus == 0 and os.environ.get(STRICT_VARIABLE) and over_budget():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
