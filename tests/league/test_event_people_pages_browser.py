"""What an event open to people says to those who cannot join it, in a real browser
(Playwright driving Debian's Chromium), in English and Indonesian at 1366x768 and on a
390x844 phone: before the start a visitor not signed in is told to join the league on
the play page first (no Join button); once it started, a person signed in who is not in
it is told that people join only before the start (no button; the server refuses
their join, ``event_started``) and the visitor is told nothing; a person who joined
and never opened the play page lost their games, and the game's page says their play
page was not open (not a bot's "not connected"), and that person, opening the event's
page only after the start, is told they play in it. axe finds nothing at any impact, nothing
overflows sideways, the console stays clean.

Oracles: the server's event table and its answers to join, the catalogues' words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.play import scheduler as scheduler_module
from browser_helpers import CASES, EVERY_IMPACT, SIZES, axe_violations, goto, sideways, watched_page
from league_helpers import ADMIN, add_member, join, make_league, request, thread_server, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
WORDS = {
    "en-US": {
        "sign-in": "This event is open to people: join the league on the play page, then "
        "come back here to join it before it starts.",
        "started": "This event has started: people join an event only before it starts.",
        "absent": "ghost's play page was not open when the game was to start: a forfeit",
        "playing": "ghost, you play in this event: your games are on the play page, keep it open.",
    },
    "id-ID": {
        "sign-in": "Acara ini terbuka untuk orang: bergabunglah dengan liga di halaman "
        "bermain, lalu kembali ke sini untuk ikut sebelum acara dimulai.",
        "started": "Acara ini sudah dimulai: orang hanya bisa ikut sebelum acara dimulai.",
        "absent": "halaman bermain ghost tidak terbuka saat permainan akan dimulai: "
        "kalah tanpa bermain",
        "playing": "ghost, Anda bermain dalam acara ini: permainan Anda ada di halaman "
        "bermain, biarkan tetap terbuka.",
    },
}
"""The catalogues' words each page must show."""


def clean(page: Any) -> None:
    """Nothing wider than the window, axe clean at every impact."""
    assert sideways(page) == 0
    assert axe_violations(page, EVERY_IMPACT) == []


def event_page(page: Any, url: str) -> None:
    goto(page, f"{url}/event/cup")
    page.locator("#entry-button[data-ready]").wait_for(state="attached")


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_the_event_page_tells_visitors_and_latecomers_and_names_an_absent_persons_page(
    browser: Any, tmp_path: Path, locale: str, size: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scheduler_module, "RECONNECT_GRACE", 0.0)  # nobody reconnects here
    words = WORDS[locale]
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0, rounds=4)
    add_member(db, "h1", "house", "random")
    add_member(db, "h2", "house", "greedy")
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        body = {"name": "cup", "format": "round-robin", "members": ["h1", "h2"],
                "people": True, "clock": "40+0"}  # fmt: skip
        assert request(f"{url}/api/league/admin/events", "POST", body, ADMIN).status == 201
        ghost = join(url, "ghost")  # joins, and never opens the play page
        assert request(f"{url}/api/league/events/cup/join", "POST", {}, ghost).status == 200
        options = {"locale": locale, "viewport": SIZES[size]}

        visitor_context, visitor = watched_page(browser, errors, TIMEOUT, **options)
        event_page(visitor, url)  # before the start: how to join
        expect(visitor.locator("#entry-text")).to_have_text(words["sign-in"])
        expect(visitor.locator("#entry-button")).to_be_hidden()
        clean(visitor)

        context, page = watched_page(browser, errors, TIMEOUT, **options)
        goto(page, url + "/play")  # bob joins the league, not the event
        page.fill("#join-name", "bob")
        page.click("#join button[type=submit]")
        page.locator("#opponents-panel").wait_for()
        bob = page.evaluate("JSON.parse(localStorage.getItem('adjacency-league-person')).secret")

        started = request(f"{url}/api/league/admin/events/cup/start", "POST", {}, ADMIN)
        assert started.status == 200, started
        late = request(f"{url}/api/league/events/cup/join", "POST", {}, bob)
        assert late.status == 409 and late.body["code"] == "event_started", late
        event_page(page, url)
        expect(page.locator("#entry-text")).to_have_text(words["started"])
        expect(page.locator("#entry-button")).to_be_hidden()
        clean(page)
        context.close()

        event_page(visitor, url)  # after the start: nothing to join
        expect(visitor.locator("#entry")).to_be_hidden()
        clean(visitor)

        def lost() -> int | None:
            games = request(f"{url}/api/league/games?member=ghost").body
            return next((g["id"] for g in games if g["detail_code"] == "absent-page-closed"), None)

        game = wait_until(lost, 30, "ghost's game lost by absence")
        goto(visitor, f"{url}/watch/{game}")
        expect(visitor.locator("#status")).to_contain_text(words["absent"])
        clean(visitor)
        visitor_context.close()

        context, page = watched_page(browser, errors, TIMEOUT, **options)
        goto(page, url + "/play")  # ghost's own browser, first opened after the start
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)",
            ["adjacency-league-person", f'{{"name": "ghost", "secret": "{ghost}"}}'],
        )
        event_page(page, url)  # who joined is told they play in it, without a button
        expect(page.locator("#entry-text")).to_have_text(words["playing"])
        expect(page.locator("#entry-button")).to_be_hidden()
        context.close()
    assert errors == [], errors
