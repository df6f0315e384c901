"""The teacher's page in a real browser (Playwright driving Debian's Chromium) against a
real league server: a teacher's event made and exported only through the page, at a
phone's width, by keyboard where a teacher types; the page in Indonesian with no
English left; axe-core finds nothing serious on either."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli.event_commands import parse_start
from adjacency.league.league_file import LeagueStore
from browser_helpers import axe_violations, goto, sign_in_as_teacher, watched_page
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, join, make_league, request, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
PHONE = {"width": 390, "height": 844}
HOUSE = ("h1", "h2", "h3")


def league(tmp_path: Path) -> Path:
    """A league with three house bots (random: their games end at once), added before
    the page is opened as ``adjacency league add-bot --house`` would."""
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for name in HOUSE:
        add_member(db, name, "house", "random")
    return db


def test_a_teachers_event_is_made_and_exported_only_through_the_page(
    browser: Any, tmp_path: Path
) -> None:
    db = league(tmp_path)
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        join(url, "ana")  # a person waiting for approval
        context, page = watched_page(
            browser, errors, TIMEOUT, viewport=PHONE, accept_downloads=True
        )
        goto(page, url + "/teacher")
        expect(page.locator("#admin")).to_be_hidden()
        sign_in_as_teacher(page, ADMIN)
        expect(page.locator("#waiting li")).to_have_text(re.compile(r"^ana\b"))

        tokens = []
        for team in ("team1", "team2"):  # typed, submitted with Enter
            page.locator("#team-name").focus()
            page.keyboard.type(team)
            page.keyboard.press("Enter")
            expect(page.locator("#status")).to_have_text(f"Team {team} is added.")
            page.click("#reveal")
            shown = page.locator("#new-token")
            expect(shown).to_have_text(re.compile(r"^adjl_"))  # revealed, not masked
            token = shown.inner_text()
            expect(page.locator("#connect-line")).to_have_text(
                f"adjacency connect {url} greedy --token-file {team}.token"
            )
            tokens.append(token)
        assert tokens[0] != tokens[1]
        with LeagueStore(db) as store:  # the tokens shown are the teams' own
            for team, token in zip(("team1", "team2"), tokens, strict=True):
                member = store.members.authenticate(token)
                assert member is not None and member.name == team
        page.click("#copy")
        expect(page.locator("#status")).to_contain_text("The command is")

        page.click("#approve-ana")
        expect(page.locator("#status")).to_have_text(
            "ana is approved: their games are rated from now on."
        )
        expect(page.locator("#waiting li")).to_have_text("Nobody.")
        page.click("#remove-team2")
        expect(page.locator("#remove-team2")).to_have_text("Really remove team2?")
        page.click("#remove-team2")
        expect(page.locator("#status")).to_have_text("team2 is removed.")
        expect(page.locator("#members")).not_to_contain_text("team2")

        page.fill("#event-name", "friday")
        page.select_option("#event-format", "round-robin")
        expect(page.locator("#event-rounds")).to_be_disabled()  # a round robin's are fixed
        for name in HOUSE:
            page.get_by_label(name, exact=True).check()
        page.click("#event-form button[type=submit]")
        expect(page.locator("#status")).to_have_text("Event friday is created.")
        friday = page.locator('#event-list li[data-event="friday"]')
        expect(friday).to_contain_text("round robin, 3 rounds, scheduled")
        assert friday.locator("a").first.get_attribute("href") == "/event/friday"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert axe_violations(page) == []

        friday.get_by_role("button", name="Start now").click()
        expect(page.locator("#status")).to_have_text("Event friday has started.")
        expect(friday).to_contain_text("finished")  # the page follows the event by itself

        with page.expect_download() as waiting:
            friday.get_by_role("button", name="Download results").click()
        download = waiting.value
        assert download.suggested_filename == "friday.zip"
        data = Path(download.path()).read_bytes()
        expect(page.locator("#status")).to_have_text("The results of friday are downloaded.")

        # a second event, withdrawn from before it starts, from the page alone
        page.fill("#event-name", "monday")
        page.select_option("#event-format", "swiss")
        page.fill("#event-rounds", "1")
        page.fill("#event-start", "2099-11-27T14:00")  # local time, as the CLI's --start
        page.fill("#event-pace", "0.5")  # its own pace, for every bot of it
        for name in ("h1", "h2", "team1"):
            page.get_by_label(name, exact=True).check()
        page.click("#event-form button[type=submit]")
        monday = page.locator('#event-list li[data-event="monday"]')
        expect(monday).to_contain_text("Swiss, 1 round, scheduled, starts ")
        expect(monday).to_contain_text("2099")
        expect(monday).to_contain_text("at least 0.5 s a move")
        expect(friday).not_to_contain_text("s a move")  # the server's pace: not written
        monday.get_by_label("Withdraw", exact=True).select_option("team1")
        monday.get_by_role("button", name="Withdraw from the event").click()
        monday.get_by_role("button", name="Withdraw team1 from monday?").click()  # confirmed
        expect(page.locator("#status")).to_have_text("team1 is withdrawn from monday.")
        expect(monday.locator("#withdrawn-monday")).to_contain_text("team1")

        page.reload()  # a new page in the same tab: the token is kept, no team's token shown
        expect(page.locator("#admin")).to_be_visible()
        assert all(token not in page.content() for token in tokens)
        page.click("#forget")
        expect(page.locator("#admin")).to_be_hidden()
        context.close()

    with zipfile.ZipFile(io.BytesIO(data)) as zipped:
        assert zipped.namelist() == ["table.csv", "table.json", "crosstable.csv", "games.txt"]
        files = {name: zipped.read(name).decode() for name in zipped.namelist()}
    with LeagueStore(db) as store:
        events = store.events
        friday_event = events.named("friday")
        assert friday_event.status == "finished"
        played = events.game_ids(friday_event.id)
        monday_event = events.named("monday")
        assert events.withdrawn(monday_event.id) == {store.members.member_named("team1").id}
        assert monday_event.start == parse_start("2099-11-27T14:00")
        assert "team2" not in {m.name for m in store.members.members()}  # never played: deleted
    assert len(played) == 6  # three pairs, two games each
    assert files["games.txt"].count('[Event "friday"]') == len(played)
    assert files["table.csv"].startswith("rank,name,points")
    assert sorted(row.split(",")[1] for row in files["table.csv"].splitlines()[1:]) == list(HOUSE)
    assert files["crosstable.csv"].count("\n") == 1 + len(HOUSE)
    assert errors == [], errors


def test_the_teachers_page_in_indonesian_has_no_english_left(browser: Any, tmp_path: Path) -> None:
    db = league(tmp_path)
    add_member(db, "team1")
    with LeagueStore(db) as store:
        store.events.create("friday", "round-robin", None, list(HOUSE))
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        join(url, "ana")
        context, page = watched_page(browser, errors, TIMEOUT, viewport=PHONE, locale="id-ID")
        goto(page, url + "/teacher")
        expect(page.locator("html")).to_have_attribute("lang", "id")
        sign_in_as_teacher(page, ADMIN)
        expect(page.locator("#waiting li")).to_contain_text("Setujui")
        expect(page.locator('#event-list li[data-event="friday"]')).to_contain_text("terjadwal")
        page.locator("#team-name").fill("team2")
        page.locator("#team-name").press("Enter")
        expect(page.locator("#status")).to_have_text("Tim team2 sudah ditambahkan.")
        names = [*HOUSE, "ana", "team1", "team2", "friday", url, "greedy", "--token-file",
                 "team2.token"]  # fmt: skip
        left = english_left(page, names)
        assert not left, left
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert axe_violations(page) == []
        refused = request(f"{url}/api/league/admin/overview", token="adjl_wrong")
        assert refused.status == 401
        context.close()
    assert errors == [], errors


def test_the_teachers_page_works_under_its_content_security_policy(
    browser: Any, tmp_path: Path
) -> None:
    """No inline script or style: under the served policy (no ``bypass_csp``) the page
    signs in, lists and adds, with no policy violation reported."""
    db = league(tmp_path)
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = watched_page(browser, errors, TIMEOUT, viewport=PHONE, bypass_csp=False)
        answer = goto(page, url + "/teacher")
        assert answer is not None and "script-src" in answer.headers["content-security-policy"]
        sign_in_as_teacher(page, ADMIN)
        expect(page.locator("#members li")).to_have_count(len(HOUSE))
        page.fill("#team-name", "team1")
        page.click("#team-form button[type=submit]")
        expect(page.locator("#team-token")).to_be_visible()
        expect(page.get_by_label("team1", exact=True)).to_be_visible()  # in the checklist
        context.close()
    assert errors == [], errors
