"""End-to-end tests in a real browser: Playwright driving Debian's Chromium.

A real uvicorn server runs in a thread on a free port; each test opens a fresh
page (empty local storage) and fails if the page logs any console error. The
tests keep screenshots of what they check (in a temporary folder, or in docs/screenshots/
with ``ADJACENCY_SCREENSHOTS=1``); the README's other pictures come from
tools/docs_screenshots.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from adjacency.core.game import Game
from adjacency.core.record import game_from_text, game_to_text
from adjacency.web import turns as turns_module
from browser_helpers import goto
from web_helpers import (
    JOURNEY_LIMITS,
    PatientBot,
    a_game_with_mistakes,
    api,
    new_tab,
    shown_plies,
    wait_until,
)

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser")]
"""One worker runs this module (make test: --dist loadgroup): one server and one Chromium."""


LIVE_SERVER = {"grace": 3.0, "limits": replace(JOURNEY_LIMITS, solve_seconds=60)}
"""The options of this module's server (tests/web/conftest.py): the journeys' limits, and
the exact-result test checks the result, not the speed."""


DESK = {"width": 1280, "height": 860}
PAGE = {"viewport": DESK, "accept_downloads": True}
"""The options of this module's page (tests/web/conftest.py): a desk's window."""


def new_game(server: str, **settings: Any) -> dict[str, Any]:
    body = {
        "x": {"kind": "human", "name": "Ann"},
        "o": {"kind": "bot", "level": 2},
        "rows": 6,
        "cols": 6,
        "rounds": 14,
        **settings,
    }
    return api(server, "POST", "/api/games", body)  # type: ignore[no-any-return]


def play_via_api(server: str, game_id: str, squares: tuple[str, ...]) -> int:
    """Play those of ``squares`` still empty, each answered by the bot; return the plies."""
    path = f"/api/games/{game_id}"
    for square in squares:
        if square in api(server, "GET", path)["preview"]:
            api(server, "POST", f"{path}/moves", {"square": square})
            wait_until(lambda: api(server, "GET", path)["human_to_move"], what="the bot's reply")
    return len(api(server, "GET", path)["moves"])


def open_game(page: Any, server: str, **settings: Any) -> dict[str, Any]:
    """Create a game through the API and open its page."""
    game = new_game(server, **settings)
    goto(page, f"{server}/?game={game['id']}")
    page.wait_for_selector("#board .sq")
    return game


def plies(page: Any) -> int:
    return int(page.locator("#moves button").count())


def set_range(page: Any, selector: str, value: int) -> None:
    page.eval_on_selector(
        selector,
        "(el, v) => { el.value = String(v);"
        " el.dispatchEvent(new Event('input', {bubbles: true})); }",
        value,
    )


def start_from_dialog(page: Any, mode: str, rows: int, cols: int, rounds: int) -> None:
    dialog = page.locator("#dlg-new")
    dialog.locator(f"input[name=mode][value={mode}]").check()
    dialog.locator("select[name=rows]").select_option(str(rows))
    dialog.locator("select[name=cols]").select_option(str(cols))
    set_range(page, "input[name=rounds]", rounds)


def shoot(page: Any, shots: Path, name: str, full_page: bool = False) -> None:
    path = shots / name
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    assert path.stat().st_size > 10_000  # a real picture, not a blank page


# ---------------------------------------------------------------------- tests


def test_full_game_against_a_bot_by_clicks(server: str, page: Any, shots: Path) -> None:
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    page.locator("#dlg-new input[name=x-name]").fill("Ann")
    assert page.locator("#rounds-out").inner_text() == "28 of 28"
    page.locator("#dlg-new h2").click()  # move the focus away from the field
    shoot(page, shots, "new-game.png")
    start_from_dialog(page, "human-bot", 4, 4, 3)
    page.locator("select[name=o-level]").select_option("1")
    assert page.locator("#rounds-out").inner_text() == "3 of 4"
    page.click("#new-start")
    page.wait_for_selector("#dlg-new", state="hidden")
    for ply in (1, 3, 5):
        page.wait_for_function(
            f"document.querySelectorAll('#moves button').length === {ply - 1}"
            " && !document.querySelector('#board').classList.contains('locked')"
        )
        page.locator("#board .sq:not(.filled)").first.click()
    page.wait_for_selector("#dlg-result[open]")
    title = page.locator("#result-title").inner_text()
    assert title in ("You win!", "You lost", "Draw")
    text = page.locator("#result-text").inner_text()
    x, o = (page.locator(sel).inner_text() for sel in ("#bar-bottom .score", "#bar-top .score"))
    assert f"X (Ann) {x} – {o} O (Beginner bot)" in text
    assert plies(page) == 6
    assert "0 of 3 rounds" not in page.locator("#status").inner_text()
    shoot(page, shots, "result.png")
    page.click("#result-rematch")
    page.wait_for_selector("#dlg-result", state="hidden")
    page.wait_for_function(  # colours swapped: Ann plays O, her own bar still at the bottom
        "document.querySelector('#bar-top .name').textContent.includes('Beginner')"
        " && document.querySelector('#bar-bottom').classList.contains('side-o')"
    )  # (the new game's state can be drawn once before the page has heard its new seat)
    assert page.locator("#bar-bottom .name").inner_text() == "Ann"
    assert "side-o" in (page.get_attribute("#bar-bottom", "class") or "")


def test_bot_vs_bot_pause_step_and_play_to_the_end(server: str, page: Any) -> None:
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    start_from_dialog(page, "bot-bot", 5, 5, 6)
    page.locator("select[name=x-level]").select_option("1")
    page.locator("select[name=o-level]").select_option("2")
    page.click("#new-start")
    page.wait_for_selector("#bot-actions:not([hidden])")
    page.click("#btn-play-pause")
    page.wait_for_function("document.querySelector('#btn-play-pause').textContent.includes('Play')")
    before = plies(page)
    page.click("#btn-step")
    page.wait_for_function(f"document.querySelectorAll('#moves button').length === {before + 1}")
    assert "Play" in page.locator("#btn-play-pause").inner_text()
    page.locator("#speed").select_option("0")
    page.click("#btn-play-pause")
    page.wait_for_selector("#dlg-result[open]")
    title = page.locator("#result-title").inner_text()
    assert title in ("Beginner bot wins", "Novice bot wins", "Draw")
    assert plies(page) == 12
    page.click("#result-review")
    page.keyboard.press("Home")
    assert page.locator("#nav-pos").inner_text() == "0 / 12"
    page.keyboard.press("ArrowRight")
    assert page.locator("#nav-pos").inner_text() == "1 / 12"
    assert page.locator("#history-banner").is_visible()


def test_dialog_custom_bot_and_two_people(server: str, page: Any) -> None:
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    start_from_dialog(page, "human-bot", 5, 6, 4)
    page.locator("input[name=you][value=o]").check()
    page.locator("#dlg-new input[name=o-name]").fill("Olga")
    page.locator(".side-setup[data-side=x] details summary").click()
    page.locator("select[name=x-bot]").select_option("alphabeta")
    page.locator(".side-setup[data-side=x] input[data-option=depth]").fill("3")
    assert page.locator("select[name=x-level]").is_disabled()
    page.click("#new-start")
    page.wait_for_selector("#dlg-new", state="hidden")
    # The person plays O: O's side and bar at the bottom, the bot's at the top.
    assert page.locator("#bar-top .kind").inner_text() == "Bot · alphabeta:depth=3"
    assert page.locator("#bar-bottom .name").inner_text() == "Olga"
    page.wait_for_function("document.querySelectorAll('#moves button').length === 1")
    assert page.locator("#board .coord.file").count() == 6
    assert page.locator("#board .coord.rank").count() == 5

    page.click("#btn-new")
    page.locator("input[name=mode][value=human-human]").check()
    assert page.locator("#you-play").is_hidden()
    assert page.locator("input[name=time]").is_hidden()
    page.click("#new-start")
    page.wait_for_selector("#dlg-new", state="hidden")
    for n, square in enumerate(("c3", "d4"), 1):
        page.click(f'[data-square="{square}"]')
        page.wait_for_function(f"document.querySelectorAll('#moves button').length === {n}")
    assert page.locator("#bar-bottom .kind").inner_text() == "Person"
    page.click("#btn-undo")
    page.wait_for_function("document.querySelectorAll('#moves button').length === 1")


def test_undo_takes_back_the_move_and_the_reply(server: str, page: Any) -> None:
    open_game(page, server)
    page.click('[data-square="c3"]')
    page.wait_for_function("document.querySelectorAll('#moves button').length === 2")
    page.wait_for_function("!document.querySelector('#btn-undo').disabled")
    page.click("#btn-undo")
    page.wait_for_function("document.querySelectorAll('#moves button').length === 0")
    assert page.locator('[data-square="c3"] svg').count() == 0
    assert page.locator("#btn-undo").is_disabled()


def test_hint_shows_a_move_that_can_be_played(server: str, page: Any) -> None:
    open_game(page, server)
    page.click("#btn-hint")
    hinted = page.wait_for_selector("#board .sq.hint")
    square = hinted.get_attribute("data-square")
    assert page.locator("#status").inner_text().startswith(f"Hint: {square}")
    hinted.click()
    page.wait_for_function("document.querySelectorAll('#moves button').length >= 1")
    assert page.locator("#moves button").first.inner_text().startswith(square)


def test_illegal_clicks_explain_and_change_nothing(server: str, page: Any) -> None:
    game = open_game(page, server)
    page.click('[data-square="a1"]')
    assert "a1 is already taken by X" in page.locator("#notice").inner_text()
    page.click('[data-square="f6"]')
    assert "f6 is already taken by O" in page.locator("#notice").inner_text()
    assert plies(page) == 0
    page.click('[data-square="d4"]')
    page.wait_for_function("document.querySelectorAll('#moves button').length === 2")
    page.click("#nav-back")
    page.click('[data-square="e5"]')
    assert "earlier position" in page.locator("#notice").inner_text()
    assert plies(page) == 2
    assert api(server, "GET", f"/api/games/{game['id']}")["moves"][0]["square"] == "d4"


def test_thinking_indicator_wait_message_and_move_now(
    server: str, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    PatientBot.instances.clear()  # a bot that thinks until told to move
    monkeypatch.setattr(turns_module, "build_bot", lambda spec, seed=None: PatientBot())
    open_game(page, server, time=60)
    page.click('[data-square="c3"]')
    page.wait_for_selector("#thinking:not([hidden])")
    assert "O (Novice bot) is thinking" in page.locator("#thinking-who").inner_text()
    assert "depth 1" in page.locator("#thinking-details").inner_text()
    page.click('[data-square="e4"]')
    assert "Please wait: O (Novice bot) is thinking" in page.locator("#notice").inner_text()
    page.click("#btn-move-now")
    page.wait_for_function("document.querySelectorAll('#moves button').length === 2")
    page.wait_for_selector("#thinking", state="hidden")
    assert PatientBot.instances[0].stops >= 1


def test_keyboard_play(server: str, page: Any) -> None:
    open_game(page, server, o={"kind": "human", "name": "Bea"})
    page.locator('[data-square="c1"]').focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#moves button').length === 1")
    assert page.locator("#moves button").first.inner_text().startswith("d2")


def test_save_and_load_a_game(server: str, page: Any, tmp_path: Path) -> None:
    open_game(page, server, o={"kind": "human", "name": "Bea"}, rows=5, cols=5, rounds=8)
    for n, square in enumerate(("c1", "b3", "d2"), 1):
        page.click(f'[data-square="{square}"]')
        page.wait_for_function(f"document.querySelectorAll('#moves button').length === {n}")
    with page.expect_download() as download:
        page.click("#btn-save")
    saved = tmp_path / "saved.txt"
    download.value.save_as(saved)
    record = game_from_text(saved.read_text())
    assert [m.square for m in record.moves] == ["c1", "b3", "d2"]
    assert (record.x_name, record.o_name) == ("Ann", "Bea")

    page.set_input_files("#file-load", str(saved))
    page.wait_for_function("document.querySelector('#notice').textContent.includes('Loaded')")
    assert page.locator("#nav-pos").inner_text() == "0 / 3"
    assert page.locator("#history-banner").is_visible()
    page.locator("#nav-forward").click()
    page.locator("#nav-forward").click()
    assert page.locator("#moves button.current").inner_text().startswith("b3")
    page.keyboard.press("End")
    assert page.locator("#nav-pos").inner_text() == "3 / 3"
    assert page.locator('[data-square="d2"].last').count() == 1

    bad = tmp_path / "bad.txt"
    bad.write_text('[Rows "5"]\n[Cols "5"]\n[Rounds "8"]\n\n1. a1 *\n')
    with page.expect_response("**/api/games/import"):
        page.set_input_files("#file-load", str(bad))
    page.wait_for_function("document.querySelector('#notice').textContent.includes('occupied')")
    # The refused upload is the one expected console entry (Chromium logs every 4xx).
    page.console_errors[:] = [e for e in page.console_errors if "status of 400" not in e]


def test_phone_width_layout(server: str, browser: Any, shots: Path) -> None:
    page = new_tab(
        browser,
        server,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    context, errors = page.context, page.console_errors
    game = new_game(server, rows=8, cols=8, rounds=28)
    plies = play_via_api(server, game["id"], ("c3", "d4", "e3"))
    goto(page, f"{server}/?game={game['id']}")
    page.wait_for_function(f"document.querySelectorAll('#moves button').length === {plies}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    square = page.locator('[data-square="a1"]').bounding_box()
    assert square["width"] >= 30  # big enough to tap
    empty = page.locator("#board .sq:not(.filled)").last
    empty.tap()
    page.wait_for_function(f"document.querySelectorAll('#moves button').length === {plies + 2}")
    shoot(page, shots, "phone.png")
    context.close()
    assert errors == []


def test_the_pages_work_under_their_content_security_policy(server: str, browser: Any) -> None:
    """B12: with the policy enforced (no bypass), the game page plays a game by clicks and
    the rules and API reference pages render, with no console error (a blocked script,
    style or request is one)."""
    expect = sync_api.expect
    tab = new_tab(browser, server, viewport=DESK, bypass_csp=False)  # the policy enforced
    context, errors = tab.context, tab.console_errors
    try:
        game = new_game(server, rows=4, cols=4, rounds=2)
        goto(tab, f"{server}/?game={game['id']}")
        tab.locator("#board .sq:not(.filled)").first.click()
        expect(tab.locator("#moves button")).to_have_count(2)  # the move and the bot's reply
        goto(tab, f"{server}/rules")
        expect(tab.locator("strong.ink-x").first).to_be_visible()
        goto(tab, f"{server}/docs")
        expect(tab.locator(".api-endpoint").first).to_be_visible()
    finally:
        context.close()
    assert errors == [], f"console errors: {errors}"


def test_api_reference_works_offline(server: str, page: Any) -> None:
    """/docs renders every endpoint and schema of /openapi.json, loading nothing from outside."""
    outside: list[str] = []

    def only_local(route: Any) -> None:
        url = route.request.url
        if url.startswith(server + "/"):
            route.continue_()
        else:  # as offline: nothing outside this server is reachable
            outside.append(url)
            route.abort()

    page.route("**/*", only_local)
    spec = api(server, "GET", "/openapi.json")
    goto(page, f"{server}/docs")
    page.wait_for_selector(".api-endpoint")
    operations = [(m, p) for p, item in spec["paths"].items() for m in item]
    assert page.locator(".api-endpoint").count() == len(operations)
    assert page.locator("#api-index-table tr").count() == len(operations)
    assert page.locator(".api-schema").count() == len(spec["components"]["schemas"])
    paths = page.locator(".api-endpoint .api-path").all_inner_texts()
    assert sorted(paths) == sorted(p for _, p in operations)
    new_game = page.locator("#post--api-games")
    assert "New Game" in new_game.inner_text()
    new_game.locator('a[href="#schema-NewGame"]').first.click()
    assert page.evaluate("location.hash") == "#schema-NewGame"
    assert "rounds" in page.locator("#schema-NewGame").inner_text()
    record = page.locator("#get--api-games-game_id-record").inner_text()
    assert "format" in record and "query" in record
    assert page.locator('a[href="/openapi.json"]').count() >= 1
    assert page.inner_text("#api-error") == ""
    assert outside == []


def watched_page(browser: Any, url: str) -> Any:
    """A page in a fresh context (its own cookies: another device) that fails on errors."""
    tab = new_tab(browser, url, client=None, viewport={"width": 1100, "height": 800})
    goto(tab, url)
    tab.wait_for_selector("#board .sq")
    return tab


@pytest.mark.slow
def test_invite_a_friend_two_devices_and_a_watcher(server: str, browser: Any, shots: Path) -> None:
    host = watched_page(browser, server)  # no game yet: the new-game dialog opens
    host.wait_for_selector("#dlg-new[open]")
    start_from_dialog(host, "invite", 4, 4, 2)
    host.locator("#dlg-new input[name=you][value=x]").check()
    host.locator("#dlg-new .side-setup[data-side=x] input[type=text]").fill("Ann")
    host.locator("#dlg-new .side-setup[data-side=o] input[type=text]").fill("Bob")
    host.click("#new-start")
    host.wait_for_selector("#dlg-invite[open]")
    o_link = host.locator("#invite-links input[name=seat-o]").input_value()
    watch_link = host.locator("#invite-links input[name=watch]").input_value()
    assert "#seat=" in o_link and "#" not in watch_link
    shoot(host, shots, "invite.png")
    host.click("#invite-close")
    assert "#seat=" not in host.url  # the token never stays in the address bar

    friend = watched_page(browser, o_link)
    assert "#seat=" not in friend.url
    watcher = watched_page(browser, watch_link)
    assert "Watching" in watcher.locator("#status").inner_text()

    tabs = {"x": host, "o": friend}
    game_id = host.url.split("game=")[1].split("&")[0]
    total = 0
    while True:
        state = api(server, "GET", f"/api/games/{game_id}")
        if state["status"] == "over":
            break
        mover = tabs[state["turn"]]
        waiting = tabs["o" if state["turn"] == "x" else "x"]
        square = sorted(state["preview"])[0]
        waiting.click(f'[data-square="{square}"]')  # not your turn: refused on the page
        assert "turn" in waiting.locator("#notice").inner_text()
        watcher.click(f'[data-square="{square}"]')
        assert "watching" in watcher.locator("#notice").inner_text()
        mover.click(f'[data-square="{square}"]')
        total += 1
        for tab in (host, friend, watcher):
            shown_plies(tab, total)
        if total == 1:  # a reload of one player resumes the game with the seat kept
            friend.reload()
            friend.wait_for_selector("#board .sq")
            shown_plies(friend, total)
            assert "Watching" not in friend.locator("#status").inner_text()
    assert total == 4
    for tab in (host, friend, watcher):
        tab.wait_for_selector("#dlg-result[open]")
        assert tab.console_errors == []
    final = api(server, "GET", f"/api/games/{game_id}")
    assert [m["square"] for m in final["moves"]] == [
        tab.locator("#moves button .sqname").nth(i).inner_text() for i in range(4)
    ]
    for tab in (host, friend, watcher):
        tab.context.close()


@pytest.mark.slow
def test_a_clock_runs_out_for_both_players_and_the_watcher(server: str, browser: Any) -> None:
    body = {
        "x": {"kind": "human", "name": "Ann"},
        "o": {"kind": "human", "name": "Bob"},
        "rows": 4,
        "cols": 4,
        "rounds": 2,
        "clock": {"base": 3, "increment": 0},
    }
    made = api(server, "POST", "/api/invites", body)
    game_id, tokens = made["game"]["id"], made["tokens"]
    x = watched_page(browser, f"{server}/?game={game_id}#seat={tokens['x']}")
    o = watched_page(browser, f"{server}/?game={game_id}#seat={tokens['o']}")
    watcher = watched_page(browser, f"{server}/?game={game_id}")
    assert x.locator("#bar-bottom .clock").inner_text() == "3.0"
    x.click('[data-square="a3"]')
    for tab in (x, o, watcher):
        shown_plies(tab, 1)
    # O's own bar is at the bottom for O, running until its 3 s of wall time are up; a
    # loaded machine may show the page its end first.
    o.wait_for_selector("#bar-bottom .clock.running, #dlg-result[open]")
    for tab in (x, o, watcher):  # O never moves: its flag falls on the server
        tab.wait_for_selector("#dlg-result[open]")
        text = tab.locator("#result-text").inner_text()
        assert "time forfeit" in text and "ran out of time" in text
        o_bar = "#bar-bottom" if tab is o else "#bar-top"
        assert tab.locator(f"{o_bar} .clock").inner_text() == "0.0"
        assert tab.console_errors == []
    record = game_from_text(api_text(server, f"/api/games/{game_id}/record"))
    assert record.result == "x" and record.termination.value == "time forfeit"
    for tab in (x, o, watcher):
        tab.context.close()


def api_text(server: str, path: str) -> str:
    with urllib.request.urlopen(server + path, timeout=60) as response:
        return str(response.read().decode())


def test_the_editor_rejects_impossible_positions_with_a_message(server: str, page: Any) -> None:
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")
    page.click("#btn-editor")
    page.wait_for_selector("#editor:not([hidden])")
    page.click("#editor-clear")
    page.locator("#editor-form input[name=paint][value=x]").check()
    page.click('[data-square="c3"]')
    page.click('[data-square="d4"]')
    assert page.locator("#editor-count").inner_text().startswith("X 2 · O 0")
    page.fill("#editor-form input[name=plies]", "2")
    page.click("#editor-analyse")
    page.wait_for_function("document.querySelector('#editor-error').textContent.length > 0")
    assert "2 pieces on the board" in page.locator("#editor-error").inner_text()
    assert page.locator("#analysis").is_hidden()
    page.click("#editor-start")  # the 8x8 start with 56 plies: possible
    page.fill("#editor-form input[name=plies]", "57")
    page.click("#editor-analyse")
    page.wait_for_function(
        "document.querySelector('#editor-error').textContent.includes('plies left')"
    )


@pytest.mark.slow
def test_top_three_lines_appear_update_and_stop(server: str, page: Any, shots: Path) -> None:
    goto(page, server)
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")
    page.click("#btn-editor")
    page.locator("#editor-form select[name=rows]").select_option("6")
    page.locator("#editor-form select[name=cols]").select_option("6")
    page.click("#editor-analyse")
    page.wait_for_selector("#analysis:not([hidden])")
    page.wait_for_function("document.querySelectorAll('#analysis-lines li').length === 3")
    first = page.locator("#analysis-depth").inner_text()
    page.wait_for_function(
        f"!document.querySelector('#analysis-depth').textContent.startsWith({first!r})"
    )
    assert "too far to solve" in page.locator("#analysis-exact").inner_text()
    # One read of the whole list: the lines are re-rendered at every depth, so reading
    # them one locator at a time can mix two depths.
    moves = page.eval_on_selector_all(
        "#analysis-lines li strong", "items => items.map(item => item.textContent)"
    )
    assert len(moves) == 3 and len(set(moves)) == 3
    shoot(page, shots, "analysis.png")
    page.click("#analysis-stop")
    page.wait_for_function(
        "document.querySelector('#analysis-depth').textContent.includes('stopped')"
    )
    assert page.locator("#analysis-stop").is_disabled()


@pytest.mark.slow
def test_exact_result_at_ten_plies_left_equals_adjacency_solve(server: str, page: Any) -> None:
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": {"kind": "human"}, "o": {"kind": "human"}, "rows": 5, "cols": 5, "rounds": 8},
    )
    path = f"/api/games/{game['id']}"
    for _ in range(6):  # 16 plies, 6 played: 10 left
        state = api(server, "GET", path)
        api(server, "POST", f"{path}/moves", {"square": sorted(state["preview"])[-1]})
    goto(page, f"{server}/?game={game['id']}")
    page.wait_for_function("document.querySelectorAll('#moves button').length === 6")
    page.click("#btn-analyse")
    page.wait_for_selector("#analysis-exact.known")
    fen = page.locator("#analysis-fen").inner_text()
    assert fen.endswith(" 10")
    out = subprocess.run(
        [sys.executable, "-m", "adjacency", "solve", "--json", fen],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    value = int(json.loads(out)["value"])  # the mover's final margin
    mover = fen.split()[1]
    winner = mover if value > 0 else "o" if mover == "x" else "x"
    expected = "Draw" if value == 0 else f"{winner.upper()} wins by {abs(value)}"
    assert page.locator("#analysis-exact").inner_text().startswith(expected)
    shown = float(page.locator("#analysis-exact").get_attribute("data-value") or "nan")
    assert shown == (value if mover == "x" else -value)
    page.click("#nav-back")  # the panel follows the shown position
    page.wait_for_function("document.querySelector('#analysis-fen').textContent.endsWith(' 11')")
    page.click("#analysis-close")


@pytest.mark.slow
def test_review_marks_the_moves_where_the_solved_value_dropped(
    server: str, page: Any, shots: Path
) -> None:
    start, moves, dropped = a_game_with_mistakes()
    record = Game(start, "Ann", "Bob")
    for move in moves:
        record.play(move)
    game = api(server, "POST", "/api/games/import", {"record": game_to_text(record)})
    goto(page, f"{server}/?game={game['id']}")
    page.wait_for_function(f"document.querySelectorAll('#moves button').length === {len(moves)}")
    page.click("#btn-review")
    page.wait_for_function(
        "document.querySelector('#notice').textContent.startsWith('Review done')"
    )
    marked = page.eval_on_selector_all(
        "#moves button[data-mark]", "buttons => buttons.map(b => Number(b.dataset.ply))"
    )
    assert sorted(marked) == dropped
    assert page.locator("#graph .mark-dot").count() == len(dropped)
    shoot(page, shots, "review.png")
