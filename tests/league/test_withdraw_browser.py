"""Withdrawing a team on the teacher's page, in a real browser (Playwright driving
Debian's Chromium) against a real league server: the list starts on no one, the button
asks once more naming the team and the event (the first click withdraws nobody), the
withdrawn team is listed with an undo that puts it back; at a laptop's and a phone's
width, in English and Indonesian, with axe-core finding nothing serious and no console
error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import axe_violations, teacher_page
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, make_league, request, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
HOUSE = ("h1", "h2", "h3", "h4")


def league(tmp_path: Path) -> Path:
    db = tmp_path / "league.db"
    make_league(db, base=600.0, increment=0.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(HOUSE))
    return db


def withdrawn(url: str) -> list[str]:
    """Friday's withdrawn members, as the admin API says."""
    overview = request(f"{url}/api/league/admin/overview", token=ADMIN).body
    (event,) = [e for e in overview["events"] if e["name"] == "friday"]
    return [m["name"] for m in event["members"] if m["withdrawn"]]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_withdraw_asks_naming_the_team_shows_it_and_is_undone(
    browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    db = league(tmp_path)
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(browser, url, ADMIN, errors, TIMEOUT, viewport=viewport)
        friday = page.locator('#event-list li[data-event="friday"]')
        select = friday.get_by_label("Withdraw", exact=True)
        go = friday.locator("#withdraw-friday")
        expect(select).to_have_value("")  # on no one: not the top seed
        go.click()
        expect(page.locator("#status")).to_have_text("Choose the team to withdraw first.")
        select.select_option("h2")
        go.click()
        expect(go).to_have_text("Withdraw h2 from friday? Click again to confirm")
        assert withdrawn(url) == []  # asked, not done
        select.select_option("h3")  # another choice asks again, naming it
        expect(go).to_have_text("Withdraw from the event")
        go.click()
        expect(go).to_have_text("Withdraw h3 from friday? Click again to confirm")
        go.click()
        expect(page.locator("#status")).to_have_text("h3 is withdrawn from friday.")
        assert withdrawn(url) == ["h3"]
        listed = friday.locator("#withdrawn-friday")
        expect(listed).to_contain_text("h3")
        expect(friday).to_contain_text("Withdrawn from this event:")
        expect(select.locator("option")).to_have_text(["Choose a team…", "h1", "h2", "h4"])
        assert axe_violations(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        listed.get_by_role("button", name="Undo: h3 plays again").click()
        expect(page.locator("#status")).to_have_text("h3 plays in friday again.")
        expect(listed).to_have_count(0)
        assert withdrawn(url) == []
        context.close()
    assert errors == [], errors


def test_withdraw_and_undo_in_indonesian(browser: Any, tmp_path: Path) -> None:
    db = league(tmp_path)
    add_member(db, "team1")
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, viewport=PHONE, locale="id-ID"
        )
        expect(page.locator("html")).to_have_attribute("lang", "id")
        friday = page.locator('#event-list li[data-event="friday"]')
        friday.locator("#withdraw-who-friday").select_option("h1")
        go = friday.locator("#withdraw-friday")
        go.click()
        expect(go).to_have_text("Mundurkan h1 dari friday? Tekan lagi untuk memastikan")
        go.click()
        expect(page.locator("#status")).to_have_text("h1 sudah mundur dari friday.")
        expect(friday.locator("#withdrawn-friday")).to_contain_text("h1")
        left = english_left(page, [*HOUSE, "team1", "friday"])
        assert not left, left
        assert axe_violations(page) == []
        friday.get_by_role("button", name="Batalkan: h1 bermain lagi").click()
        expect(page.locator("#status")).to_have_text("h1 bermain lagi di friday.")
        assert withdrawn(url) == []
        context.close()
    assert errors == [], errors
