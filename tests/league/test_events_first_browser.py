"""The teacher's page in a real browser against a real league server: an event's teams
are kept off the ladder while it runs (events first) unless the teacher lets them play
it meanwhile, by the event's button, in English and in Indonesian; axe-core finds
nothing serious. The rule itself: tests/league/test_events_first.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import axe_violations, teacher_page
from league_helpers import ADMIN, add_member, make_league, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

WORDS = {
    "en-US": ("Let its teams play the ladder meanwhile", "Keep its teams off the ladder",
              "its teams on the ladder too", "the event comes first"),
    "id-ID": ("Izinkan timnya bermain di tangga peringkat sementara itu",
              "Tahan timnya dari tangga peringkat",
              "timnya juga di tangga peringkat", "acara didahulukan"),
}  # fmt: skip


@pytest.mark.parametrize("locale", list(WORDS))
def test_the_teacher_lets_an_events_teams_play_the_ladder_and_takes_it_back(
    browser: Any, tmp_path: Path, locale: str
) -> None:
    let, keep, note, first = WORDS[locale]
    db = tmp_path / "league.db"
    make_league(db)
    for name in ("team1", "team2"):
        add_member(db, name)
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, ["team1", "team2"])
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser,
            url,
            ADMIN,
            errors,
            50_000,
            locale=locale,
            viewport={"width": 390, "height": 844},
        )
        cup = page.locator('#event-list li[data-event="cup"]')
        summary = cup.locator("p").first  # its format, rounds, status, clock
        expect(summary).not_to_contain_text(note)
        cup.get_by_role("button", name=let).click()
        expect(summary).to_contain_text(note)
        with LeagueStore(db) as store:
            assert store.events.named("cup").ladder
        assert axe_violations(page) == []
        cup.get_by_role("button", name=keep).click()
        expect(page.locator("#status")).to_contain_text(first)
        expect(summary).not_to_contain_text(note)
        with LeagueStore(db) as store:
            assert not store.events.named("cup").ladder
        context.close()
    assert errors == []
