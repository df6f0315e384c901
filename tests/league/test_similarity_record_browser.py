"""The similarity report's record on the report page, in a real browser (Playwright
driving Debian's Chromium) against a real league server, in English and Indonesian at
a phone's width: saved from the page with when it was made, a pair flagged with a note
that a reload shows again, and what changed since (a team's new version) said under it;
axe-core finds nothing at any impact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjacency.league.league_file import LeagueStore
from browser_helpers import EVERY_IMPACT, axe_violations, goto, teacher_page
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, keep, make_league, project, request, thread_server
from similarity_class import course_class

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en-US": {
        "none": "No record is saved yet.",
        "saved": "The report of cup is saved as its record.",
        "unchanged": "Nothing changed since it was saved.",
        "marked": "alpha and delta are marked flagged.",
        "versions": "alpha and delta: versions 2 and 1 now, 1 and 1 then.",
    },
    "id-ID": {
        "none": "Belum ada arsip yang disimpan.",
        "saved": "Laporan cup disimpan sebagai arsipnya.",
        "unchanged": "Tidak ada yang berubah sejak disimpan.",
        "marked": "alpha dan delta ditandai: dicurigai.",
        "versions": "alpha dan delta: kini versi 2 dan 1, dulu 1 dan 1.",
    },
}
NOTE = "the same minimax, renamed"


def allowed(teams: dict[str, dict[str, str]]) -> list[str]:
    """What the report shows as the teams wrote it: names, paths and code lines."""
    lines = {line.strip() for files in teams.values() for text in files.values()
             for line in text.splitlines() if line.strip()}  # fmt: skip
    paths = {path for files in teams.values() for path in files}
    return [*teams, "cup", NOTE, *paths, *lines]


@pytest.mark.parametrize("locale", list(WORDS))
def test_the_teacher_saves_marks_and_follows_the_reports_record(
    browser: Any, tmp_path: Path, locale: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    teams = course_class()
    for team, files in teams.items():
        add_member(db, team)
        keep(db, team, project(files))
    with LeagueStore(db) as store:
        store.events.create("cup", "round-robin", None, list(teams))
    words = WORDS[locale]
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, viewport=PHONE, locale=locale
        )
        goto(page, url + "/teacher/code?event=cup")
        expect(page.locator("#record-made")).to_have_text(words["none"])
        page.click("#record-save")
        expect(page.locator("#status")).to_have_text(words["saved"])
        expect(page.locator("#record-changes li")).to_have_text([words["unchanged"]])
        expect(page.locator("#record-pairs li")).to_have_count(2)
        page.select_option("#mark-alpha-delta", "flagged")
        page.locator("#mark-note-alpha-delta").fill(NOTE)
        page.click("#mark-save-alpha-delta")
        expect(page.locator("#status")).to_have_text(words["marked"])
        saved = request(f"{url}/api/league/admin/events/cup/similarity/record", token=ADMIN)
        marks = {(p["a"], p["b"]): (p["mark"], p["note"]) for p in saved.body["pairs"]}
        assert marks == {("alpha", "delta"): ("flagged", NOTE), ("epsilon", "zeta"): (None, "")}
        keep(db, "alpha", project({**teams["alpha"], "src/adjacency/Note.java": "class N {}\n"}))
        goto(page, url + "/teacher/code?event=cup")  # a reload: the record as kept
        expect(page.locator("#record-changes li")).to_have_text([words["versions"]])
        expect(page.locator("#mark-alpha-delta")).to_have_value("flagged")
        expect(page.locator("#mark-note-alpha-delta")).to_have_value(NOTE)
        assert axe_violations(page, EVERY_IMPACT) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        if locale.startswith("id"):
            assert english_left(page, allowed(teams)) == []
        context.close()
    assert errors == [], errors
