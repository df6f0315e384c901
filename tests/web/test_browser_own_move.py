"""Your move at once, in Debian's Chromium against a real server: the page draws the
player's own move and the squares it converts while the move's request has not even
reached the server (Playwright holds it), the reply then follows; a move the server
refuses (the game ended meanwhile) or cannot be sent is taken back with a message in
the page's language. Each journey once, its language and window chosen so both
languages and the three supported windows each appear. The guessed state itself (the
piece, the converted squares, the next preview, the clocks) is tested without a browser
on the page's own module (tests/web/js/guess.test.mjs)."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, axe_violations, goto, sideways
from i18n_helpers import english_left
from web_helpers import api, new_tab, shown_plies

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-own-move")]

LIVE_SERVER = {"grace": 3.0}
"""The options of this module's server (tests/web/conftest.py)."""

CASES = [
    ("en-GB", {"width": 1366, "height": 768}),
    ("id-ID", {"width": 1280, "height": 720}),
    ("id-ID", {"width": 390, "height": 844}),
]
PIECES = """(squares) => squares.map((n) => {
  const sq = document.querySelector(`#board [data-square='${n}']`);
  const mark = sq.querySelector("svg.piece:not(.ghost) .x-mark, svg.piece:not(.ghost) .o-mark");
  return mark ? (mark.classList.contains("x-mark") ? "x" : "o") : ".";
})"""
"""The piece drawn on each of the given squares ("x", "o" or "."), as the board shows it."""


def bot_game(server: str) -> dict[str, Any]:
    """A new game of this module's client (X, a person) against the level 1 bot."""
    game: dict[str, Any] = api(
        server,
        "POST",
        "/api/games",
        {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, "rounds": 8},
    )
    return game


def converting_move(game: dict[str, Any]) -> tuple[str, list[str]]:
    """A legal square of the game's start whose move converts at least one square."""
    preview = game["preview"]
    square = next(sq for sq in sorted(preview) if preview[sq])
    return square, preview[square]


def open_game(browser: Any, server: str, game: dict[str, Any], locale: str, size: Any) -> Any:
    tab = new_tab(browser, server, locale=locale, viewport=size)
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_selector("#board .sq:not(.locked)")
    tab.wait_for_function("!document.querySelector('#board').classList.contains('locked')")
    return tab


def held_moves(tab: Any) -> list[Any]:
    """Hold every move request of the page (Playwright's route): the list fills with the
    held routes, each let through (or failed) by the test."""
    held: list[Any] = []
    tab.route("**/api/games/*/moves", lambda route: held.append(route))
    return held


def wait_held(tab: Any, held: list[Any]) -> None:
    for _ in range(200):
        if held:
            return
        tab.wait_for_timeout(25)
    raise AssertionError("the page sent no move")


@pytest.mark.parametrize(("locale", "size"), [CASES[0]])
def test_your_move_is_drawn_before_the_server_has_it(
    server: str, browser: Any, locale: str, size: Any
) -> None:
    game = bot_game(server)
    square, converts = converting_move(game)
    tab = open_game(browser, server, game, locale, size)
    held = held_moves(tab)
    tab.click(f'#board [data-square="{square}"]')
    wait_held(tab, held)
    # The request is still held: nothing of the move has reached the server ...
    assert api(server, "GET", f"/api/games/{game['id']}")["moves"] == []
    # ... and the page shows it already, its converted squares turned.
    assert tab.evaluate(PIECES, [square, *converts]) == ["x"] * (1 + len(converts))
    shown_plies(tab, 1)
    assert tab.locator("#board").get_attribute("class").split().count("locked") == 1
    held[0].continue_()
    shown_plies(tab, 2)  # the server's state, then the bot's reply, drawn after it
    state = api(server, "GET", f"/api/games/{game['id']}")
    assert state["moves"][0]["square"] == square
    reply = state["moves"][1]["square"]
    tab.wait_for_selector(f'#board [data-square="{reply}"].last svg.piece')  # once animated
    names = [f"{'abcdefgh'[i % 8]}{i // 8 + 1}" for i in range(64)]
    assert "".join(tab.evaluate(PIECES, names)) == state["boards"][2]
    assert axe_violations(tab, EVERY_IMPACT) == []
    assert sideways(tab) == 0
    if locale.startswith("id"):
        assert english_left(tab) == []
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors


@pytest.mark.parametrize(("locale", "size"), [CASES[2]])
def test_a_move_the_server_refuses_is_taken_back_with_a_message(
    server: str, browser: Any, locale: str, size: Any
) -> None:
    game = bot_game(server)
    square, converts = converting_move(game)
    tab = open_game(browser, server, game, locale, size)
    before = tab.evaluate(PIECES, [square, *converts])
    held = held_moves(tab)
    tab.click(f'#board [data-square="{square}"]')
    wait_held(tab, held)
    assert tab.evaluate(PIECES, [square]) == ["x"]
    # The game ends on the server before the move gets there: the server refuses it.
    api(server, "POST", f"/api/games/{game['id']}/resign", {"side": "x"})
    held[0].continue_()
    notice = tab.locator("#notice")
    taken_back = "dibatalkan" if locale.startswith("id") else "was taken back"
    notice.filter(has_text=taken_back).wait_for()
    assert square in notice.inner_text()
    assert tab.evaluate(PIECES, [square, *converts]) == before
    assert tab.locator("#moves button").count() == 0
    assert api(server, "GET", f"/api/games/{game['id']}")["moves"] == []
    if tab.locator("#dlg-result[open]").count():
        tab.keyboard.press("Escape")
    if locale.startswith("id"):
        assert english_left(tab) == []
    assert axe_violations(tab, EVERY_IMPACT) == []
    errors = [e for e in tab.console_errors if "status of 409" not in e]  # the refusal itself
    tab.context.close()
    assert errors == [], errors


@pytest.mark.parametrize(("locale", "size"), [CASES[1]])
def test_a_move_that_cannot_be_sent_is_taken_back(
    server: str, browser: Any, locale: str, size: Any
) -> None:
    game = bot_game(server)
    square, converts = converting_move(game)
    tab = open_game(browser, server, game, locale, size)
    before = tab.evaluate(PIECES, [square, *converts])
    held = held_moves(tab)
    tab.click(f'#board [data-square="{square}"]')
    wait_held(tab, held)
    assert tab.evaluate(PIECES, [square, *converts]) == ["x"] * (1 + len(converts))
    held[0].abort("connectionrefused")
    notice = tab.locator("#notice")
    notice.filter(has_text=square).wait_for()
    assert tab.evaluate(PIECES, [square, *converts]) == before
    assert tab.locator("#moves button").count() == 0
    # Sent again once the server is reached, the move is played.
    tab.unroute("**/api/games/*/moves")
    tab.click(f'#board [data-square="{square}"]')
    shown_plies(tab, 2)
    assert api(server, "GET", f"/api/games/{game['id']}")["moves"][0]["square"] == square
    if locale.startswith("id"):
        assert english_left(tab) == []
    errors = [e for e in tab.console_errors if "ERR_CONNECTION_REFUSED" not in e]
    tab.context.close()
    assert errors == [], errors
