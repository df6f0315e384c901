"""What the play page and the lab keep in view and say, in Debian's Chromium against a real
server: at 1366x768 the status line and the history banner stand clear of a notice, and
a notice about a state goes when that state changes; the new-game dialog fits that
screen unscrolled; on a phone the top bar scrolls away and a focused control of the
editor is never under the pinned board; a running review says its progress on the
status line; two bots of one level are told apart in the result; the Indonesian page
names a level's bot, the lab's fields and its numbers in Indonesian."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser_helpers import goto
from web_helpers import LAPTOP, api, new_tab, shown_plies, wait_until

expect = pytest.importorskip("playwright.sync_api").expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-screen-fit")]

PHONE = {"width": 390, "height": 844}
TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}
CLUB = {"kind": "bot", "level": 4}


def game_page(browser: Any, server: str, game: dict[str, Any], **options: Any) -> Any:
    tab = new_tab(browser, server, **options)
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_selector("#board .sq")
    return tab


def box(tab: Any, selector: str) -> dict[str, float]:
    return dict(tab.locator(selector).bounding_box())


def close(tab: Any) -> None:
    errors = tab.console_errors
    tab.context.close()
    assert errors == [], f"console errors: {errors}"


def test_at_1366x768_status_and_history_banner_stand_clear_of_a_notice_that_goes_with_its_state(
    server: str, browser: Any
) -> None:
    """The page's timers run on a fake clock: a notice outlives no state it was about,
    though it stays long enough to be read, and without a change it stays its 6 s."""
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 8})
    tab = new_tab(browser, server, viewport=LAPTOP, reduced_motion="reduce")
    tab.clock.install()
    goto(tab, f"{server}/?game={game['id']}")
    tab.wait_for_selector("#board .sq")
    notice = tab.locator("#notice")
    taken = next(
        sq for sq, cell in zip(squares(tab), game["boards"][0], strict=True) if cell != "."
    )
    tab.click(f'[data-square="{taken}"]')  # a taken square: a notice about this position
    wait_until(lambda: notice.inner_text() != "", what="the notice")
    shown, status = box(tab, "#notice"), box(tab, "#status")
    assert status["y"] + status["height"] <= shown["y"], (status, shown)
    assert shown["y"] + shown["height"] <= LAPTOP["height"]
    tab.clock.run_for(2000)
    assert notice.inner_text() != ""  # nothing changed: it stays
    legal = sorted(game["preview"])[0]
    tab.click(f'[data-square="{legal}"]')  # the position changed: the notice goes with it
    wait_until(lambda: tab.locator("#moves button").count() == 1, what="the move")
    wait_until(lambda: notice.inner_text() == "", what="the notice to go")
    tab.click("#nav-first")  # an earlier position: the history banner, clear of a notice
    tab.click(f'[data-square="{legal}"]')
    wait_until(lambda: notice.inner_text() != "", what="the notice")
    banner, shown = box(tab, "#history-banner"), box(tab, "#notice")
    assert banner["y"] + banner["height"] <= shown["y"], (banner, shown)
    tab.click("#btn-live")  # back to the game: the notice about the earlier position
    assert notice.inner_text() != ""  # is read first,
    tab.clock.run_for(1600)
    assert notice.inner_text() == ""  # then goes, long before its 6 s
    close(tab)


def squares(tab: Any) -> list[str]:
    """The board's squares in the order of the state's cells (a1, b1, ...)."""
    names = tab.eval_on_selector_all("#board .sq", "els => els.map((e) => e.dataset.square)")
    return sorted(names, key=lambda name: (int(name[1:]), name[0]))


@pytest.mark.parametrize("locale", ["en-GB", "id-ID"])
def test_the_new_game_dialog_fits_1366x768_unscrolled(
    server: str, browser: Any, locale: str
) -> None:
    tab = new_tab(browser, server, client=None, locale=locale)
    goto(tab, server)
    tab.wait_for_selector("#dlg-new[open]")
    scroll, client = tab.eval_on_selector("#dlg-new", "d => [d.scrollHeight, d.clientHeight]")
    assert scroll <= client, (scroll, client)
    start = box(tab, "#new-start")
    assert start["y"] + start["height"] <= LAPTOP["height"]
    close(tab)


def test_on_a_phone_the_top_bar_scrolls_away(server: str, browser: Any) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 8})
    tab = game_page(browser, server, game, viewport=PHONE)
    tab.evaluate("window.scrollTo(0, 400)")
    bar = box(tab, ".topbar")
    assert bar["y"] + bar["height"] <= 0, bar  # not pinned over the board
    close(tab)


def test_on_a_phone_a_focused_editor_control_is_not_under_the_pinned_board(
    server: str, browser: Any
) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 8, "cols": 8, "rounds": 8})
    tab = game_page(browser, server, game, viewport=PHONE)
    tab.click("#btn-editor")
    tab.wait_for_selector("#editor:not([hidden])")
    controls = tab.eval_on_selector_all(
        "#editor-form input:checked, #editor-form select, #editor-form input[type=number],"
        " #editor-form button, #editor-close",
        "els => els.map((e) => e.id || e.name + (e.value ? '=' + e.value : ''))",
    )
    assert len(controls) >= 7
    tab.locator("#editor-close").focus()
    covered = []
    for _ in range(len(controls) + 2):  # the keyboard walks the editor's controls
        tab.keyboard.press("Tab")
        tab.wait_for_timeout(50)  # the page moves the control after the browser's scroll
        where = tab.evaluate(
            """() => {
                 const el = document.activeElement;
                 if (!el.closest('#editor')) return null;
                 const r = el.getBoundingClientRect();
                 const board = document.querySelector('.board-area').getBoundingClientRect();
                 return {name: el.id || el.name, top: r.top, bottom: r.bottom,
                         cover: board.bottom, height: innerHeight};
               }"""
        )
        if where and (where["top"] < where["cover"] or where["bottom"] > where["height"]):
            covered.append(where)
    assert covered == []
    close(tab)


def test_a_running_review_keeps_its_progress_on_the_status_line(server: str, browser: Any) -> None:
    game = api(server, "POST", "/api/games", {**TWO_PEOPLE, "rows": 4, "cols": 4, "rounds": 2})
    tab = game_page(browser, server, game)
    for ply in range(4):
        state = api(server, "GET", f"/api/games/{game['id']}")
        square = sorted(state["preview"])[0]
        api(server, "POST", f"/api/games/{game['id']}/moves", {"square": square})
        shown_plies(tab, ply + 1)
    tab.wait_for_selector("#dlg-result[open]")
    tab.evaluate(
        """() => { window.statusLog = [];
          const status = document.querySelector('#status');
          new MutationObserver(() => statusLog.push(status.textContent))
            .observe(status, {childList: true, characterData: true, subtree: true}); }"""
    )
    tab.click("#result-review")
    # the page's next drawings (each judged move) keep it: the status line says the
    # review's progress (however fast the review runs, the page's log of it has it)
    progress = re.compile(r"Reviewing the game with the engine… \d of 4 moves reviewed")
    wait_until(
        lambda: any(progress.fullmatch(text) for text in tab.evaluate("() => window.statusLog")),
        what="the review's progress on the status line",
    )
    close(tab)


def test_two_bots_of_one_level_are_told_apart_in_the_result(server: str, browser: Any) -> None:
    game = api(
        server, "POST", "/api/games", {"x": CLUB, "o": CLUB, "rows": 4, "cols": 4, "rounds": 1}
    )
    api(server, "POST", f"/api/games/{game['id']}/control", {"action": "pause"})
    tab = game_page(browser, server, game)
    tab.click("#btn-play-pause")
    tab.wait_for_selector("#dlg-result[open]")
    state = api(server, "GET", f"/api/games/{game['id']}")
    title = tab.locator("#result-title").inner_text()
    if state["result"] in ("x", "o"):
        side = state["result"].upper()
        assert title == f"{side} ({state[state['result']]['name']}) wins", title
    close(tab)


def test_in_indonesian_a_levels_bot_and_the_labs_fields_and_numbers(
    server: str, browser: Any
) -> None:
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": {"kind": "human", "name": "Ann"}, "o": CLUB, "rows": 4, "cols": 4, "rounds": 2},
    )
    tab = game_page(browser, server, game, locale="id-ID")
    tab.wait_for_function("document.querySelector('.player-bar.side-o .kind') !== null")
    assert tab.locator(".player-bar.side-o .kind").inner_text() == "Bot · tingkat 4 (Klub)"
    assert "klik" not in tab.locator("#status").inner_text().lower()
    tab.click("#btn-editor")  # the editor's refusal of an impossible position, in Indonesian
    tab.click("#editor-clear")
    tab.click("#editor-analyse")
    expect(tab.locator("#editor-error")).to_contain_text("Posisi mustahil")
    goto(tab, f"{server}/lab")
    tab.wait_for_selector("#tree-view, .lab-tabs")
    tab.locator(".lab-tabs [data-tab=climb]").click()
    labels = tab.locator("#climb-form label").all_inner_texts()
    assert any(text.startswith("Seed acak") for text in labels), labels
    assert not [text for text in labels if re.match(r"Seed\b(?! acak)", text)], labels
    tab.locator(".lab-tabs [data-tab=depth]").click()  # its chart's axis: seconds, in decimals
    tab.locator("#depth-form input[name=seconds]").fill("0.3")
    tab.locator("#depth-form button[type=submit]").click()
    tab.wait_for_selector("#depth-view svg")
    ticks = tab.eval_on_selector_all("#depth-view svg text", "els => els.map((e) => e.textContent)")
    assert [tick for tick in ticks if re.fullmatch(r"\d+,\d+", tick)], ticks
    assert not [tick for tick in ticks if re.fullmatch(r"\d+\.\d+", tick)], ticks
    close(tab)
