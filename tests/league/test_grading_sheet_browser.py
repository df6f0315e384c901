"""The grading sheet on the teacher's page in a real browser (Playwright driving Debian's
Chromium) against a real league server, in English and Indonesian at a phone's width:
the event chosen, its table shows each team's row as the API's sheet says it, the CSV
saved is the server's; a game voided from the page; the course's template kept and a
house bot kept out; axe-core finds nothing at any impact. One journey a language on one
league and one teacher's page: the sheet is read before the steps that change it."""

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
def test_the_teacher_grades_voids_a_game_and_keeps_the_template_from_the_page(
    browser: Any, tmp_path: Path, locale: str
) -> None:
    """One journey on one teacher's page of one league (:func:`grading_class.stored_class`):
    the grading sheet read and a note saved, then a game voided, then the course's template
    kept and a house bot kept out, in that order (each later step changes only what the
    earlier ones no longer read)."""
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    stored_class(db)
    zipped = tmp_path / "skeleton.zip"
    zipped.write_bytes(project(template()))
    errors: list[str] = []
    with thread_server(db, house_games=False) as url:
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
        reads_and_saves_the_grading_sheet(page, url, locale)
        voids_a_game(page, url, locale)
        keeps_the_template_and_keeps_out_a_house_bot(page, url, locale, zipped)
        context.close()
    assert errors == [], errors


def reads_and_saves_the_grading_sheet(page: Any, url: str, locale: str) -> None:
    """The event chosen, the sheet's table shows each team's row as the API's sheet says
    it (a note on alpha saved from the page its last column), and the CSV saved is the
    server's."""
    shown, versions = WORDS[locale]
    # a note on alpha, written on the page, is the sheet's last column
    expect(page.locator("#notes-team option[value=alpha]")).to_have_count(1)
    page.select_option("#notes-team", "alpha")
    page.locator("#notes-text").fill(NOTE)
    page.click("#notes-save")
    expect(page.locator("#status")).to_have_text(SAVED[locale])
    sheet = request(url + "/api/league/admin/grading?event=cup", token=ADMIN).body["teams"]
    assert sheet[0]["team"] == "alpha" and sheet[0]["note"] == NOTE
    csv_text = request(url + "/api/league/admin/grading.csv?event=cup", token=ADMIN, raw=True).body
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
        assert texts[10:14] == [str(row[k]) for k in ("crash", "illegal", "absent", "abandoned")]
        assert (row["partner"] or "") in texts[14]
        assert texts[15] == row["note"]
    audited(page, locale, "phone")
    with page.expect_download() as download:
        page.click("#grading-csv")
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "cup-grading.csv"
    assert saved == csv_text


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


def voids_a_game(page: Any, url: str, locale: str) -> None:
    """A game voided from the page, asked once more naming it: aborted with its reason,
    and alpha's sheet counts one game less."""
    again, done = VOIDED[locale]
    games = request(url + "/api/league/games?limit=100").body
    (game,) = [g["id"] for g in games if (g["x"], g["o"]) == ("alpha", "beta")]
    before = request(url + "/api/league/admin/grading", token=ADMIN).body["teams"][0]
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


def keeps_the_template_and_keeps_out_a_house_bot(
    page: Any, url: str, locale: str, zipped: Path
) -> None:
    """The course's template uploaded from the page is kept and left out of the event's
    similarity report; the house bot h1 kept out from its member entry leaves the
    standings."""
    none, done, kept = TEMPLATE[locale]
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
