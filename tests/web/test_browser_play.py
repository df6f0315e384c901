"""The play page as a player meets it, in Debian's Chromium against a real server: your
move seen before a fast bot's reply, offers between two devices (two browser contexts),
what watchers and a page with no game are offered, an aborted game's card, the
converted-square dot's contrast and Copy without the Clipboard API."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import axe_violations, goto
from web_helpers import api, new_tab, shown_plies, wait_until

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("web-browser-play")]

PERSON = {"kind": "human", "name": "Ann"}
FAST_BOT = {"kind": "bot", "level": 1}  # answers in about 10 ms
TWO_PEOPLE = {"x": {"kind": "human", "name": "Ann"}, "o": {"kind": "human", "name": "Bob"}}


LIVE_SERVER = {"grace": 3.0}
"""The options of this module's server (tests/web/conftest.py)."""


def tab_on(browser: Any, url: str, **options: Any) -> Any:
    """A page of the API's client (the games it creates are its own) opened at ``url``."""
    tab = new_tab(browser, url, **options)
    goto(tab, url)
    tab.wait_for_selector("#board .sq")
    return tab


def device(browser: Any, url: str, **options: Any) -> Any:
    """A page in a context of its own (its own cookies: another device) at ``url``."""
    return tab_on(browser, url, client=None, **options)


def close(*tabs: Any) -> None:
    for tab in tabs:
        errors = tab.console_errors
        tab.context.close()
        assert errors == [], f"console errors: {errors}"


RECORD = """() => {
  window.boardLog = [];
  const log = window.boardLog;
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.target.dataset && c.target.dataset.square) {
        log.push({kind: "class", square: c.target.dataset.square, classes: c.target.className});
      }
    }
  }).observe(document.querySelector("#board"),
    {attributes: true, attributeFilter: ["class"], subtree: true});
  document.querySelector("#board").addEventListener("animationend", (e) => {
    const sq = e.target.closest(".sq");
    log.push({kind: "end", square: sq && sq.dataset.square, name: e.animationName});
  });
}"""


def converting_square(server: str, game_id: str) -> tuple[str, list[str]]:
    """A legal square for the person whose move converts at least one square."""
    preview = api(server, "GET", f"/api/games/{game_id}")["preview"]
    square = next(sq for sq in sorted(preview) if preview[sq])
    return square, preview[square]


def move_against_the_fast_bot(browser: Any, server: str, **options: Any) -> Any:
    """Open a new game against level 1 on a page made with ``options``, record every
    change of the board's squares, play a converting move by a click and wait for the
    bot's reply to be drawn. Returns (page, the move, its conversions, the reply, log)."""
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": PERSON, "o": FAST_BOT, "rows": 6, "cols": 6, "rounds": 6},
    )
    page = tab_on(browser, f"{server}/?game={game['id']}", **options)
    page.evaluate(RECORD)
    square, flips = converting_square(server, game["id"])
    page.click(f'[data-square="{square}"]')
    shown_plies(page, 2)
    reply = api(server, "GET", f"/api/games/{game['id']}")["moves"][1]["square"]
    page.wait_for_selector(f'[data-square="{reply}"].last')
    return page, square, flips, reply, page.evaluate("() => window.boardLog")


def test_your_move_animates_whole_before_the_fast_bots_reply_and_both_stay_marked(
    server: str, browser: Any
) -> None:
    page, square, flips, reply, log = move_against_the_fast_bot(browser, server)
    reply_drawn = next(
        i
        for i, e in enumerate(log)
        if e["kind"] == "class" and e["square"] == reply and "last" in e["classes"].split()
    )
    before = log[:reply_drawn]
    # Before the reply: your move drawn as the last move, its conversions marked and
    # animated, and every one of those animations ended (not cut off by the reply).
    mine = [e["classes"].split() for e in before if e["kind"] == "class" and e["square"] == square]
    assert any("last" in c and "anim-place" in c for c in mine), mine
    for flip in flips:
        seen = [
            e["classes"].split() for e in before if e["kind"] == "class" and e["square"] == flip
        ]
        assert any("flipped" in c and "anim-flip" in c for c in seen), (flip, seen)
    ended = {(e["square"], e["name"]) for e in before if e["kind"] == "end"}
    assert (square, "place") in ended
    assert {(flip, "flip") for flip in flips} <= ended
    # After it: both moves marked, apart.
    assert (
        page.locator(f'[data-square="{square}"]').get_attribute("class").split().count("prev") == 1
    )
    assert "last" not in page.locator(f'[data-square="{square}"]').get_attribute("class").split()
    assert "previous move" in page.locator(f'[data-square="{square}"]').get_attribute("aria-label")
    assert "last move" in page.locator(f'[data-square="{reply}"]').get_attribute("aria-label")
    assert page.title().startswith("Your turn")
    close(page)


def test_with_reduced_motion_nothing_animates_and_both_moves_stay_marked(
    server: str, browser: Any
) -> None:
    page, square, _, reply, log = move_against_the_fast_bot(
        browser, server, reduced_motion="reduce"
    )
    assert not [e for e in log if e["kind"] == "class" and "anim-" in e["classes"]]
    assert "prev" in page.locator(f'[data-square="{square}"]').get_attribute("class").split()
    assert "last" in page.locator(f'[data-square="{reply}"]').get_attribute("class").split()
    close(page)


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG) of a CSS ``rgb(r, g, b)`` colour."""
    channels = [int(v) / 255 for v in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_converted_square_dot_has_3_to_1_contrast_on_every_square(
    server: str, browser: Any, scheme: str
) -> None:
    page, _, flips, _, _ = move_against_the_fast_bot(browser, server, color_scheme=scheme)
    page.click("#nav-back")  # your move shown again: its conversions carry the dot
    page.wait_for_selector(f'[data-square="{flips[0]}"].flipped')
    dot = page.eval_on_selector(
        f'[data-square="{flips[0]}"]', "el => getComputedStyle(el, '::before').backgroundColor"
    )
    size = page.eval_on_selector(
        f'[data-square="{flips[0]}"]', "el => parseFloat(getComputedStyle(el, '::before').width)"
    )
    squares = page.evaluate(
        "() => [...new Set([...document.querySelectorAll('#board .sq')]"
        ".map((el) => getComputedStyle(el).backgroundColor))]"
    )
    assert len(squares) == 2 and size >= 7
    for square in squares:
        assert contrast(dot, square) >= 3.0, (dot, square)
    close(page)


def finished_between_devices(
    browser: Any, server: str, ann_locale: str = "en-GB"
) -> tuple[str, Any, Any]:
    """A one-round game between two devices (Ann X, Bob O) played to its end by clicks."""
    made = api(server, "POST", "/api/invites", {**TWO_PEOPLE, "rows": 4, "cols": 4, "rounds": 1})
    game_id, tokens = made["game"]["id"], made["tokens"]
    ann = device(browser, f"{server}/?game={game_id}#seat={tokens['x']}", locale=ann_locale)
    bob = device(browser, f"{server}/?game={game_id}#seat={tokens['o']}")
    for tab in (ann, bob):
        tab.wait_for_function("!document.querySelector('#board').classList.contains('locked')")
        square = sorted(api(server, "GET", f"/api/games/{game_id}")["preview"])[0]
        tab.click(f'[data-square="{square}"]')
    for tab in (ann, bob):
        tab.wait_for_selector("#dlg-result[open]")
    return game_id, ann, bob


def shown_game(tab: Any) -> str:
    return str(tab.evaluate("() => new URL(location.href).searchParams.get('game')"))


@pytest.mark.slow
def test_a_rematch_offered_on_one_device_and_accepted_on_the_other_opens_on_both(
    server: str, browser: Any
) -> None:
    old, ann, bob = finished_between_devices(browser, server)
    ann.click("#result-rematch")  # an offer: Bob is asked
    ann.wait_for_selector("#offer:not([hidden])")
    assert "waiting for Bob" in ann.locator("#offer-text").inner_text()
    assert ann.locator("#offer-accept").is_hidden()
    bob.wait_for_selector("#offer:not([hidden])")  # over Bob's result card, which closes
    assert "Ann offers a rematch" in bob.locator("#offer-text").inner_text()
    assert not bob.locator("#dlg-result").get_attribute("open")
    assert axe_violations(bob) == []
    bob.click("#offer-accept")
    for tab in (ann, bob):
        tab.wait_for_function(f"new URL(location.href).searchParams.get('game') !== '{old}'")
        tab.wait_for_selector("#board .sq")
    new = shown_game(ann)
    assert shown_game(bob) == new
    state = api(server, "GET", f"/api/games/{new}")
    assert (state["x"]["name"], state["o"]["name"], state["moves"]) == ("Bob", "Ann", [])
    # Colours swapped: each page keeps its player, now on the other side (at the bottom).
    wait_until(lambda: "side-o" in ann.locator("#bar-bottom").get_attribute("class"), what="Ann O")
    assert "side-x" in bob.locator("#bar-bottom").get_attribute("class")
    wait_until(lambda: bob.title().startswith("Your turn"), what="Bob (X) to move")
    assert not ann.title().startswith("Your turn")
    # A takeback is an offer too: Bob asks, Ann accepts, both boards go back.
    square = sorted(state["preview"])[0]
    bob.click(f'[data-square="{square}"]')
    shown_plies(ann, 1)
    bob.click("#btn-takeback")
    ann.wait_for_selector("#offer:not([hidden])")
    assert "Bob asks to take back" in ann.locator("#offer-text").inner_text()
    ann.click("#offer-accept")
    for tab in (ann, bob):
        shown_plies(tab, 0)
        tab.wait_for_selector("#offer", state="hidden")
    close(ann, bob)


def test_a_declined_rematch_says_so_and_changes_nothing(server: str, browser: Any) -> None:
    old, ann, bob = finished_between_devices(browser, server, ann_locale="id-ID")
    bob.click("#result-rematch")
    ann.wait_for_selector("#offer:not([hidden])")  # in Ann's language
    offered = ann.locator("#offer-text").inner_text()
    assert offered == "Bob menawarkan main lagi dengan warna ditukar."
    assert ann.locator("#offer-decline").inner_text() == "Tolak"
    ann.click("#offer-decline")
    bob.wait_for_function("document.querySelector('#notice').textContent.includes('declined')")
    assert shown_game(ann) == shown_game(bob) == old
    assert api(server, "GET", f"/api/games/{old}")["rematch"] is None
    close(ann, bob)


def test_with_no_game_open_the_game_controls_are_disabled(server: str, browser: Any) -> None:
    page = device(browser, server)  # a new device: no game, the new-game dialog opens
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")
    for control in (
        "#btn-undo",
        "#btn-hint",
        "#btn-rematch",
        "#btn-share",
        "#btn-analyse",
        "#btn-review",
        "#nav-first",
        "#nav-last",
        "#btn-flip",
        "#move-input",
    ):
        assert page.locator(control).is_disabled(), control
    assert page.locator("#btn-save").get_attribute("href") is None
    page.keyboard.press("u")  # the undo key with no game: nothing happens, nothing throws
    page.evaluate("() => document.querySelector('#btn-undo').click()")
    assert page.locator("#notice").inner_text() == ""
    page.click("#btn-new")  # a game opens: what it allows is enabled again
    page.click("#new-start")
    page.wait_for_selector("#dlg-new", state="hidden")
    page.wait_for_selector("#btn-abort:not([hidden])")
    for control in ("#btn-abort", "#btn-share", "#btn-analyse", "#btn-flip", "#move-input"):
        assert page.locator(control).is_enabled(), control
    assert page.locator("#btn-save").get_attribute("href")
    close(page)  # no console error, no uncaught exception


def test_a_watcher_of_a_game_against_a_bot_reads_who_won_and_is_offered_no_rematch(
    server: str, browser: Any
) -> None:
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": PERSON, "o": FAST_BOT, "rows": 4, "cols": 4, "rounds": 1},
    )
    watcher = device(browser, f"{server}/?game={game['id']}")
    assert watcher.locator("#move-form").is_hidden()  # watchers type no moves
    assert watcher.locator("#btn-rematch").is_hidden()
    square = sorted(game["preview"])[0]
    api(server, "POST", f"/api/games/{game['id']}/moves", {"square": square})
    watcher.wait_for_selector("#dlg-result[open]")
    title = watcher.locator("#result-title").inner_text()
    assert "You" not in title and ("wins" in title or title == "Draw"), title
    assert watcher.locator("#result-rematch").is_hidden()
    assert watcher.locator("#result-new").evaluate("el => el === document.activeElement")
    close(watcher)


def test_the_creator_of_a_bot_game_is_offered_a_rematch(server: str, browser: Any) -> None:
    """Nobody holds a seat in a game between bots, yet its creator is no watcher."""
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": FAST_BOT, "o": FAST_BOT, "rows": 4, "cols": 4, "rounds": 1},
    )
    api(server, "POST", f"/api/games/{game['id']}/control", {"action": "pause"})
    page = tab_on(browser, f"{server}/?game={game['id']}")
    assert page.locator("#btn-rematch").is_visible()
    page.click("#btn-play-pause")
    page.wait_for_selector("#dlg-result[open]")
    assert page.locator("#result-rematch").is_visible()
    close(page)


def test_an_aborted_game_says_aborted_and_offers_no_review(server: str, browser: Any) -> None:
    game = api(
        server,
        "POST",
        "/api/games",
        {"x": FAST_BOT, "o": PERSON, "rows": 4, "cols": 4, "rounds": 2},
    )
    page = tab_on(browser, f"{server}/?game={game['id']}")
    shown_plies(page, 1)  # the bot has moved; the person has not: abort is offered
    page.click("#btn-abort")
    page.click("#confirm-yes")
    page.wait_for_selector("#dlg-result[open]")
    assert page.locator("#result-title").inner_text() == "Game aborted"
    assert "abandon" not in page.locator("#result-text").inner_text()
    assert page.locator("#result-review").is_hidden()
    page.click("#result-new")
    page.locator("#dlg-new").evaluate("el => el.close()")
    assert page.locator("#btn-review").is_disabled()
    close(page)


HIDDEN_WITH_NOTIFICATIONS = """
Object.defineProperty(document, "hidden", { get: () => true });
window.notified = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title) { window.notified.push(title); }
};
"""


def test_a_hidden_page_notifies_your_turn_where_notifications_are_allowed(
    server: str, browser: Any
) -> None:
    """The Notification API as a browser that granted it presents it, on a page that is
    not looked at (another tab in front)."""
    made = api(server, "POST", "/api/invites", {**TWO_PEOPLE, "rows": 4, "cols": 4, "rounds": 2})
    game_id, tokens = made["game"]["id"], made["tokens"]
    bob = new_tab(browser, server, client=None)
    bob.add_init_script(HIDDEN_WITH_NOTIFICATIONS)
    goto(bob, f"{server}/?game={game_id}#seat={tokens['o']}")
    bob.wait_for_selector("#board .sq")
    ann = device(browser, f"{server}/?game={game_id}#seat={tokens['x']}")
    ann.wait_for_function("document.title.startsWith('Your turn')")
    square = sorted(made["game"]["preview"])[0]
    ann.click(f'[data-square="{square}"]')
    bob.wait_for_function("window.notified.length === 1")
    assert bob.evaluate("() => window.notified") == [f"Ann played {square}: your turn"]
    assert bob.title().startswith("Your turn")
    close(ann, bob)
