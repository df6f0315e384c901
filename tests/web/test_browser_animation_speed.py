"""The board's animation speed, picked beside Sound, in Debian's Chromium against a real
server: "none" draws a move without animating it, "fast" animates it in a third of the
time, the choice is remembered across a reload, and the picker is named in the page's
language: Indonesian, no English left (the picker's words in English are the catalogue's
fallback, tests/test_i18n_catalogues.py); axe finds nothing at any impact."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, axe_violations, goto
from i18n_helpers import english_left
from web_helpers import api, new_tab, shown_plies

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-animation-speed")]

TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
# Every element whose class names the move animations, each time the board changes.
WATCH = """() => {
  window.__animated = [];
  new MutationObserver(() => {
    for (const sq of document.querySelectorAll('#board .anim-place svg.piece')) {
      window.__animated.push(getComputedStyle(sq).animationDuration);
    }
  }).observe(document.querySelector('#board'), { attributes: true, subtree: true });
}"""


def play(tab: Any, game: dict[str, Any], plies: int) -> None:
    """Click the first legal square of the game's next position, shown as ply ``plies``."""
    state = api(tab.server, "GET", f"/api/games/{game['id']}")
    tab.click(f'[data-square="{sorted(state["preview"])[0]}"]')
    shown_plies(tab, plies)


@pytest.mark.parametrize("locale", ["id-ID"])
def test_the_animation_speed_is_followed_and_remembered(
    server: str, browser: Any, locale: str
) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 8})
    tab = new_tab(browser, server, locale=locale)
    tab.server = server
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_selector("#board .sq")
    expect(tab.locator("#animation")).to_have_value("normal")
    assert axe_violations(tab, EVERY_IMPACT) == []
    if locale.startswith("id"):
        assert english_left(tab, ["Ann", "Bob"]) == []

    tab.select_option("#animation", "none")
    tab.evaluate(WATCH)
    play(tab, game, 1)
    assert tab.evaluate("window.__animated") == []  # drawn at once

    tab.reload()
    tab.wait_for_selector("#board .sq")
    expect(tab.locator("#animation")).to_have_value("none")  # remembered
    tab.select_option("#animation", "fast")
    tab.evaluate(WATCH)
    play(tab, game, 2)
    tab.wait_for_function("window.__animated.length > 0")
    assert set(tab.evaluate("window.__animated")) == {"0.1s"}

    tab.select_option("#animation", "normal")
    tab.evaluate(WATCH)
    play(tab, game, 3)
    tab.wait_for_function("window.__animated.length > 0")
    assert set(tab.evaluate("window.__animated")) == {"0.32s"}
    tab.context.close()
    assert tab.console_errors == []
