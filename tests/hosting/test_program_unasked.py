"""A course program sent unedited, with no manifest and no ``--program``: a league whose
games are 8x8 from the start plays the program through its window, even where the kit's
adapter could call a bot of it; any other league plays its bot through the adapter
(:func:`adjacency.hosting.kinds.build_submission`). Through the real server, with rated
games: ``tests/hosting/test_fx_league.py``. Here: both routes for one project, what the
team's later choice does with such a version, a project whose window cannot be played
(the refusal says what the adapter finds and the manifest that plays it), and what
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
from adjacency.hosting.kinds import WINDOWS_ONLY, build_submission
from adjacency.hosting.manifest import ManifestError
from adjacency.hosting.packing import pack
from adjacency.hosting.player import load_choice
from adjacency.hosting.verdict import judge
from cli_helpers import run_process
from fx_course_projects import SHAPES, download_zip, files
from hosted_helpers import files_zip
from league_helpers import env
from sandbox_helpers import reachable_folder

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "java" / "course-project"


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


def example_files() -> dict[str, str]:
    """The example course project's files (``examples/engines/java/course-project``: a
    whole JavaFX program whose ``Bot`` the kit's adapter can call), by their paths in it."""
    return {
        path.relative_to(EXAMPLE).as_posix(): path.read_text()
        for path in sorted(EXAMPLE.rglob("*"))
        if path.is_file()
    }


def example_zip() -> bytes:
    """The example course project as a Download ZIP (under its top folder)."""
    return files_zip({f"course-project-main/{n}": t for n, t in example_files().items()})


@pytest.mark.jvm
@pytest.mark.javafx
def test_a_league_of_windows_plays_the_program_and_another_its_bot(
    folder: Path, fx_tools: None
) -> None:
    """The same unedited program is played through its window where the league's games
    are 8x8 from the start (its form's defaults: a person as X, its bot as O), though the
    adapter could call its ``Bot``; elsewhere its ``Bot`` through the adapter."""
    program = build_submission(example_zip(), folder, windows=True)
    assert (program.kind, program.bot) == (LANGUAGE, "Main"), program
    assert program.label == "program Main, plays Bot as O", program.label
    bot = build_submission(example_zip(), folder.with_name("build-2"), windows=False)
    assert (bot.kind, bot.bot, bot.args) == ("java", "Bot", []), bot


@pytest.mark.jvm
@pytest.mark.javafx
def test_a_program_whose_window_cannot_be_played_says_what_the_adapter_finds(
    folder: Path, fx_tools: None
) -> None:
    """A program whose window fails to open is refused in a league of
    windows with the window's reason, the bot the kit's adapter finds and the manifest
    that plays that bot; where neither can play it (two ``Application`` classes with a
    ``main``, bots that take the window's types), both reasons; nothing is played."""
    project = example_files()
    project["src/Main.java"] = project["src/Main.java"].replace('"InputFrame', '"Missing')
    with pytest.raises(BuildFailed) as refused:
        build_submission(files_zip(project), folder, windows=True)
    words = str(refused.value)
    assert words.startswith("its own window cannot be played: "), words
    assert "the program's window could not be read" in words, words
    assert "Main.java:" in words, words  # where its start failed
    assert "the kit's adapter can play its bot Bot: to play that bot instead, put " in words
    assert 'adjacency-bot.json in the project with {"class": "Bot"}' in words, words

    two = {**files(SHAPES[1]), "src/game/Other.java": SECOND_APPLICATION}
    upload = files_zip({f"tubes-main/{name}": text for name, text in two.items()})
    with pytest.raises(BuildFailed) as refused:
        build_submission(upload, folder.with_name("build-2"), windows=True)
    words = str(refused.value)
    assert words.startswith("its own window cannot be played: several JavaFX"), words
    assert "game.Main" in words and "game.Other" in words
    assert "nor can the kit's adapter play its bot: no course bot can be played" in words
    assert "game.Bot: cannot be played" in words


@pytest.mark.jvm
def test_a_league_of_no_windows_says_why_the_window_is_not_played(folder: Path) -> None:
    """In a league whose games are not 8x8 from the start, a program whose bot the adapter
    cannot call is refused with the adapter's reason and why its window is not played."""
    upload = files_zip({f"tubes-main/{n}": t for n, t in files(SHAPES[1]).items()})
    with pytest.raises(BuildFailed) as refused:
        build_submission(upload, folder, windows=False)
    words = str(refused.value)
    assert words.startswith(WINDOWS_ONLY), words  # the way out first, with its command
    assert "`adjacency league settings --db FILE --from-start`" in words
    assert "the kit's adapter played its bot instead, and: no course bot can be played" in words


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


@pytest.mark.jvm
@pytest.mark.javafx
def test_a_program_asked_for_in_a_league_of_openings_is_refused_saying_why(
    folder: Path, fx_tools: None
) -> None:
    """A program asked for by its manifest in an 8x8 league whose games start from
    openings is refused (its window starts a game only from the start), and so is one
    on another board; neither version keeps a choice to play."""
    project = example_files()
    upload = files_zip({**project, MANIFEST: json.dumps({"language": LANGUAGE})})
    for rows, cols in ((8, 8), (6, 6)):
        where = folder.with_name(f"build-{rows}")
        judged = judge(upload, where, rows, cols, 4, 2.0, from_start=False)
        assert not judged.accepted, judged.detail
        assert judged.window is not None and judged.window.startswith(b"\x89PNG")
        assert judged.detail == f"{WINDOWS_ONLY}\nprogram Main, plays Bot as O", judged.detail
        assert load_choice(where) is None
