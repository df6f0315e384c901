"""A line given with the analysis board's position (``/?fen=...&line=...``), in Debian's
Chromium against a real server, in English at 1366x768 and in Indonesian on a 390x844
phone (a 1280x720 laptop lays the board out as 1366x768 does): the legal line grows into
the board's tree with the start still shown (→ steps along it, the panel following); a
line with a move the rules refuse is said in the page's language and leaves the tree
empty at the start. Each state passes axe at every impact, has nothing wider than the
window, no English left in Indonesian and no console error.

Oracle: the rules core (legal moves, position texts).
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

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-board-line")]

START = Position.start(8, 8, 28)
REFUSED = "Failed to load resource: the server responded with a status of 400 (Bad Request)"


def audited(tab: Any, locale: str) -> None:
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    if locale.startswith("id"):
        assert english_left(tab) == []


@pytest.mark.parametrize(
    ("locale", "window"), each_once(("en-GB", "id-ID"), ["1366x768", "390x844"])
)
def test_a_line_in_the_address_grows_the_boards_tree_or_is_refused(
    server: str, browser: Any, locale: str, window: str
) -> None:
    first = sorted(START.legal_moves())[0]
    reply = sorted(START.play(first).legal_moves())[0]
    tab = new_tab(browser, server, viewport=WINDOWS[window], locale=locale)
    goto(tab, f"{server}/?fen={quote(START.fen())}&line={first},{reply}")
    moves = tab.locator("#moves button")
    expect(moves).to_have_count(2)
    assert [text.split()[0] for text in moves.all_inner_texts()] == [first, reply]
    expect(tab.locator("#analysis-fen")).to_have_text(START.fen())  # the start still shown
    tab.click("#nav-forward")
    expect(tab.locator("#analysis-fen")).to_have_text(START.play(first).fen())
    audited(tab, locale)
    tab.click("#analysis-stop")

    taken = "a1"  # X's from the start: no move
    assert taken not in START.play(first).legal_moves()
    goto(tab, f"{server}/?fen={quote(START.fen())}&line={first},{taken}")
    expect(tab.locator("#notice")).not_to_be_empty()  # said, and nothing grown
    expect(tab.locator("#moves button")).to_have_count(0)
    expect(tab.locator("#analysis-fen")).to_have_text(START.fen())
    audited(tab, locale)
    tab.click("#analysis-stop")
    errors = tab.console_errors
    tab.context.close()
    assert errors == [REFUSED], errors  # the browser's own line for the refused request
