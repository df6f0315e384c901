"""The opening explorer in a real browser (Playwright, Debian's Chromium), in English and in
Indonesian, on a laptop (1366x768) and a phone (390x844): axe-core finds nothing at any
impact, the page never scrolls sideways and logs no console error.

* On the analysis board without a game, the explorer under the engine lines lists the
  moves the server's finished games played from the shown position, with their counts,
  the share each side won and the average margin; a click on a move plays it into the
  board's tree and the explorer follows to the new position.
* In a finished game's analysis, the explorer shows the moves from the shown position.

Oracles: the rules core (the games replayed, their results and margins), the book's own
lookup for its value.
"""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.engine.book import lookup
from browser_helpers import CASES, SIZES, audited, goto
from web_helpers import api, new_tab

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-explorer")]

START = Position.start(4, 4, 4)
WAIT = 45_000
"""Milliseconds an analysis may take to end on a loaded machine (a 4x4 is searched to its end)."""
HUMANS = {"x": {"kind": "human"}, "o": {"kind": "human"}, "start": START.fen()}


def lines() -> list[list[str]]:
    """Four whole games from the 4x4 start: three open with one move, one with another."""
    rng = random.Random(4)
    first, second = START.legal_moves()[0], START.legal_moves()[-1]
    games = []
    for opening in (first, first, first, second):
        position, line = START.play(opening), [opening]
        while not position.is_over:
            line.append(rng.choice(position.legal_moves()))
            position = position.play(line[-1])
        games.append(line)
    return games


GAMES = lines()


@pytest.fixture(scope="module")
def stored(server: str) -> str:
    """The server with :data:`GAMES` played to their ends through the API."""
    for line in GAMES:
        state = api(server, "POST", "/api/games", HUMANS)
        for square in line:
            state = api(server, "POST", f"/api/games/{state['id']}/moves", {"square": square})
        assert state["status"] == "over"
    return server


def expected_rows(at: Position) -> dict[str, tuple[int, str, str]]:
    """Per move from ``at``: (games, the split's words, the average margin's words)."""
    sums: dict[str, list[int]] = {}
    for line in GAMES:
        position = START
        seen = []
        for square in line:
            seen.append((position, square))
            position = position.play(square)
        x, o = position.score
        result = position.outcome()
        for before, square in seen:
            if before == at:
                row = sums.setdefault(square, [0, 0, 0, 0, 0])
                row[0] += 1
                row[1 + ("x", "draw", "o").index(str(result))] += 1
                row[4] += x - o
    out = {}
    for move, (games, xw, dr, ow, margin) in sums.items():
        split = " · ".join(f"{round(100 * n / games)}%" for n in (xw, dr, ow))
        average = Decimal(round(margin / games, 2)).quantize(Decimal("0.1"), ROUND_HALF_UP)
        sign = "" if average == 0 else "+" if average > 0 else "−"
        out[move] = (games, split, f"{sign}{abs(average).normalize():f}")
    return out


def table(tab: Any) -> dict[str, tuple[int, str, str]]:
    rows = tab.eval_on_selector_all(
        "#explorer-body tr",
        "rows => rows.map((r) => [r.dataset.move, r.children[1].textContent,"
        " r.querySelector('.explorer-split').textContent, r.children[3].textContent])",
    )
    return {move: (int(games), split, margin) for move, games, split, margin in rows}


def same_table(tab: Any, at: Position, locale: str) -> None:
    want = expected_rows(at)
    got = table(tab)
    assert got.keys() == want.keys()
    for move, (games, split, margin) in want.items():
        assert got[move][:2] == (games, split), move
        shown = got[move][2].replace(",", ".")  # Indonesian writes a decimal comma
        assert shown == margin, (move, got[move][2], margin)


def explored(tab: Any, at: Position) -> None:
    """Wait until the explorer shows ``at`` and the engine has finished analysing it (a 4x4
    is searched to the end; the next position's analysis then finds a free slot)."""
    tab.wait_for_selector(f'#explorer[data-state="ready"][data-fen="{at.fen()}"]')
    expect(tab.locator("#analysis-stop")).to_be_disabled(timeout=WAIT)


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_explorer_lists_the_stored_games_moves_and_plays_one(
    stored: str, browser: Any, locale: str, size: str
) -> None:
    tab = new_tab(browser, stored, viewport=SIZES[size], locale=locale)
    goto(tab, stored)
    tab.wait_for_selector("#dlg-new[open]")
    tab.click("#new-cancel")
    tab.click("#btn-editor")
    tab.locator("#editor-form select[name=rows]").select_option("4")
    tab.locator("#editor-form select[name=cols]").select_option("4")
    tab.click("#editor-analyse")
    explored(tab, START)
    same_table(tab, START, locale)
    hit = lookup(START)
    assert hit is not None
    expect(tab.locator("#explorer-book")).to_contain_text(", ".join(sorted(hit.moves)))
    starred = tab.eval_on_selector_all(
        "#explorer-body tr:has(.explorer-best)", "rows => rows.map((r) => r.dataset.move)"
    )
    assert sorted(starred) == sorted(set(hit.moves) & set(expected_rows(START)))
    audited(tab, locale, size)
    opening = GAMES[0][0]
    tab.click(f'#explorer-body tr[data-move="{opening}"] .explorer-move')
    expect(tab.locator("#moves button.variation-move.current .sqname")).to_have_text(opening)
    after = START.play(opening)
    explored(tab, after)
    same_table(tab, after, locale)
    audited(tab, locale, size)
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_a_finished_games_analysis_shows_the_explorer_for_the_shown_position(
    stored: str, browser: Any, locale: str, size: str
) -> None:
    state = api(stored, "GET", "/api/games")
    game = next(g for g in state if g["status"] == "over")
    tab = new_tab(browser, stored, viewport=SIZES[size], locale=locale)
    goto(tab, f"{stored}/?game={game['id']}")
    tab.wait_for_selector("#moves button")
    tab.click("#nav-first")
    tab.click("#btn-analyse")
    explored(tab, START)
    same_table(tab, START, locale)
    audited(tab, locale, size)
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors
