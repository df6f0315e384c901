"""Analyse at a finished game's last position, in Debian's Chromium against a real server,
in English at 1366x768 and in Indonesian at 1280x720 and on a 390x844 phone.

The server finds no move left to analyse there. The panel says so in the catalogue's
sentence (a capital, a full stop, where to go instead), not the API's lower-case detail,
and hides what belongs to an analysed position (the scores' key, the position text, "Play
from here", the opening explorer) rather than showing them empty. A step back analyses
the position before the end and shows them again, its position text the core's. Each
state passes axe at every impact, has nothing wider than the window, no English left in
Indonesian and no console error.

Oracles: the pages' catalogues (test_i18n_catalogues), the rules core's position text.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjacency.core import Position
from browser_helpers import EVERY_IMPACT, WINDOWS, axe_violations, each_once, goto, sideways
from i18n_helpers import english_left
from test_i18n_catalogues import catalogue
from web_helpers import api, new_tab, shown_plies

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-analyse-finished")]

TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
POSITION_PARTS = "#analysis-scores, #analysis-fen-line, .study-continue, #explorer-title"


def audited(tab: Any, locale: str) -> None:
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    if locale.startswith("id"):
        assert english_left(tab, ["Ann", "Bob"]) == []


@pytest.mark.parametrize(("locale", "window"), each_once(("en-GB", "id-ID"), WINDOWS))
def test_analyse_at_a_finished_game_says_why_and_shows_no_empty_parts(
    server: str, browser: Any, locale: str, window: str
) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 4, "cols": 4, "rounds": 1})
    played = []
    for _ in range(2):
        square = sorted(api(server, "GET", f"/api/games/{game['id']}")["preview"])[0]
        api(server, "POST", f"/api/games/{game['id']}/moves", {"square": square})
        played.append(square)
    tab = new_tab(browser, server, viewport=WINDOWS[window], locale=locale)
    goto(tab, f"{server}/?game={game['id']}")
    shown_plies(tab, 2)
    tab.click("#btn-analyse")
    words = catalogue(locale.split("-")[0])
    expect(tab.locator("#analysis-exact")).to_have_text(str(words["analysis.over"]))
    for part in tab.locator(POSITION_PARTS).all():
        expect(part).to_be_hidden()
    audited(tab, locale)

    tab.click("#nav-back")  # the position before the end: analysed, its parts back
    before = Position.start(4, 4, 1).play(played[0]).fen()
    expect(tab.locator("#analysis-fen")).to_have_text(before)
    for part in tab.locator(POSITION_PARTS).all():
        expect(part).to_be_visible()
    expect(tab.locator("#analysis-exact")).not_to_have_text(str(words["analysis.over"]))
    audited(tab, locale)
    if tab.locator("#analysis-stop").is_enabled():
        tab.click("#analysis-stop")  # the server's analysis ends with the test
    errors = tab.console_errors
    tab.context.close()
    # the browser's own line for an analysis refused while the last one winds down (429),
    # which the page tries again; no other error
    assert [e for e in errors if not e.endswith("429 (Too Many Requests)")] == [], errors
