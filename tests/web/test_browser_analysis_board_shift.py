"""The analysis board does not shift while it loads, in Debian's Chromium against a real
server, in English at 1366x768 and in Indonesian at 1280x720 and on a 390x844 phone.

Opened at a position (``/?fen=``), the page was first laid out as the play page; the
analysis panel then opened above the moves and actions, and on a phone the evaluation
bar's first value pushed everything under the board down: a cumulative layout shift of
0.04 to 0.1 (Chromium's ``layout-shift`` entries, summed as the Layout Instability API
defines CLS for one page load). Now the page keeps it under 0.02 until the engine's
first lines and value are shown. Each ends with axe at every impact, nothing wider than
the window, no English left in Indonesian and no console error.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from adjacency.core import Position
from browser_helpers import EVERY_IMPACT, WINDOWS, axe_violations, each_once, goto, sideways
from i18n_helpers import english_left
from web_helpers import new_tab

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-analysis-board-shift")]

WATCH = """window.layoutShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    const moved = entry.sources.map((s) => s.node && (s.node.id || s.node.className));
    window.layoutShifts.push([entry.value, moved.join(" ")]);
  }
}).observe({ type: "layout-shift", buffered: true });"""
"""Every layout shift of the page's load not caused by input, from its first frame: its
value and the ids (or classes) of what moved."""
SETTLED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
GOOD = 0.02
"""A tenth of the Web Vitals' "good" CLS (0.1): nothing visible moves as the page loads."""


@pytest.mark.parametrize(("locale", "window"), each_once(("en-GB", "id-ID"), WINDOWS))
def test_the_analysis_board_does_not_shift_while_it_loads(
    server: str, browser: Any, locale: str, window: str
) -> None:
    tab = new_tab(browser, server, viewport=WINDOWS[window], locale=locale)
    tab.add_init_script(WATCH)
    goto(tab, f"{server}/?fen={quote(Position.start(8, 8, 28).fen())}")
    expect(tab.locator("#analysis-lines li").first).to_be_visible(timeout=30_000)
    expect(tab.locator("#evalbar-text")).not_to_be_empty()
    expect(tab.locator(".side")).to_be_visible()
    tab.evaluate(SETTLED)
    shifts = tab.evaluate("window.layoutShifts")
    assert sum(value for value, _ in shifts) < GOOD, shifts  # with what moved
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    if locale.startswith("id"):
        assert english_left(tab) == []
    tab.click("#analysis-stop")  # the server's analysis ends with the test
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors
