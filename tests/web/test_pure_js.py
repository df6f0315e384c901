"""The web front end's modules, tested by Node's own test runner without a browser:
tests/web/js/*.test.mjs import them from the package's static files. The pure ones (no
page, no storage: their clock and voice passed in): the puzzle runs' accounting
(js/puzzles/tally.js: skips, the player's clock and the page's pauses, the combo, the end
screen's figures, personal bests) and the polite announcer (js/polite.js: only what
changed, at most once a second). The page's logic that touches its document, on the
stage of tests/web/js/stage.mjs (a small document and the real catalogues, the modules
as the server serves them), in English and Indonesian: the premove, your move drawn at
once, players' names and the game's account, the study's tree and evaluation bar, the
arrows and circles and their records, the panels' words, the status line written once a
state, the server's errors worded by their codes, the puzzle page on the page its
template writes (what a solve says, the history's themes and day, the dashboard's words),
and the side column's sign that more lies below (an idle page asks for no frame).
The browser keeps the journeys. Node 20.19 or later loads the static ES
modules as they are."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kit_helpers import tool

pytestmark = pytest.mark.node

SUITES = sorted((Path(__file__).parent / "js").glob("*.test.mjs"))


def test_there_are_suites() -> None:
    assert {p.name for p in SUITES} >= {
        "tally.test.mjs",
        "polite.test.mjs",
        "premove.test.mjs",
        "guess.test.mjs",
        "format.test.mjs",
        "study.test.mjs",
        "shapes.test.mjs",
        "panels.test.mjs",
        "errors.test.mjs",
        "status.test.mjs",
        "puzzles.test.mjs",
        "more.test.mjs",
    }


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.name)
def test_a_pure_module_passes_its_node_tests(suite: Path) -> None:
    done = subprocess.run(
        [tool("node"), "--test", str(suite)], capture_output=True, text=True, timeout=50
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
