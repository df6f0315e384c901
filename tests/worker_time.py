"""A pytest plugin: every run ends with the suite's worker time by kind of test (loaded by
tests/conftest.py).

Worker time is what ``--durations`` sums: each test's setup, call and teardown, so a
session fixture's start-up counts towards the first test that uses it. Under xdist each
worker names a test's kind when it makes the test's reports (the kind travels in the
report, as :data:`KIND_ATTRIBUTE`) and the controller, which gets every report, adds
them up; without xdist the one process does both. The table shows where the suite's time
goes, so a change that makes one kind costlier is seen in the run that makes it.

Each test has exactly one kind, the first of :data:`KINDS` whose rule it meets:

- ``browser``: marked ``browser`` (tests/needs.py: it uses Chromium);
- ``JavaFX programs``: marked ``javafx`` (a team's JavaFX program under Xvfb);
- ``Ray cluster``: marked ``ray`` (the shared cluster, or one of its own);
- ``other sandbox and hosting``: marked ``sandbox`` or ``jvm`` (bubblewrap, every test
  under tests/hosting, a JDK);
- ``league servers``: its module holds a league server's starter, :data:`LEAGUE_STARTERS`
  (the league app in a thread, ``adjacency league serve`` in a process, or the app itself);
- ``everything else``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Generator

import pytest

KIND_ATTRIBUTE = "adjacency_kind"
"""The attribute of a test's report that names its kind (an xdist worker's report keeps it
on its way to the controller)."""

KINDS = (
    "browser",
    "JavaFX programs",
    "Ray cluster",
    "other sandbox and hosting",
    "league servers",
    "everything else",
)
"""Every kind, in the order a test's kind is chosen and the table lists them."""

MARKED = (
    ("browser", ("browser",)),
    ("JavaFX programs", ("javafx",)),
    ("Ray cluster", ("ray",)),
    ("other sandbox and hosting", ("sandbox", "jvm")),
)
"""The kinds named by markers (tests/needs.py applies them): a kind -> its markers."""

LEAGUE_STARTERS = ("thread_server", "start_server", "create_app")
"""The names a module imports to start a league server: tests/league_helpers.py's two
starters and ``adjacency.league.http.app.create_app`` (a module of the league's tests that
builds its own app)."""

_SECONDS: dict[str, float] = defaultdict(float)
"""Worker seconds by kind (in this process: the controller under xdist)."""

_TESTS: dict[str, set[str]] = defaultdict(set)
"""The node ids of each kind's tests."""


def _starts_league(item: pytest.Item) -> bool:
    """Whether ``item``'s module holds one of :data:`LEAGUE_STARTERS` from the league."""
    module = getattr(item, "module", None)
    for name in LEAGUE_STARTERS:
        held = vars(module).get(name) if module is not None else None
        owner = getattr(held, "__module__", "") or ""
        if held is not None and (owner == "league_helpers" or owner.startswith("adjacency.league")):
            return True
    return False


def kind_of(item: pytest.Item) -> str:
    """The kind of ``item``: the first of :data:`KINDS` whose rule it meets."""
    for kind, markers in MARKED:
        if any(item.get_closest_marker(marker) is not None for marker in markers):
            return kind
    return "league servers" if _starts_league(item) else "everything else"


def pytest_configure(config: pytest.Config) -> None:
    _SECONDS.clear()
    _TESTS.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Names the test's kind on each of its reports (made where the test runs)."""
    report = yield
    setattr(report, KIND_ATTRIBUTE, kind_of(item))
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Adds each phase's duration to its test's kind (the controller gets every report
    under xdist); a report without a kind (a plugin's own) counts as everything else."""
    kind = getattr(report, KIND_ATTRIBUTE, None)
    kind = kind if kind in KINDS else KINDS[-1]
    _SECONDS[kind] += report.duration
    _TESTS[kind].add(report.nodeid)


def table() -> list[tuple[str, float, int]]:
    """Each kind that ran: its worker seconds and its number of tests, in :data:`KINDS`'
    order."""
    return [(kind, _SECONDS[kind], len(_TESTS[kind])) for kind in KINDS if _TESTS[kind]]


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    rows = table()
    if not rows:
        return
    total = sum(seconds for _, seconds, _ in rows)
    terminalreporter.section("worker time by kind")
    write = terminalreporter.write_line
    write(f"{'kind of test':<27} {'worker time':>11} {'tests':>6} {'per test':>9} {'share':>6}")
    for kind, seconds, count in rows:
        share = seconds / total if total else 0.0
        write(f"{kind:<27} {seconds:>9.1f} s {count:>6} {seconds / count:>7.2f} s {share:>6.0%}")
    count = sum(count for _, _, count in rows)
    write(f"{'all':<27} {total:>9.1f} s {count:>6} {total / count:>7.2f} s")
