"""The analysis board as a study tool, in a real browser (Playwright, Debian's Chromium),
in English and in Indonesian: a variation played from an earlier position, walked with
the keys, promoted and deleted; an engine line clicked (and one played by keyboard) into
the tree; the evaluation bar showing the exact value the brute force finds; a game
continued from a position against a bot; the tree exported as a record with variations
and imported back; learning from a reviewed game's mistakes, the best move accepted and
the mistake refused. A phone at 390 px has no horizontal scroll and axe finds nothing
serious; the position text the page writes for a variation is the core's. Each journey
runs in one language, Indonesian for half of them (nothing English left on the way),
English for the others. The tree's rules (grow, promote, make main, delete, an undo's
effect, the flat moves), the position's text, a continued game's settings and the
evaluation bar's words in both languages are tested without a browser on the page's own
module (tests/web/js/study.test.mjs).

Oracles: the rules core (legal moves, positions), the brute force (:mod:`oracles`) for
exact values, the core's record reader for the exported file, the API for new games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text, main_line, record_from_text
from browser_helpers import UNDER_TEST, axe_violations, goto
from i18n_helpers import english_left
from oracles import exact_value, move_values
from web_helpers import CLIENT, a_game_with_mistakes, api

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-study")]

EN, ID = "en-US", "id-ID"
TIMEOUT = 30_000


def tab(browser: Any, server: str, locale: str, width: int = 1280, height: int = 900) -> Any:
    """A fresh page in ``locale`` holding the API's client cookie, recording errors."""
    from adjacency.web.seats import CLIENT_COOKIE

    context = browser.new_context(
        locale=locale,
        viewport={"width": width, "height": height},
        accept_downloads=True,
        **UNDER_TEST,
    )
    context.add_cookies([{"name": CLIENT_COOKIE, "value": CLIENT, "url": server}])
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    page.console_errors = errors
    return page


def done(page: Any) -> None:
    errors = page.console_errors
    page.context.close()
    assert errors == [], errors


def mistakes_game(server: str) -> tuple[dict[str, Any], Game]:
    """The suite's 4x4 game with mistakes, imported as a finished game."""
    start, moves, _ = a_game_with_mistakes()
    record = Game(start, "Ann", "Bob")
    for move in moves:
        record.play(move)
    state = api(server, "POST", "/api/games/import", {"record": game_to_text(record)})
    return state, record


def open_game(page: Any, server: str, state: dict[str, Any]) -> None:
    goto(page, f"{server}/?game={state['id']}")
    count = len(state["moves"])
    page.wait_for_function(f"document.querySelectorAll('#moves button').length === {count}")


def current(page: Any) -> str:
    return str(page.locator("#moves button.current").get_attribute("data-node") or "")


def variation_squares(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "#moves button.variation-move .sqname", "items => items.map(i => i.textContent)"
        )
    )


@pytest.mark.parametrize("locale", [ID])
def test_a_variation_is_played_walked_promoted_and_deleted(
    server: str, browser: Any, locale: str
) -> None:
    state, record = mistakes_game(server)
    page = tab(browser, server, locale)
    open_game(page, server, state)
    page.click("#nav-first")
    start = record.positions[0]
    other = next(m for m in start.legal_moves() if m != record.moves[0].square)
    page.click(f'[data-square="{other}"]')
    page.wait_for_selector("#moves button.variation-move.current")
    assert variation_squares(page) == [other]
    expect(page.locator(f'[data-square="{other}"].filled.last')).to_have_count(1)
    reply = start.play(other).legal_moves()[0]
    page.click(f'[data-square="{reply}"]')  # a second move: the variation grows
    page.wait_for_function("document.querySelectorAll('#moves button.variation-move').length === 2")
    # The banner names the variation shown, not the game's shown position.
    words = {"en": "Viewing a variation after 0 of", "id": "Melihat variasi setelah langkah 0 dari"}
    expect(page.locator("#history-text")).to_have_text(
        f"{words[locale[:2]]} {len(record.moves)}"
        + (" moves" if locale.startswith("en") else "")
        + f": {other} {reply}"
    )
    page.locator("#moves button.current").focus()  # the board's squares keep their own arrows
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # the start: no move is current
    expect(page.locator("#moves button.current")).to_have_count(0)
    page.keyboard.press("ArrowRight")  # the game's first move leads
    expect(page.locator("#moves button.current")).to_have_attribute("data-ply", "1")
    page.keyboard.press("ArrowDown")  # the next line where it branches: the variation
    expect(page.locator("#moves button.variation-move.current .sqname")).to_have_text(other)
    page.keyboard.press("ArrowUp")
    expect(page.locator("#moves button.current")).to_have_attribute("data-ply", "1")
    page.keyboard.press("ArrowDown")
    page.click("#btn-promote")  # the variation becomes the first line
    first = page.locator("#moves > li").first.locator("button").first
    expect(first.locator(".sqname")).to_have_text(other)
    page.click("#btn-delete-variation")
    expect(page.locator("#moves button.variation-move")).to_have_count(0)
    expect(page.locator("#history-text")).not_to_contain_text(other)
    expect(page.locator("#moves button[data-ply]")).to_have_count(len(record.moves))
    if locale.startswith("id"):
        page.click(f'[data-square="{other}"]')  # the start is shown: the variation again
        page.wait_for_selector("#moves button.variation-move.current")
        assert english_left(page, ["Ann", "Bob"]) == []
    done(page)


@pytest.mark.parametrize("locale", [EN])
def test_an_engine_line_plays_into_the_tree_and_the_bar_shows_the_exact_value(
    server: str, browser: Any, locale: str
) -> None:
    state, record = mistakes_game(server)
    page = tab(browser, server, locale)
    open_game(page, server, state)
    ply = len(record.moves) - 4
    page.click(f'#moves button[data-ply="{ply}"]')
    page.click("#btn-analyse")
    position = record.positions[ply]
    value = exact_value(position) * (1 if position.turn == "x" else -1)
    bar = page.locator("#evalbar")
    expect(bar).to_have_attribute("data-exact", "true")
    assert float(bar.get_attribute("data-value") or "nan") == value
    sign = "+" if value > 0 else "−" if value < 0 else ""
    expect(page.locator("#evalbar-text")).to_contain_text(f"={sign}{abs(value)}")
    page.wait_for_selector("#analysis-lines li .line-play")
    played = record.moves[ply].square
    line = (
        page.locator("#analysis-lines li")
        .filter(has_not=page.locator(f'strong:text-is("{played}")'))
        .first
    )
    move = line.get_attribute("data-move")
    line.locator(".line-play").focus()
    page.keyboard.press("Enter")  # the keyboard plays it as a click does
    expect(page.locator("#moves button.variation-move.current .sqname")).to_have_text(move or "")
    # The position after it is analysed in turn, and its value is the brute force's.
    after = position.play(move or "")
    values = move_values(position)
    assert values[move or ""] == -exact_value(after)
    after_value = exact_value(after) * (1 if after.turn == "x" else -1)
    expect(bar).to_have_attribute("data-value", str(after_value))
    # A whole line: every move of it goes into the tree.
    page.wait_for_selector("#analysis-lines li .line-whole")
    whole = page.locator("#analysis-lines li").first
    pv = (whole.locator(".pv").inner_text() or "").split()
    before = len(variation_squares(page))
    whole.locator(".line-whole").click()
    page.wait_for_function(
        "n => document.querySelectorAll('#moves button.variation-move').length >= n",
        arg=before + len(pv),
    )
    if locale.startswith("id"):
        assert english_left(page, ["Ann", "Bob"]) == []
    done(page)


@pytest.mark.parametrize("locale", [ID])
def test_continue_against_a_bot_opens_a_game_at_the_shown_position(
    server: str, browser: Any, locale: str
) -> None:
    state, record = mistakes_game(server)
    page = tab(browser, server, locale)
    open_game(page, server, state)
    page.click('#moves button[data-ply="2"]')
    page.click("#btn-analyse")
    page.locator("#continue-level").select_option(index=0)
    page.click("#btn-continue")
    page.wait_for_function(f"!location.search.includes({state['id']!r})")
    new_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    made = api(server, "GET", f"/api/games/{new_id}")
    position = record.positions[2]
    assert made["moves"] == [] and made["turn"] == position.turn
    assert made["plies_left"] == position.plies_left
    cells = "".join(
        "x" if position.x >> i & 1 else "o" if position.o >> i & 1 else "."
        for i in range(position.rows * position.cols)
    )
    assert made["boards"][0] == cells
    person = position.turn
    assert made[person]["kind"] == "human"
    assert made["o" if person == "x" else "x"]["kind"] == "bot"
    done(page)


@pytest.mark.parametrize("locale", [EN])
def test_the_tree_exports_as_a_record_and_imports_back(
    server: str, browser: Any, locale: str, tmp_path: Path
) -> None:
    state, record = mistakes_game(server)
    page = tab(browser, server, locale)
    open_game(page, server, state)
    page.click('#moves button[data-ply="1"]')
    after_one = record.positions[1]
    other = next(m for m in after_one.legal_moves() if m != record.moves[1].square)
    page.click(f'[data-square="{other}"]')
    page.wait_for_selector("#moves button.variation-move.current")
    with page.expect_download() as download:
        page.click("#btn-export-tree")
    saved = tmp_path / "tree.txt"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    _game, tree = record_from_text(text)
    assert [n.square for n in main_line(tree)] == [m.square for m in record.moves]
    assert [n.square for n in tree[0].children] == [record.moves[1].square, other]
    page.set_input_files("#file-load", str(saved))
    page.wait_for_function(f"!location.search.includes({state['id']!r})")
    page.wait_for_selector("#moves button.variation-move")
    assert variation_squares(page) == [other]
    done(page)


@pytest.mark.parametrize("locale", [EN])
def test_a_nested_variation_is_made_the_main_line(
    server: str, browser: Any, locale: str, tmp_path: Path
) -> None:
    """A variation inside a variation: Promote lifts it one branching (it leads its
    parent variation, which still follows the game's move); Make main line lifts it to
    the start, so the exported record's main line is that variation."""
    state, record = mistakes_game(server)
    page = tab(browser, server, locale)
    open_game(page, server, state)
    page.click("#nav-first")
    start = record.positions[0]
    first = next(m for m in start.legal_moves() if m != record.moves[0].square)
    page.click(f'[data-square="{first}"]')
    page.wait_for_selector("#moves button.variation-move.current")
    replies = start.play(first).legal_moves()
    page.click(f'[data-square="{replies[0]}"]')
    page.wait_for_function("document.querySelectorAll('#moves button.variation-move').length === 2")
    page.locator("#moves button.current").focus()
    page.keyboard.press("ArrowLeft")  # back to the variation's first move
    expect(page.locator("#moves button.variation-move.current .sqname")).to_have_text(first)
    page.click(f'[data-square="{replies[1]}"]')  # a variation inside the variation
    page.wait_for_function("document.querySelectorAll('#moves button.variation-move').length === 3")

    def exported(name: str) -> list[Any]:
        with page.expect_download() as download:
            page.click("#btn-export-tree")
        saved = tmp_path / name
        download.value.save_as(saved)
        return record_from_text(saved.read_text(encoding="utf-8"))[1]

    page.click("#btn-promote")  # one branching: it leads inside its variation
    tree = exported("promoted.txt")
    assert [n.square for n in main_line(tree)] == [m.square for m in record.moves]
    assert [n.square for n in tree[1].children] == [replies[1], replies[0]]
    page.click("#btn-main-line")  # every branching up to the start
    tree = exported("main.txt")
    assert [n.square for n in main_line(tree)] == [first, replies[1]]
    assert [n.square for n in tree] == [first, record.moves[0].square]
    expect(page.locator("#moves button.variation-move.current .sqname")).to_have_text(replies[1])
    done(page)


@pytest.mark.parametrize("locale", [ID])
def test_learning_from_mistakes_refuses_the_mistake_and_accepts_the_best(
    server: str, browser: Any, locale: str
) -> None:
    state, record = mistakes_game(server)
    page = tab(browser, server, locale)
    open_game(page, server, state)
    page.click("#btn-review")
    page.wait_for_selector("#btn-learn:not([hidden])")
    page.click("#btn-learn")
    expect(page.locator("#learn")).to_be_visible()
    # The first mistake of either side (this browser holds both seats), in play order.
    marks = page.eval_on_selector_all(
        "#moves button[data-mark]",
        "bs => bs.filter(b => b.dataset.mark !== 'inaccuracy').map(b => Number(b.dataset.ply))",
    )
    ply = min(marks)
    position = record.positions[ply - 1]
    expect(page.locator("#moves button.current")).to_have_count(1 if ply > 1 else 0)
    values = move_values(position)
    mistake = record.moves[ply - 1].square
    page.click(f'[data-square="{mistake}"]')
    expect(page.locator("#learn-text")).to_have_attribute("data-accepted", "false")
    best = max(values, key=lambda m: values[m])
    page.click("#learn-retry")
    page.click(f'[data-square="{best}"]')
    expect(page.locator("#learn-text")).to_have_attribute("data-accepted", "true")
    best_found = {"en": "is a best move", "id": "adalah langkah terbaik"}[locale[:2]]
    expect(page.locator("#learn-text")).to_contain_text(f"{best} {best_found}")
    expect(page.locator("#learn-next")).to_be_visible()
    if locale.startswith("id"):
        assert english_left(page, ["Ann", "Bob"]) == []
    done(page)


def test_a_phone_has_no_sideways_scroll_and_axe_finds_nothing_serious(
    server: str, browser: Any
) -> None:
    state, record = mistakes_game(server)
    page = tab(browser, server, "en-US", width=390, height=844)
    open_game(page, server, state)
    page.click('#moves button[data-ply="1"]')
    other = next(m for m in record.positions[1].legal_moves() if m != record.moves[1].square)
    page.click("#btn-analyse")
    page.click(f'[data-square="{other}"]')
    page.wait_for_selector("#moves button.variation-move.current")
    page.wait_for_selector("#analysis-lines li .line-play")
    page.wait_for_selector("#evalbar:not([hidden])")
    page.click("#btn-review")
    page.wait_for_selector("#btn-learn:not([hidden])")
    page.click("#btn-learn")
    wide = page.evaluate("document.documentElement.scrollWidth")
    over = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 391)"
        ".map(e => e.id || e.className || e.tagName).slice(0, 8)"
    )
    assert wide <= 390, (wide, over)
    assert axe_violations(page) == []
    done(page)


def test_the_pages_position_text_is_the_cores(server: str, browser: Any) -> None:
    """The page writes a variation's position text itself (study.js ``fenOf``): on
    positions of every board size reached by random moves, it is the core's."""
    import random

    from adjacency.web.view import cells

    rng = random.Random(5)
    cases = []
    for rows, cols in [(4, 4), (4, 7), (6, 5), (8, 8), (5, 8)]:
        position = Position.start(rows, cols, rng.randint(1, (rows * cols - 8) // 2))
        while not position.is_over and rng.random() < 0.9:
            position = position.play(rng.choice(position.legal_moves()))
        cases.append((position, [rows, cols, cells(position), position.turn, position.plies_left]))
    page = tab(browser, server, "en-US")
    goto(page, server)
    written = page.evaluate(
        "async (cases) => { const { fenOf } = await import('/static/js/study.js');"
        " return cases.map((c) => fenOf(...c)); }",
        [args for _, args in cases],
    )
    assert written == [position.fen() for position, _ in cases]
    done(page)


def test_the_bar_shows_an_estimate_for_the_editors_position(server: str, browser: Any) -> None:
    page = tab(browser, server, "en-US")
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")
    page.click("#btn-editor")
    page.locator("#editor-form select[name=rows]").select_option("6")
    page.locator("#editor-form select[name=cols]").select_option("6")
    page.click("#editor-analyse")  # 6x6, 28 plies left: too far to solve
    bar = page.locator("#evalbar")
    expect(bar).to_have_attribute("data-exact", "false")
    expect(page.locator("#evalbar-text")).to_contain_text("estimated (depth")
    page.click("#analysis-stop")
    done(page)


@pytest.mark.parametrize("locale", [EN])
def test_the_panel_the_bar_and_the_graph_show_the_same_value(
    server: str, browser: Any, locale: str
) -> None:
    """An 8x8 game's position far from the end, analysed: the best line's score, the
    evaluation bar and the graph's one curve at that ply hold the same number, at a depth
    whose horizon falls on an even ply of the game."""
    import random

    rng = random.Random(11)
    record = Game(Position.start(8, 8, 12), "Ann", "Bob")
    while not record.position.is_over:
        record.play(rng.choice(record.position.legal_moves()))
    state = api(server, "POST", "/api/games/import", {"record": game_to_text(record)})
    page = tab(browser, server, locale)
    open_game(page, server, state)
    ply = 5
    page.click(f'#moves button[data-ply="{ply}"]')
    page.click("#btn-analyse")
    page.wait_for_selector("#analysis-lines li .score")
    page.wait_for_function("document.querySelector('#evalbar').dataset.value !== undefined")
    page.click("#analysis-stop")
    panel = float(page.get_attribute("#analysis-lines li .score", "data-value") or "nan")
    bar = float(page.get_attribute("#evalbar", "data-value") or "nan")
    dot = page.get_attribute(f'#graph .eval-dot[data-ply="{ply}"]', "data-value")
    assert panel == bar == float(dot or "nan"), (panel, bar, dot)
    expect(page.locator("#evalbar")).to_have_attribute("data-exact", "false")
    shown = page.inner_text("#evalbar-text")
    depth = int(shown.split("(")[1].split(")")[0].split()[-1])
    assert (record.positions[ply].plies_left - depth) % 2 == 0, shown
    assert page.locator("#graph .eval-line").count() == 1
    done(page)


def test_the_graph_joins_only_the_bots_evaluations_of_an_even_horizon(
    server: str, browser: Any
) -> None:
    """Two depth-2 bots: X's searches end on an even ply of the game, O's on an odd one
    (rated two to three squares apart, a sawtooth); the curve has X's only, each the
    value the bot reported."""
    from web_helpers import wait_until

    bot = {"kind": "bot", "spec": "alphabeta:depth=2"}
    body = {"x": bot, "o": bot, "rows": 4, "cols": 4, "rounds": 3}
    made = api(server, "POST", "/api/games", body)
    state = wait_until(
        lambda: (s := api(server, "GET", f"/api/games/{made['id']}"))["status"] == "over" and s,
        60,
        "the bots' game to end",
    )
    reported = {m["number"]: m for m in state["moves"] if m["eval"] is not None}
    even = {n: m["eval"] for n, m in reported.items() if (n - 1 + m["depth"]) % 2 == 0}
    assert even and len(even) < len(reported)  # some joined, some left out
    page = tab(browser, server, "en-US")
    open_game(page, server, state)
    dots = page.eval_on_selector_all(
        "#graph .eval-dot",
        "ds => ds.map((d) => [Number(d.dataset.ply), Number(d.dataset.value)])",
    )
    assert dict(dots) == even
    done(page)
