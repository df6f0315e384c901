"""The teacher goes from an event to its similarity report, from a flagged pair to a
team's code and from there to the difference between two of its versions, in a real
browser (Playwright driving Debian's Chromium) against a real league server: the
disguised copy is listed with its passages side by side, the code is highlighted by the
server, the diff marks the changed lines, the zip comes back as uploaded. English on a
laptop and Indonesian at 390 px, axe at every impact, no sideways
scrolling, no English left in Indonesian, no console error."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.grading.version_digest import make
from adjacency.league.league_file import LeagueStore
from browser_helpers import (
    CASES,
    EVERY_IMPACT,
    SIZES,
    axe_violations,
    goto,
    sideways,
    teacher_page,
)
from code_projects import GREEDY, MINIMAX, SKELETON, disguised
from i18n_helpers import english_left
from league_helpers import ADMIN, add_member, make_league, play_round_robin, thread_server

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
TUNED = MINIMAX.replace("this.depth = depth;", "this.depth = depth + 1;")
"""alpha's second version: one line changed."""
CODE = {
    "alpha": [{"src/MinimaxBot.java": MINIMAX}, {"src/MinimaxBot.java": TUNED}],
    "beta": [{"Agent.java": disguised(MINIMAX)}],
    "gamma": [{"Greedy.java": GREEDY, "Board.java": SKELETON}],
}


LEFT_OUT = json.dumps(
    {
        "kinds": [
            {"kind": "jar", "count": 2, "bytes": 5_000_000},
            {"kind": "native library", "count": 1, "bytes": 500_000},
        ],
        "files": [
            ["lib/javafx-sdk/lib/javafx.controls.jar", 3_000_000],
            ["lib/javafx-sdk/lib/javafx.graphics.jar", 2_000_000],
            ["lib/javafx-sdk/bin/glass.dll", 500_000],
        ],
    }
)
"""What alpha's second upload left out, as the server notes it
(:func:`adjacency.league.grading.left_out.summary`)."""

CRASH = "alpha failed: java.lang.NullPointerException at Bot.move(Bot.java:12)"
"""A failure's reason as the server keeps it (the program's own words)."""
FINISHED = {"en-US": "none: the event has finished", "id-ID": "tidak ada: acara sudah selesai"}
"""What a finished event's page says of its next round."""


def zipped(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def code_lines() -> list[str]:
    """Every line of the teams' code (what the pages show as it is, in any language)."""
    texts = [text for versions in CODE.values() for files in versions for text in files.values()]
    return sorted({line.strip() for text in texts for line in text.splitlines() if line.strip()})


@pytest.mark.parametrize(("locale", "size"), CASES)
def test_from_an_event_to_the_similarity_report_a_teams_code_and_a_diff(
    browser: Any, tmp_path: Path, locale: str, size: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0, increment=0.0)
    uploads: dict[tuple[str, int], bytes] = {}
    with LeagueStore(db) as store:
        for team, versions in CODE.items():
            add_member(db, team)
            member = store.members.member_named(team)
            for files in versions:
                data = zipped(files)
                note = LEFT_OUT if files is CODE["alpha"][-1] else ""
                kept, _ = store.submissions.add(member.id, data, f"{team}.zip", None, note)
                store.digests.keep(kept.id, *make(data))  # as the builder accepts it
                store.submissions.decide(kept.id, True, "")
                uploads[team, kept.version] = data
        store.events.create("cup", "round-robin", None, list(CODE))
        store.events.create("done", "swiss", 1, ["alpha", "beta"])
        store.events.start("done")
        store.events.finish(store.events.named("done").id)
    add_member(db, "delta")  # no code, never connected: it cannot play
    add_member(db, "epsilon")  # its code not built yet, never connected: it cannot play yet
    with LeagueStore(db) as store:
        waiting = store.members.member_named("epsilon").id
        store.submissions.add(waiting, zipped(CODE["beta"][0]), "epsilon.zip", None, "")
    with LeagueStore(db) as store:  # a played round robin, one game lost by a crash
        store.events.create("rr", "round-robin", None, ["alpha", "beta"])
        store.events.start("rr")
    play_round_robin(str(db), "rr")
    with LeagueStore(db) as store:
        failed = store.events.game_rounds(store.events.named("rr").id)[0][0]
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE games SET termination = 'disconnection', detail = ? WHERE id = ?",
            (CRASH, failed),
        )
    errors: list[str] = []
    paths = [path for versions in CODE.values() for files in versions for path in files]
    sdk = ["lib/javafx-sdk/lib/javafx.controls.jar", "lib/javafx-sdk/lib/javafx.graphics.jar",
           "lib/javafx-sdk/bin/glass.dll", "MB", "DLL"]  # fmt: skip
    allowed = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "cup",
        "done",
        "rr",
        CRASH,
        *code_lines(),
        *paths,
        *sdk,
    ]
    with thread_server(db, house_games=False) as url:
        chosen = "id" if locale == "id-ID" else None  # the page's language, before it loads
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, chosen, viewport=SIZES[size], locale=locale
        )

        # the event's games a failure decided: each links its game, with its reason
        failures = page.locator("#failures-rr")
        expect(failures.locator("summary")).to_contain_text("1")
        failures.locator("summary").click()
        expect(failures.locator(f"li[data-game='{failed}'] a")).to_have_attribute(
            "href", f"/watch/{failed}"
        )
        expect(failures.locator("pre")).to_have_text(CRASH)

        # the event form says which ticked teams cannot play, and why
        page.locator("#event-members input[value='alpha']").check()
        expect(page.locator("#event-warning")).to_be_hidden()
        page.locator("#event-members input[value='delta']").check()
        expect(page.locator("#event-warning")).to_be_visible()
        expect(page.locator("#event-warning")).to_contain_text("delta (")
        assert "alpha" not in page.locator("#event-warning").inner_text()
        page.locator("#event-members input[value='epsilon']").check()
        building = {"en-US": "its code is still being built", "id-ID": "kodenya masih dibangun"}
        expect(page.locator("#event-warning")).to_contain_text("epsilon (")
        expect(page.locator("#event-warning")).to_contain_text(building[locale])
        warning = page.locator("#event-warning").inner_text()
        assert warning.count(building[locale]) == 1  # delta has no code at all
        audited_here(page, locale, size, allowed)  # the teacher's page with both open

        page.click("#similarity-cup")  # the event's entry links its report
        pair = page.locator("article[data-pair='alpha beta']")
        expect(pair).to_be_visible()
        expect(page.locator("article.pair")).to_have_count(1)  # gamma wrote its own
        assert pair.locator(".passage").count() >= 1
        sides = pair.locator(".passage").first.locator("pre")
        assert sides.nth(0).inner_text().strip() in MINIMAX  # alpha's side, as written
        assert sides.nth(1).inner_text().strip() in disguised(MINIMAX)  # beta's renamed one
        audited_here(page, locale, size, allowed)

        pair.locator("a").first.click()  # alpha's code, the version it plays
        expect(page.locator("#version-heading")).to_contain_text("alpha")
        expect(page.locator(".code-file h3")).to_have_text(["src/MinimaxBot.java"])
        kinds = page.locator("#left-out-kinds")  # what the upload held besides, by kind
        expect(kinds).to_contain_text(": 2, 4.8 MB")
        expect(kinds).to_contain_text(": 1, 0.5 MB")
        expect(page.locator("#left-out")).to_contain_text("glass.dll")
        assert page.locator(".code .kd").count() > 0  # coloured by the server's highlighter
        assert page.locator(".code .row").count() == len(TUNED.splitlines())
        audited_here(page, locale, size, allowed)

        kept_sha = hashlib.sha256(uploads["alpha", 2]).hexdigest()
        expect(page.locator("#hashes")).to_contain_text(kept_sha)  # the download's SHA-256
        with page.expect_download() as download:
            page.click("#zip")
        assert Path(download.value.path()).read_bytes() == uploads["alpha", 2]

        page.select_option("#pick-against", "1")
        page.locator("#pick-form button[type=submit]").click()
        expect(page.locator(".code .row.del")).to_have_count(1)
        expect(page.locator(".code .row.add")).to_have_count(1)
        expect(page.locator("#left-out")).to_contain_text("MinimaxBot.java")  # named changed
        assert "depth + 1" in page.locator(".code .row.add").inner_text()
        assert "depth + 1" not in page.locator(".code .row.del").inner_text()
        audited_here(page, locale, size, allowed)

        goto(page, url + "/event/done")  # a finished Swiss pairs nothing more
        expect(page.locator("#next-none")).to_have_text(FINISHED[locale])
        assert errors == []
        context.close()


def audited_here(page: Any, locale: str, size: str, allowed: list[str]) -> None:
    """What :func:`browser_helpers.audited` asserts, the teams' names, paths and code
    allowed to stay as they are in Indonesian."""
    assert axe_violations(page, EVERY_IMPACT) == []
    assert sideways(page) <= 0, sideways(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    if locale.startswith("id"):
        assert english_left(page, allowed) == []
