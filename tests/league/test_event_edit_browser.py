"""Editing and deleting events on the teacher's page, in a real browser (Playwright
driving Debian's Chromium) against a real league server: Edit fills the form with the
scheduled event's settings and saves the changes to it; Delete asks once more; once the
event has started the page offers neither, and a save that comes after the start is
refused with the reason. At a laptop's and a phone's width, in English and Indonesian,
with axe-core finding nothing serious and no console error."""

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
        store.events.create("friday", "round-robin", None, ["h1", "h2"], clock=(30.0, 0.0))
        store.events.create("spare", "round-robin", None, ["h3", "h4"])
    return db


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_an_event_is_edited_and_deleted_on_the_page_until_it_starts(
    browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    db = league(tmp_path)
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(browser, url, ADMIN, errors, TIMEOUT, viewport=viewport)
        friday = page.locator('#event-list li[data-event="friday"]')
        friday.get_by_role("button", name="Edit", exact=True).click()
        expect(page.locator("#create-heading")).to_have_text("Edit the event friday")
        expect(page.locator("#event-name")).to_have_value("friday")
        expect(page.locator("#event-clock")).to_have_value("30+0")
        expect(page.get_by_label("h1", exact=True)).to_be_checked()
        expect(page.get_by_label("h3", exact=True)).not_to_be_checked()
        page.fill("#event-name", "monday")
        page.get_by_label("h3", exact=True).check()
        page.fill("#event-clock", "10+1")
        page.fill("#event-pace", "0.5")
        assert axe_violations(page) == []
        page.get_by_role("button", name="Save the changes").click()
        expect(page.locator("#status")).to_have_text("Event monday is changed.")
        expect(page.locator("#create-heading")).to_have_text("Create an event")
        monday = page.locator('#event-list li[data-event="monday"]')
        expect(monday).to_contain_text("round robin, 3 rounds, scheduled, 10+1")
        expect(page.locator('#event-list li[data-event="friday"]')).to_have_count(0)
        with LeagueStore(db) as store:
            event = store.events.named("monday")
            assert (event.clock, event.pace) == ((10.0, 1.0), 0.5)
            assert [store.members.member(m).name for m in store.events.members(event.id)] == [
                "h1", "h2", "h3",
            ]  # fmt: skip

        delete = page.locator("#delete-spare")
        delete.click()
        expect(delete).to_have_text("Really delete spare?")
        delete.click()
        expect(page.locator("#status")).to_have_text("Event spare is deleted.")
        expect(page.locator('#event-list li[data-event="spare"]')).to_have_count(0)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        monday.get_by_role("button", name="Edit", exact=True).click()
        page.fill("#event-pace", "1")
        started = request(f"{url}/api/league/admin/events/monday/start", "POST", {}, ADMIN)
        assert started.status == 200  # it starts while the teacher edits
        page.get_by_role("button", name="Save the changes").click()
        expect(page.locator("#status")).to_have_text(
            "Not done: event 'monday' has started (running): only a scheduled event is edited"
        )
        expect(monday.get_by_role("button", name="Edit", exact=True)).to_have_count(0)
        expect(page.locator("#delete-monday")).to_have_count(0)
        with LeagueStore(db) as store:
            assert store.events.named("monday").pace == 0.5  # unchanged
        context.close()
    refused = "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    assert errors == [refused], errors  # the refused save, and nothing else


def test_editing_an_event_in_indonesian(browser: Any, tmp_path: Path) -> None:
    db = league(tmp_path)
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, viewport=PHONE, locale="id-ID"
        )
        friday = page.locator('#event-list li[data-event="friday"]')
        friday.get_by_role("button", name="Ubah", exact=True).click()
        expect(page.locator("#create-heading")).to_have_text("Ubah turnamen friday")
        page.fill("#event-name", "senin")
        page.get_by_role("button", name="Simpan perubahan").click()
        expect(page.locator("#status")).to_have_text("Turnamen senin sudah diubah.")
        # The list is drawn again once the page has read the change: click what it then shows.
        expect(page.locator('#event-list li[data-event="senin"]')).to_have_count(1)
        page.locator("#delete-spare").click()
        expect(page.locator("#delete-spare")).to_have_text("Yakin hapus spare?")
        left = english_left(page, [*HOUSE, "senin", "spare", "30+0"])
        assert not left, left
        assert axe_violations(page) == []
        context.close()
    assert errors == [], errors


@pytest.mark.parametrize("locale", ["en-US", "id-ID"])
def test_a_seconds_a_move_league_offers_its_own_clock_and_saves_events_as_made(
    browser: Any, tmp_path: Path, locale: str
) -> None:
    """On a league of 3 s a move, the form is filled with the league's clock as it is
    written (``3 s/move``), an event made with it keeps the league's clock, and an event
    made by ``league event create`` (no clock of its own) is saved as it was made."""
    db = tmp_path / "league.db"
    make_league(db, base=600.0, increment=0.0, move_time=3.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        store.events.create("cli", "round-robin", None, ["h1", "h2"])
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, viewport=PHONE, locale=locale
        )
        expect(page.locator("#event-clock")).to_have_value("3 s/move")
        said = {"en-US": "3 s a move", "id-ID": "3 detik per langkah"}[locale]
        expect(page.locator("#clock")).to_contain_text(said)
        page.fill("#event-name", "friday")
        page.get_by_label("h3", exact=True).check()
        page.get_by_label("h4", exact=True).check()
        page.locator("#event-submit").click()
        expect(page.locator('#event-list li[data-event="friday"]')).to_contain_text("3 s/move")

        edit = {"en-US": "Edit", "id-ID": "Ubah"}[locale]
        cli = page.locator('#event-list li[data-event="cli"]')
        cli.get_by_role("button", name=edit, exact=True).click()
        expect(page.locator("#event-clock")).to_have_value("3 s/move")
        assert page.locator("#event-clock").evaluate("e => e.checkValidity()")
        page.fill("#event-pace", "0.5")
        assert axe_violations(page) == []
        if locale == "id-ID":
            left = english_left(page, [*HOUSE, "cli", "friday", "3 s/move"])
            assert not left, left
        page.locator("#event-submit").click()
        expect(page.locator("#create-heading")).not_to_contain_text("cli")
        with LeagueStore(db) as store:
            assert store.events.named("cli").pace == 0.5  # saved
            assert store.events.named("cli").clock is None  # the league's clock, as made
            assert store.events.named("friday").clock is None
        context.close()
    assert errors == [], errors
