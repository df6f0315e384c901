"""``adjacency project build`` given a Python, JavaScript, C++ or C program (the starter
kits as a team has them, a folder or a zip): nothing is built, the refusal says what the
program is and the ``adjacency connect`` line that runs it as it is (a compiled language's
compiled first by it), and that line's bot spec plays (through ``adjacency move``, the real
python3, node, g++ and gcc)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from adjacency.hosting.languages import LANGUAGES, PROGRAMS, Compiled
from cli_helpers import run_process
from league_helpers import env

pytestmark = pytest.mark.node

KITS = Path(__file__).resolve().parents[2] / "examples" / "engines"
SQUARE = re.compile(r"[a-h][1-8]")


def adjacency(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_process(*args, timeout=55, env=env(), cwd=cwd)


def refused_spec(project: Path, cwd: Path, words: str, shown: str) -> str:
    """Build ``project`` through the CLI: it must be refused as a ``words`` program with
    nothing written, its advice running ``shown``; the bot spec of that advice."""
    done = adjacency("project", "build", str(project), "--out", "out", cwd=cwd)
    assert done.returncode == 2, done.stdout + done.stderr
    assert not (cwd / "out").exists()
    assert "Traceback" not in done.stderr
    assert f"this is a {words} program ({shown}), not a Java course project" in done.stderr
    found = re.search(r"`adjacency connect URL (.+)`", done.stderr)
    assert found, done.stderr
    (spec,) = shlex.split(found.group(1))
    return spec


def plays(spec: str, cwd: Path) -> None:
    """``spec`` answers a move from the start position through ``adjacency move``."""
    done = adjacency("move", spec, "--time", "1", cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    assert SQUARE.fullmatch(done.stdout.splitlines()[0]), done.stdout


def test_a_python_kit_folder_is_refused_with_the_command_that_runs_it(tmp_path: Path) -> None:
    spec = refused_spec(KITS / "python", tmp_path, "Python", "engine.py")
    assert spec == f"cmd:python3 {KITS / 'python' / 'engine.py'}"
    plays(spec, tmp_path)


def test_a_zipped_javascript_kit_is_refused_with_the_command_to_run_unpacked(
    tmp_path: Path,
) -> None:
    kit = KITS / "javascript"
    target = tmp_path / "js-kit.zip"
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(kit.rglob("*")):
            if path.is_file():
                archive.write(path, f"js-kit/{path.relative_to(kit).as_posix()}")
    spec = refused_spec(target, tmp_path, "JavaScript", "js-kit/engine.js")
    assert spec == "cmd:node js-kit/engine.js"  # the zip's own path
    with zipfile.ZipFile(target) as archive:
        archive.extractall(tmp_path / "unpacked")
    plays(spec, tmp_path / "unpacked")  # in the folder it was unpacked into, as advised


@pytest.mark.parametrize(
    "name", [name for name in PROGRAMS if isinstance(LANGUAGES[name].build, Compiled)]
)
def test_a_compiled_kit_folder_is_refused_with_the_command_that_compiles_and_runs_it(
    tmp_path: Path, name: str
) -> None:
    entry = PurePosixPath(LANGUAGES[name].kit)
    kit = tmp_path / f"{name}-kit"
    shutil.copytree(KITS / entry.parent, kit)
    spec = refused_spec(kit, tmp_path, LANGUAGES[name].words, entry.name)
    assert spec.startswith("cmd:[timeout=120] sh -c ") and spec.endswith(str(kit / entry.name))
    plays(spec, tmp_path)
    program = kit / f"{entry.name}.engine"
    built = program.stat().st_mtime_ns
    plays(spec, tmp_path)  # its program newer than its source: not compiled again
    assert program.stat().st_mtime_ns == built
    assert (kit / f"{entry.name}.engine").is_file()  # compiled beside its source, as it says
