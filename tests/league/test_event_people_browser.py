"""A person joins a class event open to people and plays its game on the play page
(Playwright driving Debian's Chromium), in English and Indonesian at 1366x768 and on a
390x844 phone: the teacher creates the event on the teacher's page with "People may
join" ticked; signed in on the play page, the person finds the event listed there and
Join on the event's page,
joins (the server then counts them: the oracle is the API's ``entry``), the teacher
starts the event, and the person's first event game shows on the play page, where
their clicks play it to the end against the house bot. axe finds nothing at any impact
on any of the three pages, nothing overflows sideways, the console stays clean.

Oracles: the server's ``entry`` and game state, the rules core for a legal move."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from adjacency.core import Position
from browser_helpers import (
    CASES,
    EVERY_IMPACT,
    MODULES_EVALUATED,
    SIZES,
    axe_violations,
    goto,
    sideways,
    teacher_page,
    watched_page,
)
from league_helpers import ADMIN, add_member, get, make_league, request, thread_server, wait_until

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
WORDS = {
    "en-US": ("Join this event", "You joined the event.", "Leave this event"),
    "id-ID": ("Ikut acara ini", "Anda sudah ikut acara ini.", "Keluar dari acara ini"),
}
"""The Join button, the word after joining and the Leave button on each page."""


def clean(page: Any) -> None:
    """Nothing wider than the window, axe clean at every impact."""
    assert sideways(page) == 0
    assert axe_violations(page, EVERY_IMPACT) == []


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_a_person_joins_an_event_and_plays_its_game_on_the_play_page(
    browser: Any, tmp_path: Path, locale: str, size: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=300.0, increment=0.0, rounds=4)
    add_member(db, "h1", "house", "random")
    add_member(db, "h2", "house", "greedy")
    join_word, joined_word, leave_word = WORDS[locale]
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        teacher, desk = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, locale=locale, viewport=SIZES[size]
        )
        desk.fill("#event-name", "open")
        desk.select_option("#event-format", "round-robin")
        for name in ("h1", "h2"):
            desk.get_by_label(name, exact=True).check()
        desk.fill("#event-clock", "300+0")
        desk.check("#event-people")
        clean(desk)
        desk.click("#event-form button[type=submit]")
        desk.locator('#event-list li[data-event="open"]').wait_for()
        teacher.close()
        summary = [e for e in get(f"{url}/api/league/events") if e["name"] == "open"]
        assert summary and summary[0]["people"] is True, summary

        context, page = watched_page(browser, errors, TIMEOUT, locale=locale, viewport=SIZES[size])
        goto(page, url + "/play")
        page.fill("#join-name", "ada")
        page.click("#join button[type=submit]")
        page.locator("#opponents-panel").wait_for()
        secret = page.evaluate("JSON.parse(localStorage.getItem('adjacency-league-person')).secret")

        page.click('#open-events a[data-event="open"]')  # the play page lists it
        page.wait_for_url("**/event/open")
        page.evaluate(MODULES_EVALUATED)
        button = page.locator("#entry-button[data-ready]")
        expect(button).to_have_text(join_word)
        clean(page)
        button.click()
        expect(page.locator("#entry-message")).to_have_text(joined_word)
        expect(button).to_have_text(leave_word)
        entry = request(f"{url}/api/league/events/open/entry", token=secret).body
        assert entry["joined"] and entry["people_joined"] == 1, entry
        clean(page)

        goto(page, url + "/play")  # the play page open (ada is there) before the start
        page.locator("#opponents-panel").wait_for()
        started = request(f"{url}/api/league/admin/events/open/start", "POST", {}, ADMIN)
        assert started.status == 200, started
        players = page.locator("#players")
        expect(players).to_contain_text("ada")  # her first event game, shown as it starts
        game = wait_until(
            lambda: request(f"{url}/api/league/me", token=secret).body["games"], 30, "a game"
        )[0]
        state = get(f"{url}/api/league/games/{game}")
        color = "x" if state["x"] == "ada" else "o"
        assert state["time_control"] == "300+0"  # the event's clock
        api = f"{url}/api/league/games/{game}"

        def my_turn_or_end() -> dict[str, Any] | None:
            now: dict[str, Any] = get(api)
            return now if now["status"] != "playing" or now["turn"] == color else None

        def played_after(plies: int) -> bool:
            return len(get(api)["moves"]) > plies

        clicks = 0
        while (state := wait_until(my_turn_or_end, 30, "ada's turn"))["status"] == "playing":
            if state["moves"]:  # the page shows the reply before ada answers it, as she sees it
                last = state["moves"][-1]
                page.locator(f'#board [data-square="{last}"] svg.piece').wait_for()
            page.locator("#board:not(.locked)").wait_for()
            if clicks == 0:  # the board in play, once
                clean(page)
            move = Position.from_fen(state["fen"]).legal_moves()[0]
            plies = len(state["moves"])
            page.click(f'#board [data-square="{move}"]')
            wait_until(partial(played_after, plies), 30, "ada's click to play")
            clicks += 1
        assert state["termination"] == "normal", state  # played to the end
        assert clicks >= 1 and len(state["moves"]) >= 2 * clicks - 1, state
        context.close()
    assert errors == [], errors
