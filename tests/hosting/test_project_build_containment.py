"""``adjacency project build`` writes only its ``--out`` folder: a downloaded project
whose package line aims elsewhere is refused by name before anything is written, and a
package folder that is a link is never written through."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from adjacency.hosting import java_build
from adjacency.hosting.java_build import BuildFailed, write_sources
from adjacency.hosting.sources import Source, select
from league_helpers import env

ADJACENCY = (sys.executable, "-m", "adjacency")
BOT = "package {package};\n\npublic class Bot {{ public int[] move() {{ return null; }} }}\n"


def test_the_cli_refuses_a_package_line_that_aims_out_of_the_build(tmp_path: Path) -> None:
    mark = "adjacency_escape_" + uuid.uuid4().hex[:10]
    project = tmp_path / "project" / "src"
    project.mkdir(parents=True)
    (project / "Bot.java").write_text(BOT.format(package=f".tmp.{mark}.Y"))
    try:
        done = subprocess.run(
            [*ADJACENCY, "project", "build", str(project.parent), "--out", str(tmp_path / "out")],
            env=env(),
            capture_output=True,
            text=True,
            timeout=55,
        )
    finally:  # today's code wrote there: what a failure left is removed
        escaped = Path("/tmp", mark).exists()
        shutil.rmtree(Path("/tmp", mark), ignore_errors=True)
    assert not escaped, "the build wrote where the package line aimed"
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"the package '.tmp.{mark}.Y' is not a Java package name" in done.stderr


def test_a_package_folder_that_is_a_link_is_not_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = tmp_path / "build" / "src"
    folder.mkdir(parents=True)
    (folder / "team").symlink_to(elsewhere)
    selection = select({"src/Bot.java": BOT.format(package="team.bots").encode()})
    with pytest.raises(BuildFailed, match=re.escape("refused to write 'team/bots/Bot.java'")):
        write_sources(selection, folder)
    assert list(elsewhere.iterdir()) == []


def test_a_file_over_a_link_is_not_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("kept\n")
    folder = tmp_path / "src"
    (folder / "team").mkdir(parents=True)
    (folder / "team" / "Bot.java").symlink_to(victim)
    selection = select({"src/Bot.java": BOT.format(package="team").encode()})
    with pytest.raises(BuildFailed, match=re.escape("refused to write 'team/Bot.java'")):
        write_sources(selection, folder)
    assert victim.read_text() == "kept\n"


@pytest.mark.parametrize("relative", ["/tmp/x/A.java", "a/../../A.java", "a//A.java", "./A.java"])
def test_only_plain_relative_paths_are_contained(tmp_path: Path, relative: str) -> None:
    with pytest.raises(BuildFailed, match="refused to write"):
        java_build.contained(tmp_path, relative)
    assert java_build.contained(tmp_path, "a/b/A.java") == tmp_path.resolve() / "a" / "b" / "A.java"


def test_a_source_whose_target_leaves_the_folder_is_refused_before_writing(
    tmp_path: Path,
) -> None:
    """The write's own guard, whatever the package check let through."""
    mark = "adjacency_escape_" + uuid.uuid4().hex[:10]
    selection = select({"src/A.java": b"class A {}\n"})
    selection.kept.append(Source("src/B.java", f".tmp.{mark}", "B", "class B {}\n"))
    try:
        with pytest.raises(BuildFailed, match=re.escape(f"refused to write '/tmp/{mark}/B.java'")):
            write_sources(selection, tmp_path / "src")
    finally:
        escaped = Path("/tmp", mark).exists()
        shutil.rmtree(Path("/tmp", mark), ignore_errors=True)
    assert not escaped
