"""The analysis board, learning from mistakes and the game page's smaller controls, in a
real browser (Playwright, Debian's Chromium), in English and in Indonesian, on the
audit's laptop (1366x768) and a phone (390x844): axe-core finds nothing at any impact,
the page never scrolls sideways and logs no console error during each flow.

* The analysis board without a game: the editor's position analysed becomes a board of
  its own, a move played on it and an engine line clicked grow a tree from it (each
  position the core's), the tree exports as a record from the edited start, and "Play
  from here" starts a game at the shown position.
* Learning from mistakes: its panel comes into view (on a phone under the pinned board,
  both on the screen); once it has ended, a click on the board plays a variation.
* A finished game (with a clock) cannot be undone, and Rematch waits for the end.
* Without a game Save reads and looks disabled; the editor's refusal of too many plies
  left is in the page's language.
* The review's summary fits the side column with whole headers; the saved games' dialog
  names its actions column and keeps its buttons on a phone's screen.
* A finished 56-move game's list shows five rows or more on a laptop (1366x768 and
  1280x720), beside the analysis too, its stepping buttons clear of anything laid over
  them; on a phone a notice lies under the status line, never over it.

Oracles: the rules core (positions, legal moves, position texts), the API's game state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text, main_line, record_from_text
from adjacency.web.view import cells
from browser_helpers import (
    CASES,
    EVERY_IMPACT,
    LOCALES,
    SIZES,
    WINDOWS,
    audited,
    axe_violations,
    covered,
    each_once,
    goto,
)
from i18n_helpers import english_left
from web_helpers import a_game_with_mistakes, api, new_tab

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-analysis-board")]

TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
CLOCK = {"base": 300, "increment": 3}


def tab_in(browser: Any, server: str, locale: str, size: str) -> Any:
    """A fresh tab holding the API's client cookie, in ``locale``, at the window ``size``."""
    return new_tab(browser, server, viewport=SIZES[size], locale=locale, accept_downloads=True)


def checked(tab: Any, size: str) -> None:
    """axe-core finds nothing at any impact, and nothing scrolls the page sideways."""
    assert axe_violations(tab, EVERY_IMPACT) == []
    wide = tab.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= SIZES[size]["width"], wide


def close(tab: Any) -> None:
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], errors


def board_cells(tab: Any, rows: int, cols: int) -> str:
    """The board's squares in index order (a1, b1, ...), as the API writes them."""
    return str(
        tab.evaluate(
            """([rows, cols]) => { let out = "";
                 for (let r = 0; r < rows; r += 1) for (let f = 0; f < cols; f += 1) {
                   const name = "abcdefgh"[f] + String(r + 1);
                   const sq = document.querySelector(`#board [data-square="${name}"]`);
                   out += sq.querySelector(".x-mark") ? "x" : sq.querySelector("svg") ? "o" : ".";
                 }
                 return out; }""",
            [rows, cols],
        )
    )


def in_view(tab: Any, selector: str) -> bool:
    """Whether the element is wholly inside the window."""
    return bool(
        tab.eval_on_selector(
            selector,
            "el => { const r = el.getBoundingClientRect();"
            " return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight"
            " && r.left >= 0 && r.right <= innerWidth; }",
        )
    )


def no_game(tab: Any, server: str) -> None:
    goto(tab, server)
    tab.wait_for_selector("#dlg-new[open]")
    tab.click("#new-cancel")


def mistakes_game(server: str) -> tuple[dict[str, Any], Game]:
    """The suite's 4x4 game with mistakes, imported as a finished game."""
    start, moves, _ = a_game_with_mistakes()
    record = Game(start, "Ann", "Bob")
    for move in moves:
        record.play(move)
    state = api(server, "POST", "/api/games/import", {"record": game_to_text(record)})
    return state, record


def open_game(tab: Any, server: str, state: dict[str, Any]) -> None:
    goto(tab, f"{server}/?game={state['id']}")
    count = len(state["moves"])
    tab.wait_for_function(f"document.querySelectorAll('#moves button').length === {count}")


def analysed(tab: Any, position: Position) -> None:
    """Wait until the panel has finished analysing ``position`` (a 4x4 is searched to the end)."""
    expect(tab.locator("#analysis-fen")).to_have_text(position.fen())
    expect(tab.locator("#analysis-stop")).to_be_disabled()
    tab.wait_for_selector("#analysis-lines li .line-play")


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_analysis_board_without_a_game_grows_its_own_tree_and_plays_from_it(
    server: str, browser: Any, locale: str, size: str, tmp_path: Path
) -> None:
    tab = tab_in(browser, server, locale, size)
    no_game(tab, server)
    tab.click("#btn-editor")
    tab.locator("#editor-form select[name=rows]").select_option("4")
    tab.locator("#editor-form select[name=cols]").select_option("4")
    tab.click("#editor-analyse")
    start = Position.start(4, 4, 4)  # the editor's 4x4 start with all its plies
    analysed(tab, start)
    first = start.legal_moves()[-1]
    tab.click(f'[data-square="{first}"]')  # a move on the board, not a painted piece
    after = start.play(first)
    expect(tab.locator("#moves button.variation-move.current .sqname")).to_have_text(first)
    assert board_cells(tab, 4, 4) == cells(after)
    analysed(tab, after)
    line = tab.locator("#analysis-lines li").first
    reply = str(line.get_attribute("data-move"))
    line.locator(".line-play").click()  # an engine line: into the tree
    expect(tab.locator("#moves button.variation-move")).to_have_count(2)
    expect(tab.locator("#moves button.variation-move.current .sqname")).to_have_text(reply)
    assert board_cells(tab, 4, 4) == cells(after.play(reply))
    analysed(tab, after.play(reply))
    for game_only in ("#btn-undo", "#btn-save", "#btn-review", "#graph"):  # not the board's
        expect(tab.locator(game_only)).to_be_hidden()
    expect(tab.locator("#btn-analyse")).to_be_enabled()
    checked(tab, size)
    if locale.startswith("id"):
        assert english_left(tab) == []
    with tab.expect_download() as download:  # the tree as a record from the edited start
        tab.click("#btn-export-tree")
    saved = tmp_path / "board.txt"
    download.value.save_as(saved)
    exported, tree = record_from_text(saved.read_text(encoding="utf-8"))
    assert exported.positions[0] == start
    assert [node.square for node in main_line(tree)] == [first, reply]
    tab.click("#nav-back")  # the tree is walked like a game's moves
    expect(tab.locator("#moves button.variation-move.current .sqname")).to_have_text(first)
    analysed(tab, after)
    tab.locator("#continue-level").select_option(index=0)
    tab.click("#btn-continue")  # Play from here: a game at the shown position
    tab.wait_for_function("new URLSearchParams(location.search).has('game')")
    made_id = tab.evaluate("new URLSearchParams(location.search).get('game')")
    made = api(server, "GET", f"/api/games/{made_id}")
    assert made["moves"] == [] and made["boards"][0] == cells(after)
    assert made["turn"] == after.turn and made["plies_left"] == after.plies_left
    assert made[after.turn]["kind"] == "human"
    assert made["o" if after.turn == "x" else "x"]["kind"] == "bot"
    expect(tab.locator("#history-banner")).to_be_hidden()
    expect(tab.locator("#bar-bottom .name")).to_be_visible()
    expect(tab.locator("#btn-undo")).to_be_visible()  # the game's panels are back
    assert board_cells(tab, 4, 4) == cells(after)
    checked(tab, size)
    close(tab)


BROKEN_WORDS = """(sel) => {
  const broken = [];
  for (const cell of document.querySelectorAll(sel)) {
    const text = cell.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    let at = 0;
    for (const word of text.textContent.split(" ")) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (word && lines.size > 1) broken.push(word);
      at += word.length + 1;
    }
  }
  return broken;
}"""
"""The words of the matched cells' text drawn on more than one line (broken mid-word)."""


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_a_reviewed_games_summary_fits_and_learning_comes_into_view_then_plays_a_variation(
    server: str, browser: Any, locale: str, size: str
) -> None:
    """One finished game's journey: the review's summary fits the side column with whole
    headers; Learn's button is under the review and its panel opens above it, in view with
    the board (on a phone just under the pinned board); once learning has ended, a click
    on the board plays a variation."""
    state, record = mistakes_game(server)
    tab = tab_in(browser, server, locale, size)
    open_game(tab, server, state)
    tab.click("#btn-review")
    tab.wait_for_selector("#review-summary table")
    tab.wait_for_selector("#btn-learn:not([hidden])")  # the review has ended
    table = tab.locator("#review-summary table").bounding_box()
    panel = tab.locator(".graph-panel").bounding_box()
    assert table["x"] + table["width"] <= panel["x"] + panel["width"], (table, panel)
    assert tab.evaluate(BROKEN_WORDS, "#review-summary th") == []
    checked(tab, size)
    tab.click("#btn-learn")
    expect(tab.locator("#learn-text")).not_to_be_empty()
    where = tab.eval_on_selector("#learn", "e => e.getBoundingClientRect().y")
    assert in_view(tab, "#learn"), where
    assert in_view(tab, "#board")  # the prompt and the board at once
    checked(tab, size)
    skips = 0
    while tab.locator("#learn-skip").is_visible():  # through every mistake to the end
        tab.click("#learn-skip")
        skips += 1
        assert skips <= len(state["moves"])
    expect(tab.locator("#learn-progress")).to_be_empty()
    assert skips >= 1
    empty = tab.eval_on_selector_all(
        "#board .sq:not(.filled)", "els => els.map((e) => e.dataset.square)"
    )
    shown = int(tab.inner_text("#nav-pos").split("/")[0])  # the last mistake's position
    other = next(square for square in empty if square != record.moves[shown].square)
    tab.click(f'[data-square="{other}"]')  # the board is the study's again: a variation
    expect(tab.locator("#moves button.variation-move.current .sqname")).to_have_text(other)
    expect(tab.locator("#learn")).to_be_visible()  # its count stays until Close
    checked(tab, size)
    tab.click("#learn-close")
    expect(tab.locator("#learn")).to_be_hidden()
    close(tab)


def clocked_game(server: str, browser: Any, locale: str, size: str) -> tuple[Any, str]:
    """A tab on a new 4x4 one-round game between two people with a clock."""
    body = {**TWO_PEOPLE, "rows": 4, "cols": 4, "rounds": 1, "clock": CLOCK}
    game = api(server, "POST", "/api/games", body)
    tab = tab_in(browser, server, locale, size)
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_selector("#bar-bottom .name")
    return tab, str(game["id"])


def play_on(tab: Any, position: Position) -> Position:
    """Click the first legal move of ``position`` (shown on the tab): the position after it."""
    move = position.legal_moves()[0]
    tab.click(f'[data-square="{move}"]')
    return position.play(move)


def end_it(tab: Any, position: Position) -> None:
    """Play the last ply of ``position`` and close the result card."""
    assert position.plies_left == 1
    play_on(tab, position)
    tab.wait_for_selector("#dlg-result[open]")
    tab.keyboard.press("Escape")
    expect(tab.locator("#dlg-result")).not_to_have_attribute("open", "")


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_a_finished_clocked_game_cannot_be_undone_and_rematch_waits_for_its_end(
    server: str, browser: Any, locale: str, size: str
) -> None:
    tab, game = clocked_game(server, browser, locale, size)
    expect(tab.locator("#btn-rematch")).to_be_disabled()  # before the first move
    position = play_on(tab, Position.start(4, 4, 1))
    expect(tab.locator("#btn-undo")).to_be_enabled()  # during the game a move is undone
    expect(tab.locator("#btn-rematch")).to_be_disabled()
    checked(tab, size)
    end_it(tab, position)
    expect(tab.locator("#btn-undo")).to_be_disabled()
    expect(tab.locator("#btn-rematch")).to_be_enabled()
    undone: list[str] = []
    tab.on("request", lambda r: undone.append(r.url) if r.url.endswith("/undo") else None)
    tab.locator("body").focus()
    tab.keyboard.press("u")  # the key does not take a move back either
    tab.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
    assert undone == []
    assert api(server, "GET", f"/api/games/{game}")["status"] == "over"
    checked(tab, size)
    close(tab)


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_without_a_game_save_is_disabled_the_editor_refuses_and_the_games_dialog_fits(
    server: str, browser: Any, locale: str, size: str
) -> None:
    """One page without a game: Save reads and looks disabled; the editor's refusal of too
    many plies left is in the page's language; the saved games' dialog names its actions
    column and keeps its buttons on the screen."""
    mistakes_game(server)  # at least one saved game
    tab = tab_in(browser, server, locale, size)
    no_game(tab, server)
    expect(tab.locator("#btn-save")).to_have_attribute("aria-disabled", "true")
    looks = "(sel) => getComputedStyle(document.querySelector(sel)).opacity"
    assert tab.evaluate(looks, "#btn-save") == tab.evaluate(looks, "#btn-rematch")  # disabled
    assert float(tab.evaluate(looks, "#btn-save")) < 1
    checked(tab, size)
    tab.click("#btn-editor")
    tab.click("#editor-start")  # the 8x8 start: 56 empty squares
    tab.fill("#editor-form input[name=plies]", "57")
    tab.click("#editor-analyse")
    error = tab.locator("#editor-error")
    if locale.startswith("id"):
        expect(error).to_contain_text("sisa 57 langkah")
        expect(error).to_contain_text("56 petak kosong")
        assert "plies" not in error.inner_text()
    else:
        expect(error).to_contain_text("57 plies left but only 56 empty squares")
    expect(tab.locator("#analysis")).to_be_hidden()
    checked(tab, size)
    tab.click("#editor-close")
    tab.click("#btn-games")
    tab.wait_for_selector("#games-list table")
    edges = tab.eval_on_selector_all(
        "#games-list td.act .btn",
        "els => els.map((e) => [e.getBoundingClientRect().left, e.getBoundingClientRect().right])",
    )
    assert len(edges) >= 2  # Replay and Delete
    for left, right in edges:  # on the screen without scrolling sideways
        assert left >= 0 and right <= SIZES[size]["width"], edges
    checked(tab, size)  # the actions column's header has a name
    tab.click("#games-close")
    close(tab)


ROWS_SHOWN = """() => {
  const list = document.querySelector("#moves").getBoundingClientRect();
  const tops = new Set();
  for (const button of document.querySelectorAll("#moves button")) {
    const r = button.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.top >= list.top - 0.5 && r.bottom <= list.bottom + 0.5 && r.bottom <= innerHeight
        && at && button.contains(at)) tops.add(Math.round(r.top));
  }
  return tops.size;
}"""
"""How many rows of the move list are wholly shown: inside the list's box and the window,
and no other element over them."""


def long_game(server: str) -> dict[str, Any]:
    """A finished 8x8 game of 28 rounds (56 moves) between two greedy bots, imported."""
    position, bot = Position.start(8, 8, 28), make_bot("greedy:seed=3")
    record = Game(position, "Ann", "Bob")
    while not position.is_over:
        move = bot.choose_move(position, Limit(time=None))
        record.play(move)
        position = position.play(move)
    state: dict[str, Any] = api(
        server, "POST", "/api/games/import", {"record": game_to_text(record)}
    )
    return state


@pytest.mark.parametrize(("locale", "size"), each_once(LOCALES, WINDOWS))
def test_a_finished_games_moves_are_readable_and_a_notice_never_covers_the_status(
    server: str, browser: Any, locale: str, size: str
) -> None:
    state = long_game(server)
    tab = new_tab(browser, server, viewport=WINDOWS[size], locale=locale)
    open_game(tab, server, state)
    if WINDOWS[size]["width"] > 900:  # a laptop: the list in the side column
        assert tab.evaluate(ROWS_SHOWN) >= 5
        tab.click("#btn-analyse")
        expect(tab.locator("#analysis")).to_be_visible()
        tab.click("#nav-back")  # stepped back, the analysis beside the list
        expect(tab.locator("#nav-pos")).to_contain_text(str(len(state["moves"]) - 1))
        assert tab.evaluate(ROWS_SHOWN) >= 5
        assert covered(tab, "#nav-first, #nav-back, #nav-forward, #nav-last") == []
    else:
        tab.fill("#move-input", "z9")
        tab.press("#move-input", "Enter")
        notice = tab.locator("#notice")
        expect(notice).not_to_be_empty()
        tab.locator("#status").scroll_into_view_if_needed()
        said, status = notice.bounding_box(), tab.locator("#status").bounding_box()
        assert said["y"] >= status["y"] + status["height"], (said, status)
    audited(tab, locale, "phone" if WINDOWS[size]["width"] < 900 else "laptop")
    close(tab)
