"""A course project as a student has it, whatever its size: the intake keeps its sources and
a JavaFX program's resources (FXML, CSS, properties, the IntelliJ module, the pictures its
code names), reads nothing else (a corrupt SDK entry, which any read would reject, passes),
finds its roots as the IDE does, and packs a Download ZIP and its folder to the same bytes;
through the real league server, the team page's route (the Download ZIP as it is) and
``adjacency league submit`` (the folder) store one version of a few kilobytes."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.hosting.intake import take_in
from adjacency.hosting.packing import pack
from adjacency.league.league_file import LeagueStore
from league_helpers import add_member, upload

SDK_BYTES = 24 * 1024 * 1024
"""The stand-in SDK's size: past every old limit on the zip, small enough for a test."""

TEXTS = {
    "src/game/Main.java": 'package game;\npublic class Main { String w = "InputFrame.fxml"; }\n',
    "src/game/InputFrame.fxml": '<?xml version="1.0"?>\n<VBox><ImageView url="@logo.png"/></VBox>',
    "src/game/style.css": ".root { -fx-background-image: url('back.jpg'); }\n",
    "res/strings.properties": "title=Adjacency\n",
    "tubes.iml": (
        '<module><component name="NewModuleRootManager"><content url="file://$MODULE_DIR$">'
        '<sourceFolder url="file://$MODULE_DIR$/src" isTestSource="false" />'
        '<sourceFolder url="file://$MODULE_DIR$/res" type="java-resource" />'
        '<sourceFolder url="file://$MODULE_DIR$/../outside" type="java-resource" />'
        "</content></component></module>\n"
    ),
}
PICTURES = {"src/game/logo.png": os.urandom(5000), "src/game/back.jpg": os.urandom(3000)}
UNREAD = {
    "Laporan Tubes.pdf": b"%PDF-1.7 " + os.urandom(2000),
    "screenshots/menang.png": os.urandom(4000),  # named by no source: left out
    "javafx-sdk-17/bin/jfxwebkit.dll": b"",  # filled below, large and corrupt
    "out/production/tubes/game/Main.class": b"\xca\xfe\xba\xbe",
}


def folder_of(root: Path) -> Path:
    """The project's folder, as the student has it."""
    for name, data in [*((n, t.encode()) for n, t in TEXTS.items()), *PICTURES.items()]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    for name, data in UNREAD.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data or os.urandom(1024))
    return root


def download_zip(folder: Path, target: Path) -> Path:
    """GitHub's Download ZIP of ``folder`` (one top folder), with a stand-in SDK library of
    :data:`SDK_BYTES` stored whose bytes are then corrupted: reading that entry would fail
    its CRC check, so a project taken in proves it was never read."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                name = f"tubes-main/{path.relative_to(folder).as_posix()}"
                if name.endswith("jfxwebkit.dll"):
                    entry = zipfile.ZipInfo(name)
                    entry.compress_type = zipfile.ZIP_STORED
                    archive.writestr(entry, b"MZ" + b"\x00" * SDK_BYTES)
                else:
                    archive.writestr(name, path.read_bytes())
    data = bytearray(target.read_bytes())
    at = data.index(b"MZ" + b"\x00" * 64) + 1000
    data[at] = 0xFF  # the CRC no longer matches: any read raises
    target.write_bytes(bytes(data))
    return target


def test_the_kept_files_are_read_and_nothing_else_whatever_the_size(tmp_path: Path) -> None:
    folder = folder_of(tmp_path / "tubes")
    archive = download_zip(folder, tmp_path / "tubes-main.zip")
    assert archive.stat().st_size > SDK_BYTES
    with zipfile.ZipFile(archive) as check, pytest.raises(zipfile.BadZipFile):
        check.read("tubes-main/javafx-sdk-17/bin/jfxwebkit.dll")
    intake = take_in(archive)
    top = "tubes-main/"
    assert set(intake.kept()) == {top + n for n in [*TEXTS, *PICTURES]}
    assert intake.kept()[top + "src/game/logo.png"] == PICTURES["src/game/logo.png"]
    assert set(intake.left_out) == {top + n for n in UNREAD}
    assert intake.roots() == [top + "res", top + "src"]  # the .iml's own; never "../outside"


def test_a_download_zip_and_its_folder_pack_to_the_same_bytes(tmp_path: Path) -> None:
    folder = folder_of(tmp_path / "tubes")
    archive = download_zip(folder, tmp_path / "tubes-main.zip")
    from_zip, from_folder = pack(archive), pack(folder)
    assert from_zip.data == from_folder.data
    assert from_zip.files == sorted([*TEXTS, *PICTURES])
    assert "javafx-sdk-17/bin/jfxwebkit.dll" in from_zip.left_out
    assert len(from_zip.data) < 40_000  # the kept files, not the SDK
    with zipfile.ZipFile(io.BytesIO(from_zip.data)) as packed:
        assert packed.read("src/game/style.css") == TEXTS["src/game/style.css"].encode()


def test_the_pages_route_and_the_command_line_store_one_small_version(
    league: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, db = league
    token = add_member(db, "team1")
    folder = folder_of(tmp_path / "tubes")
    archive = download_zip(folder, tmp_path / "tubes-main.zip")
    page = upload(url, archive.read_bytes(), token, filename="tubes-main.zip")
    assert page.status == 201, page
    assert page.body["new"] is True and page.body["submission"]["version"] == 1
    (tmp_path / "token.txt").write_text(token + "\n")
    status = main(
        ["league", "submit", url, str(folder), "--token-file", str(tmp_path / "token.txt")]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "version 1 (the same sources as this version)" in out
    with LeagueStore(db) as store:
        member = store.members.member_named("team1")
        assert member is not None
        [kept] = store.submissions.versions(member.id)
        assert store.submissions.data(kept.id) == pack(folder).data
    uploads = db.with_name(db.name + ".uploads")
    assert not uploads.exists() or not any(uploads.iterdir())  # the received zip removed
