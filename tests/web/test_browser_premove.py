"""Clocked play on a phone, in Debian's Chromium against a real server, in English and
Bahasa Indonesia, on a 390 px phone (touch) and a 1366 px laptop (each language on each
screen once, English on the laptop and Indonesian on the phone, or the other way
round): the journeys of a premove queued during
the bot's turn is played as soon as the bot has moved, dropped with a notice when the bot
took its square, cancelled by a tap on the board or by Escape; move confirmation (a
remembered setting) holds a first tap as a selection that a second tap or Play plays.
axe-core finds nothing at any impact on the way, the page logs no error and never scrolls
sideways. The bot moves when the test tells it (:class:`ToldBot`), so every premove is
queued while it is surely thinking. The premove's rules one by one (when a tap queues
one, no premove without a clock, what cancels or drops it, its words in both languages)
are tested without a browser, on the page's own module: tests/web/js/premove.test.mjs.
Without a clock, a tap during the bot's turn says whose turn it is
(tests/web/test_browser.py)."""

from __future__ import annotations

import json
import queue
from pathlib import Path
from typing import Any

import pytest

from adjacency.bots import Bot, Search
from adjacency.core import Position
from adjacency.web import turns as turns_module
from browser_helpers import axe_violations, goto
from web_helpers import api, new_tab, shown_plies, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-premove")]

LIVE_SERVER = {"grace": 3.0}
"""The options of this module's server (tests/web/conftest.py)."""

CATALOGUES = Path(__file__).resolve().parents[2] / "src/adjacency/serving/static/i18n"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SCREENS = [
    pytest.param("en-GB", LAPTOP, id="en-laptop"),
    pytest.param("id-ID", PHONE, id="id-phone"),
]
"""Each language on each screen once, across a test's cases."""
CROSSED = [
    pytest.param("en-GB", PHONE, id="en-phone"),
    pytest.param("id-ID", LAPTOP, id="id-laptop"),
]
"""The other pairs, for the test that runs on both screens besides :data:`SCREENS`."""
CLOCKED = {
    "x": {"kind": "human", "name": "Ann"},
    "o": {"kind": "bot", "level": 1},
    "rows": 6,
    "cols": 6,
    "rounds": 14,
    "clock": {"base": 600, "increment": 0},
}


class ToldBot(Bot):
    """Thinks until the test names its move (put in its test's queue ``moves``), then
    plays it; stopped or out of time, it plays its first legal move. Each bot keeps its
    own test's queue: a bot of an earlier test's game, still thinking until the server
    stops it, never takes a move told to this test's bot."""

    def __init__(self, moves: queue.Queue[str]) -> None:
        super().__init__()
        self.spec = "told"
        self.moves = moves

    def _choose(self, position: Position, search: Search) -> str:
        while not search.should_stop():
            try:
                return self.moves.get(timeout=0.01)
            except queue.Empty:
                continue
        return str(position.legal_moves()[0])


def told_bot(monkeypatch: pytest.MonkeyPatch) -> queue.Queue[str]:
    """Every bot the server builds in this test a :class:`ToldBot`; the queue its moves
    are told by."""
    moves: queue.Queue[str] = queue.Queue()
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: ToldBot(moves))
    return moves


def message(locale: str, key: str, **params: str) -> str:
    """The catalogue's message ``key`` in the language of ``locale``, filled."""
    lang = locale.split("-")[0]
    text = str(json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))[key])
    for name, value in params.items():
        text = text.replace("{" + name + "}", value)
    return text


def open_tab(browser: Any, server: str, locale: str, screen: dict[str, Any], path: str) -> Any:
    tab = new_tab(browser, server, locale=locale, **screen)
    goto(tab, server + path)
    tab.wait_for_selector("#board .sq")
    return tab


def against_told_bot(
    monkeypatch: pytest.MonkeyPatch,
    browser: Any,
    server: str,
    locale: str,
    screen: dict[str, Any],
    body: dict[str, Any] = CLOCKED,
) -> tuple[queue.Queue[str], str, Any]:
    """A game made by ``body`` (the person X against a :class:`ToldBot`) open on a tab in
    ``locale`` on ``screen``: the bot's queue, the game's id, the tab."""
    told = told_bot(monkeypatch)
    game_id = api(server, "POST", "/api/games", body)["id"]
    return told, game_id, open_tab(browser, server, locale, screen, f"/?game={game_id}")


def tap(tab: Any, square: str) -> None:
    """A tap (a phone) or a click (a laptop) on ``square`` of the board."""
    target = tab.locator(f'#board [data-square="{square}"]')
    if tab.viewport_size["width"] < 500:  # the phone's context has touch
        target.tap()
    else:
        target.click()


def moves(server: str, game_id: str) -> list[str]:
    return [m["square"] for m in api(server, "GET", f"/api/games/{game_id}")["moves"]]


def check_page(tab: Any) -> None:
    """Nothing for axe at any impact, no sideways scroll, no console error so far."""
    assert axe_violations(tab, impacts=("minor", "moderate", "serious", "critical")) == []
    width = tab.viewport_size["width"]
    assert tab.evaluate("() => document.documentElement.scrollWidth") <= width
    assert tab.console_errors == [], tab.console_errors


def premove_mark(tab: Any) -> Any:
    return tab.locator("#board .sq.premove")


def announced(tab: Any) -> Any:
    return tab.locator("#announcer")


@pytest.mark.parametrize(("locale", "screen"), SCREENS)
def test_a_premove_is_played_after_the_bots_move_dropped_when_taken_and_cancelled(
    server: str,
    browser: Any,
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    screen: dict[str, Any],
) -> None:
    told, game_id, tab = against_told_bot(monkeypatch, browser, server, locale, screen)
    tap(tab, "c3")
    shown_plies(tab, 1)
    tab.wait_for_selector("#thinking:not([hidden])")  # the bot's turn, until told

    # Queued: marked, named for a screen reader, said; a second tap on it cancels it.
    tap(tab, "d4")
    expect(premove_mark(tab)).to_have_attribute("data-square", "d4")
    word = message(locale, "premove.mark")
    assert tab.locator('[data-square="d4"]').get_attribute("aria-label").endswith(f", {word}")
    expect(announced(tab)).to_have_text(message(locale, "premove.queued", square="d4"))
    check_page(tab)
    tap(tab, "d4")
    expect(premove_mark(tab)).to_have_count(0)
    expect(announced(tab)).to_have_text(message(locale, "premove.cancelled", square="d4"))
    assert not tab.locator('[data-square="d4"]').get_attribute("aria-label").endswith(word)
    # A tap anywhere else on the board cancels too (and queues nothing), and so does Escape.
    tap(tab, "c4")
    expect(premove_mark(tab)).to_have_attribute("data-square", "c4")
    tap(tab, "e4")
    expect(announced(tab)).to_have_text(message(locale, "premove.cancelled", square="c4"))
    expect(premove_mark(tab)).to_have_count(0)
    tap(tab, "e4")
    expect(premove_mark(tab)).to_have_attribute("data-square", "e4")
    tab.keyboard.press("Escape")
    expect(premove_mark(tab)).to_have_count(0)
    assert moves(server, game_id) == ["c3"]

    # Played at once when the bot has moved elsewhere.
    tap(tab, "f1")
    expect(premove_mark(tab)).to_have_attribute("data-square", "f1")
    told.put("a6")
    shown_plies(tab, 3)  # drawn at once, the server's answer after it
    wait_until(lambda: moves(server, game_id) == ["c3", "a6", "f1"], what="the premove played")
    expect(premove_mark(tab)).to_have_count(0)
    tab.wait_for_selector("#thinking:not([hidden])")

    # Dropped, with a notice, when the bot took its square; your turn then.
    tap(tab, "d1")
    expect(premove_mark(tab)).to_have_attribute("data-square", "d1")
    told.put("d1")
    shown_plies(tab, 4)
    expect(tab.locator("#notice")).to_have_text(
        message(locale, "premove.dropped", square="d1", side="O")
    )
    expect(premove_mark(tab)).to_have_count(0)
    expect(tab.locator("#board")).not_to_have_class("board locked")
    assert moves(server, game_id) == ["c3", "a6", "f1", "d1"]
    check_page(tab)
    tab.context.close()


@pytest.mark.parametrize(("locale", "screen"), [SCREENS[0]])
def test_a_premove_against_a_person_on_another_device_is_played_after_their_move(
    server: str, browser: Any, locale: str, screen: dict[str, Any]
) -> None:
    people = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
    body = {**people, "rows": 6, "cols": 6, "rounds": 14, "clock": CLOCKED["clock"]}
    made = api(server, "POST", "/api/invites", body)
    game_id, tokens = made["game"]["id"], made["tokens"]
    ann = new_tab(browser, server, client=None, locale=locale, **screen)
    goto(ann, f"{server}/?game={game_id}#seat={tokens['x']}")
    bob = new_tab(browser, server, client=None, **LAPTOP)
    goto(bob, f"{server}/?game={game_id}#seat={tokens['o']}")
    for tab in (ann, bob):
        tab.wait_for_selector("#board .sq")
    tap(ann, "c3")
    shown_plies(bob, 1)
    tap(ann, "d4")  # Bob's turn: queued on Ann's page only
    expect(premove_mark(ann)).to_have_attribute("data-square", "d4")
    expect(premove_mark(bob)).to_have_count(0)
    check_page(ann)
    bob.locator('#board [data-square="a6"]').click()
    shown_plies(ann, 3)
    shown_plies(bob, 3)
    assert moves(server, game_id) == ["c3", "a6", "d4"]
    expect(premove_mark(ann)).to_have_count(0)
    check_page(ann)
    assert bob.console_errors == []
    for tab in (ann, bob):
        tab.context.close()


@pytest.mark.parametrize(("locale", "screen"), CROSSED)
def test_move_confirmation_holds_the_first_tap_until_a_second_or_play(
    server: str,
    browser: Any,
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    screen: dict[str, Any],
) -> None:
    told, game_id, tab = against_told_bot(monkeypatch, browser, server, locale, screen)
    toggle = tab.get_by_label(message(locale, "play.confirm"))
    expect(toggle).not_to_be_checked()  # off by default
    toggle.check()
    goto(tab, f"{server}/?game={game_id}")  # remembered by the browser
    tab.wait_for_selector("#board .sq")
    expect(tab.locator("#confirm-moves")).to_be_checked()

    selected = tab.locator("#board .sq.selected")
    bar = tab.locator("#confirm-move")
    tap(tab, "c3")
    expect(selected).to_have_attribute("data-square", "c3")
    expect(bar).to_be_visible()
    expect(tab.locator("#confirm-move-text")).to_have_text(
        message(locale, "confirm.text", square="c3")
    )
    expect(announced(tab)).to_have_text(message(locale, "confirm.selected", square="c3"))
    assert moves(server, game_id) == []
    check_page(tab)
    tap(tab, "d4")  # another square moves the selection
    expect(selected).to_have_attribute("data-square", "d4")
    expect(selected).to_have_count(1)
    tab.keyboard.press("Escape")
    expect(selected).to_have_count(0)
    expect(bar).to_be_hidden()
    assert moves(server, game_id) == []

    tap(tab, "d4")
    expect(selected).to_have_attribute("data-square", "d4")
    tap(tab, "d4")  # the second tap plays it
    shown_plies(tab, 1)
    expect(bar).to_be_hidden()
    told.put("a6")
    shown_plies(tab, 2)
    tap(tab, "c3")
    expect(selected).to_have_attribute("data-square", "c3")
    tab.locator("#confirm-move-play").click()
    shown_plies(tab, 3)  # drawn at once, the server's answer after it
    expect(tab.locator('#board [data-square="c3"]')).to_be_focused()  # not lost with the bar
    wait_until(lambda: moves(server, game_id) == ["d4", "a6", "c3"], what="the move played")
    expect(selected).to_have_count(0)
    check_page(tab)
    tab.context.close()


def test_typed_moves_are_not_held_and_watchers_have_no_confirmation(
    server: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, game_id, tab = against_told_bot(monkeypatch, browser, server, "en-GB", LAPTOP)
    tab.locator("#confirm-moves").check()
    tab.locator("#move-input").fill("c3")
    tab.locator("#move-input").press("Enter")
    shown_plies(tab, 1)  # drawn at once, the server's answer after it
    wait_until(lambda: moves(server, game_id) == ["c3"], what="the typed move played")
    assert tab.console_errors == []
    tab.context.close()
    # A watcher (another device) moves nothing: no setting offered.
    watcher = new_tab(browser, server, client=None)
    goto(watcher, f"{server}/?game={game_id}")
    shown_plies(watcher, 1)
    expect(watcher.locator("#move-form")).to_be_hidden()
    expect(watcher.locator("#confirm-setting")).to_be_hidden()
    assert watcher.console_errors == []
    watcher.context.close()
