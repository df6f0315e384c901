"""The play page in Bahasa Indonesia, in a real browser (Playwright, Debian's Chromium).

A browser whose language is Indonesian (locale id-ID) gets the whole page in Indonesian:
the new-game dialog, a game in progress and the result card show no English message of
the catalogue (tests/i18n_helpers.py); the language switch overrides the browser's
language and is remembered after a reload; an API error is shown in Indonesian from its
code. Every panel of the search lab shows its result (tables, charts, tooltips) with no
English left and no serious or critical axe violation; a person watching a game between
bots on another device, and its result, see it all in Indonesian too. How an error is
worded from its code (a malformed request field by field) is tested without a browser on
the page's own module (tests/web/js/errors.test.mjs), and every code the server sends is
read through the page's own client in tests/web/test_browser_error_codes.py.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any
from urllib.parse import quote

import pytest

from adjacency import Position
from browser_helpers import UNDER_TEST, axe_violations, goto
from i18n_helpers import english_left
from web_helpers import api

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-i18n")]

TIMEOUT = 30_000
NAMES = ["Ani"]
"""Players' names: they stay as they are typed (a level's bot is named in the page's
language: "Bot Pemula")."""


def allowed(server: str) -> list[str]:
    """The players' names and the levels' bot specs (e.g. "alphabeta:depth=2")."""
    with urllib.request.urlopen(f"{server}/api/config", timeout=30) as response:
        config = json.loads(response.read())
    return [*NAMES, *(level["spec"] for level in config["levels"])]


def new_page(browser: Any, locale: str) -> Any:
    """A fresh page (empty storage) in a browser whose language is ``locale``."""
    context = browser.new_context(
        locale=locale, viewport={"width": 1280, "height": 900}, **UNDER_TEST
    )
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.console_errors = errors
    return page


def test_a_game_in_indonesian_has_no_english_left(server: str, browser: Any) -> None:
    page = new_page(browser, "id-ID")
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    assert page.get_attribute("html", "lang") == "id"
    expect(page.locator("#btn-new")).to_have_text("Permainan baru")
    left = english_left(page, allowed(server))
    assert not left, left  # the new-game dialog
    dialog = page.locator("#dlg-new")
    dialog.locator("input[name=x-name]").fill("Ani")
    dialog.locator("select[name=rows]").select_option("4")
    dialog.locator("select[name=cols]").select_option("4")
    dialog.locator("select[name=o-level]").select_option("1")
    page.eval_on_selector(
        "input[name=rounds]",
        "el => { el.value = '2'; el.dispatchEvent(new Event('input', {bubbles: true})); }",
    )
    page.click("#new-start")
    page.wait_for_selector("#dlg-new", state="hidden")
    page.locator("#board .sq:not(.filled)").first.click()
    expect(page.locator("#moves button")).to_have_count(2)  # the move and the bot's reply
    expect(page.locator("#status")).to_contain_text("Giliran")
    expect(page.locator("#bar-top .name")).to_have_text("Bot Pemula")
    expect(page.locator("#announcer")).to_contain_text("jalan di")
    left = english_left(page, allowed(server))
    assert not left, left  # a game in progress
    page.click("#btn-analyse")
    expect(page.locator("#analysis-exact.known")).to_contain_text(
        "permainan sempurna", timeout=TIMEOUT
    )
    left = english_left(page, allowed(server))
    assert not left, left  # the analysis panel
    page.click("#analysis-close")
    page.locator("#board .sq:not(.filled)").first.click()
    page.wait_for_selector("#dlg-result[open]")
    assert page.locator("#result-title").inner_text() in ("Anda menang!", "Anda kalah", "Seri")
    left = english_left(page, allowed(server))
    assert not left, left  # the result card
    assert page.console_errors == []
    page.context.close()


def test_watching_a_bot_game_in_indonesian_has_no_english_left(server: str, browser: Any) -> None:
    """Another device opens a game between two bots while they play (the watcher's view:
    no seat, the playback controls; 8 plies) and stays to its end.
    The bots have the server's names ("Beginner bot"): the page says them in Indonesian.

    The game's creator pauses it as soon as it starts, so the watcher sees a game in
    progress however slow the machine (a watched game could otherwise end before the
    watcher's page is read), and resumes it once the watcher has tried a square, with no
    wait between the bots' moves (the playback's pace is not what this test reads)."""
    game = api(
        server,
        "POST",
        "/api/games",
        {
            "x": {"kind": "bot", "level": 1},
            "o": {"kind": "bot", "level": 2},
            "rows": 6,
            "cols": 6,
            "rounds": 4,
        },
    )
    control = f"/api/games/{game['id']}/control"
    api(server, "POST", control, {"action": "pause"})
    page = new_page(browser, "id-ID")
    goto(page, f"{server}/?game={game['id']}")
    page.wait_for_selector("#board .sq")
    expect(page.locator("#status")).to_contain_text("Menonton")
    expect(page.locator("#bar-bottom .name")).to_have_text("Bot Pemula")  # X, level 1
    assert page.evaluate("() => document.querySelector('#dlg-result').open") is False
    left = english_left(page, allowed(server))
    assert not left, left  # the game in progress, paused
    page.locator("#board .sq:not(.filled)").first.click()  # a bot's turn: not the watcher's
    expect(page.locator("#notice")).to_contain_text(re.compile("bukan giliran Anda|berpikir"))
    left = english_left(page, allowed(server))
    assert not left, left  # the notice
    api(server, "POST", control, {"action": "resume", "delay": 0})
    expect(page.locator("#moves button").nth(1)).to_be_visible()  # two plies in
    page.wait_for_selector("#dlg-result[open]", timeout=60_000)
    left = english_left(page, allowed(server))
    assert not left, left  # the result card
    assert page.console_errors == []
    page.context.close()


def test_the_switch_overrides_the_browser_and_is_remembered(server: str, browser: Any) -> None:
    page = new_page(browser, "en-US")
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    assert page.get_attribute("html", "lang") == "en"
    expect(page.locator("#btn-new")).to_have_text("New game")
    page.locator("#new-cancel").click()
    page.locator("#lang").select_option("id")  # the page reloads in Indonesian
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("#btn-new")).to_have_text("Permainan baru")
    page.reload()
    expect(page.locator("#btn-new")).to_have_text("Permainan baru")
    assert page.locator("#lang").input_value() == "id"
    page.locator("#new-cancel").click()
    page.locator("#lang").select_option("en")
    expect(page.locator("#btn-new")).to_have_text("New game")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.context.close()


def test_an_api_error_from_its_code_and_the_rules_page_in_indonesian(
    server: str, browser: Any
) -> None:
    """An API error is shown in Indonesian from its code (the play page's notice, the
    editor's verdict); then the rules page, in the same tab, has no English left."""
    page = new_page(browser, "id-ID")
    goto(page, f"{server}/?game=tidak-ada")
    # GameNotFound with code game_not_found: the page words it, not the English detail.
    expect(page.locator("#notice")).to_contain_text("Tidak ada permainan dengan id “tidak-ada”")
    assert "no game with id" not in page.locator("#notice").inner_text()
    # The editor's verdict on an impossible position comes with a code too.
    page.locator("#new-cancel").click()
    page.locator("#btn-editor").click()
    page.locator("#editor-clear").click()
    page.locator("#editor-analyse").click()
    expect(page.locator("#editor-error")).to_contain_text("Posisi mustahil: ada 0 bidak")
    goto(page, f"{server}/rules")
    expect(page.locator("h1")).to_have_text("Aturan dan cara bermain")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    left = english_left(page, ["Tab", "Enter", "Home", "End", "Space"])  # key names
    assert not left, left
    assert page.console_errors == []
    page.context.close()


def test_the_bot_picker_and_a_resignation_in_indonesian(server: str, browser: Any) -> None:
    """The registry's bot summaries and options' help, and how a game ended
    (the server's "X (Ani) resigned"), come from the catalogue on an Indonesian page."""
    page = new_page(browser, "id-ID")
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    dialog = page.locator("#dlg-new")
    dialog.locator("input[name=x-name]").fill("Ani")
    dialog.locator("select[name=rows]").select_option("4")
    dialog.locator("select[name=cols]").select_option("4")
    picker = dialog.locator("select[name=o-bot]")
    picker.locator("xpath=ancestor::details/summary").click()
    picker.select_option("alphabeta")
    side = picker.locator("xpath=ancestor::details")
    expect(side.locator(".level-desc")).to_have_text(
        "negamax dengan pemangkasan alfa-beta, pengurutan langkah, tabel transposisi, "
        "dan pendalaman iteratif"
    )
    depth = side.locator("label.opt", has=page.locator("[data-option=depth]"))
    expect(depth).to_have_attribute(
        "title", "kedalaman pencarian maksimum dalam langkah (0: sedalam waktu memungkinkan)"
    )
    options = side.locator("label.opt").all_inner_texts()
    left = english_left(page, [*allowed(server), "alphabeta", *options])
    assert not left, left  # the bot picker
    picker.select_option("")  # back to a level: Beginner plays at once
    dialog.locator("select[name=o-level]").select_option("1")
    page.eval_on_selector(
        "input[name=rounds]",
        "el => { el.value = '2'; el.dispatchEvent(new Event('input', {bubbles: true})); }",
    )
    page.click("#new-start")
    page.wait_for_selector("#dlg-new", state="hidden")
    page.locator("#board .sq:not(.filled)").first.click()
    expect(page.locator("#moves button")).to_have_count(2)
    page.click("#btn-resign")
    page.wait_for_selector("#dlg-confirm[open]")
    page.click("#confirm-yes")
    page.wait_for_selector("#dlg-result[open]")
    expect(page.locator("#result-text")).to_contain_text("X (Ani) menyerah")
    expect(page.locator("#status")).to_contain_text("X (Ani) menyerah")
    left = english_left(page, allowed(server))
    assert not left, left  # the result card and the status line: no "resigned"
    assert "resigned" not in page.locator("body").inner_text()
    assert page.console_errors == []
    page.context.close()


SMALL = Position.start(5, 5, rounds=6).play("c1")
"""A small position whose searches end in well under a second (the lab's panels)."""
LAB_SPECS = [
    "hill:variant=sideways",
    "hill:variant=stochastic",
    "hill:neighbourhood=area,variant=sideways",
    "hill:neighbourhood=area,variant=restart",
    "anneal:neighbourhood=area",
    "report-a:localsearch",
    "report-b:localsearch",
    "report-a:genetic",
    "report-b:genetic",
]
"""The lab's bots whose specs say more than a name (the charts' titles show the spec)."""
SEARCH = 90_000
"""The wait for a lab panel's first result: the engine's first search in a fresh server
process also compiles its kernels."""


def lab_page(server: str, browser: Any, tab: str) -> Any:
    """The lab in Indonesian on :data:`SMALL`, its panel ``tab`` open."""
    page = new_page(browser, "id-ID")
    goto(page, f"{server}/lab?fen={quote(SMALL.fen())}")
    page.wait_for_selector("#lab-board svg")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    page.locator(f".lab-tabs button[data-tab={tab}]").click()
    expect(page.locator(f"#panel-{tab}")).to_be_visible()
    return page


def lab_allowed(server: str) -> list[str]:
    """What the lab names rather than says: the bots' specs (the options' values, shown in
    the charts' titles) and the searchers' names. The options' texts are not names: they
    are checked ("hill (steepest)" is "hill (tercuram)")."""
    return [*allowed(server), *LAB_SPECS, "alphabeta", "engine"]


def assert_indonesian_and_accessible(server: str, page: Any) -> None:
    """No English message left, and no serious or critical axe violation, on the lab page
    as it is now; nothing thrown."""
    left = english_left(page, lab_allowed(server))
    assert not left, left
    assert axe_violations(page) == []
    assert page.console_errors == []


def test_the_lab_and_each_of_its_panels_in_indonesian_tree_counts_depth(
    server: str, browser: Any
) -> None:
    """One lab page in Indonesian, each panel in turn on :data:`SMALL` (the panels are
    independent: each runs its own search): the tree (its summary and stepping), the
    counts and depth vs cost."""
    page = lab_page(server, browser, "tree")
    expect(page.locator("#tree-summary")).to_contain_text("Tekan Cari")
    page.locator("#tree-form button[type=submit]").click()
    page.wait_for_selector("#tree-view g.node[data-ply='1']", timeout=SEARCH)
    expect(page.locator("#tree-summary")).to_contain_text("simpul pohon")
    page.locator("#tree-step-reset").click()
    page.locator("#tree-step").click()
    expect(page.locator("#tree-step-text")).to_contain_text("langkah 1 dari")
    assert_indonesian_and_accessible(server, page)  # the tree panel
    page.locator(".lab-tabs button[data-tab=counts]").click()
    page.locator("#counts-form button[type=submit]").click()
    expect(page.locator("#counts-view tbody tr")).to_have_count(6)
    assert_indonesian_and_accessible(server, page)  # the counts panel

    page.locator(".lab-tabs button[data-tab=depth]").click()
    page.locator("#depth-form input[name=seconds]").fill("0.3")
    page.locator("#depth-form button[type=submit]").click()
    page.wait_for_selector("#depth-view svg polyline", timeout=SEARCH)
    expect(page.locator("#depth-view h3")).to_have_count(2)
    expect(page.locator("#depth-view svg").first).to_contain_text("waktu untuk menuntaskan")
    seconds = page.locator("#depth-view tbody tr td:nth-child(4)").first.inner_text()
    assert re.fullmatch(r"\d+,\d{3}", seconds), seconds  # Indonesian decimals: "0,004"
    assert_indonesian_and_accessible(server, page)
    page.context.close()


def test_the_lab_and_each_of_its_panels_in_indonesian_climb_genetic_engine(
    server: str, browser: Any
) -> None:
    """One lab page in Indonesian, each panel in turn on :data:`SMALL`: a climb
    (annealing, then a restarting hill climb), the genetic search and the engine's view.
    (Two pages for the six panels keep each test within the suite's time budget.)"""
    page = lab_page(server, browser, "climb")
    page.locator("#climb-form select[name=spec]").select_option("anneal")
    page.locator("#climb-form button[type=submit]").click()
    page.wait_for_selector("#climb-view svg polyline", timeout=SEARCH)
    expect(page.locator("#climb-view svg")).to_have_count(2)  # the values, the temperature
    # The steps' kinds, in the summary and the points' tooltips: annealing accepts or rejects.
    expect(page.locator("#climb-view p").first).to_contain_text("terima")
    assert page.locator("#climb-view circle title").filter(has_text="tolak").count() > 0
    expect(page.locator("#lab-board-caption")).to_contain_text("dimainkan")
    assert_indonesian_and_accessible(server, page)
    page.locator("#climb-form select[name=spec]").select_option(
        "hill:neighbourhood=area,variant=restart"
    )
    page.locator("#climb-form button[type=submit]").click()
    expect(page.locator("#climb-view svg")).to_have_count(1)  # no temperature
    expect(page.locator("#climb-view svg").first).to_contain_text("hill")
    expect(page.locator("#climb-view p").first).to_contain_text("naik")
    assert_indonesian_and_accessible(server, page)
    page.locator(".lab-tabs button[data-tab=ga]").click()
    page.locator("#ga-form button[type=submit]").click()
    page.wait_for_selector("#ga-view svg polyline", timeout=SEARCH)
    expect(page.locator("#ga-view p").first).to_contain_text("Kromosom akhir")
    expect(page.locator("#lab-board-caption")).to_have_text("kromosom akhir, dinomori berurutan")
    assert_indonesian_and_accessible(server, page)
    page.locator(".lab-tabs button[data-tab=engine]").click()
    page.locator("#engine-form input[name=seconds]").fill("0.3")
    page.locator("#engine-form button[type=submit]").click()
    page.wait_for_selector("#engine-view table", timeout=SEARCH)
    expect(page.locator("#engine-view")).to_contain_text("Mesin memainkan")
    assert_indonesian_and_accessible(server, page)
    page.context.close()
