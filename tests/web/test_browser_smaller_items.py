"""The browser game's smaller defects of the last audit, in a real browser (Playwright,
Debian's Chromium), in English and in Indonesian, at 1366x768 and on a 390x844 phone (the
top bar, whose rows depend on both, in each language once and at each size once; every
other flow once, in Indonesian on a phone where its words or the phone matter, else in
English on a laptop); each flow ends with axe-core finding nothing at any impact, nothing
scrolling the page sideways and no console error.

* The top bar is one row of controls (on a phone they scroll sideways inside it; it took
  three to four rows there, and two at 1366 px in Indonesian).
* The share dialog lists the friend's seat (the link to send) before this browser's own.
* The review summary says what its "squares given away" are (a winner's total is seldom
  0, and a bare "lost 19.9" beside a won game read as a contradiction).
* The last move's frame stands out from its square by 3:1 or more (WCAG 1.4.11).
* On a phone the pinned board leaves the engine's lines to be seen: the first line,
  scrolled to, is the element drawn at its centre, not the board over it.

Oracles: the pages' catalogues (test_i18n_catalogues), the API's seats, WCAG's contrast
formula on the colours the browser computed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from browser_helpers import (
    CASES,
    LOCALES,
    SIZES,
    checked_and_closed,
    goto,
)
from test_i18n_catalogues import catalogue
from web_helpers import SMALL, a_game_with_mistakes, api, new_tab, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-smaller-items")]

TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


def tab_in(browser: Any, server: str, locale: str, size: str) -> Any:
    return new_tab(browser, server, viewport=SIZES[size], locale=locale)


def words(locale: str) -> dict[str, Any]:
    return catalogue(locale.split("-")[0])


def invitation(server: str, tab: Any) -> dict[str, Any]:
    """A game between devices made by the API's client, its seat tokens remembered by
    ``tab``'s page as the new-game dialog remembers them, the page showing the game."""
    made = api(server, "POST", "/api/invites", {**TWO_PEOPLE, **SMALL})
    game_id = made["game"]["id"]
    goto(tab, f"{server}/?game={game_id}")
    tab.evaluate(
        "([id, tokens]) => localStorage.setItem(`adjacency.invite.${id}`, tokens)",
        [game_id, json.dumps(made["tokens"])],
    )
    # this browser takes X's seat by its link, as the creator's page does
    goto(tab, f"{server}/?game={game_id}#seat={made['tokens']['x']}")
    tab.reload()
    expect(tab.locator("#status")).not_to_be_empty()
    return made  # type: ignore[no-any-return]


def open_game(tab: Any, server: str, game: dict[str, Any]) -> None:
    goto(tab, f"{server}/?game={game['id']}")
    count = len(game["moves"])
    tab.wait_for_function(f"document.querySelectorAll('#board .sq').length > 0 && {count} >= 0")
    expect(tab.locator("#status")).not_to_be_empty()


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_top_bar_is_one_row(server: str, browser: Any, locale: str, size: str) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 8})
    tab = tab_in(browser, server, locale, size)
    open_game(tab, server, game)
    tops = tab.eval_on_selector_all(
        ".topbar .topnav > *", "els => [...new Set(els.map((e) => e.offsetTop))]"
    )
    assert len(tops) == 1, tops  # every control on one line
    height = tab.eval_on_selector(".topbar", "e => e.getBoundingClientRect().height")
    assert height <= 64, height
    nav = tab.eval_on_selector(".topbar .topnav", "e => [e.scrollWidth, e.clientWidth]")
    if size == "phone":  # the controls that do not fit scroll inside the bar, reachable
        assert nav[0] > nav[1], nav
        tab.locator("#lang").scroll_into_view_if_needed()
        box = tab.locator("#lang").bounding_box()
        assert box is not None and box["x"] + box["width"] <= SIZES[size]["width"] + 0.5
    checked_and_closed(tab)


@pytest.mark.parametrize(("locale", "size"), [CASES[1]])
def test_the_share_dialog_puts_the_friends_seat_first(
    server: str, browser: Any, locale: str, size: str
) -> None:
    tab = tab_in(browser, server, locale, size)
    made = invitation(server, tab)
    game_id = made["game"]["id"]

    def seats() -> Any:  # the page claims the seat once it has loaded the game
        me = tab.evaluate(f"() => fetch('/api/games/{game_id}/me').then((r) => r.json())")
        return me["seats"] or None

    mine = wait_until(seats, 30, "the page to claim its seat")
    assert mine == ["x"], mine
    friend = "o" if mine == ["x"] else "x"
    tab.click("#btn-share")
    expect(tab.locator("#dlg-invite")).to_be_visible()
    order = tab.eval_on_selector_all(
        "#invite-links .share-item", "items => items.map((i) => i.dataset.link)"
    )
    assert order == [f"seat-{friend}", f"seat-{mine[0]}", "watch"], order
    first = tab.locator("#invite-links .share-item label").first.inner_text()
    yours = str(words(locale)["share.seat.yours"]).split("—")[-1]
    assert re.sub(r"\{\w+\}", "", yours).strip()[:8] not in first  # not "(yours: ...)"
    checked_and_closed(tab)


@pytest.mark.parametrize(("locale", "size"), [CASES[1]])
def test_the_review_summary_says_what_the_squares_given_away_are(
    server: str, browser: Any, locale: str, size: str
) -> None:
    from adjacency.core.game import Game
    from adjacency.core.record import game_to_text

    start, moves, _ = a_game_with_mistakes()
    record = Game(start, "Ann", "Bob")
    for move in moves:
        record.play(move)
    state = api(server, "POST", "/api/games/import", {"record": game_to_text(record)})
    tab = tab_in(browser, server, locale, size)
    open_game(tab, server, state)
    tab.click("#btn-review")
    note = tab.locator("#review-summary .review-summary-note")
    expect(note).to_have_text(str(words(locale)["review.summary.note"]))
    row = tab.locator('#review-summary tr[data-measure="loss"] th')
    expect(row).to_have_text(str(words(locale)["review.summary.loss"]))
    checked_and_closed(tab)


CONTRAST = """(sq) => {
  const lum = (text) => {
    const [r, g, b] = text.match(/[\\d.]+/g).slice(0, 3).map((v) => Number(v) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const frame = getComputedStyle(sq, "::after").boxShadow;
  const square = getComputedStyle(sq).backgroundColor;
  const [a, b] = [lum(frame), lum(square)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""
"""WCAG's contrast ratio of a square's last-move frame (its ``::after`` shadow) against
the square's own colour."""


@pytest.mark.parametrize(("locale", "size"), [CASES[0]])
def test_the_last_moves_frame_stands_out(server: str, browser: Any, locale: str, size: str) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 8})
    tab = tab_in(browser, server, locale, size)
    open_game(tab, server, game)
    # A move of each side, their frames on both square shades: X's clicked on the page,
    # then O's sent by the server's API once X's is in (the page's own move waits for the
    # server's answer, so a second click at once would be a person's too-early tap).
    path = f"/api/games/{game['id']}"

    def in_after(plies: int) -> Callable[[], bool]:
        return lambda: len(api(server, "GET", path)["moves"]) >= plies

    for ply in range(2):
        square = tab.locator("#board .sq:not(.filled)").first
        name = square.get_attribute("data-square")
        if ply == 0:
            square.click()
        else:
            api(server, "POST", f"{path}/moves", {"square": name})
        expect(tab.locator(f'#board [data-square="{name}"].last')).to_have_count(1)
        wait_until(in_after(ply + 1), what="the move")
        ratio = tab.eval_on_selector(f'#board [data-square="{name}"]', CONTRAST)
        assert ratio >= 3.0, (name, ratio)
    checked_and_closed(tab)


@pytest.mark.parametrize(("locale", "size"), [CASES[1]])
def test_the_pinned_board_leaves_the_engine_lines_in_sight(
    server: str, browser: Any, locale: str, size: str
) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 8})
    tab = tab_in(browser, server, locale, size)
    open_game(tab, server, game)
    tab.click("#btn-analyse")
    line = tab.locator("#analysis-lines li .line-play").first
    line.wait_for()  # the page scrolled the panel under the pinned board: no scroll here
    seen = tab.evaluate(
        """() => { const line = document.querySelector('#analysis-lines li .line-play');
          const r = line.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return [Boolean(top && line.contains(top)), top ? top.className || top.tagName : null,
                  r.top, r.bottom]; }"""
    )
    assert seen[0], seen
    board = tab.locator(".board-area").bounding_box()
    assert board is not None
    if size == "phone":  # the board stays pinned above, in at most two thirds of the screen
        assert board["height"] <= 2 / 3 * SIZES[size]["height"], board
    checked_and_closed(tab)


@pytest.mark.parametrize("locale", LOCALES[1:])
def test_a_reloaded_bot_game_names_each_sides_player_and_kind(
    server: str, browser: Any, locale: str
) -> None:
    """A game against a bot started from the dialog's defaults, reloaded after a move,
    still names this browser's side "You · Person" and the bot's side by its level, each
    in the reader's language (an audit once read "Club bot · Person" after a reload). In
    Indonesian; the names' choice in both languages: tests/web/js/format.test.mjs."""
    said = words(locale)
    tab = tab_in(browser, server, locale, "laptop")
    goto(tab, server)
    tab.wait_for_selector("#dlg-new[open]")
    tab.click("#new-start")
    tab.wait_for_selector("#dlg-new", state="hidden")
    tab.wait_for_function("!document.querySelector('#board').classList.contains('locked')")
    tab.locator("#board .sq:not(.filled)").first.click()
    tab.wait_for_function("document.querySelectorAll('#moves button').length === 2")
    game = api(server, "GET", f"/api/games/{tab.url.rsplit('=', 1)[1]}")
    bot = game["o"]
    assert (game["x"]["kind"], bot["kind"]) == ("human", "bot")
    level = said[f"level.{bot['level_name']}"]
    expected = {
        "#bar-bottom": (said["new.you"], said["bars.person"]),
        "#bar-top": (
            said["new.bot-name"].replace("{level}", level),
            said["bars.bot-level"].replace("{level}", str(bot["level"])).replace("{name}", level),
        ),
    }
    tab.reload()
    for bar, (name, kind) in expected.items():
        expect(tab.locator(f"{bar} .name")).to_have_text(name)
        expect(tab.locator(f"{bar} .kind")).to_have_text(kind)
    checked_and_closed(tab, locale)
