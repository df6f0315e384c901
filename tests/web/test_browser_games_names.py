"""The Games list names the seats as the board does, in Debian's Chromium against a real
server: a seat left with its default name is named in the reader's language ("Pemain X",
"Bot Klub"), the one seat this browser plays is "You", never the server's stored English;
names are not cut on a phone. English on a laptop, Indonesian (the longer words) on a
phone. How each name is chosen, in both languages, is tested without a browser on the
pages' own modules (tests/web/js/format.test.mjs)."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from adjacency.web.seats import CLIENT_COOKIE
from browser_helpers import EVERY_IMPACT, axe_violations, goto, sideways
from i18n_helpers import english_left
from web_helpers import api, new_tab

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-games-names")]

CASES = [
    ("en-GB", {"width": 1366, "height": 768}),
    ("id-ID", {"width": 390, "height": 844}),
]
NAMES = (
    "() => ['x', 'o'].map((c) => document.querySelector(`.player-bar.side-${c} .name`).textContent)"
)
"""The names the player bars show, X's then O's (whichever bar each sits in)."""
ROWS = """() => [...document.querySelectorAll('#games-list tbody tr')].map((tr) =>
  [...tr.querySelectorAll('td.name')].map((td) =>
    ({text: td.textContent, cut: td.scrollWidth > td.clientWidth})))"""


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_games_list_names_seats_as_the_board_does(
    server: str, browser: Any, locale: str, size: Any
) -> None:
    client = secrets.token_urlsafe(16)
    cookie = {"Cookie": f"{CLIENT_COOKIE}={client}"}
    bot = {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, "rounds": 8}
    people = {"x": {"kind": "human"}, "o": {"kind": "human"}, "rounds": 8}
    together = api(server, "POST", "/api/games", people, **cookie)
    against = api(server, "POST", "/api/games", bot, **cookie)
    tab = new_tab(browser, server, client=client, locale=locale, viewport=size)
    shown = {}
    for game in (together, against):
        goto(tab, f"{server}/?game={game['id']}")
        tab.wait_for_selector("#board .sq")
        tab.wait_for_selector(".player-bar.side-o .name")
        shown[game["id"]] = tab.evaluate(NAMES)
    tab.click("#btn-games")
    tab.wait_for_selector("#games-list tbody tr")
    rows = tab.evaluate(ROWS)
    assert [[cell["text"] for cell in row] for row in rows] == [
        shown[against["id"]],
        shown[together["id"]],
    ]
    assert not any(cell["cut"] for row in rows for cell in row), rows
    english = ("Player X", "Player O", "Club bot")
    listed = [cell["text"] for row in rows for cell in row]
    if locale.startswith("id"):
        assert not set(listed) & set(english), listed
        assert english_left(tab) == []
    assert shown[against["id"]][0] != shown[together["id"]][0]  # "You" for the one seat
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors
