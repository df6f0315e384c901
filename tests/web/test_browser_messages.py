"""The play page's messages as a player reads them, in Debian's Chromium against a real
server: an unknown game's message is the page's one sentence in either language (no
double full stop, no API route for a person to call); a notice, short or long, covers no
control at any supported window (English in the widest, Indonesian in the others)."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, WINDOWS, axe_violations, each_once, goto
from i18n_helpers import english_left, message
from web_helpers import api, new_tab

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-messages")]


@pytest.mark.parametrize("locale", ["en-GB", "id-ID"])
def test_an_unknown_game_is_one_sentence_in_the_pages_language(
    server: str, browser: Any, locale: str
) -> None:
    lang = locale.split("-")[0]
    tab = new_tab(browser, server, locale=locale)
    goto(tab, f"{server}/?game=nosuchgame")
    notice = tab.locator("#notice")
    expect(notice).not_to_be_empty()
    text = notice.inner_text()
    unknown = message(lang, "error.game_not_found", game="nosuchgame")
    assert text == message(lang, "notice.open-failed", error=unknown)
    assert ".." not in text and "/api/" not in text and "GET" not in text
    tab.keyboard.press("Escape")  # the new game dialog the page opens
    if lang == "id":
        assert english_left(tab) == []
    assert axe_violations(tab, EVERY_IMPACT) == []
    errors = [e for e in tab.console_errors if "status of 404" not in e]  # the refusal itself
    tab.context.close()
    assert errors == [], errors


COVERED = """() => {
  const box = document.querySelector('#notice').getBoundingClientRect();
  const controls = [...document.querySelectorAll(
    "button, a[href], select, input, textarea, summary, [tabindex]:not([tabindex='-1'])")];
  return controls.filter((c) => {
    const r = c.getBoundingClientRect();
    if (!r.width || !r.height || c.closest('#notice, dialog:not([open]), [hidden]')) return false;
    return r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top;
  }).map((c) => c.id || c.dataset.square || c.textContent.trim().slice(0, 20));
}"""
"""The visible controls the notice covers (by id, square or text)."""


@pytest.mark.parametrize(("locale", "window"), each_once(("en-GB", "id-ID"), WINDOWS))
def test_a_notice_covers_no_control(server: str, browser: Any, locale: str, window: str) -> None:
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, "rounds": 8},
    )
    tab = new_tab(browser, server, locale=locale, viewport=WINDOWS[window])
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_selector("#board .sq.filled")
    notice = tab.locator("#notice")
    taken = game["boards"][0].index("x")
    name = "abcdefgh"[taken % 8] + str(taken // 8 + 1)
    tab.click(f'#board [data-square="{name}"]')  # a taken square: a short notice
    expect(notice).not_to_be_empty()
    assert notice.is_visible()
    assert tab.evaluate(COVERED) == []
    # The longest a move brings: taken back, the server not reached.
    tab.route("**/api/games/*/moves", lambda route: route.abort("connectionrefused"))
    square = sorted(game["preview"])[0]
    tab.click(f'#board [data-square="{square}"]')
    expect(notice).to_contain_text(square)
    assert notice.is_visible()
    assert tab.evaluate(COVERED) == []
    errors = [e for e in tab.console_errors if "ERR_CONNECTION_REFUSED" not in e]
    tab.context.close()
    assert errors == [], errors
