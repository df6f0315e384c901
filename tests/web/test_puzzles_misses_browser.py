"""Replaying the puzzles missed at the first try, in Debian's Chromium against a real
server, in English at 1366x768 and in Indonesian at 1280x720 and on a 390x844 phone.

A puzzle given up (its solution shown) is a miss. With a theme it lacks chosen, Replay
misses finds none and says so; with its own theme chosen, it brings that puzzle back
(and says how many more follow); Next after the last one goes on with a new puzzle, the
replay's line cleared. Each state passes axe at every impact, has nothing wider than the
window, no English left in Indonesian and no console error.

Oracles: the puzzles' own themes (web_puzzle_helpers.themed_puzzles), the catalogues.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, WINDOWS, axe_violations, each_once, goto, sideways
from i18n_helpers import english_left
from test_i18n_catalogues import catalogue
from web_helpers import new_tab
from web_puzzle_helpers import THEMED, themed_puzzles

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-puzzles-misses")]

LIVE_SERVER = {"puzzles": themed_puzzles}


def audited(tab: Any, locale: str) -> None:
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    if locale.startswith("id"):
        assert english_left(tab) == []


@pytest.mark.parametrize(("locale", "window"), each_once(("en-GB", "id-ID"), WINDOWS))
def test_a_themes_misses_are_replayed_then_the_picks_go_on(
    server: str, browser: Any, locale: str, window: str
) -> None:
    missed = themed_puzzles()[0]  # its extra theme THEMED[0]; THEMED[1] it lacks
    assert THEMED[1] not in missed.themes
    words = catalogue(locale.split("-")[0])
    tab = new_tab(
        browser, server, client=secrets.token_urlsafe(16), viewport=WINDOWS[window], locale=locale
    )
    goto(tab, f"{server}/puzzles/{missed.id}")
    tab.wait_for_selector("#board .sq")
    tab.click("#btn-solution")  # given up: a miss
    expect(tab.locator(f"#history a[data-id='{missed.id}']")).to_have_attribute(
        "data-result", "missed"
    )

    tab.select_option("#theme", THEMED[1])  # a theme the miss lacks: none to replay
    tab.wait_for_url(re.compile(r"/puzzles/(?!" + re.escape(missed.id) + r"$)"))
    tab.click("#btn-misses")
    expect(tab.locator("#misses")).to_have_text(str(words["puzzle.misses.none"]))
    audited(tab, locale)

    tab.select_option("#theme", THEMED[0])  # its own theme: the miss comes back
    tab.click("#btn-misses")
    tab.wait_for_url(f"{server}/puzzles/{missed.id}")
    expect(tab.locator("#misses")).not_to_be_empty()
    audited(tab, locale)

    tab.select_option("#theme", "")
    tab.click("#btn-next")  # the last miss replayed: a new pick, the line cleared
    tab.wait_for_url(re.compile(r"/puzzles/(?!" + re.escape(missed.id) + r"$)"))
    expect(tab.locator("#misses")).to_be_empty()
    audited(tab, locale)
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors
