"""Hostile projects refused by ``adjacency project build`` before anything is unpacked: each
zip or folder breaks one intake rule, the refusal names that rule, the exit status is the
bad-input one, and nothing is written (the output folder is never made; the working folder
holds exactly what it held)."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from adjacency.hosting.intake import (
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_IMAGE_BYTES,
    MAX_KEPT_BYTES,
    MAX_ZIP_BYTES,
)
from league_helpers import env

BOT = "public class Bot {\n    public int[] move() { return new int[] {0, 0}; }\n}\n"


def entry(name: str, mode: int | None = None) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    if mode is not None:
        info.create_system = 3  # Unix: external_attr's high half is the file's mode
        info.external_attr = mode << 16
    return info


def make_zip(path: Path, entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("src/Bot.java", BOT)
        for info, data in entries:
            archive.writestr(info, data)
    path.write_bytes(buffer.getvalue())
    return path


def duplicate(tmp: Path) -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile's "Duplicate name"
        return make_zip(tmp / "p.zip", [("src/Bot.java", b"class Bot { /* another */ }")])


def traversal(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [("src/../../evil.java", b"class evil {}")])


def absolute(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [("/etc/cron.d/evil.java", b"class evil {}")])


def drive(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [("C:/Windows/evil.java", b"class evil {}")])


def symlink(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [(entry("src/Link.java", stat.S_IFLNK | 0o777), b"/etc/passwd")])


def device(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [(entry("src/dev.java", stat.S_IFCHR | 0o666), b"")])


def fifo(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [(entry("src/pipe", stat.S_IFIFO | 0o644), b"")])


def bomb(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [("src/Big.java", b"\0" * (20 * 1024 * 1024))])


def kept_size(tmp: Path) -> Path:
    # Sources each under the file limit (and the ratio rule's floor), together past the
    # kept files' limit.
    count = MAX_KEPT_BYTES // 900_000 + 1
    return make_zip(tmp / "p.zip", [(f"src/F{i}.java", b"a" * 900_000) for i in range(count)])


def kept_file(tmp: Path) -> Path:
    text = os.urandom(MAX_FILE_BYTES // 2 + 1).hex().encode()  # no zip bomb: it barely packs
    return make_zip(tmp / "p.zip", [("src/Huge.java", text)])


def kept_picture(tmp: Path) -> Path:
    # A picture the sources name (so the program loads it), larger than a picture may be.
    return make_zip(
        tmp / "p.zip",
        [
            ("src/Icon.java", b'class Icon { String f = "board.png"; }'),
            ("src/board.png", os.urandom(MAX_IMAGE_BYTES + 1)),
        ],
    )


def many(tmp: Path) -> Path:
    return make_zip(tmp / "p.zip", [(f"src/F{i}.txt", b"") for i in range(MAX_FILES)])


def large(tmp: Path) -> Path:
    path = tmp / "p.zip"
    with path.open("wb") as out:  # sparse: its size is all the rule reads
        out.truncate(MAX_ZIP_BYTES + 1)
    return path


def not_a_zip(tmp: Path) -> Path:
    path = tmp / "p.zip"
    path.write_bytes(b"MZ this is no zip")
    return path


def folder_link(tmp: Path) -> Path:
    folder = tmp / "project"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "Bot.java").write_text(BOT)
    (folder / "src" / "Secret.java").symlink_to("/etc/passwd")
    return folder


def folder_fifo(tmp: Path) -> Path:
    folder = tmp / "project"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "Bot.java").write_text(BOT)
    os.mkfifo(folder / "src" / "pipe")
    return folder


def folder_many(tmp: Path) -> Path:
    folder = tmp / "project"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "Bot.java").write_text(BOT)
    (folder / "notes").mkdir()
    for i in range(MAX_FILES):  # with Bot.java, one file more than the rule allows
        (folder / "notes" / f"F{i}.txt").touch()
    return folder


HOSTILE: dict[str, tuple[Callable[[Path], Path], str]] = {
    "traversal": (traversal, "rule 'no .. in names'"),
    "duplicate": (duplicate, "rule 'unique names'"),
    "absolute": (absolute, "rule 'no absolute names'"),
    "drive": (drive, "rule 'no absolute names'"),
    "symlink": (symlink, "rule 'no links or devices': the entry 'src/Link.java' is a link"),
    "device": (device, "is a character device"),
    "fifo": (fifo, "is a named pipe"),
    "bomb": (bomb, "rule 'compression ratio'"),
    "kept-size": (kept_size, "rule 'kept size'"),
    "kept-file-size": (kept_file, "rule 'kept file size': 'src/Huge.java'"),
    "kept-picture-size": (kept_picture, "rule 'kept file size': 'src/board.png'"),
    "file-count": (many, "rule 'file count'"),
    "zip-size": (large, "rule 'zip size'"),
    "not-a-zip": (not_a_zip, "rule 'a zip file'"),
    "folder-link": (folder_link, "rule 'no links or devices': 'src/Secret.java' is a link"),
    "folder-fifo": (folder_fifo, "is a named pipe"),
    "folder-file-count": (folder_many, "rule 'file count'"),
}


def listing(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_project_is_refused_with_its_rule_and_nothing_written(
    case: str, tmp_path: Path
) -> None:
    make, rule = HOSTILE[case]
    given = tmp_path / "given"
    given.mkdir()
    project = make(given)
    work = tmp_path / "work"
    work.mkdir()
    before = listing(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "adjacency", "project", "build", str(project), "--out", "out"],
        cwd=work,
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert rule in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert listing(tmp_path) == before  # no out/, nothing unpacked anywhere


def test_the_kit_command_prints_the_shipped_java_sources(tmp_path: Path) -> None:
    """``adjacency project kit``: the folder of the Java kit inside the package, with the
    runner, the course adapter and the JavaFX stand-ins in their packages."""
    done = subprocess.run([sys.executable, "-m", "adjacency", "project", "kit"], cwd=tmp_path,
                          env=env(), capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    kit = Path(done.stdout.strip())
    for name in ("adjacency/kit/Main.java", "adjacency/kit/CourseBot.java",
                 "javafx/scene/control/Button.java", "javafx/util/Pair.java"):  # fmt: skip
        assert (kit / name).is_file(), name
