"""``adjacency league submit`` against a real league server: a project as a team has it
(a folder with the JavaFX SDK's jars and DLLs, a report and screenshots, or the same as
GitHub's Download ZIP) is sent as its Java sources alone, the same sources are the same
version however they arrive, and every refusal is one line with nothing stored."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.hosting.intake import SOURCE_SUFFIXES
from adjacency.hosting.languages import PROGRAMS, in_words
from adjacency.league.league_file import LeagueStore
from league_helpers import add_member
from net_helpers import reserved_port

SOURCES = {
    "src/main/java/com/team/ai/Bot.java": "package com.team.ai;\npublic class Bot {}\n",
    "src/main/java/com/team/OutputFrameController.java": (
        "package com.team;\nimport javafx.fxml.FXML;\npublic class OutputFrameController {}\n"
    ),
}
OTHERS = {
    "javafx-sdk-17/lib/javafx.controls.jar": b"PK\x03\x04 not read",
    "javafx-sdk-17/bin/glass.dll": b"MZ\x90\x00 not read",
    "Laporan Tubes 1.pdf": b"%PDF-1.7 not read",
    "screenshots/menang.png": b"\x89PNG not read",
}


def project(root: Path) -> Path:
    """A course project folder as a team has it."""
    for name, text in SOURCES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    for name, data in OTHERS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def download_zip(folder: Path, target: Path) -> Path:
    """The folder as GitHub's Download ZIP makes it: one top folder, other dates."""
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                entry = zipfile.ZipInfo(
                    f"tubes-main/{path.relative_to(folder).as_posix()}", (2024, 10, 1, 12, 0, 0)
                )
                archive.writestr(entry, path.read_bytes())
    return target


def submit(
    capsys: pytest.CaptureFixture[str], url: str, *args: str, token: Path | None = None
) -> tuple[int, str, str]:
    argv = ["league", "submit", url, *args]
    if token is not None:
        argv += ["--token-file", str(token)]
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def stored_names(db: Path, name: str) -> list[list[str]]:
    """The files of each stored version of ``name``, oldest first."""
    with LeagueStore(db) as store:
        member = store.members.member_named(name)
        assert member is not None
        found = []
        for version in reversed(store.submissions.versions(member.id)):
            data = store.submissions.data(version.id)
            found.append(sorted(zipfile.ZipFile(io.BytesIO(data)).namelist()))
    return found


def test_a_project_folder_is_sent_as_its_sources_and_the_same_sources_are_one_version(
    league: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, db = league
    token = tmp_path / "token.txt"
    token.write_text(add_member(db, "team1") + "\n")
    folder = project(tmp_path / "tubes")
    status, out, err = submit(capsys, url, str(folder), token=token)
    assert status == 0, err
    assert "team1: version 1 (a new version), received" in out
    assert "left out, not read:" in err and "javafx-sdk-17/bin/glass.dll" in err
    assert "Laporan Tubes 1.pdf" in err
    assert stored_names(db, "team1") == [sorted(SOURCES)]
    # The same sources as GitHub's Download ZIP (a top folder, other dates, the SDK):
    # the same bytes, so the same version.
    zipped = download_zip(folder, tmp_path / "tubes-main.zip")
    status, out, _ = submit(capsys, url, str(zipped), token=token)
    assert status == 0 and "version 1 (the same sources as this version)" in out
    # A binary added changes nothing; a source changed is the next version.
    (folder / "javafx-sdk-17" / "bin" / "prism_d3d.dll").write_bytes(b"MZ")
    assert "version 1 (the same" in submit(capsys, url, str(folder), token=token)[1]
    (folder / "src/main/java/com/team/ai/Bot.java").write_text("package com.team.ai;\n// v2\n")
    assert "version 2 (a new version)" in submit(capsys, url, str(folder), token=token)[1]
    status, out, _ = submit(capsys, url, "--list", token=token)
    # The newer upload replaced the one still waiting to be built (one a team at a time).
    assert status == 0 and out.index("    2  received") < out.index("    1  refused")
    assert "replaced by version 2, uploaded before it was built" in out


def test_refusals_are_one_line_and_store_nothing(
    league: tuple[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, db = league
    add_member(db, "team1")
    monkeypatch.delenv("ADJACENCY_LEAGUE_TOKEN", raising=False)
    folder = project(tmp_path / "tubes")
    status, _, err = submit(capsys, url, str(folder))
    assert status == 2 and "--token-file FILE or $ADJACENCY_LEAGUE_TOKEN" in err
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("adjl_wrong")
    status, _, err = submit(capsys, url, str(folder), token=wrong)
    assert status == 2 and "refused it (401)" in err and "Traceback" not in err
    right = tmp_path / "token.txt"
    right.write_text(add_member(db, "team2"))
    hostile = tmp_path / "hostile.zip"
    with zipfile.ZipFile(hostile, "w") as archive:
        archive.writestr("../../outside/Bot.java", "class Bot {}")
    status, _, err = submit(capsys, url, str(hostile), token=right)
    assert status == 2 and "rule 'no .. in names'" in err, err
    empty = tmp_path / "no-java"
    (empty / "docs").mkdir(parents=True)
    (empty / "docs" / "laporan.pdf").write_bytes(b"%PDF")
    status, _, err = submit(capsys, url, str(empty), token=right)
    sources = ", ".join(SOURCE_SUFFIXES)  # every language's, from its table entry
    assert status == 2 and f"no source ({sources}) in" in err, err
    assert f"or a {in_words(PROGRAMS)} engine-protocol program" in err, err
    with reserved_port() as port:  # held by this test, and nothing listens on it
        status, _, err = submit(capsys, f"http://127.0.0.1:{port}", str(folder), token=right)
    assert status == 3 and "cannot reach the league" in err
    assert stored_names(db, "team1") == [] and stored_names(db, "team2") == []
    shutil.rmtree(folder)
    assert submit(capsys, url, str(folder), token=right)[0] == 2
