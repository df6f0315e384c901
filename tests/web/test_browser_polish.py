"""Small things a player notices, in Debian's Chromium against a real server, each
audited (axe at every impact, nothing wider than the window, no English on the
Indonesian page, no console error): the analysis panel's Stop and Close stay inside it
in Indonesian; the explorer's note and the score note break no word; the position text
has its own line, not the score note's end; the puzzles' top bar holds its language
picker on a phone; after Start game by keyboard the focus is on the board."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, axe_violations, goto, outside_window
from i18n_helpers import english_left
from web_helpers import api, new_tab

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-polish")]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s/]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""
"""The words (runs without spaces or slashes) of the matching elements drawn over two
lines or more: a word broken mid-word."""


def audited(tab: Any, locale: str, width: int) -> None:
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    if locale.startswith("id"):
        assert english_left(tab, ["Ann", "Bob"]) == []
    assert tab.console_errors == []


def inside(tab: Any, inner: str, outer: str) -> bool:
    a, b = tab.locator(inner).bounding_box(), tab.locator(outer).bounding_box()
    return bool(
        a["x"] >= b["x"] - 0.5
        and a["x"] + a["width"] <= b["x"] + b["width"] + 0.5
        and a["y"] >= b["y"] - 0.5
        and a["y"] + a["height"] <= b["y"] + b["height"] + 0.5
    )


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_analysis_panel_keeps_its_buttons_and_words_whole_in_indonesian(
    server: str, browser: Any, size: str
) -> None:
    window = LAPTOP if size == "laptop" else PHONE
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 28})
    tab = new_tab(browser, server, locale="id-ID", viewport=window)
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_selector("#board .sq")
    tab.click("#btn-analyse")
    expect(tab.locator("#analysis-lines li").first).to_be_visible(timeout=40_000)
    tab.click("#analysis-stop")  # stopped, its depth line says so: its longest header
    expect(tab.locator("#analysis-depth")).to_contain_text("·")
    expect(tab.locator("#explorer-note")).not_to_have_text("")
    tab.locator("#analysis-close").scroll_into_view_if_needed()
    for button in ("#analysis-stop", "#analysis-close"):
        assert inside(tab, button, "#analysis"), button
    assert tab.evaluate(BROKEN_WORDS, "#explorer-note, #analysis-scores") == []
    fen = tab.inner_text("#analysis-fen")
    assert fen.endswith(" x 56")  # the start's position text, on its own line:
    assert fen not in tab.inner_text("#analysis-scores")  # not the score note's end
    audited(tab, "id-ID", window["width"])
    tab.context.close()


@pytest.mark.parametrize("locale", ["en-GB", "id-ID"])
def test_the_puzzles_top_bar_holds_the_language_picker_on_a_phone(
    server: str, browser: Any, locale: str
) -> None:
    tab = new_tab(browser, server, locale=locale, viewport=PHONE)
    goto(tab, f"{server}/puzzles")
    tab.wait_for_selector("#board .sq")
    assert outside_window(tab, ".topbar a, .topbar select, .puzzle-title") == []
    audited(tab, locale, PHONE["width"])
    tab.context.close()


def test_after_start_game_by_keyboard_the_focus_is_on_the_board(server: str, browser: Any) -> None:
    tab = new_tab(browser, server, client=None)
    goto(tab, server)
    tab.wait_for_selector("#dlg-new[open]")
    tab.locator("#new-start").focus()
    tab.keyboard.press("Enter")
    tab.wait_for_selector("#dlg-new", state="hidden")
    expect(tab.locator("#board .sq[tabindex='0']")).to_be_focused()
    audited(tab, "en-GB", LAPTOP["width"])
    tab.context.close()
