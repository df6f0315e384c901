"""A pytest plugin: no test is skipped silently (loaded by tests/conftest.py).

``make test`` is meant to run everything (its optional extras are installed and
Chromium is provisioned). A run in which a test skipped anyway ends with a banner
that counts and names the skipped tests, after pytest's own summary, so nobody reads
"passed" and misses that part of the suite did not run. With the environment
variable ``CI`` set (as ``.ci/run`` runs), a skip also fails the run.
"""

from __future__ import annotations

import os

import pytest

STRICT_VARIABLE = "CI"
"""When set (non-empty), a skipped test makes the run fail (exit status 1)."""


def _skipped(config: pytest.Config) -> list[pytest.TestReport]:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return []
    return [report for report in reporter.stats.get("skipped", []) if report.skipped]


def skip_banner(reports: list[pytest.TestReport]) -> list[str]:
    """The closing lines for a run that skipped tests: a count, then one line per skip."""
    lines = [f"NOT EVERYTHING RAN: {len(reports)} test(s) skipped:"]
    for report in reports:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        lines.append(f"  {report.nodeid}: {reason.removeprefix('Skipped: ')}")
    return lines


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reports = _skipped(terminalreporter.config)
    if not reports:
        return
    terminalreporter.section("skipped tests", sep="!", red=True, bold=True)
    for line in skip_banner(reports):
        terminalreporter.write_line(line, red=True)
    if os.environ.get(STRICT_VARIABLE):
        terminalreporter.write_line(
            f"{STRICT_VARIABLE} is set: a skipped test fails the run", red=True, bold=True
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if exitstatus == 0 and os.environ.get(STRICT_VARIABLE) and _skipped(session.config):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
