"""Tokens on the teacher's page, in a real browser (Playwright driving Debian's
Chromium) against a real league server: a new team's token is masked until revealed (a
projected page shows none), copied or saved as a file, and the connect line reads that
file (the token never on the command line); a team's token is replaced from the page (the
old one stops working); a CSV roster adds its teams and offers their printable token
sheet; over https both carry ``--cafile`` with a note. At a laptop's and a phone's
width, in English and Indonesian, with axe-core finding nothing serious and no console
error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import axe_violations, teacher_page
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, make_league, start_server, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 30_000
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
MASK = "\u2022" * 12


def owner(db: Path, token: str) -> str | None:
    """The member a token authenticates, by name (``None``: no one)."""
    with LeagueStore(db) as store:
        member = store.members.authenticate(token)
    return None if member is None else member.name


def saved(page: Any, button: Any) -> tuple[str, str]:
    """Click ``button``; the name and text of the file the page offers."""
    with page.expect_download() as waiting:
        button.click()
    download = waiting.value
    return download.suggested_filename, Path(download.path()).read_text(encoding="utf-8")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_a_new_token_is_masked_until_revealed_saved_as_a_file_and_rotated(
    browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, accept_downloads=True, viewport=viewport
        )
        page.fill("#team-name", "team1")
        page.press("#team-name", "Enter")
        expect(page.locator("#status")).to_have_text("Team team1 is added.")
        shown = page.locator("#new-token")
        expect(shown).to_have_text(MASK)  # hidden on a projected screen
        line = page.locator("#connect-line")
        expect(line).to_have_text(f"adjacency connect {url} greedy --token-file team1.token")
        expect(page.locator("#cafile-note")).to_be_hidden()  # over http: no --cafile
        name, first = saved(page, page.get_by_role("button", name="Save it as team1.token"))
        assert name == "team1.token" and owner(db, first) == "team1"
        assert first not in page.content()  # nowhere in the page until revealed
        page.click("#reveal")
        expect(shown).to_have_text(first)
        expect(page.locator("#reveal")).to_have_text("Hide the token")
        assert first not in line.inner_text()
        assert axe_violations(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.click("#reveal")
        expect(shown).to_have_text(MASK)

        rotate = page.locator("#rotate-team1")
        rotate.click()
        expect(rotate).to_have_text("Replace team1's token? The old one stops working")
        assert owner(db, first) == "team1"  # asked, not done
        rotate.click()
        expect(page.locator("#status")).to_have_text(
            "team1 has a new token: the old one no longer works."
        )
        expect(shown).to_have_text(MASK)
        page.click("#reveal")
        expect(shown).not_to_have_text(MASK)
        second = shown.inner_text()
        assert second != first and owner(db, second) == "team1" and owner(db, first) is None
        context.close()
    assert errors == [], errors


@pytest.mark.parametrize(("locale", "viewport"), [("en-US", LAPTOP), ("id-ID", PHONE)])
def test_a_roster_adds_its_teams_and_offers_their_token_sheet(
    browser: Any, tmp_path: Path, locale: str, viewport: dict[str, int]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "gold")  # a bot already: keeps its token
    roster = tmp_path / "class.csv"
    roster.write_text("team\nred\nblue\ngold\n", encoding="utf-8")
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser,
            url,
            ADMIN,
            errors,
            TIMEOUT,
            accept_downloads=True,
            viewport=viewport,
            locale=locale,
        )
        page.set_input_files("#roster-file", str(roster))
        page.locator("#roster-form button[type=submit]").click()
        summary = {
            "en-US": "2 teams added; 1 were bots of the league already (their tokens unchanged).",
            "id-ID": "2 tim ditambahkan; 1 sudah menjadi bot liga (tokennya tetap).",
        }[locale]
        expect(page.locator("#roster-summary")).to_have_text(summary)
        name, sheet = saved(page, page.locator("#roster-sheet"))
        assert name == "tokens.html"
        with LeagueStore(db) as store:
            assert {m.name for m in store.members.members()} == {"gold", "red", "blue"}
        cards = sheet.split('<section class="card">')[1:]
        assert [card.split("</h2>")[0].removeprefix("<h2>") for card in cards] == ["red", "blue"]
        for team, card in zip(("red", "blue"), cards, strict=True):
            token = card.split('<code class="token">')[1].split("</code>")[0]
            assert owner(db, token) == team
            assert token not in page.content()
            assert f"--token-file {team}.token" in card and "--cafile" not in card  # http
        assert axe_violations(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        if locale == "id-ID":
            left = english_left(page, ["gold", "red", "blue", "class.csv", "CSV"])
            assert not left, left
        context.close()
    assert errors == [], errors


def test_over_https_the_connect_line_and_the_sheet_carry_cafile_with_a_note(
    browser: Any, tmp_path: Path
) -> None:
    """A real ``league serve`` over TLS (a private authority, as Caddy's ``tls
    internal``): the page served over https adds ``--cafile class-ca.crt`` to the connect
    line and the roster's sheet, and shows the note saying when it is needed."""
    trustme = pytest.importorskip("trustme")
    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1", "localhost")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    certificate.cert_chain_pems[0].write_to_path(str(cert))
    certificate.private_key_pem.write_to_path(str(key))
    db = tmp_path / "league.db"
    make_league(db)
    roster = tmp_path / "class.csv"
    roster.write_text("red\n", encoding="utf-8")
    server = start_server(db, 0, tmp_path / "server.log", "--certfile", str(cert),
                          "--keyfile", str(key))  # fmt: skip
    url = server.url
    errors: list[str] = []
    try:
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, accept_downloads=True, viewport=LAPTOP,
            ignore_https_errors=True,
        )  # fmt: skip
        page.fill("#team-name", "team1")
        page.press("#team-name", "Enter")
        expect(page.locator("#connect-line")).to_have_text(
            f"adjacency connect {url} greedy --token-file team1.token --cafile class-ca.crt"
        )
        expect(page.locator("#cafile-note")).to_be_visible()
        expect(page.locator("#cafile-note")).to_contain_text("leave it out for a server with")
        page.set_input_files("#roster-file", str(roster))
        page.locator("#roster-form button[type=submit]").click()
        _, sheet = saved(page, page.locator("#roster-sheet"))
        assert "--token-file red.token --cafile class-ca.crt" in sheet
        assert axe_violations(page) == []
        context.close()
    finally:
        server.stop()
    assert errors == [], errors
