"""Puzzles by phase of the game in Chromium (Playwright, Debian's Chromium), in English and
in Indonesian, on a laptop (1366x768) and a phone (390x844): the phase picker offers the
served set's phases with their counts, picking the middle game gives a puzzle with more
than 14 plies left, which is solved by playing its solution, and Next and a streak keep
to the middle game; axe-core finds nothing at any impact, the page never scrolls
sideways and logs no console error.

The puzzles are the shipped set (both builds: the endgame's and the middle game's),
served by a real uvicorn server; the solution is read from ``load_shipped()``.
"""

from __future__ import annotations

import secrets
from collections import Counter
from functools import cache
from typing import Any

import pytest

from adjacency.puzzles import PHASES, Puzzle, load_shipped
from browser_helpers import CASES, SIZES, audited, goto
from web_helpers import new_tab

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-puzzle-phase")]

MIDDLE = {"en-US": "Middle game", "id-ID": "Tengah permainan"}
SOLVED = {"en-US": "Solved!", "id-ID": "Terpecahkan!"}


@cache
def shipped() -> dict[str, Puzzle]:
    return {p.id: p for p in load_shipped()}


def middle_ids() -> list[str]:
    return sorted(key for key, p in shipped().items() if p.phase == "middlegame")


def shown(tab: Any) -> Puzzle:
    """The puzzle the page shows (its id in the address), once its board takes moves."""
    tab.wait_for_function("location.pathname.startsWith('/puzzles/p')")
    expect(tab.locator("#board")).not_to_have_class("board locked")
    return shipped()[tab.evaluate("location.pathname.split('/').pop()")]


def another_middle(tab: Any, before: str) -> Puzzle:
    """Wait until the page shows a middle-game puzzle other than ``before``; that puzzle."""
    tab.wait_for_function(
        "([ids, before]) => { const id = location.pathname.split('/').pop();"
        " return id !== before && ids.includes(id); }",
        arg=[middle_ids(), before],
    )
    puzzle = shown(tab)
    assert puzzle.plies_left > 14 and puzzle.phase == "middlegame"
    return puzzle


def solve(tab: Any, puzzle: Puzzle, locale: str) -> None:
    """Play the puzzle's solution: each solver move, then wait for the page's reply."""
    for step in range(0, len(puzzle.solution), 2):
        tab.locator(f"#board [data-square={puzzle.solution[step]}]").click()
        if step + 1 < len(puzzle.solution):
            reply = puzzle.solution[step + 1]
            piece = tab.locator(f"#board [data-square={reply}] svg.piece:not(.ghost)")
            expect(piece).to_have_count(1)
            expect(tab.locator("#board")).not_to_have_class("board locked")
    expect(tab.locator("#prompt")).to_have_text(SOLVED[locale])
    expect(tab.locator("#btn-next")).to_be_focused()


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_middle_game_is_picked_solved_and_kept_to(
    server: str, browser: Any, locale: str, size: str
) -> None:
    counts = Counter(p.phase for p in shipped().values())
    tab = new_tab(
        browser, server, client=secrets.token_urlsafe(16), locale=locale, viewport=SIZES[size]
    )
    goto(tab, f"{server}/puzzles")
    first = shown(tab)
    options = tab.locator("#phase option")
    expect(options).to_have_count(1 + sum(1 for name in PHASES if counts[name]))
    middle_option = tab.locator("#phase option[value=middlegame]")
    expect(middle_option).to_have_text(f"{MIDDLE[locale]} ({counts['middlegame']})")
    audited(tab, locale, size)
    tab.locator("#phase").select_option("middlegame")
    puzzle = another_middle(tab, first.id)
    audited(tab, locale, size)
    solve(tab, puzzle, locale)
    expect(tab.locator("#history a")).to_have_count(1)
    assert tab.locator("#history a").first.get_attribute("data-id") == puzzle.id
    audited(tab, locale, size)
    tab.locator("#btn-next").click()  # Next keeps to the middle game
    following = another_middle(tab, puzzle.id)
    tab.locator("#btn-streak").click()  # so does a streak
    expect(tab.locator("#btn-streak")).to_have_attribute("aria-pressed", "true")
    another_middle(tab, following.id)
    audited(tab, locale, size)
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors
