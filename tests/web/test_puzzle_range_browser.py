"""Puzzles with range in Chromium (Playwright, Debian's Chromium), in English and in
Indonesian, on a laptop (1366x768) and a phone (390x844): the length picker offers the
set's lengths, the theme picker gives a theme's puzzle, a streak climbs to a harder
puzzle after each solve, rates nothing, passes one puzzle at its one skip and ends at a
miss, and "Your tries" lists each puzzle tried with its first result; axe-core finds
nothing at any impact, the page never scrolls sideways and logs no console error.

The puzzles are the exact oracle's with a theme each (web_puzzle_helpers.themed_puzzles),
served by a real uvicorn server; the API says the puzzles' ratings.
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from adjacency.puzzles import Puzzle
from browser_helpers import CASES, SIZES, audited, goto
from web_helpers import api, new_tab
from web_puzzle_helpers import THEMED, themed_puzzles

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-puzzle-range")]

LIVE_SERVER = {"puzzles": themed_puzzles}
STREAK_OVER = {"en-US": "Streak over: 1 solved in a row.",
               "id-ID": "Beruntun selesai: 1 terpecahkan berturut-turut."}  # fmt: skip
UNRATED = {
    "en-US": "Not rated: a streak's puzzles are never rated.",
    "id-ID": "Tidak diberi rating: teka-teki dalam beruntun tidak pernah diberi rating.",
}
SKIPPED = {"en-US": "your skip is used", "id-ID": "jatah lewati Anda sudah terpakai"}


def shown_puzzle(tab: Any) -> Puzzle:
    """The puzzle the page shows (its id in the address, once its board is drawn)."""
    tab.wait_for_function("location.pathname.startsWith('/puzzles/p')")
    expect(tab.locator("#board")).not_to_have_class("board locked")
    ident = tab.evaluate("location.pathname.split('/').pop()")
    return next(p for p in themed_puzzles() if p.id == ident)


def filled(tab: Any, name: str) -> None:
    expect(tab.locator(f"#board [data-square={name}] svg.piece:not(.ghost)")).to_have_count(1)


def solve(tab: Any, puzzle: Puzzle) -> None:
    first, reply, second = puzzle.solution
    tab.locator(f"#board [data-square={first}]").click()
    filled(tab, reply)
    expect(tab.locator("#board")).not_to_have_class("board locked")
    tab.locator(f"#board [data-square={second}]").click()
    expect(tab.locator("#btn-next")).to_be_focused()


def own_rating(tab: Any, server: str, puzzle: Puzzle) -> Any:
    """The tab's own player rating, as the API gives it to the tab's browser (its cookie)."""
    return tab.request.get(f"{server}/api/puzzles/{puzzle.id}").json()["player"]


def rating(server: str, puzzle: Puzzle) -> float:
    return float(api(server, "GET", f"/api/puzzles/{puzzle.id}")["rating"]["rating"])


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_a_theme_a_streak_and_the_history_of_tries(
    server: str, browser: Any, locale: str, size: str
) -> None:
    puzzles = themed_puzzles()
    tab = new_tab(
        browser, server, client=secrets.token_urlsafe(16), locale=locale, viewport=SIZES[size]
    )
    goto(tab, f"{server}/puzzles")
    shown_puzzle(tab)
    expect(tab.locator("#history-empty")).to_be_visible()
    expect(tab.locator("#theme option")).to_have_count(1 + 2 + len(THEMED))
    expect(tab.locator("#length option")).to_have_count(2)  # any, and the set's one length
    tab.locator("#length").select_option("2")  # every puzzle here: the choice keeps them all
    tab.locator("#theme").select_option(THEMED[0])  # the corner puzzle, the only one
    tab.wait_for_function(f"location.pathname.endsWith('{puzzles[0].id}')")
    tab.locator("#theme").select_option("")  # any theme again: another puzzle
    tab.wait_for_function(f"!location.pathname.endsWith('{puzzles[0].id}')")
    before = shown_puzzle(tab)
    audited(tab, locale, size)
    expect(tab.locator("#btn-next")).to_have_attribute("data-pass", "next")  # no run: free
    tab.locator("#btn-streak").click()  # a streak starts with another puzzle
    expect(tab.locator("#btn-streak")).to_have_attribute("aria-pressed", "true")
    tab.wait_for_function(f"!location.pathname.endsWith('{before.id}')")
    first = shown_puzzle(tab)
    above = rating(server, first)
    player = own_rating(tab, server, first)
    solve(tab, first)
    expect(tab.locator("#streak")).to_contain_text("1")
    expect(tab.locator("#rated-note")).to_have_text(UNRATED[locale])  # a streak rates nothing
    assert rating(server, first) == above
    with tab.expect_request(lambda r: "/api/puzzles/next" in r.url) as asked:
        tab.locator("#btn-next").click()
    climb = float(parse_qs(urlparse(asked.value.url).query)["above"][0]) - above
    assert climb == pytest.approx(50), climb  # a streak climbs 50 points a puzzle at least
    tab.wait_for_function(f"!location.pathname.endsWith('{first.id}')")
    second = shown_puzzle(tab)
    harder = [p for p in puzzles if p.id != first.id and rating(server, p) > above + 50]
    assert second in harder or not harder  # the next harder one, if any is left
    expect(tab.locator("#btn-next")).to_have_attribute("data-pass", "skip")
    tab.locator("#btn-next").click()  # Next unsolved: its one skip, the streak on
    tab.wait_for_function(f"!location.pathname.endsWith('{second.id}')")
    third = shown_puzzle(tab)
    expect(tab.locator("#streak")).to_contain_text(SKIPPED[locale])
    expect(tab.locator("#btn-next")).to_be_disabled()  # spent: Next waits for the solve
    expect(tab.locator("#btn-streak")).to_have_attribute("aria-pressed", "true")
    wrong = next(r for r in third.refutations[0] if r.reply is not None)
    tab.locator(f"#board [data-square={wrong.move}]").click()
    expect(tab.locator("#streak")).to_have_text(STREAK_OVER[locale])
    expect(tab.locator("#btn-streak")).to_have_attribute("aria-pressed", "false")
    expect(tab.locator("#dlg-run")).to_be_visible()  # the streak's end screen
    expect(tab.locator("#run-puzzles li")).to_have_count(3)  # solved, skipped, missed
    tab.locator("#run-close").click()
    expect(tab.locator("#btn-next")).to_be_enabled()
    expect(tab.locator("#rated-note")).to_have_text(UNRATED[locale])
    assert own_rating(tab, server, first) == player  # the tab's player: not rated
    history = tab.locator("#history a")
    expect(history).to_have_count(2)  # the skipped puzzle is no try
    assert history.nth(0).get_attribute("data-id") == third.id
    assert history.nth(0).get_attribute("data-result") == "missed"
    assert history.nth(1).get_attribute("data-result") == "won"
    expect(tab.locator("#history-empty")).to_be_hidden()
    audited(tab, locale, size)
    history.nth(1).click()  # a tried puzzle opens again from the list
    tab.wait_for_function(f"location.pathname.endsWith('{first.id}')")
    shown_puzzle(tab)
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors
