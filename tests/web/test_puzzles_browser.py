"""The puzzle page in Chromium: a puzzle solved by clicking (the reply drawn, the themes
and the rating's gain shown), a wrong move refuted then retried and solved with the
keyboard (the miss's rating change kept in view, the try in the history), a hint's marked
quarter, the next puzzle, the page at a phone's width without sideways scrolling, and
axe-core finding nothing. Each journey runs once, in Indonesian (nothing English left on
the way), but the timed run's end screen, in English at 1366x768 and in Indonesian at
1280x720 and on a phone (the longer words in the narrower windows). What
the page says of a solve (plain, after a miss, with a hint), the history's themes and day
and the dashboard's words are tested in English and Indonesian without a browser, on the
page's own module (tests/web/js/puzzles.test.mjs). The puzzles are the exact oracle's
(web_puzzle_helpers), served by a real uvicorn server."""

from __future__ import annotations

import math
import re
import secrets
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.ratings.glicko import Glicko, rate_game
from browser_helpers import (
    EVERY_IMPACT,
    WINDOWS,
    axe_violations,
    checked_and_closed,
    covered,
    each_once,
    goto,
    outside_window,
    pictured,
    window,
)
from i18n_helpers import english_left, message
from web_helpers import api, new_tab, wait_until
from web_puzzle_helpers import (
    LazyPuzzles,
    filled,
    oracle_puzzles,
    playable,
    seconds_left,
    shown,
    square,
)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-puzzles-browser")]

LIVE_SERVER = {"puzzles": oracle_puzzles}
PUZZLES = LazyPuzzles()
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "id": "id-ID"}
SOLVED = {"en": "Solved!", "id": "Terpecahkan!"}
AFTER_MISS = {
    "en": "Solved, after a miss: your first try counted as a loss.",
    "id": "Terpecahkan, setelah meleset: percobaan pertama Anda dihitung kalah.",
}
AFTER_HINT = {
    "en": "Solved, with a hint: your first try counted as a loss.",
    "id": "Terpecahkan, dengan petunjuk: percobaan pertama Anda dihitung kalah.",
}
FILES = "abcdefgh"
NONE_YET = {"en": "none yet", "id": "belum ada"}
SHORT_MONTHS = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "id": ["Jan", "Feb", "Mar", "Apr", "Mei", "Jun", "Jul", "Agu", "Sep", "Okt", "Nov", "Des"],
}
"""The months' short names of the browser's dates in en-US and id-ID (CLDR)."""


def open_puzzle(browser: Any, server: str, lang: str, puzzle_id: str, **options: Any) -> Any:
    """A tab of a new player (its own client cookie) in ``lang`` on the puzzle's page."""
    tab = new_tab(
        browser, server, client=secrets.token_urlsafe(16), locale=LOCALES[lang], **options
    )
    goto(tab, f"{server}/puzzles/{puzzle_id}")
    tab.wait_for_selector("#board .sq")
    expect(tab.locator("#player-rating")).to_have_text("1500")
    return tab


def theme_words(tab: Any, names: Any) -> list[str]:
    """The themes ``names`` in the page's words (its catalogue)."""
    words: list[str] = tab.evaluate(
        "async (names) => { const { t } = await import('/static/js/i18n.js');"
        " return names.map((n) => t(`puzzle.theme.${n}`)); }",
        list(names),
    )
    return words


def rating_now(server: str, puzzle_id: str) -> Glicko:
    """The puzzle's rating now (an earlier test may have moved it)."""
    rating = api(server, "GET", f"/api/puzzles/{puzzle_id}")["rating"]
    return Glicko(rating["rating"], rating["rd"], rating["volatility"])


def signed_change(before: Glicko, after: Glicko) -> str:
    change = round(after.rating - before.rating)
    return f"(+{change})" if change > 0 else f"(−{-change})"


@pytest.mark.parametrize("lang", ["id"])
def test_a_puzzle_is_solved_by_clicking(browser: Any, server: str, lang: str) -> None:
    puzzle = PUZZLES[1]
    first, reply, second = puzzle.solution
    before = rating_now(server, puzzle.id)
    tab = open_puzzle(browser, server, lang, puzzle.id)
    expect(tab.locator("#prompt")).to_contain_text(puzzle.turn.upper())
    square(tab, first).click()
    filled(tab, first)
    filled(tab, reply)  # the opponent's reply, drawn after the correct move
    playable(tab)
    expect(tab.locator("#feedback")).to_contain_text(reply)
    square(tab, second).click()
    expect(tab.locator("#prompt")).to_have_text(SOLVED[lang])
    expect(tab.locator("#line")).to_contain_text(" ".join(puzzle.solution))
    expect(tab.locator("#themes")).to_be_visible()
    player, rating = rate_game(Glicko(), before, 1.0)
    expect(tab.locator("#player-rating")).to_have_text(str(round(player.rating)))
    expect(tab.locator("#player-change")).to_have_text(signed_change(Glicko(), player))
    expect(tab.locator("#puzzle-rating")).to_have_text(str(round(rating.rating)))
    expect(tab.locator("#btn-next")).to_be_focused()
    checked_and_closed(tab, lang)


@pytest.mark.parametrize("lang", ["id"])
def test_a_wrong_move_is_refuted_then_retried_with_the_keyboard(
    browser: Any, server: str, lang: str
) -> None:
    puzzle = PUZZLES[0]
    wrong = next(r for r in puzzle.refutations[0] if r.reply is not None)
    assert wrong.reply is not None
    before = rating_now(server, puzzle.id)
    tab = open_puzzle(browser, server, lang, puzzle.id)
    square(tab, wrong.move).click()
    filled(tab, wrong.reply)  # the refutation, drawn
    expect(tab.locator("#feedback")).to_contain_text(wrong.move)
    expect(tab.locator("#feedback")).to_contain_text(wrong.reply)
    player, _ = rate_game(Glicko(), before, 0.0)
    expect(tab.locator("#player-change")).to_have_text(signed_change(Glicko(), player))
    expect(tab.locator("#btn-retry")).to_be_focused()
    tab.keyboard.press("Enter")  # Retry: back to the puzzle's position
    expect(square(tab, wrong.move).locator("svg.piece:not(.ghost)")).to_have_count(0)
    expect(square(tab, wrong.reply).locator("svg.piece:not(.ghost)")).to_have_count(0)
    playable(tab)
    first, reply, second = puzzle.solution
    for move, then in ((first, reply), (second, None)):
        walk_to(tab, move, turned=puzzle.turn == "o")
        tab.keyboard.press("Enter")
        if then is not None:
            filled(tab, then)
            playable(tab)
    expect(tab.locator("#prompt")).to_have_text(SOLVED[lang])
    # The retry is not rated; the miss's change stays in view, and the words say so.
    expect(tab.locator("#player-change")).to_have_text(signed_change(Glicko(), player))
    expect(tab.locator("#feedback")).to_have_text(AFTER_MISS[lang])
    expect(tab.locator("#rated-note")).not_to_be_empty()
    expect(tab.locator(f"#history a[data-id='{puzzle.id}']")).to_have_attribute(
        "data-result", "later"
    )
    # missed at the first try: its themes played below the rating, an area to improve
    expect(tab.locator("#dashboard-verdict")).to_be_visible()
    improve = tab.locator("#dashboard-improve")
    for theme in theme_words(tab, puzzle.themes):
        expect(improve).to_contain_text(theme)
    expect(tab.locator("#dashboard-strengths")).to_have_text(NONE_YET[lang])
    checked_and_closed(tab, lang)


@pytest.mark.parametrize("lang", ["id"])
def test_a_hint_then_the_solution_is_said_as_a_hint_not_a_miss(
    browser: Any, server: str, lang: str
) -> None:
    puzzle = PUZZLES[1]
    first, reply, second = puzzle.solution
    tab = open_puzzle(browser, server, lang, puzzle.id)
    tab.locator("#btn-hint").click()
    expect(tab.locator("#board .sq.region").first).to_be_visible()
    square(tab, first).click()
    filled(tab, reply)
    playable(tab)
    square(tab, second).click()
    expect(tab.locator("#prompt")).to_have_text(SOLVED[lang])
    expect(tab.locator("#feedback")).to_have_text(AFTER_HINT[lang])
    checked_and_closed(tab, lang)


@pytest.mark.parametrize("lang", ["id"])
def test_a_solved_puzzle_is_named_by_its_themes_and_opens_on_the_analysis_board(
    browser: Any, server: str, lang: str
) -> None:
    """The history names a try by the puzzle's themes and its day (not by its rating,
    which every try moves), and links it; Analyse opens the play page's analysis board
    at the puzzle's position."""
    puzzle = PUZZLES[2]
    tab = open_puzzle(browser, server, lang, puzzle.id, timezone_id="UTC")
    first, reply, second = puzzle.solution
    square(tab, first).click()
    filled(tab, reply)
    playable(tab)
    square(tab, second).click()
    expect(tab.locator("#prompt")).to_have_text(SOLVED[lang])
    row = tab.locator(f"#history a[data-id='{puzzle.id}']")
    expect(row).to_have_attribute("href", f"/puzzles/{puzzle.id}")
    themes = theme_words(tab, puzzle.themes)
    text = row.inner_text()
    assert all(theme in text for theme in themes), (themes, text)
    assert str(round(rating_now(server, puzzle.id).rating)) not in text
    # the dashboard: a bar for each of its themes, solved at the first try, worded here
    by_theme = tab.locator("#dashboard [data-by=theme] .theme-row")
    expect(by_theme).to_have_count(len(set(puzzle.themes)))
    drawn = by_theme.locator("text[data-i18n]").all_text_contents()
    assert sorted(drawn) == sorted(set(themes)), drawn
    assert by_theme.and_(tab.locator("[data-won='1'][data-tried='1']")).count() == len(drawn)
    # each theme's performance: solved at the first try, the puzzle's rating now + 500
    performance = str(round(rating_now(server, puzzle.id).rating + 500))
    assert by_theme.locator(".theme-performance").all_text_contents() == [performance] * len(drawn)
    head = tab.locator("#dashboard [data-by=theme] .theme-head")
    expect(head).to_have_text({"en": "performance", "id": "performa"}[lang])
    expect(tab.locator("#dashboard [data-by=phase] .theme-row")).to_have_count(1)
    # the last day's first tries: this one still counts, asked of the server by its period
    with tab.expect_request(lambda asked: "by=theme&period=day" in asked.url):
        tab.select_option("#dashboard-period", "day")
    expect(by_theme).to_have_count(len(set(puzzle.themes)))
    expect(tab.locator("#dashboard-none")).to_be_hidden()
    # solved at the first try: its themes played above the rating, strengths
    strengths = tab.locator("#dashboard-strengths")
    for theme in themes:
        expect(strengths).to_contain_text(theme)
    expect(tab.locator("#dashboard-improve")).to_have_text(NONE_YET[lang])
    expect(tab.locator("#dashboard [data-by=length] .theme-row")).to_have_count(1)
    # its rating after its one rated attempt: one point, the rating the page shows
    chart = tab.locator("#rating-chart svg")
    expect(chart).to_have_attribute("data-points", "1")
    expect(chart).to_have_attribute("data-last", tab.locator("#player-rating").inner_text())
    expect(tab.locator("#rating-title")).to_be_visible()
    day = chart.locator(".rating-date")  # the attempt's day, in the page's language
    at = datetime.fromtimestamp(int(day.get_attribute("data-at")), UTC)
    month = SHORT_MONTHS[lang][at.month - 1]
    expect(day).to_have_text(f"{month} {at.day}" if lang == "en" else f"{at.day} {month}")
    assert tab.evaluate("document.documentElement.scrollWidth") <= 1366
    analyse = tab.locator("#btn-analyse")
    expect(analyse).to_be_visible()
    assert axe_violations(tab, EVERY_IMPACT) == []
    analyse.click()
    tab.wait_for_url(f"{server}/?fen=*")
    expect(tab.locator("#analysis")).to_be_visible()
    expect(tab.locator("#analysis-fen")).to_have_text(puzzle.position)
    shown = tab.eval_on_selector_all(
        "#board .sq", "els => els.filter((e) => e.querySelector('svg.piece')).length"
    )
    assert shown == sum(cell != "." for cell in puzzle.position.split()[0] if cell.isalpha())
    moves = tab.locator("#moves button")  # along its solution: the line in the move list
    expect(moves).to_have_count(len(puzzle.solution))
    drawn = [text.split()[0] for text in moves.all_inner_texts()]
    assert drawn == list(puzzle.solution), drawn
    # the line and its stepping buttons on the laptop's screen, nothing laid over them
    stepping = "#moves button, #nav-first, #nav-back, #nav-forward, #nav-last"
    assert outside_window(tab, stepping) == []
    assert covered(tab, stepping) == []
    tab.click("#nav-forward")  # a step along it: the panel follows, the core's position
    after = Position.from_fen(puzzle.position).play(puzzle.solution[0]).fen()
    expect(tab.locator("#analysis-fen")).to_have_text(after)
    checked_and_closed(tab, lang)


def test_the_timed_mode_counts_solved_puzzles_a_miss_costs_time_and_the_best_is_kept(
    browser: Any, server: str
) -> None:
    tab = new_tab(browser, server, client=secrets.token_urlsafe(16), locale="en-US")
    tab.clock.install()  # the page's timers run on a clock the test turns
    goto(tab, f"{server}/puzzles")
    before = shown(tab)
    tab.click("#btn-timed")
    expect(tab.locator("#btn-timed")).to_have_attribute("aria-pressed", "true")
    expect(tab.locator("#timed")).to_have_text("Timed: 3:00 left · solved: 0")
    puzzle = shown(tab, other_than=before.id)  # a fresh puzzle starts the run
    playable(tab)
    first, reply, second = puzzle.solution
    square(tab, first).click()
    tab.clock.run_for(1000)  # the reply is drawn after a moment
    filled(tab, reply)
    playable(tab)
    square(tab, second).click()
    expect(tab.locator("#timed")).to_contain_text("solved: 1")
    tab.clock.run_for(1000)  # solved: the next puzzle comes by itself
    missed = shown(tab, other_than=puzzle.id)
    playable(tab)
    wrong = next(r for r in missed.refutations[0] if r.reply is not None)
    before_miss, clicked = seconds_left(tab), time.monotonic()
    square(tab, wrong.move).click()
    tab.clock.run_for(300)
    # the miss costs 10 s at once. The installed clock is not paused: until the miss
    # stands the clock, real seconds also pass on it (a loaded machine's, many), so
    # the time shown falls by at least the penalty and at most it and those seconds
    wait_until(lambda: before_miss - seconds_left(tab) >= 10, what="the miss's 10 s")
    cost, passed = before_miss - seconds_left(tab), time.monotonic() - clicked
    assert cost <= 11 + math.ceil(passed), (cost, passed)
    shown(tab, other_than=missed.id)  # the clock stands until the next puzzle is shown
    playable(tab)
    tab.clock.run_for(180_000)
    expect(tab.locator("#timed")).to_have_text("Time is up · solved: 1 · your best: 1")
    expect(tab.locator("#btn-timed")).to_have_attribute("aria-pressed", "false")
    assert axe_violations(tab, EVERY_IMPACT) == []
    tab.reload()
    expect(tab.locator("#timed")).to_have_text("Timed · your best: 1")  # kept by the browser
    assert tab.console_errors == []
    tab.context.close()


IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0
    && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }"""


TIMED_CASES = [
    (locale[:2], window(name))
    for locale, name in pictured(each_once((LOCALES["en"], LOCALES["id"]), WINDOWS))
]
"""Each language and each window once (:func:`browser_helpers.each_once`: Indonesian,
whose words run longest, in the narrower windows), or every language at every window
when the docs are pictured (``make screenshots``: :func:`browser_helpers.pictured`)."""


@pytest.mark.parametrize(("lang", "size"), TIMED_CASES)
def test_a_timed_run_ends_on_its_end_screen_with_its_puzzles_to_replay(
    browser: Any, server: str, shots: Path, lang: str, size: dict[str, int]
) -> None:
    tab = new_tab(
        browser, server, client=secrets.token_urlsafe(16), locale=LOCALES[lang], viewport=size
    )
    tab.clock.install()
    goto(tab, f"{server}/puzzles")
    before = shown(tab)
    tab.click("#btn-timed")
    expect(tab.locator("#combo")).to_be_visible()
    puzzle = shown(tab, other_than=before.id)
    playable(tab)
    first, reply, second = puzzle.solution
    square(tab, first).click()
    tab.clock.run_for(1000)
    filled(tab, reply)
    playable(tab)
    square(tab, second).click()
    combo = message(lang, "puzzle.run.combo", count="1", at="5", seconds="3")
    expect(tab.locator("#combo-text")).to_have_text(combo)
    tab.clock.run_for(1000)
    missed = shown(tab, other_than=puzzle.id)
    playable(tab)
    wrong = next(r for r in missed.refutations[0] if r.reply is not None)
    square(tab, wrong.move).click()
    expect(tab.locator("#combo-text")).to_have_text(
        message(lang, "puzzle.run.combo", count="0", at="5", seconds="3")
    )
    shown(tab, other_than=missed.id)  # the clock stands until the next puzzle is shown
    playable(tab)
    tab.clock.run_for(200_000)
    end = tab.locator("#dlg-run")
    expect(end).to_be_visible()
    score = {"en": "You solved 1 puzzle.", "id": "Anda memecahkan 1 teka-teki."}[lang]
    expect(tab.locator("#run-score")).to_have_text(score)
    assert [tab.inner_text(f"#run-{when}") for when in ("today", "week", "all")] == ["1"] * 3
    items = tab.locator("#run-puzzles li")
    expect(items).to_have_count(2)
    assert [items.nth(i).get_attribute("data-result") for i in range(2)] == ["solved", "missed"]
    assert wrong.move in items.nth(1).inner_text()
    assert " ".join(puzzle.solution) in items.nth(0).inner_text()
    for control in (
        "#run-score",
        "#run-all",
        "#run-puzzles li a >> nth=1",
        "#run-again",
        "#run-close",
    ):
        assert tab.locator(control).evaluate(IN_VIEW), control  # all of it on the screen
    expect(tab.locator("#run-again")).to_be_focused()
    assert axe_violations(tab, EVERY_IMPACT) == []
    if lang == "id":
        assert english_left(tab) == []
    assert tab.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shot = f"puzzle-run-end-{size['width']}x{size['height']}-{lang}.png"
    tab.screenshot(path=str(shots / shot))
    # A second run's score counts among the bests; a puzzle of the run opens to replay.
    items.nth(1).locator("a").click()
    expect(tab).to_have_url(re.compile(rf"/puzzles/{re.escape(missed.id)}$"))
    tab.wait_for_selector("#board .sq")
    playable(tab)
    assert tab.console_errors == []
    tab.context.close()


def walk_to(tab: Any, target: str, turned: bool) -> None:
    """Move the board's focus to ``target`` with the arrow keys from its tab stop."""
    start = tab.locator("#board .sq[tabindex='0']")
    start.focus()
    name = start.get_attribute("data-square")
    assert name is not None
    files = FILES.index(target[0]) - FILES.index(name[0])
    ranks = int(target[1:]) - int(name[1:])
    if turned:
        files, ranks = -files, -ranks
    for _ in range(abs(files)):
        tab.keyboard.press("ArrowRight" if files > 0 else "ArrowLeft")
    for _ in range(abs(ranks)):
        tab.keyboard.press("ArrowUp" if ranks > 0 else "ArrowDown")
    expect(tab.locator(f"#board [data-square={target}]")).to_be_focused()


@pytest.mark.parametrize("lang", ["id"])
def test_at_a_phones_width_with_a_hint_and_the_solution(
    browser: Any, server: str, lang: str
) -> None:
    puzzle = PUZZLES[2]
    tab = open_puzzle(browser, server, lang, puzzle.id, viewport=PHONE)
    tab.locator("#btn-hint").click()
    marked = tab.locator("#board .sq.region")
    expect(marked.first).to_be_visible()
    names = {marked.nth(i).get_attribute("data-square") for i in range(marked.count())}
    assert puzzle.solution[0] in names and len(names) <= 9  # a quarter of 5x5 at most
    width = tab.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width} px"
    board = tab.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    tab.locator("#btn-solution").click()
    expect(tab.locator("#line")).to_contain_text(" ".join(puzzle.solution))
    for move in puzzle.solution:  # played out on the board, one move after another
        filled(tab, move)
    assert tab.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    tab.locator("#btn-next").click()
    expect(tab.locator("#line")).to_be_hidden()
    assert puzzle.id not in tab.url and "/puzzles/p" in tab.url
    # the dashboard of the one puzzle tried (not solved at its first try), on the phone
    row = tab.locator("#dashboard [data-by=theme] .theme-row").first
    expect(row).to_have_attribute("data-won", "0")
    row.scroll_into_view_if_needed()
    expect(row.locator(".theme-performance")).to_be_visible()
    checked_and_closed(tab, lang)


def test_the_main_page_links_to_the_puzzles_and_they_work_under_their_policy(
    browser: Any, server: str
) -> None:
    """With the Content-Security-Policy enforced (no bypass): the main page with no game
    offers a new one and links to the puzzles; a puzzle's page loads its scripts and
    styles, and a move is judged and answered, with no console error (a blocked script is
    one)."""
    puzzle = PUZZLES[2]
    tab = new_tab(browser, server, client=secrets.token_urlsafe(16), bypass_csp=False)
    goto(tab, server)
    expect(tab.locator("#dlg-new")).to_be_visible()  # a page with no game offers a new one
    tab.keyboard.press("Escape")
    expect(tab.locator("#dlg-new")).to_be_hidden()
    tab.locator("a[href='/puzzles']").click()
    tab.wait_for_selector("#board .sq")
    assert "/puzzles/p" in tab.url
    expect(tab.locator("#prompt")).to_contain_text("find the best move")
    goto(tab, f"{server}/puzzles/{puzzle.id}")
    tab.locator(f"#board [data-square={puzzle.solution[0]}]").click()
    filled(tab, puzzle.solution[1])
    assert tab.console_errors == []
    tab.context.close()
