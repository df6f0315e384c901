"""A course project's program taken in from GitHub's Download ZIP or its folder, through
the league's one intake: only the program's files are kept and counted, whatever else the
project holds; a kept file that breaks a rule is refused by name and nothing is written."""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath

import pytest

from adjacency.hosting.fx_build import write_program
from adjacency.hosting.intake import MAX_FILE_BYTES, IntakeRefused
from adjacency.hosting.packing import pack_program, program_files
from fx_course_projects import SHAPES, download_zip, files, write

SHAPE = SHAPES[2]  # FXML in a separate resources root named by an .iml


def written(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_a_large_download_zip_keeps_only_the_program(tmp_path: Path) -> None:
    """A zip of more than 100 MB (the SDK's web library inside) gives exactly the
    project's own files, its top folder dropped: no jar, DLL, class file, report or large
    screenshot is written."""
    archive = download_zip(SHAPE, tmp_path / "project.zip", sdk_bytes=100 << 20)
    assert archive.stat().st_size > 100 << 20
    kept = write_program(archive, tmp_path / "kept")
    expected = sorted(name for name in files(SHAPE) if not name.endswith(".md"))
    assert [p.as_posix() for p in kept] == expected
    assert written(tmp_path / "kept") == set(expected)
    assert all(PurePosixPath(n).suffix in (".java", ".fxml", ".iml") for n in expected)


def test_the_folder_and_its_zip_are_the_same_program(tmp_path: Path) -> None:
    folder = write(SHAPE, tmp_path / "folder")
    (folder / "out").mkdir()
    (folder / "out" / "Main.class").write_bytes(b"\xca\xfe\xba\xbe")
    from_folder = write_program(folder, tmp_path / "a")
    from_zip = write_program(download_zip(SHAPE, tmp_path / "p.zip"), tmp_path / "b")
    assert from_folder == from_zip
    assert "out/Main.class" in program_files(folder)[1]  # left out, named
    for name in from_zip:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize(
    ("name", "data", "rule"),
    [
        ("repo/src/Huge.java", b"//" * (MAX_FILE_BYTES // 2 + 1), "rule 'kept file size'"),
        ("repo/../escape/Main.java", b"class Main {}", "rule 'no .. in names'"),
    ],
)
def test_a_kept_file_that_breaks_a_rule_is_refused_by_name(
    tmp_path: Path, name: str, data: bytes, rule: str
) -> None:
    archive = tmp_path / "p.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("repo/src/Main.java", "class Main {}")
        out.writestr(name, data)
    with pytest.raises(IntakeRefused, match=rule):
        write_program(archive, tmp_path / "kept")
    assert not (tmp_path / "escape").exists()
    assert not (tmp_path / "kept").exists()


def test_the_packed_program_builds_the_same_files(tmp_path: Path) -> None:
    """What ``league submit --program`` sends (packed, with its manifest) is written as
    the same program as the Download ZIP it came from, test sources left out."""
    folder = write(SHAPE, tmp_path / "folder")
    (folder / "test").mkdir()
    (folder / "test" / "MainTest.java").write_text("class MainTest {}", encoding="utf-8")
    packed = tmp_path / "packed.zip"
    packed.write_bytes(pack_program(folder, {}).data)
    assert PurePosixPath("test/MainTest.java") not in write_program(folder, tmp_path / "a")
    assert write_program(packed, tmp_path / "b") == write_program(folder, tmp_path / "c")
