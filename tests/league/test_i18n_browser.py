"""The league's pages in Bahasa Indonesia, in a real browser (Playwright, Debian's Chromium).

A browser whose language is Indonesian (locale id-ID) gets the leaderboard, a member's
page, the people's play page and an event's page with no English message of the shared
catalogue left (tests/i18n_helpers.py; the watch page of a live game: its own test,
tests/league/test_watch_browser.py), a refused
challenge in Indonesian from the error's code, and how games ended (a loss on time, a
resignation) from their details' codes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.core.game import Game, Termination
from adjacency.core.record import game_to_text
from adjacency.league.league_file import LeagueStore
from adjacency.serving.details import ended
from browser_helpers import UNDER_TEST, goto
from i18n_helpers import english_left
from league_helpers import add_member, make_league, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
MEMBERS = ("r1", "r2", "r3")
NAMES = [
    *MEMBERS,
    "friday",
    "ada",
    "random",
    "Buchholz",
    "S-B",
    "W-D-L",
    "table.csv",
    "table.json",
    "crosstable.csv",
    "games.txt",
]
"""Members', events' and files' names, a bot spec and the tie-breaks' names: as they are."""


def indonesian_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A fresh context whose language is Indonesian, its page, and the page's uncaught
    errors as they come (each test asserts there are none)."""
    context = browser.new_context(
        locale="id-ID", viewport={"width": 1200, "height": 900}, **UNDER_TEST
    )
    context.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    return context, page, errors


def test_the_league_pages_in_indonesian_have_no_english_left(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in MEMBERS:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(MEMBERS))
    with thread_server(db, house_games=False) as url:
        context, page, errors = indonesian_page(browser)

        goto(page, url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "id")
        expect(page.locator("#standings tr[data-name=r1]")).to_contain_text("bot tuan rumah")
        expect(page.locator("#events li")).to_contain_text("terjadwal")
        left = english_left(page, NAMES)
        assert not left, left  # the leaderboard

        goto(page, url + "/bot/r1")
        expect(page.locator("#summary")).to_contain_text("detik per langkah")
        left = english_left(page, NAMES)
        assert not left, left  # a member's page

        goto(page, url + "/event/friday")
        expect(page.locator("#summary")).to_contain_text("terjadwal")
        expect(page.locator("#next li")).to_have_count(2)
        left = english_left(page, NAMES)
        assert not left, left  # an event's page

        goto(page, url + "/play")
        page.fill("#join-name", "ada")
        page.click("#join button[type=submit]")
        expect(page.locator("#who")).to_contain_text("Anda bermain sebagai ada")
        expect(page.locator("button[data-opponent=r1]")).to_have_text("Lawan r1")
        expect(page.locator("#who")).to_contain_text("belum berperingkat")  # from its code
        left = english_left(page, NAMES)
        assert not left, left  # the people's play page
        assert errors == [], errors
        context.close()


def test_how_games_ended_is_shown_in_indonesian(browser: Any, tmp_path: Path) -> None:
    """The server's English details ("slow did not move within its clock (not
    connected)", "ada resigned") are shown from the catalogue by their codes, on a
    member's page, the watch page and the people's play page."""
    db = tmp_path / "league.db"
    make_league(db, base=120.0, increment=0.0)
    add_member(db, "r1", "house", "random")
    add_member(db, "slow", "bot")  # never connects: its stored game was lost on time
    with LeagueStore(db) as store:
        ids = {m.name: m.id for m in store.members.members()}
        start = store.meta.settings().opening(0)
        lost = store.games.start_game(ids["slow"], ids["r1"], start.fen())
        game = Game(start, "slow", "r1")
        game.forfeit("x", Termination.TIME_FORFEIT, ended("clock-not-connected", player="slow"))
        store.games.finish_game(
            lost, "o", "time forfeit", game.detail, game_to_text(game),
            start.score, 0, (120.0, 0.0),
        )  # fmt: skip
    timeout = "slow tidak melangkah sebelum waktunya habis (tidak terhubung)"
    names = [*NAMES, "slow", "ada"]
    with thread_server(db, house_games=False) as url:
        context, page, errors = indonesian_page(browser)

        goto(page, f"{url}/bot/slow")
        expect(page.locator("#recent tbody")).to_contain_text(timeout)
        left = english_left(page, names)
        assert not left, left  # a member's page: the detail of its loss on time

        goto(page, f"{url}/watch/{lost}")
        expect(page.locator("#status")).to_contain_text(timeout)
        assert "did not move" not in page.locator("#status").inner_text()

        goto(page, url + "/play")
        page.fill("#join-name", "ada")
        page.click("#join button[type=submit]")
        page.click("button[data-opponent=r1]")
        page.click("#btn-resign")
        page.click("#confirm-yes")
        expect(page.locator("#status")).to_contain_text("ada menyerah")
        assert "resigned" not in page.locator("#status").inner_text()
        left = english_left(page, names)
        assert not left, left  # the people's play page after a resignation
        assert errors == [], errors
        context.close()
