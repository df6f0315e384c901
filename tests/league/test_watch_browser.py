"""The watch page as a live board, in Chromium at a phone's width (390 px), in English
and in Indonesian: a house game's moves appear as they are played (the house games'
pace makes it last), the players' ratings are shown, the result and how it ended come
with the final clocks, and the moves can be stepped through (buttons, keys, the moves
list) with the board showing the server's position after each; no sideways scrolling,
axe-core clean; in Indonesian, no English message of the shared catalogue left
(tests/i18n_helpers.py) while the game is played and once it is over."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import EVERY_IMPACT, UNDER_TEST, axe_violations, goto
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, get, make_league, request, thread_server, wait_until
from test_i18n_catalogues import catalogue

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
PHONE = {"width": 390, "height": 844}
PACE = 0.5
LANGUAGES = {"en-GB": "en", "id-ID": "id"}
PLAYERS = ["house-a", "house-b"]
"""The house bots' names: the only words of the page in no language."""


def fill(text: str, **params: Any) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), text)


def pieces(fen: str) -> int:
    board = fen.split(" ")[0]
    return sum(board.count(c) for c in "xo")


def open_page(browser: Any, locale: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=PHONE, locale=locale, **UNDER_TEST)
    context.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    return context, page, errors


def test_watch_a_live_house_game_then_step_through_it(browser: Any, tmp_path: Path) -> None:
    """One live game watched in both languages at once (a page each), so the game's
    time at the house pace is spent once."""
    db = tmp_path / "league.db"
    make_league(db, rounds=12, base=30.0, increment=0.0)
    add_member(db, "house-a", "house", "random")
    add_member(db, "house-b", "house", "random")
    with thread_server(db, pace=PACE) as url:
        live = wait_until(lambda: get(f"{url}/api/league/live"), 60, "a house game")
        game_id = live[0]["id"]
        pages = {locale: open_page(browser, locale) for locale in LANGUAGES}
        for _, page, _ in pages.values():
            goto(page, f"{url}/watch/{game_id}")
        watched_live([(LANGUAGES[locale], page) for locale, (_, page, _) in pages.items()])

        def finished() -> Any:
            game = get(f"{url}/api/league/games/{game_id}")
            return game if game["status"] == "finished" else None

        game = wait_until(finished, 60, "the game to finish")
        fens = get(f"{url}/api/league/games/{game_id}/positions")["fens"]
        for locale, (context, page, errors) in pages.items():
            stepped_through(page, LANGUAGES[locale], game, fens)
            context.close()
            assert errors == [], (locale, errors)


def watched_live(pages: list[tuple[str, Any]]) -> None:
    """The watch pages (each with its language) of one game in play: the players
    and their ratings, and moves that arrive while it is played (each page's list seen to
    grow three times, the game playing)."""
    for lang, page in pages:
        words = catalogue(lang)
        rating = fill(str(words["watch.rating"]), rating=1500)
        expect(page.locator("#players")).to_contain_text(rating)
        expect(page.locator("#players")).to_contain_text("house-a")
        expect(page.locator("html")).to_have_attribute("lang", lang)
    seen: list[tuple[int, str | None]] = []
    moves = [page.locator("#moves button.move") for _, page in pages]
    for _ in range(3):
        for (_, page), listed in zip(pages, moves, strict=True):
            count = listed.count()
            seen.append((count, page.locator("#status").get_attribute("data-status")))
            page.wait_for_function(
                "(n) => document.querySelectorAll('#moves button.move').length > n", arg=count
            )
    assert [status for _, status in seen] == ["playing"] * len(seen), seen
    for lang, page in pages:
        if lang != "en":  # the game in play (or just over): no English message left
            assert english_left(page, PLAYERS) == []
        assert page_width(page) <= PHONE["width"] + 1
        assert axe_violations(page, EVERY_IMPACT) == []


def stepped_through(page: Any, lang: str, game: dict[str, Any], fens: list[str]) -> None:
    """The watch page in ``lang`` of the finished ``game``: its result, how it ended and the final
    clocks, and its moves stepped through with the board showing the server's position
    after each ply."""
    words = catalogue(lang)
    expect(page.locator("#status")).to_have_attribute("data-status", "finished", timeout=60_000)
    count = len(game["moves"])
    assert len(fens) == count + 1 and fens[-1] == game["fen"]
    # the result, how it ended, the final clocks (no dash)
    how = str(words[f"termination.{game['termination'].replace(' ', '-')}"])
    if game["result"] == "draw":
        ended = fill(str(words["watch.drawn"]), how=how)
    else:
        winner = game[game["result"]]
        ended = fill(str(words["watch.won"]), name=winner, side=game["result"].upper(), how=how)
    expect(page.locator("#result")).to_have_text(ended)
    assert game["clock"] is not None
    for side in ("x", "o"):
        expect(page.locator(f"#clock-{side}")).not_to_contain_text("–")
        expect(page.locator(f"#clock-{side}")).to_contain_text(re.compile(r"\d"))
    expect(page.locator("#moves button.move")).to_have_count(count)
    # stepping: the board shows the server's position after each ply
    ply_text = str(words["watch.ply"])
    board = page.locator("#board svg.piece")

    def shows(ply: int) -> None:
        expect(page.locator("#ply")).to_have_text(fill(ply_text, ply=ply, count=count))
        expect(board).to_have_count(pieces(fens[ply]))

    page.click("#step-first")
    shows(0)
    expect(page.locator("#step-prev")).to_be_disabled()
    page.keyboard.press("ArrowRight")
    shows(1)
    page.keyboard.press("ArrowRight")
    shows(2)
    page.keyboard.press("ArrowLeft")
    shows(1)
    page.click(f'#moves button[data-ply="{count - 2}"]')
    shows(count - 2)
    expect(page.locator(f'#moves button[data-ply="{count - 2}"]')).to_have_attribute(
        "aria-current", "step"
    )
    page.click("#step-next")
    shows(count - 1)
    page.keyboard.press("End")
    shows(count)
    expect(page.locator("#step-last")).to_be_disabled()
    page.keyboard.press("Home")
    shows(0)
    if lang != "en":  # the game over: no English message left
        assert english_left(page, PLAYERS) == []
    assert page_width(page) <= PHONE["width"] + 1
    assert axe_violations(page, EVERY_IMPACT) == []


def page_width(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def test_the_event_page_shows_its_games_on_live_boards(browser: Any, tmp_path: Path) -> None:
    """An event of two house bots at the house games' pace: its page (the projector's),
    open in both languages at once, draws the game in play on a board whose pieces follow
    the server's position, names the players and links to the watch page; the boards go
    once the event is over."""
    db = tmp_path / "league.db"
    make_league(db, rounds=8, base=30.0, increment=0.0)
    add_member(db, "house-a", "house", "random")
    add_member(db, "house-b", "house", "random")
    with thread_server(db, house_games=False, pace=PACE) as url:
        api = f"{url}/api/league/admin/events"
        body = {"name": "friday", "format": "round-robin", "members": ["house-a", "house-b"]}
        assert request(api, "POST", body, ADMIN).status == 201
        pages = {locale: open_page(browser, locale) for locale in LANGUAGES}
        for _, page, _ in pages.values():
            goto(page, f"{url}/event/friday")
        assert request(f"{api}/friday/start", "POST", {}, token=ADMIN).status == 200
        boards = []
        for _, page, _ in pages.values():
            figure = page.locator("#live-boards figure").first
            expect(figure).to_be_visible()
            game_id = int(figure.get_attribute("data-game") or 0)
            expect(figure.locator("figcaption a")).to_have_attribute("href", f"/watch/{game_id}")
            expect(figure.locator("figcaption")).to_contain_text("house-")
            boards.append((page, figure, game_id))
        # each board follows the game: twice a count of pieces the server had then
        for _ in range(2):
            for page, figure, game_id in boards:
                before = figure.locator("svg.piece").count()
                page.wait_for_function(
                    "([n, id]) => document.querySelectorAll("
                    "`#live-boards figure[data-game='${id}'] svg.piece`).length > n",
                    arg=[before, game_id],
                )
        for page, _, _ in boards:
            assert page_width(page) <= PHONE["width"] + 1
            assert axe_violations(page, EVERY_IMPACT) == []
        wait_until(
            lambda: get(f"{url}/api/league/events/friday")["event"]["status"] == "finished",
            60,
            "the event to finish",
        )
        for locale, (context, page, errors) in pages.items():
            expect(page.locator("#boards-section")).to_be_hidden()
            context.close()
            assert errors == [], (locale, errors)
