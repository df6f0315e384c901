"""The grading sheet on the teacher's page in a real browser (Playwright driving Debian's
Chromium) against a real league server, in English and Indonesian at a phone's width:
the event chosen, its table shows each team's row as the API's sheet says it, the CSV
saved is the server's, and axe-core finds nothing at any impact."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser_helpers import audited, teacher_page
from grading_class import CUP, stored_class
from league_helpers import ADMIN, make_league, project, request, thread_server, wait_until
from similarity_class import template

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("league-browser")]

TIMEOUT = 50_000
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en-US": ("The grading sheet of cup is shown.", "{count} uploaded, {accepted} accepted"),
    "id-ID": ("Lembar penilaian cup ditampilkan.", "{count} diunggah, {accepted} diterima"),
}
NOTE = "Asked good questions about minimax."
SAVED = {"en-US": "The note on alpha is saved.", "id-ID": "Catatan tentang alpha tersimpan."}


@pytest.mark.parametrize("locale", list(WORDS))
def test_the_teacher_reads_and_saves_an_events_grading_sheet(
    browser: Any, tmp_path: Path, locale: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    stored_class(db)
    shown, versions = WORDS[locale]
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        sheet = request(url + "/api/league/admin/grading?event=cup", token=ADMIN).body["teams"]
        csv_text = request(
            url + "/api/league/admin/grading.csv?event=cup", token=ADMIN, raw=True
        ).body
        context, page = teacher_page(
            browser,
            url,
            ADMIN,
            errors,
            TIMEOUT,
            viewport=PHONE,
            locale=locale,
            accept_downloads=True,
        )
        # a note on alpha, written on the page, is the sheet's last column
        expect(page.locator("#notes-team option[value=alpha]")).to_have_count(1)
        page.select_option("#notes-team", "alpha")
        page.locator("#notes-text").fill(NOTE)
        page.click("#notes-save")
        expect(page.locator("#status")).to_have_text(SAVED[locale])
        sheet = request(url + "/api/league/admin/grading?event=cup", token=ADMIN).body["teams"]
        assert sheet[0]["team"] == "alpha" and sheet[0]["note"] == NOTE
        csv_text = request(
            url + "/api/league/admin/grading.csv?event=cup", token=ADMIN, raw=True
        ).body
        expect(page.locator("#grading-scope option[value=cup]")).to_have_count(1)
        page.select_option("#grading-scope", "cup")
        page.click("#grading-show")
        expect(page.locator("#status")).to_have_text(shown)
        rows = page.locator("#grading-table tbody tr")
        expect(rows).to_have_count(len(CUP))
        for row in sheet:
            cells = page.locator(f'#grading-table tr[data-team="{row["team"]}"] > *')
            texts = cells.all_inner_texts()
            wanted = versions.format(count=row["versions"], accepted=row["accepted"])
            assert texts[0] == row["team"] and texts[1] == wanted
            assert texts[3] == str(row["games"])
            x = f"{row['x_wins']}-{row['x_draws']}-{row['x_losses']}"
            o = f"{row['o_wins']}-{row['o_draws']}-{row['o_losses']}"
            assert texts[7:10] == [x, o, str(row["time"])], texts
            assert texts[10:14] == [
                str(row[k]) for k in ("crash", "illegal", "absent", "abandoned")
            ]
            assert (row["partner"] or "") in texts[14]
            assert texts[15] == row["note"]
        audited(page, locale, "phone")
        with page.expect_download() as download:
            page.click("#grading-csv")
        saved = Path(download.value.path()).read_text(encoding="utf-8")
        assert download.value.suggested_filename == "cup-grading.csv"
        assert saved == csv_text
        context.close()
    assert errors == [], errors


VOIDED = {
    "en-US": (
        "Really void game {game}?",
        "Game {game} (alpha against beta) is voided.",
    ),
    "id-ID": (
        "Yakin batalkan permainan {game}?",
        "Permainan {game} (alpha melawan beta) dibatalkan.",
    ),
}


@pytest.mark.parametrize("locale", list(VOIDED))
def test_the_teacher_voids_a_game_from_the_page(browser: Any, tmp_path: Path, locale: str) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    stored_class(db)
    again, done = VOIDED[locale]
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        games = request(url + "/api/league/games?limit=100").body
        (game,) = [g["id"] for g in games if (g["x"], g["o"]) == ("alpha", "beta")]
        before = request(url + "/api/league/admin/grading", token=ADMIN).body["teams"][0]
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, viewport=PHONE, locale=locale
        )
        page.locator("#void-game").fill(str(game))
        page.locator("#void-reason").fill("played by the teacher's own bot")
        page.click("#void-submit")  # asked once more, naming the game
        expect(page.locator("#void-submit")).to_have_text(again.format(game=game))
        audited(page, locale, "phone")
        page.click("#void-submit")
        expect(page.locator("#status")).to_have_text(done.format(game=game))
        shown = request(f"{url}/api/league/games/{game}").body
        assert shown["status"] == "aborted"
        assert "played by the teacher's own bot" in str(shown)
        after = request(url + "/api/league/admin/grading", token=ADMIN).body["teams"][0]
        assert before["team"] == after["team"] == "alpha"
        assert after["games"] == before["games"] - 1
        audited(page, locale, "phone")
        context.close()
    assert errors == [], errors


TEMPLATE = {
    "en-US": (
        "No template is kept: the reports leave out the code most teams share.",
        "The template is kept: every similarity report leaves it out from now on.",
        "A template is kept: every similarity report leaves it out.",
    ),
    "id-ID": (
        "Belum ada templat tersimpan: laporan mengabaikan kode yang dipakai sebagian besar tim.",
        "Templat tersimpan: mulai sekarang setiap laporan kemiripan mengabaikannya.",
        "Templat tersimpan: setiap laporan kemiripan mengabaikannya.",
    ),
}

KEPT_OUT = {
    "en-US": "h1 is kept out: never paired, in no event, its games unrated, not in the standings.",
    "id-ID": "h1 dikeluarkan: tidak pernah dipasangkan, tidak ikut acara, permainannya tanpa "
    "rating, tidak ada di klasemen.",
}
BACK = {"en-US": "Bring back into the league's games", "id-ID": "Kembalikan ke permainan liga"}


@pytest.mark.parametrize("locale", list(TEMPLATE))
def test_the_teacher_uploads_the_courses_template_from_the_page(
    browser: Any, tmp_path: Path, locale: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    stored_class(db)
    zipped = tmp_path / "skeleton.zip"
    zipped.write_bytes(project(template()))
    none, done, kept = TEMPLATE[locale]
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
        context, page = teacher_page(
            browser, url, ADMIN, errors, TIMEOUT, viewport=PHONE, locale=locale
        )
        expect(page.locator("#template-now")).to_have_text(none)
        page.set_input_files("#template-zip", str(zipped))
        page.click("#template-send")
        expect(page.locator("#status")).to_have_text(done)
        expect(page.locator("#template-now")).to_have_text(kept)
        corpus = request(url + "/api/league/admin/similarity/corpus", token=ADMIN).body
        assert corpus == [{"name": "template", "kind": "template"}]
        report = request(url + "/api/league/admin/events/cup/similarity", token=ADMIN).body
        assert report["template"] == "league"
        # the house bot kept out of the league's games from its member entry
        page.click("#keep-out-h1")
        expect(page.locator("#status")).to_have_text(KEPT_OUT[locale])
        expect(page.locator("#keep-out-h1")).to_have_text(BACK[locale])

        def listed() -> list[str]:
            return [r["name"] for r in request(url + "/api/league/standings").body]

        wait_until(lambda: "h1" not in listed(), 30, "h1 out of the standings")  # reused 1 s
        assert "alpha" in listed()
        audited(page, locale, "phone")
        context.close()
    assert errors == [], errors
