"""Arrows and circles on the board in a real browser (Playwright, Debian's Chromium), in
English on a laptop (1366x768) or in Indonesian on a phone (390x844), one of them for
each journey: a right-button
drag draws an arrow and a right click a circle, the keyboard draws both on the focused
square ("c"; "r" then "r"), drawing a shape again takes it away, each position keeps its
own shapes (another position shows none, going back shows them again), and the shapes are
said in words, and the record exported with variations writes them in comments
(lichess's ``[%csl ...]`` and ``[%cal ...]``) that the core's reader reads past; such a
record loaded on a fresh page shows them again on their positions (a variation's too)
and exports as the same text; axe-core finds nothing at any impact, the page never
scrolls sideways and logs no console error. (A touch's long press:
tests/web/test_browser_shapes_touch.py.) The rules without a browser, on the page's own
module (tests/web/js/shapes.test.mjs): shapes per position, a second drawing taking one
away, their words in both languages, the comments written and read back (a variation's
too), and a record written elsewhere: its foreign colours read, its marks off the board,
an arrow to its own square and malformed marks left out.

Oracles: the rules core (the positions), the board's own squares' places on the screen.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text, main_line, record_from_text
from browser_helpers import (
    CASES,
    EVERY_IMPACT,
    SIZES,
    axe_violations,
    checked_and_closed,
    goto,
)
from i18n_helpers import english_left
from web_helpers import api, drawn_shapes, new_tab

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-shapes")]

WAIT = 45_000
"""Milliseconds an analysis may take to end on a loaded machine (a 4x4 is searched to its end)."""


def centre(tab: Any, square: str) -> tuple[float, float]:
    box = tab.locator(f"#board [data-square={square}]").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def right_drag(tab: Any, start: str, end: str) -> None:
    tab.mouse.move(*centre(tab, start))
    tab.mouse.down(button="right")
    tab.mouse.move(*centre(tab, end), steps=4)
    tab.mouse.up(button="right")


def ends_near(tab: Any, start: str, end: str) -> bool:
    """Whether the arrow from ``start`` ends inside ``end``'s square on the screen."""
    line = tab.locator(f".shapes .arrow[data-from={start}]")
    x2, y2 = (float(line.get_attribute(a) or 0) for a in ("x2", "y2"))
    frame = tab.locator(".board-frame").bounding_box()
    box = tab.locator(f"#board [data-square={end}]").bounding_box()
    x, y = frame["x"] + x2, frame["y"] + y2
    inside = box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"]
    return bool(inside)


def settled(tab: Any, position: Position) -> None:
    expect(tab.locator("#analysis-fen")).to_have_text(position.fen())
    expect(tab.locator("#analysis-stop")).to_be_disabled(timeout=WAIT)


@pytest.mark.parametrize(("locale", "size"), [CASES[1]])
def test_arrows_and_circles_are_drawn_per_position_by_mouse_and_keyboard(
    server: str, browser: Any, locale: str, size: str, tmp_path: Path
) -> None:
    tab = new_tab(browser, server, viewport=SIZES[size], locale=locale, accept_downloads=True)
    goto(tab, server)
    tab.wait_for_selector("#dlg-new[open]")
    tab.click("#new-cancel")
    tab.click("#btn-editor")
    tab.locator("#editor-form select[name=rows]").select_option("4")
    tab.locator("#editor-form select[name=cols]").select_option("4")
    tab.click("#editor-analyse")
    start = Position.start(4, 4, 4)
    settled(tab, start)
    right_drag(tab, "a3", "c3")
    tab.locator("#board [data-square=b4]").click(button="right")
    expect(tab.locator(".shapes .shape")).to_have_count(2)
    assert drawn_shapes(tab) == [("arrow", "a3", "c3"), ("circle", "b4", None)]
    assert ends_near(tab, "a3", "c3")
    tab.locator("#board [data-square=c2]").focus()
    tab.keyboard.press("c")  # a circle on the focused square
    tab.keyboard.press("r")  # an arrow from it ...
    tab.keyboard.press("ArrowLeft")
    left = tab.evaluate("document.activeElement.dataset.square")
    assert left in ("b2", "d2")  # the next square to the left, as the board is turned
    tab.keyboard.press("r")  # ... to the square the focus moved to
    expect(tab.locator(".shapes .shape")).to_have_count(4)
    assert ("arrow", "c2", left) in drawn_shapes(tab) and ("circle", "c2", None) in drawn_shapes(
        tab
    )
    tab.locator("#board [data-square=b4]").click(button="right")  # again: taken away
    expect(tab.locator(".shapes .shape")).to_have_count(3)
    expect(tab.locator("#shapes-words")).to_contain_text("a3")
    assert axe_violations(tab, EVERY_IMPACT) == []
    if locale.startswith("id"):
        assert english_left(tab) == []
    before = drawn_shapes(tab)
    move = start.legal_moves()[-1]
    tab.click(f"#board [data-square={move}]")  # another position: its own (no) shapes
    after = start.play(move)
    settled(tab, after)
    expect(tab.locator(".shapes .shape")).to_have_count(0)
    marked = after.legal_moves()[0]
    tab.locator(f"#board [data-square={marked}]").click(button="right")
    expect(tab.locator(".shapes .shape")).to_have_count(1)
    tab.click("#nav-back")  # back: the shapes come back with it
    settled(tab, start)
    expect(tab.locator(".shapes .shape")).to_have_count(3)
    assert drawn_shapes(tab) == before
    with tab.expect_download() as download:  # the record keeps them in comments
        tab.click("#btn-export-tree")
    saved = tmp_path / "shapes.txt"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    game, tree = record_from_text(text)  # still a record the core reads
    assert game.positions[0] == start and [n.square for n in main_line(tree)] == [move]
    moves = re.findall(r"\{[^}]*\}|[()]|[^\s(){}]+", text.split("\n\n", 1)[1])
    assert moves[0] == f"{{[%csl Gc2][%cal Ga3c3,Gc2{left}]}}"  # the start's, first
    at = moves.index(move)
    assert moves[at + 1] == f"{{[%csl G{marked}]}}"  # the next position's, after its move
    checked_and_closed(tab, locale)


def download(tab: Any, path: Path) -> str:
    """The record that Export with variations downloads, saved at ``path``."""
    with tab.expect_download() as saved:
        tab.click("#btn-export-tree")
    saved.value.save_as(path)
    return path.read_text(encoding="utf-8")


def opened_game(tab: Any, server: str, game: str, plies: int) -> None:
    goto(tab, f"{server}/?game={game}")
    tab.wait_for_function(f"document.querySelectorAll('#moves button').length === {plies}")


@pytest.mark.parametrize(("locale", "size"), [CASES[0]])
def test_a_loaded_record_shows_its_shapes_again_and_exports_the_same_text(
    server: str, browser: Any, locale: str, size: str, tmp_path: Path
) -> None:
    """Shapes drawn on a game's start, on a later position and on a variation's go into
    the exported record; that record loaded on a fresh page (no shapes of its own) shows
    each of them on its position again, said in words, and exported again it is the
    same text."""
    game = Game(Position.start(4, 4, 1), "Ann", "Bob")  # over after two moves
    for square in ("c2", "b3"):
        game.play(square)
    state = api(server, "POST", "/api/games/import", {"record": game_to_text(game)})
    first = new_tab(browser, server, viewport=SIZES[size], locale=locale, accept_downloads=True)
    opened_game(first, server, state["id"], 2)
    first.click("#nav-first")
    right_drag(first, "a3", "c3")
    first.locator("#board [data-square=b4]").click(button="right")
    expect(first.locator(".shapes .shape")).to_have_count(2)
    first.click('#moves button[data-ply="1"]')
    expect(first.locator(".shapes .shape")).to_have_count(0)
    first.locator("#board [data-square=d3]").click(button="right")
    expect(first.locator(".shapes .shape")).to_have_count(1)
    other = next(m for m in game.positions[1].legal_moves() if m != "b3")
    first.click(f"#board [data-square={other}]")  # a variation after the first move
    first.wait_for_selector("#moves button.variation-move.current")
    right_drag(first, "d1", "d3")
    expect(first.locator(".shapes .shape")).to_have_count(1)
    text = download(first, tmp_path / "first.txt")
    assert "[%cal Ga3c3]" in text and "[%csl Gd3]" in text and "[%cal Gd1d3]" in text
    first.context.close()

    tab = new_tab(browser, server, viewport=SIZES[size], locale=locale, accept_downloads=True)
    goto(tab, server)
    tab.wait_for_selector("#dlg-new[open]")
    tab.click("#new-cancel")
    tab.set_input_files("#file-load", str(tmp_path / "first.txt"))
    tab.wait_for_selector("#moves button.variation-move")
    expect(tab.locator(".shapes .shape")).to_have_count(2)  # the start is shown
    assert drawn_shapes(tab) == [("arrow", "a3", "c3"), ("circle", "b4", None)]
    assert ends_near(tab, "a3", "c3")
    expect(tab.locator("#shapes-words")).to_contain_text("a3")
    expect(tab.locator("#shapes-words")).to_contain_text("b4")
    tab.click('#moves button[data-ply="1"]')
    expect(tab.locator(".shapes .shape")).to_have_count(1)
    assert drawn_shapes(tab) == [("circle", "d3", None)]
    tab.click("#moves button.variation-move")
    expect(tab.locator(".shapes .shape")).to_have_count(1)
    assert drawn_shapes(tab) == [("arrow", "d1", "d3")]
    expect(tab.locator("#shapes-words")).to_contain_text("d1")
    tab.click('#moves button[data-ply="2"]')  # the game's last position: none
    expect(tab.locator(".shapes .shape")).to_have_count(0)
    assert download(tab, tmp_path / "again.txt") == text
    checked_and_closed(tab, locale)


@pytest.mark.parametrize(("locale", "size"), [CASES[0]])
def test_shapes_on_a_games_own_moves_are_kept_without_a_variation(
    server: str, browser: Any, locale: str, size: str, tmp_path: Path
) -> None:
    """A game with no variation offers no export until a shape is drawn on one of its
    positions; then Export with variations is there (and nothing that needs a variation)
    and the record it downloads keeps the shape in its comment, the game's moves as they
    were."""
    game = Game(Position.start(4, 4, 1), "Ann", "Bob")
    for square in ("c2", "b3"):
        game.play(square)
    state = api(server, "POST", "/api/games/import", {"record": game_to_text(game)})
    tab = new_tab(browser, server, viewport=SIZES[size], locale=locale, accept_downloads=True)
    opened_game(tab, server, state["id"], 2)
    expect(tab.locator("#study-bar")).to_be_hidden()
    tab.click('#moves button[data-ply="1"]')
    tab.locator("#board [data-square=d3]").click(button="right")
    expect(tab.locator(".shapes .shape")).to_have_count(1)
    expect(tab.locator("#btn-export-tree")).to_be_visible()
    for needs_a_variation in ("#btn-promote", "#btn-main-line", "#btn-delete-variation"):
        expect(tab.locator(needs_a_variation)).to_be_hidden()
    text = download(tab, tmp_path / "kept.txt")
    kept, tree = record_from_text(text)
    assert [m.square for m in kept.moves] == ["c2", "b3"] and len(main_line(tree)) == 2
    moves = re.findall(r"\{[^}]*\}|[()]|[^\s(){}]+", text.split("\n\n", 1)[1])
    assert moves[moves.index("c2") + 1] == "{[%csl Gd3]}"  # after the move it marks
    tab.locator("#board [data-square=d3]").click(button="right")  # taken away: no export
    expect(tab.locator("#study-bar")).to_be_hidden()
    checked_and_closed(tab, locale)
