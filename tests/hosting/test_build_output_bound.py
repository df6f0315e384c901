"""A build's output is bounded in total while it is written (the real builds in the
sandbox, javac and g++, and a build that runs its own code): a few KiB of source whose
folded string constants make megabytes of class files, or whose arrays make 80 MiB of
objects and program, is refused naming the bound, so one build adds a bounded number of
bytes to its team's; what a build leaves running never lands, and of what it wrote only
the regular files inside its folder are kept."""

from __future__ import annotations

import io
import tarfile
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from adjacency.hosting.build_output import BUILD_BYTES, bounded_to, build_bytes, unpack
from adjacency.hosting.java_build import BuildFailed
from adjacency.hosting.kinds import KINDS, build_submission
from adjacency.hosting.sandbox_build import compile_in_sandbox
from adjacency.sandbox import OUTPUT

pytestmark = pytest.mark.jvm

BOT = """public class Bot {
    public int[] move(javafx.scene.control.Button[][] b, int roundsLeft, boolean isX) {
        for (int i = 0; i < b.length; i++)
            for (int j = 0; j < b[i].length; j++)
                if (b[i][j].getText().isEmpty()) return new int[] {i, j};
        return null;
    }
}
"""


def _folded() -> str:
    """Under 5 KiB of source, 3.2 MB of class file: 100 constants of 32 KiB each."""
    lines = ["class Folded {", '  static final String S0 = "0123456789abcdef0123456789abcdef";']
    lines += [f"  static final String S{i} = S{i - 1} + S{i - 1};" for i in range(1, 11)]
    lines += [f'  static final String F{j} = S10 + "{j}";' for j in range(100)]
    return "\n".join([*lines, "}"]) + "\n"


def test_class_files_past_the_bound_are_refused(
    sandbox_box: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("src/Bot.java", BOT)
        archive.writestr("src/Folded.java", _folded())
    # The test's own bound (absent before the bound existed: then nothing refuses).
    monkeypatch.setitem(KINDS, "java", replace(KINDS["java"], build_bytes=2 << 20))
    with pytest.raises(BuildFailed, match=r"the build wrote more than 2 MiB, the most one build"):
        build_submission(buffer.getvalue(), sandbox_box / "build-1", windows=True)
    assert not list((sandbox_box / "build-1" / "build").rglob("*.class"))


def _arrays(name: str) -> str:
    """A translation unit of 3 MiB of initialised data (3 MiB of object file)."""
    return f"char {name}[3 << 20] = {{1}};\n"


def test_a_compiled_program_past_the_bound_is_refused_while_it_is_written(
    sandbox_box: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two units of 3 MiB each and their program of 6 MiB: 12 MiB written, each file
    under the per-file bound; the link's write past the bound (the test's: 8 MiB) is
    refused by the build's filesystem, and the build says so."""
    monkeypatch.setitem(KINDS, "cpp", replace(KINDS["cpp"], build_bytes=8 << 20))
    engine = (
        "// answers aep with aepok\n#include <cstdio>\nextern char a[], b[];\n"
        'int main() { std::printf("%d\\n", a[0] + b[0]); }\n'
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("engine.cpp", engine)
        archive.writestr("a.cpp", _arrays("a"))
        archive.writestr("b.cpp", _arrays("b"))
        archive.writestr("adjacency-bot.json", '{"language": "cpp", "main": "engine.cpp"}')
    words = r"the build wrote more than 8 MiB, the most one build may write"
    with pytest.raises(BuildFailed, match=words):
        build_submission(buffer.getvalue(), sandbox_box / "build-2", windows=True)
    assert not [p for p in (sandbox_box / "build-2" / "build" / "bin").rglob("*")]


WRITER = """
out=$1
( sleep 1; head -c 1048576 /dev/zero > "$out/late" ) &
i=0
while [ $i -lt $2 ]; do head -c 8388608 /dev/zero > "$out/f$i" || exit 1; i=$((i + 1)); done
"""
"""A build that runs the team's code: it writes ``$2`` files of 8 MiB into its output
folder, and leaves a process behind that writes one more a second later."""


def test_a_build_running_its_own_code_writes_no_more_than_the_bound(sandbox_box: Path) -> None:
    source = sandbox_box / "source"
    source.mkdir()
    output = sandbox_box / "output"
    output.mkdir()
    argv = ["/bin/sh", "-c", WRITER, "sh", OUTPUT, "1000"]  # 8 GB, were it let
    with pytest.raises(BuildFailed, match=f"the build wrote more than {BUILD_BYTES >> 20} MiB"):
        compile_in_sandbox(argv, "the team's script", source, output)
    assert list(output.iterdir()) == []


def test_what_a_build_leaves_running_never_lands(sandbox_box: Path) -> None:
    source = sandbox_box / "source"
    source.mkdir()
    output = sandbox_box / "output"
    output.mkdir()
    compile_in_sandbox(["/bin/sh", "-c", WRITER, "sh", OUTPUT, "2"], "sh", source, output)
    assert sorted(p.name for p in output.iterdir()) == ["f0", "f1"]
    assert (output / "f0").stat().st_size == 8 << 20
    assert (output / "f0").stat().st_mode & 0o777 == 0o644


def _archive(entries: list[tarfile.TarInfo], data: bytes = b"") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for info in entries:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return buffer.getvalue()


def _entry(
    name: str, kind: bytes = tarfile.REGTYPE, size: int = 0, mode: int = 0o644
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    info.mode = mode
    if kind == tarfile.SYMTYPE:
        info.linkname = "/etc/passwd"
    return info


def test_only_the_archives_regular_files_inside_the_folder_land(tmp_path: Path) -> None:
    """What a build's archive holds is the team's (a process of its own may write into
    it): links, devices and names outside the folder are left out."""
    entries = [
        _entry("./pkg", tarfile.DIRTYPE, mode=0o700),
        _entry("./pkg/A.class", size=3),
        _entry("./engine", size=3, mode=0o700),
        _entry("./link", tarfile.SYMTYPE),
        _entry("./pkg/hard", tarfile.LNKTYPE),
        _entry("./fifo", tarfile.FIFOTYPE),
        _entry("../escape", size=3),
        _entry("/etc/absolute", size=3),
    ]
    output = tmp_path / "out"
    output.mkdir()
    unpack(_archive(entries, b"abc"), output)
    found = sorted(p.relative_to(output).as_posix() for p in output.rglob("*"))
    assert found == ["engine", "pkg", "pkg/A.class"]
    assert (output / "engine").stat().st_mode & 0o777 == 0o755
    assert (output / "pkg" / "A.class").stat().st_mode & 0o777 == 0o644
    assert (output / "pkg").stat().st_mode & 0o777 == 0o755
    assert not (tmp_path / "escape").exists()


def test_an_archive_past_the_bound_is_refused(tmp_path: Path) -> None:
    output = tmp_path / "out"
    output.mkdir()
    with (
        bounded_to(4),
        pytest.raises(BuildFailed, match="the build wrote more than 0 MiB"),
    ):
        unpack(_archive([_entry("a", size=3), _entry("b", size=3)], b"abc"), output)
    with pytest.raises(BuildFailed, match="could not be read back"):
        unpack(b"not an archive" * 100, output)


def test_every_kind_states_one_bound_in_its_table_entry() -> None:
    assert {kind.build_bytes for kind in KINDS.values()} == {BUILD_BYTES}
    assert build_bytes() == BUILD_BYTES  # outside a kind's build
    with bounded_to(1 << 20):
        assert build_bytes() == 1 << 20
    assert build_bytes() == BUILD_BYTES
