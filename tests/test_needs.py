"""The markers of what a test needs (tests/needs.py) and ``make test-core``'s selection:
collected by the real pytest, as ``make test-core`` runs it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import needs
from needs_report import described

pytestmark = pytest.mark.xdist_group("needs")  # one worker collects the suite once
REPO = Path(__file__).resolve().parents[1]


def collect(tmp_path: Path, *args: str) -> dict[str, dict[str, list[str]]]:
    """What ``pytest --collect-only ARGS`` selects, test by test.

    ``--assert=plain``: markers and fixtures do not depend on assertion rewriting, which
    costs most of a collection where no bytecode cache is written."""
    report = tmp_path / "report.json"
    path = os.pathsep.join(filter(None, [str(REPO / "tests"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "NEEDS_REPORT": str(report)}
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "--assert=plain"]
    done = subprocess.run(
        [*command, "-p", "needs_report", "-p", "no:randomly", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    items: dict[str, dict[str, list[str]]] = json.loads(report.read_text())
    return items


def core_expression() -> str:
    """The ``-m`` expression of ``make test-core``, as make would run it."""
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "test-core"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    found = re.search(r' -m "([^"]+)"', done.stdout)
    assert found, done.stdout
    return found.group(1)


def test_make_test_core_leaves_out_every_marker_of_needs() -> None:
    expression = core_expression()
    assert expression == " and ".join(f"not {marker}" for marker in needs.MARKERS)


def test_the_markers_are_registered_in_pyproject() -> None:
    text = (REPO / "pyproject.toml").read_text()
    for marker in needs.MARKERS:
        assert f'"{marker}: ' in text, marker


NARROWING = ("markexpr", "keyword", "deselect", "ignore", "ignore_glob", "lf", "stepwise")
"""The options (their destinations) by which a run leaves out some of the suite's tests."""


def whole_suite_collected(session: pytest.Session) -> bool:
    """Whether ``session`` (this run's own) collected the whole suite and kept every test:
    no paths named but the suite's own, none of :data:`NARROWING` given. Under ``make
    test`` each xdist worker collects the whole suite before it runs its share."""
    config = session.config
    named = [Path(arg.split("::")[0]).resolve() for arg in config.args] or [REPO / "tests"]
    narrowed = any(config.getoption(name, default=None) for name in NARROWING)
    return named == [REPO / "tests"] and not narrowed


@pytest.fixture(scope="module")
def everything(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, list[str]]]:
    """The whole suite, collected once for the tests of this module: this run's own
    collection where it is the whole suite (the same plugins marked it, and the run pays
    no second collection), otherwise a collection of its own (:func:`collect`). Both are
    described by :func:`needs_report.described`."""
    session = request.session
    if not whole_suite_collected(session):
        return collect(tmp_path_factory.mktemp("needs"))
    return described(session.items)


def test_browser_tests_are_marked_from_their_fixtures_and_imports(
    everything: dict[str, dict[str, list[str]]],
) -> None:
    modules = ("tests/web/test_browser.py::", "tests/docs/test_screenshots_tool.py::")
    items = {k: v for k, v in everything.items() if k.startswith(modules)}
    assert len(items) > 5
    assert all("browser" in item["markers"] for item in items.values()), items
    # test_screenshots_tool.py requests no browser fixture: its import of Chromium's path
    # marks it.
    shots = {k: v for k, v in items.items() if "test_screenshots_tool" in k}
    assert shots and not any("browser" in item["fixtures"] for item in shots.values())


def node_modules() -> list[str]:
    """The test modules that run Node.js themselves (or a kit, Node's among them)."""
    # a kit command runs Node unless its kit is named as the Python or the Java one
    runs_node = re.compile(r"""tool\(["']node["']\)|kit_command\((?!["'](?:python|java)["'])""")
    tests = REPO / "tests"
    found = [p for p in tests.rglob("test_*.py") if runs_node.search(p.read_text())]
    return sorted(str(p.relative_to(REPO)) for p in found)


def test_every_test_that_needs_more_than_python_is_marked(
    everything: dict[str, dict[str, list[str]]],
) -> None:
    """The whole suite collected once (``make test-core``'s expression is
    :data:`needs.MARKERS`' negation, checked above): a test requesting a fixture of
    :data:`needs.FIXTURES`, under tests/deploy or tests/sandbox or in a module
    running Node carries its marker, so ``make test-core`` leaves it out."""
    core = [k for k, v in everything.items() if not set(v["markers"]) & set(needs.MARKERS)]
    assert 1000 < len(core) < len(everything)
    for nodeid, item in everything.items():
        for fixture, marker in needs.FIXTURES.items():
            assert fixture not in item["fixtures"] or marker in item["markers"], nodeid
        assert not nodeid.startswith("tests/deploy/") or "deploy" in item["markers"], nodeid
        assert not nodeid.startswith("tests/sandbox/") or "sandbox" in item["markers"], nodeid
    for module in node_modules():
        tests = [v for k, v in everything.items() if k.startswith(module + "::")]
        assert any("node" in v["markers"] for v in tests), f"{module} runs node, unmarked"
    assert not any("browser" in everything[k]["fixtures"] for k in core)
