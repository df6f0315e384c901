"""The teacher's page handles the teams' code, in a real browser (Playwright driving
Debian's Chromium) against a real league server: the teacher sends a team's zip for it,
sees its versions (number, time, file, the content hash's first characters, status),
follows a version from received to refused and opens the server's account (kept
verbatim, a compiler's words), and sets and clears an event's upload deadline, after
which an upload for a team entered in it is refused with the deadline in the message.
English on a laptop and Indonesian on a 390 px phone, axe at every impact, no sideways
scrolling, no console error.

The server here does not build (``builds`` off: the versions stay received until the
test decides one through the store, as the builder would); tests/hosting's page test
follows a real build to an accepted version."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

from adjacency.hosting.packing import pack
from adjacency.league.league_file import LeagueStore
from browser_helpers import (
    EVERY_IMPACT,
    SIZES,
    axe_violations,
    each_once,
    teacher_page,
)
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, make_league, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
JAVAC = (
    "src/Bot.java:7: error: ';' expected\n        int empty = 0\n                     ^\n1 error"
)
"""A refusal's account as the builder keeps it: javac's output, its layout included."""

WORDS = {
    "en-GB": {
        "received": "waiting to be built",
        "refused": "refused",
        "new": "Version {v} of team1 received",
        "same": "same bytes as version 1 of team1",
        "none": "Uploads: open (no deadline).",
        "closes": "Uploads close",
        "cleared": "friday has no upload deadline now.",
        "closed": "uploads for event friday closed at its deadline",  # the server's words
    },
    "id-ID": {
        "received": "menunggu dibangun",
        "refused": "ditolak",
        "new": "Versi {v} dari team1 diterima",
        "same": "sama persis dengan versi 1 dari team1",
        "none": "Unggahan: terbuka (tanpa batas waktu).",
        "closes": "Unggahan ditutup",
        "cleared": "friday sekarang tanpa batas waktu unggah.",
        "closed": "Unggahan untuk acara friday ditutup pada batas waktunya",
    },
}


def project_zip(folder: Path, name: str, text: str) -> Path:
    """A small zip as a team would send (its bytes differ with ``text``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("tubes/src/Bot.java", f"public class Bot {{ // {text}\n}}\n")
    path = folder / name
    path.write_bytes(buffer.getvalue())
    return path


def versions(db: Path, name: str) -> list[Any]:
    with LeagueStore(db) as store:
        return store.submissions.versions(store.members.member_named(name).id)


@pytest.mark.parametrize(("locale", "size"), each_once(("en-GB", "id-ID"), SIZES))
def test_the_teacher_sends_a_teams_code_follows_its_versions_and_closes_uploads(
    browser: Any, tmp_path: Path, size: str, locale: str
) -> None:
    words = WORDS[locale]
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    for team in ("team1", "team2"):
        add_member(db, team)
    with LeagueStore(db) as store:  # a scheduled event the two teams are entered in
        store.events.create("friday", "round-robin", None, ["team1", "team2"])
    first = project_zip(tmp_path, "tubes-main.zip", "first")
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        chosen = "id" if locale == "id-ID" else None  # the page's language, before it loads
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, chosen, viewport=SIZES[size], locale=locale
        )
        expect(page.locator("#code-team option")).to_have_count(3)  # the prompt, two teams
        page.select_option("#code-team", "team1")
        expect(page.locator("#code-versions-heading")).to_be_visible()
        expect(page.locator("#code-versions li")).to_have_count(1)  # "no version yet"
        expect(page.locator("#deadline-now-friday")).to_have_text(words["none"])

        page.locator("#code-zip").set_input_files(str(first))
        page.locator("#code-form button[type=submit]").click()
        expect(page.locator("#status")).to_contain_text(words["new"].format(v=1))
        item = page.locator("#code-versions li[data-version='1']")
        expect(item).to_contain_text(words["received"])
        expect(item).to_contain_text("tubes-main.zip")
        digest = hashlib.sha256(pack(first).data).hexdigest()  # the kept files, packed
        expect(item.locator("code").first).to_contain_text(digest[:12])  # then as sent
        [stored] = versions(db, "team1")
        assert (stored.version, stored.sha256, stored.status) == (1, digest, "received")
        assert versions(db, "team2") == []  # sent for the team chosen, no other

        with LeagueStore(db) as store:  # the builder's verdict, as it writes it
            store.submissions.decide(stored.id, False, JAVAC)
        expect(item).to_contain_text(words["refused"])  # asked again while it waited
        account = item.locator("pre")
        expect(account).to_be_hidden()  # shown on request
        item.locator("summary").click()
        expect(account).to_be_visible()
        assert account.inner_text() == JAVAC  # verbatim, line breaks and caret included

        page.locator("#code-zip").set_input_files(str(first))  # the same bytes again
        page.locator("#code-form button[type=submit]").click()
        expect(page.locator("#status")).to_contain_text(words["same"])
        assert len(versions(db, "team1")) == 1

        # A deadline two minutes ago, typed in the page's own time zone: uploads close.
        earlier = page.evaluate(
            "() => { const d = new Date(Date.now() - 120000); const two = (n) =>"
            " String(n).padStart(2, '0'); return `${d.getFullYear()}-${two(d.getMonth() + 1)}"
            "-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`; }"
        )
        page.fill("#deadline-friday", earlier)
        page.click("#deadline-set-friday")
        expect(page.locator("#deadline-now-friday")).to_contain_text(words["closes"])
        with LeagueStore(db) as store:
            deadline = store.submissions.deadlines()["friday"]
        closed = project_zip(tmp_path, "late.zip", "late")
        page.locator("#code-zip").set_input_files(str(closed))
        page.locator("#code-form button[type=submit]").click()
        expect(page.locator("#status")).to_contain_text(words["closed"])
        assert len(versions(db, "team1")) == 1  # nothing kept
        assert abs(deadline - (page.evaluate(f"new Date('{earlier}').getTime() / 1000"))) < 1
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        assert axe_violations(page, EVERY_IMPACT) == []
        if locale == "id-ID":  # the names, the file and the server's own words aside
            left = english_left(
                page, ["team1", "team2", "friday", "tubes-main.zip", "late.zip", JAVAC]
            )
            assert left == []

        page.click("#deadline-clear-friday")
        expect(page.locator("#status")).to_have_text(words["cleared"])
        expect(page.locator("#deadline-now-friday")).to_have_text(words["none"])
        page.locator("#code-zip").set_input_files(str(closed))
        page.locator("#code-form button[type=submit]").click()
        expect(page.locator("#status")).to_contain_text(words["new"].format(v=2))
        expect(page.locator("#code-versions li[data-version='2']")).to_contain_text(
            words["received"]
        )
        assert [v.version for v in versions(db, "team1")] == [2, 1]
        # the one refusal (409, the deadline) is the browser's own console line; no other
        refused = "the server responded with a status of 409 (Conflict)"
        assert [e for e in errors if refused not in e] == [] and len(errors) == 1, errors
        context.close()
