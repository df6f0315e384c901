"""A course program sent unedited, with no manifest and no ``--program``: the league tries
the kit's adapter, and where the adapter chooses no bot (the course's bots take the
window's own types) it plays the program through its window instead
(:func:`adjacency.hosting.kinds.build_submission`). Through the real server, with rated
games: ``tests/hosting/test_fx_league.py``; a project whose one bot the adapter calls
keeps the adapter's route: ``tests/hosting/test_hosted_build.py``. Here: what the team's
later choice does with such a version, a project neither route can play, and what
``adjacency project build`` (the adapter's route only) tells such a program's team."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjacency.hosting.fx_kind import LANGUAGE, with_choices
from adjacency.hosting.intake import MANIFEST
from adjacency.hosting.java_build import BuildFailed
from adjacency.hosting.kinds import build_submission
from adjacency.hosting.manifest import ManifestError
from adjacency.hosting.packing import pack
from cli_helpers import run_process
from fx_course_projects import SHAPES, download_zip, files
from hosted_helpers import files_zip
from league_helpers import env
from sandbox_helpers import reachable_folder


def unpacked(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_a_choice_on_a_version_played_unasked_adds_the_manifest(tmp_path: Path) -> None:
    """The team's choice in its form (the page's **Play with this choice**) on a version
    sent without a manifest keeps every file and adds the manifest that plays the program
    through its window with that choice; a version that is another kind's is refused."""
    packed = pack(download_zip(SHAPES[1], tmp_path / "p.zip", sdk_bytes=1 << 10)).data
    before = unpacked(packed)
    assert MANIFEST not in before
    after = unpacked(with_choices(packed, {"Bot": "Local Search"}))
    assert json.loads(after.pop(MANIFEST)) == {
        "language": LANGUAGE,
        "choose": {"Bot": "Local Search"},
    }
    assert after == before
    python = files_zip(
        {
            MANIFEST: json.dumps({"language": "python", "main": "engine.py"}),
            "engine.py": "print('aepok')\n",
        }
    )
    with pytest.raises(ManifestError, match="not a program played through its window"):
        with_choices(python, {"Bot": "Local Search"})


SECOND_APPLICATION = """package game;

import javafx.application.Application;
import javafx.stage.Stage;

public class Other extends Application {
    public void start(Stage stage) {}
    public static void main(String[] args) { launch(args); }
}
"""


@pytest.fixture
def folder(sandbox_box: Path) -> Iterator[Path]:
    """A build folder the sandbox's users can reach (after checking the sandbox starts)."""
    with reachable_folder("adjacency-unasked-test-") as made:
        yield made / "build-1"


@pytest.mark.jvm
def test_a_program_neither_route_plays_is_refused_with_both_reasons(folder: Path) -> None:
    """A course project whose bot the adapter cannot call, and whose program cannot be
    started either (two ``Application`` classes with a ``main``, and no manifest naming
    one), is refused with the adapter's reason, the classes it found and the window's
    reason; nothing is played."""
    project = {**files(SHAPES[1]), "src/game/Other.java": SECOND_APPLICATION}
    upload = files_zip({f"tubes-main/{name}": text for name, text in project.items()})
    with pytest.raises(BuildFailed) as refused:
        build_submission(upload, folder)
    words = str(refused.value)
    assert words.startswith("no course bot can be played as it is:"), words
    assert "game.Bot: cannot be played" in words
    assert "played through its own window instead, it fails too: several JavaFX" in words
    assert "game.Main" in words and "game.Other" in words


@pytest.mark.jvm
def test_project_build_tells_a_program_whose_bot_it_cannot_call_how_it_plays(
    tmp_path: Path,
) -> None:
    """``adjacency project build`` on such a program (it builds bots for the adapter only)
    is refused with the adapter's reason and says that a league plays the program as it
    is, through its window; a project that is no program is not told so."""
    project = download_zip(SHAPES[2], tmp_path / "mode-main.zip", sdk_bytes=1 << 10)
    done = run_process("project", "build", project, "--out", "b", cwd=tmp_path, env=env())
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no course bot can be played as it is" in done.stderr
    assert "this project is a JavaFX program: a league plays it as it is" in done.stderr
    assert "Traceback" not in done.stderr
    bare = tmp_path / "bare"
    (bare / "src").mkdir(parents=True)
    (bare / "src" / "Util.java").write_text("public class Util {\n}\n")
    done = run_process("project", "build", bare, "--out", "c", cwd=tmp_path, env=env())
    assert done.returncode == 2 and "no bot in the project" in done.stderr, done.stderr
    assert "JavaFX program" not in done.stderr
