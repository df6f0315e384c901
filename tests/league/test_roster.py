"""``adjacency league roster``: a class's CSV roster added at once, its tokens on a
printable sheet (only there, the file the teacher's alone), every name checked before any
is added."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
from cli_helpers import run
from league_helpers import add_member, make_league


def test_a_roster_adds_its_teams_and_prints_their_tokens_on_the_sheet_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    kept = add_member(db, "Garuda")
    roster = tmp_path / "roster.csv"
    roster.write_text("Nama Tim,Anggota\nGaruda,Ana\nKomodo,Budi\n\nElang-2,Citra\n")
    sheet = tmp_path / "tokens.html"
    status, out, err = run(
        capsys, "league", "roster", str(roster), "--db", str(db), "--sheet", str(sheet),
        "--url", "https://192.168.1.20", "--cafile", "class-ca.crt",
    )  # fmt: skip
    assert status == 0, err
    assert "added Komodo" in out and "added Elang-2" in out
    assert "Garuda: a bot of the league already" in out
    assert "adjl_" not in out + err  # the tokens are on the sheet only
    assert stat.S_IMODE(sheet.stat().st_mode) == 0o600
    page = sheet.read_text()
    tokens = dict(
        re.findall(
            r"<h2>([^<]+)</h2><p>Token \(keep it secret\): <code class=\"token\">([^<]+)<", page
        )
    )
    assert sorted(tokens) == ["Elang-2", "Komodo"]
    assert "--token-file Komodo.token --cafile class-ca.crt" in page
    assert "adjacency league submit https://192.168.1.20 PROJECT" in page
    assert page.count("<code>https://192.168.1.20/team</code>, the team's page") == 2
    with LeagueStore(db) as store:
        for name, token in tokens.items():
            member = store.members.authenticate(token)
            assert member is not None and (member.name, member.kind) == (name, "bot")
        garuda = store.members.authenticate(kept)
        assert garuda is not None and garuda.name == "Garuda"  # its token unchanged


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        ("Komodo\nkomodo\n", "too alike"),
        ("Komodo\nbad name!\n", "roster row 2"),
        ("Komodo\nh0use1\n", "too much like the league's house"),
        ("team\n\n", "names no team"),
    ],
)
def test_a_roster_with_a_bad_name_adds_nothing_and_writes_no_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: str, why: str
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house1", "house", "greedy")
    roster = tmp_path / "roster.csv"
    roster.write_text(rows)
    sheet = tmp_path / "tokens.html"
    status, _, err = run(capsys, "league", "roster", str(roster), "--db", str(db),
                         "--sheet", str(sheet))  # fmt: skip
    assert status == 2 and why in err and "Traceback" not in err, err
    assert not sheet.exists()
    with LeagueStore(db) as store:
        assert [m.name for m in store.members.members()] == ["house1"]


def test_an_existing_sheet_is_never_written_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    roster = tmp_path / "roster.csv"
    roster.write_text("Komodo\n")
    sheet = tmp_path / "tokens.html"
    sheet.write_text("last week's sheet")
    status, _, err = run(capsys, "league", "roster", str(roster), "--db", str(db),
                         "--sheet", str(sheet))  # fmt: skip
    assert status == 2 and "exists already" in err
    assert sheet.read_text() == "last week's sheet"
    with LeagueStore(db) as store:
        assert store.members.members() == []
