"""Puzzle runs as lichess has them, and polite announcements, in Debian's Chromium
against a real server, each journey in English on a laptop (1366x768) and in Indonesian
on a phone (390x844) (browser_helpers.CASES), axe-core finding nothing at any impact:

* A timed run (Puzzle Storm): Next is not offered (a puzzle is solved or failed); the
  page's own pauses (the reply's 450 ms, the finished puzzle's 700 ms, the next puzzle's
  load) are not charged to the player's clock; stopped, its end screen says so and gives
  the score, moves, accuracy, best combo, time, time per puzzle, the highest puzzle
  solved, a new best, the bests per period and the missed puzzle with its link; played
  again until the time is up, it says "time is up" and counts the first run's best.
* A streak (Puzzle Streak): Next before the solve spends its one skip, then is not
  offered; a miss ends it on its own end screen; stopped, the end screen says so.
* The analysis board: a puzzle's position is named a puzzle position; the panel is no
  live region, and its own polite region says only what changed, at most once a second;
  the game's status line is never rewritten with the same words; F turns the board and
  keeps the keyboard's focus on the same square (in English on the laptop only: the
  status's words in both languages, once a state and never twice the same, are tested
  without a browser on the page's own module, tests/web/js/status.test.mjs).

The page's clock is the test's (Playwright's clock, paused): the run's seconds are read
from its line and end screen, never from the wall clock. The counts (moves, accuracy,
time) follow from the moves the test plays; the puzzles are the exact oracle's."""

from __future__ import annotations

import itertools
import re
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from adjacency.core import Position
from browser_helpers import CASES, SIZES, audited, goto, outside_window, pictured, window
from i18n_helpers import message
from web_helpers import api, new_tab
from web_puzzle_helpers import (
    filled,
    oracle_puzzles,
    playable,
    seconds_left,
    shown,
    square,
)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-puzzle-runs")]

LIVE_SERVER = {"puzzles": oracle_puzzles}
END_SCREEN = "#run-title, #run-score, .run-figures, .run-bests, #run-again, #run-close"
"""What of the end screen must be wholly on the screen at every window."""


def open_puzzles(browser: Any, server: str, locale: str, size: str) -> Any:
    """A new player's tab on the puzzle page, its clock the test's and paused."""
    tab = new_tab(
        browser, server, client=secrets.token_urlsafe(16), locale=locale, viewport=window(size)
    )
    tab.clock.install()
    goto(tab, f"{server}/puzzles")
    tab.clock.pause_at(tab.evaluate("Date.now()") / 1000 + 1)
    return tab


def run_started(browser: Any, server: str, locale: str, size: str, mode: str) -> Any:
    """A new player's tab with a run of ``mode`` ("timed", "streak") started: the tab,
    the run's first puzzle (once playable) and its rating as the page shows it."""
    tab = open_puzzles(browser, server, locale, size)
    before = shown(tab)
    tab.click(f"#btn-{mode}")
    puzzle = shown(tab, other_than=before.id)
    playable(tab)
    return tab, puzzle, tab.inner_text("#puzzle-rating")


def solve(tab: Any, puzzle: Any) -> None:
    """Play the puzzle's solution: the first move judged, the clock turned until the reply
    is drawn (its 450 ms; the player's clock stands meanwhile), the last move."""
    first, reply, second = puzzle.solution
    with tab.expect_response(lambda answer: "/attempt" in answer.url):
        square(tab, first).click()
    drawn = square(tab, reply).locator("svg.piece:not(.ghost)")
    for _ in range(100):
        if drawn.count() or "locked" not in (tab.get_attribute("#board", "class") or ""):
            break
        tab.clock.run_for(50)
    filled(tab, reply)
    playable(tab)
    square(tab, second).click()


def figures(tab: Any) -> dict[str, str]:
    """The end screen's figures by their element's id."""
    names = ("score", "moves", "accuracy", "combo", "time", "per", "highest")
    return {name: tab.inner_text(f"#run-{name}") for name in names}


def end_screen_checked(tab: Any, locale: str, size: str, shots: Path | None = None) -> None:
    """The end screen wholly on the screen, audited, and pictured into ``shots`` if given
    (the docs' streak end screens; test_puzzles_browser pictures the timed one); the
    page's clock paused again after."""
    assert outside_window(tab, END_SCREEN) == []
    expect(tab.locator("#run-again")).to_be_focused()
    tab.clock.resume()  # axe-core waits on timers of its own; the run is over
    audited(tab, locale, size)
    if shots is not None:
        tab.screenshot(path=str(shots / f"puzzle-streak-end-{size}-{locale[:2]}.png"))
    tab.clock.pause_at(tab.evaluate("Date.now()") / 1000 + 1)


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_a_timed_run_has_no_skip_its_pauses_are_free_and_it_ends_like_storm(
    browser: Any, server: str, locale: str, size: str
) -> None:
    lang = locale[:2]
    tab, puzzle, rating = run_started(browser, server, locale, size, "timed")
    assert seconds_left(tab) == 180  # the clock stood while the first puzzle loaded
    # the run's clock and combo over the board, in view with it (a phone's too)
    assert outside_window(tab, "#timed, #combo, #board") == []
    nxt = tab.locator("#btn-next")
    expect(nxt).to_be_disabled()  # no skip: solved or failed
    expect(nxt).to_have_attribute("title", message(lang, "puzzle.next.timed.title"))
    expect(tab.locator("#theme")).to_be_disabled()  # the pickers wait for the run's end
    tab.clock.run_for(4100)  # the player thinks 4.1 s: 175.9 s left, "2:56"
    assert seconds_left(tab) == 176
    solve(tab, puzzle)
    tab.clock.run_for(700)  # the solved puzzle shown, then the next asked
    missed = shown(tab, other_than=puzzle.id)
    playable(tab)
    # Charged, the 450 ms and the 700 ms would have taken it under 175 s ("2:55").
    assert seconds_left(tab) == 176
    expect(nxt).to_be_disabled()
    tab.clock.run_for(2000)
    wrong = next(r for r in missed.refutations[0] if r.reply is not None)
    square(tab, wrong.move).click()  # a miss: 10 s, and the next comes by itself
    tab.clock.run_for(700)
    third = shown(tab, other_than=missed.id)
    playable(tab)
    assert seconds_left(tab) == 164
    tab.click("#btn-timed")  # stopped
    end = tab.locator("#dlg-run")
    expect(end).to_be_visible()
    expect(end).to_have_attribute("data-end", "stopped")
    expect(tab.locator("#run-title")).to_have_text(message(lang, "puzzle.run.title.stopped"))
    shown_figures = figures(tab)
    assert shown_figures["moves"] == "3"  # two of the solved one, the wrong one
    assert shown_figures["accuracy"] == "67%"
    assert shown_figures["combo"] == "1"
    assert shown_figures["time"] == "0:06"  # 4.1 s + 2 s: no pause of the page's
    assert re.fullmatch(r"3[.,][0-2] (s|dtk)", shown_figures["per"]), shown_figures
    assert shown_figures["highest"] == rating  # the solved one's rating when shown
    expect(tab.locator("#run-record")).to_have_text(message(lang, "puzzle.run.record.all"))
    assert [tab.inner_text(f"#run-{p}") for p in ("today", "week", "all")] == ["1"] * 3
    items = tab.locator("#run-puzzles li")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator("a")).to_contain_text(f"({rating})")  # as the page shows it
    expect(items.nth(1)).to_have_attribute("data-result", "missed")
    expect(items.nth(1).locator("a")).to_have_attribute("href", f"/puzzles/{missed.id}")
    expect(tab.locator("#run-missed-count")).to_contain_text("1")
    end_screen_checked(tab, locale, size)
    # Again, until the time is up: "time is up", and the first run's best still counts.
    tab.click("#run-again")
    shown(tab, other_than=third.id)
    playable(tab)
    tab.clock.run_for(181_000)
    expect(end).to_have_attribute("data-end", "time")
    expect(tab.locator("#run-title")).to_have_text(message(lang, "puzzle.run.title"))
    expect(tab.locator("#run-record")).to_be_hidden()  # 0 beats nothing
    again = figures(tab)
    assert [again["moves"], again["accuracy"], again["highest"]] == ["0", "–", "–"]
    assert [tab.inner_text(f"#run-{p}") for p in ("today", "week", "all")] == ["1"] * 3
    expect(tab.locator("#run-none")).to_be_visible()
    end_screen_checked(tab, locale, size)
    assert tab.console_errors == []
    tab.context.close()


@pytest.mark.parametrize(("locale", "size"), pictured(CASES))
def test_a_streak_skips_once_by_next_and_ends_on_its_end_screen(
    browser: Any, server: str, shots: Path, locale: str, size: str
) -> None:
    lang = locale[:2]
    tab, first, rating = run_started(browser, server, locale, size, "streak")
    nxt = tab.locator("#btn-next")
    expect(nxt).to_have_attribute("data-pass", "skip")  # unsolved: Next is the skip
    expect(nxt).to_have_text(message(lang, "puzzle.next.skip"))
    tab.clock.run_for(3000)
    solve(tab, first)
    expect(nxt).to_have_attribute("data-pass", "next")  # solved: Next is free
    expect(nxt).to_have_text(message(lang, "puzzle.next"))
    nxt.click()
    second = shown(tab, other_than=first.id)
    playable(tab)
    nxt.click()  # before the solve: the streak's one skip
    third = shown(tab, other_than=second.id)
    playable(tab)
    expect(nxt).to_be_disabled()  # spent: not offered again before the solve
    expect(nxt).to_have_attribute("title", message(lang, "puzzle.next.used.title"))
    expect(tab.locator("#streak")).to_have_text(message(lang, "puzzle.streak.skipped", count="1"))
    wrong = next(r for r in third.refutations[0] if r.reply is not None)
    square(tab, wrong.move).click()  # a miss ends the streak
    end = tab.locator("#dlg-run")
    expect(end).to_be_visible()
    expect(end).to_have_attribute("data-mode", "streak")
    expect(tab.locator("#run-title")).to_have_text(message(lang, "puzzle.run.title.streak-over"))
    shown_figures = figures(tab)
    assert shown_figures["moves"] == "3"
    assert shown_figures["accuracy"] == "67%"
    assert shown_figures["combo"] == "1"
    assert shown_figures["time"] == "0:03"
    assert shown_figures["highest"] == rating
    items = tab.locator("#run-puzzles li")
    expect(items).to_have_count(3)
    results = [items.nth(i).get_attribute("data-result") for i in range(3)]
    assert results == ["solved", "skipped", "missed"]
    expect(tab.locator("#run-record")).to_have_text(message(lang, "puzzle.run.record.all"))
    end_screen_checked(tab, locale, size, shots)
    tab.click("#run-close")
    expect(nxt).to_be_enabled()
    expect(tab.locator("#theme")).to_be_enabled()
    expect(tab.locator("#streak")).to_have_text(message(lang, "puzzle.streak.over", count="1"))
    # Started again and stopped at once: "stopped", and the best of the first kept.
    tab.click("#btn-streak")
    shown(tab, other_than=third.id)
    playable(tab)
    tab.click("#btn-streak")
    expect(end).to_have_attribute("data-end", "stopped")
    expect(tab.locator("#run-title")).to_have_text(message(lang, "puzzle.run.title.streak-stopped"))
    assert [tab.inner_text(f"#run-{p}") for p in ("today", "week", "all")] == ["1"] * 3
    expect(tab.locator("#run-record")).to_be_hidden()
    assert tab.console_errors == []
    tab.context.close()


SAID = """() => { window.said = []; window.statuses = [];
  if (!document.querySelector('#status')) {
    document.addEventListener('DOMContentLoaded', () => window.listen());
  }
  window.listen = () => { new MutationObserver(() => said.push([performance.now(),
      document.querySelector('#analysis-said').textContent]))
    .observe(document.querySelector('#analysis-said'),
      { childList: true, characterData: true, subtree: true });
  new MutationObserver(() => statuses.push(document.querySelector('#status').textContent))
    .observe(document.querySelector('#status'),
      { childList: true, characterData: true, subtree: true }); };
  if (document.querySelector('#status')) window.listen(); }"""
"""Record each write of the analysis panel's polite region (with its time) and of the
status line."""


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_analysis_panel_says_only_what_changed_at_most_once_a_second(
    browser: Any, server: str, locale: str, size: str
) -> None:
    lang = locale[:2]
    puzzle = oracle_puzzles()[0]
    tab = new_tab(browser, server, locale=locale, viewport=SIZES[size])
    goto(tab, f"{server}/?fen={quote(puzzle.position)}&from=puzzle")
    expect(tab.locator("#analysis-title")).to_have_text(message(lang, "analysis.puzzle"))
    # A longer search (8x8 from the start): the lines deepen; what is said changes less.
    start = Position.start(8, 8).fen()
    tab.add_init_script(f"({SAID})()")  # from each page's start on
    goto(tab, f"{server}/?fen={quote(start)}")
    expect(tab.locator("#analysis-title")).to_have_text(message(lang, "analysis.edited"))
    assert tab.get_attribute("#analysis", "aria-live") is None  # the panel: no live region
    assert tab.get_attribute("#analysis-said", "aria-live") == "polite"
    expect(tab.locator("#analysis-lines li").first).to_be_attached()  # the engine's lines
    # As they deepen, the region is written again, a second after its first words.
    tab.wait_for_function("window.said.length >= 2")
    said = tab.evaluate("window.said")
    texts = [text for _, text in said]
    assert all(a != b for a, b in itertools.pairwise(texts)), texts
    gaps = [later - earlier for (earlier, _), (later, _) in itertools.pairwise(said)]
    assert all(gap >= 990 for gap in gaps), gaps  # at most once a second
    audited(tab, locale, size)
    assert tab.console_errors == []
    tab.context.close()


@pytest.mark.parametrize(("locale", "size"), [CASES[0]])
def test_the_status_is_written_once_a_move_and_f_keeps_the_focus(
    browser: Any, server: str, locale: str, size: str
) -> None:
    """A game against the bot: each move writes the status once, never the same words
    again; F turns the board with the keyboard's focus kept on its square."""
    tab = new_tab(browser, server, locale=locale, viewport=SIZES[size])
    tab.add_init_script(f"({SAID})()")
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": {"kind": "human"}, "o": {"kind": "bot", "level": 1}, "rounds": 8},
    )
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_function("!document.querySelector('#board').classList.contains('locked')")
    tab.evaluate("window.statuses = []")
    move = next(sq for sq in sorted(game["preview"]) if game["preview"][sq])
    tab.click(f"#board [data-square={move}]")
    tab.wait_for_function("!document.querySelector('#board').classList.contains('locked')")
    tab.wait_for_timeout(500)
    statuses = tab.evaluate("window.statuses")
    assert all(a != b for a, b in itertools.pairwise(statuses)), statuses
    assert len(statuses) <= 4, statuses  # the move, the reply (and a turn's words): no echo
    # F turns the board; the keyboard's focus stays on the same square.
    stop = tab.locator("#board .sq[tabindex='0']")
    stop.focus()
    tab.keyboard.press("ArrowUp")
    focused = tab.evaluate("document.activeElement.dataset.square")
    pressed = tab.get_attribute("#btn-flip", "aria-pressed")
    tab.keyboard.press("f")
    expect(tab.locator("#btn-flip")).not_to_have_attribute("aria-pressed", str(pressed))
    assert tab.evaluate("document.activeElement.dataset.square") == focused
    expect(tab.locator(f"#board [data-square={focused}]")).to_be_focused()
    assert tab.console_errors == []
    tab.context.close()
