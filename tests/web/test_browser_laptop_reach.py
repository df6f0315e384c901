"""On a laptop's screen the play page keeps every game action within reach, in Debian's
Chromium against a real server: in English at 1366x768 and in Indonesian at 1280x720,
once a 56-ply game is over, Save, Rematch, Share, Analyse and Review are wholly inside
the window without scrolling (the move list scrolls in its own panel, its last move in
view), the top bar is one row, and opening the analysis panel keeps the board clear of
the top bar and the actions in view. Each state passes axe at every impact, has nothing
wider than the window, and no console error."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, WINDOWS, axe_violations, each_once, goto, outside_window
from i18n_helpers import english_left
from web_helpers import api, new_tab, shown_plies

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-laptop-reach")]

LAPTOPS = ("1366x768", "1280x720")
TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
ACTIONS = "#btn-save, #btn-rematch, #btn-share, #btn-analyse, #btn-review"


@pytest.fixture(scope="module")
def long_game(server: str) -> dict[str, Any]:
    """A finished 8x8 game of 28 rounds (56 plies) between two people this run's client
    holds, each ply the first legal square in name order."""
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 28})
    for _ in range(56):
        state = api(server, "GET", f"/api/games/{game['id']}")
        api(
            server,
            "POST",
            f"/api/games/{game['id']}/moves",
            {"square": sorted(state["preview"])[0]},
        )
    state = api(server, "GET", f"/api/games/{game['id']}")
    assert state["status"] == "over"
    return dict(state)


def bottom(tab: Any, selector: str) -> float:
    box = tab.locator(selector).bounding_box()
    return float(box["y"] + box["height"])


def checked(tab: Any, locale: str, width: int) -> None:
    """The audit of each state: axe at every impact, nothing sideways, no English left on
    the Indonesian page, no console error so far."""
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    if locale.startswith("id"):
        assert english_left(tab, ["Ann", "Bob"]) == []
    assert tab.console_errors == []


@pytest.mark.parametrize(("locale", "size"), each_once(("en-GB", "id-ID"), LAPTOPS))
def test_every_game_action_is_within_reach_of_a_finished_long_game(
    server: str, browser: Any, long_game: dict[str, Any], size: str, locale: str
) -> None:
    window = WINDOWS[size]
    tab = new_tab(browser, server, viewport=window, locale=locale)
    goto(tab, f"{server}/?game={long_game['id']}")
    shown_plies(tab, 56)
    assert tab.locator("#dlg-result[open]").count() == 0  # opened finished: no dialog
    assert outside_window(tab, ACTIONS) == []
    assert tab.evaluate("document.documentElement.scrollHeight") <= window["height"]
    topbar = tab.locator(".topbar").bounding_box()
    assert topbar["height"] < 70, topbar  # one row, whatever the language
    assert outside_window(tab, "#moves button.current") == []  # the last move in view
    checked(tab, locale, window["width"])

    tab.click("#btn-analyse")  # a panel opens: the board stays clear of the top bar
    expect(tab.locator("#analysis")).to_be_visible()
    expect(tab.locator("#analysis-exact")).not_to_have_text("")
    assert tab.locator("#board").bounding_box()["y"] >= bottom(tab, ".topbar")
    assert tab.evaluate("window.scrollY") == 0
    assert outside_window(tab, f"{ACTIONS}, #board .sq, #analysis-title") == []
    checked(tab, locale, window["width"])
    tab.context.close()
