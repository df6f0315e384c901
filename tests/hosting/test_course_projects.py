"""Course projects built unedited through ``adjacency project build`` (the real ``javac``)
and played on 8x8 through ``adjacency match`` (the real ``java``): every shape of bot class,
constructor and ``move`` of :mod:`course_projects`, in folders and in zips as a team has
them, with the bot's every move checked against its own rule in the stored records."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import zipfile
from collections.abc import Mapping
from pathlib import Path

import pytest

from adjacency.arena.store import Store
from adjacency.core import Position
from adjacency.core.record import game_from_text
from cli_helpers import run_process
from course_projects import (
    ALGORITHM,
    BINARIES,
    CONTROLLER_CONSTRUCTOR,
    CONTROLLER_MOVE,
    MANIFEST_BOTTOM,
    PLAYER_STRING,
    SLOW,
    STATIC_BUTTONS,
    TWO_BOTS,
    UNPACKAGED,
    Project,
    first_empty,
)
from league_helpers import env

pytestmark = [pytest.mark.jvm, pytest.mark.slow]

ROUNDS = 3
REPO = Path(__file__).resolve().parents[2]


def write(folder: Path, project: Mapping[str, bytes | str]) -> Path:
    for name, content in project.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return folder


def zipped(path: Path, project: Mapping[str, bytes | str], top: str = "") -> Path:
    """``project`` as a zip, its files under ``top`` (GitHub's Download ZIP: REPO-main/)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if top:
            archive.writestr(top, "")
        for name, content in project.items():
            archive.writestr(top + name, content)
    path.write_bytes(buffer.getvalue())
    return path


def adjacency(*args: str, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return run_process(*args, cwd=cwd, env=env(), timeout=timeout)


def build(project: Path, out: Path, *extra: str) -> tuple[str, str]:
    """Build through the CLI; the printed ``cmd:`` spec and the whole output."""
    done = adjacency("project", "build", str(project), "--out", str(out), *extra, cwd=out.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    spec = done.stdout.splitlines()[-1]
    assert spec.startswith("cmd:java -cp "), done.stdout
    return spec, done.stdout


def play(spec: str, tmp_path: Path, time: str = "1") -> list[tuple[str, str, str]]:
    """Two games on 8x8 against greedy (one with each colour); per game: the bot's colour,
    the termination and the stored record."""
    db = tmp_path / "arena.db"
    done = adjacency(
        "match",
        spec,
        "greedy",
        "--games",
        "2",
        "--size",
        "8x8",
        "--rounds",
        str(ROUNDS),
        "--time",
        time,
        "--margin",
        "1",
        "--db",
        str(db),
        "--quiet",
        "-j",
        "1",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with Store(db) as store:
        games = store.games()
    assert len(games) == 2
    return [("x" if g.x == spec else "o", g.termination, g.record) for g in games]


def assert_plays_its_rule(spec: str, tmp_path: Path, from_top: bool = True) -> None:
    """Both games end on the board, and every move of the bot is its own rule's square."""
    for color, termination, record in play(spec, tmp_path):
        assert termination == "normal", record
        game = game_from_text(record)  # replays every move through Position.play
        assert game.position.is_over and len(game.moves) == 2 * ROUNDS
        played = zip(game.moves, game.positions, strict=False)
        mine = [(m.square, p) for m, p in played if p.turn == color]
        assert [square for square, _ in mine] == [first_empty(p, from_top) for _, p in mine]


@pytest.mark.parametrize(
    ("project", "bot"),
    [
        (UNPACKAGED, "Bot"),
        (CONTROLLER_CONSTRUCTOR, "game.Bot"),
        (STATIC_BUTTONS, "ai.Bot"),
    ],
    ids=["default-package", "controller-constructor", "static-buttons"],
)
def test_a_course_project_builds_unedited_and_plays_its_own_moves(
    project: Project, bot: str, tmp_path: Path
) -> None:
    """Each shape of bot built unedited from its folder plays its own moves. (A bot
    given its player's string, and one whose ``move`` takes the window's controller, are
    built and played as a team has them: in GitHub's Download ZIP and in a team folder
    beside the JavaFX SDK, below.)"""
    spec, output = build(write(tmp_path / "project", project), tmp_path / "build")
    assert spec.endswith(f"adjacency.kit.Main {bot}")
    assert_plays_its_rule(spec, tmp_path)
    if "OutputFrameController" in str(project):
        assert "stand-in" in output and "needs JavaFX beyond the stand-ins" in output


def test_a_bot_without_its_arguments_is_refused_naming_them(tmp_path: Path) -> None:
    """``Bot(int algorithm, char self, char enemy)`` with no argument: the build says which
    parameter the command line must give."""
    project = write(tmp_path / "project", ALGORITHM)
    refused = adjacency("project", "build", str(project), "--out", "b", cwd=tmp_path)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "needs 1 argument(s) after the class name (int algorithm), got 0" in refused.stderr


def test_a_bot_with_arguments_gets_them_from_the_command_line(tmp_path: Path) -> None:
    """With ``--bot ... --arg 2`` the cmd: spec passes the argument and the bot plays its
    algorithm 2 (from the bottom), its marks given by the side it plays."""
    project = write(tmp_path / "project", ALGORITHM)
    spec, _ = build(project, tmp_path / "build", "--bot", "ai.search.Bot", "--arg", "2")
    assert spec.endswith("adjacency.kit.Main ai.search.Bot 2")
    assert_plays_its_rule(spec, tmp_path, from_top=False)


def test_two_bots_without_a_manifest_are_listed_with_their_commands(tmp_path: Path) -> None:
    project = write(tmp_path / "project", TWO_BOTS)
    refused = adjacency("project", "build", str(project), "--out", "b", cwd=tmp_path)
    assert refused.returncode == 2
    assert "2 bots in the project" in refused.stderr
    for name in ("bots.BottomBot", "bots.TopBot"):
        assert f"adjacency.kit.Main {name}" in refused.stderr  # a cmd: line for each


def test_a_manifest_chooses_among_two_bots(tmp_path: Path) -> None:
    project = write(tmp_path / "project", {**TWO_BOTS, "adjacency-bot.json": MANIFEST_BOTTOM})
    spec, _ = build(project, tmp_path / "build")
    assert spec.endswith("adjacency.kit.Main bots.BottomBot")
    assert_plays_its_rule(spec, tmp_path, from_top=False)


def test_a_team_folder_with_the_javafx_sdk_report_and_screenshots(tmp_path: Path) -> None:
    """A folder as a team has it: the build compiles the bot, leaves out the JavaFX window
    classes and the module file (saying why) and every other file unread."""
    folder = write(tmp_path / "Tubes1_Team", {**CONTROLLER_MOVE, **BINARIES})
    spec, output = build(folder, tmp_path / "build")
    assert spec.endswith("adjacency.kit.Main bot.LocalSearchBot")
    assert "left out src/module-info.java: a module or package declaration" in output
    assert "left out src/controllers/Main.java: needs JavaFX beyond the stand-ins" in output
    assert "javafx.application.Application" in output
    # The FXML is kept (a JavaFX program loads it); the seven others are left out unread.
    assert "left out 7 file(s) that are not Java sources, unread" in output
    assert not list((tmp_path / "build").rglob("*.jar")) and not list(
        (tmp_path / "build").rglob("*.dll")
    )
    assert_plays_its_rule(spec, tmp_path)


def test_a_github_download_zip_with_its_top_folder(tmp_path: Path) -> None:
    archive = zipped(tmp_path / "Tubes1-main.zip", {**PLAYER_STRING, **BINARIES}, "Tubes1-main/")
    spec, _ = build(archive, tmp_path / "build")
    assert spec.endswith("adjacency.kit.Main bots.Bot")
    assert_plays_its_rule(spec, tmp_path)


def test_a_late_course_bot_loses_on_time_and_is_never_answered_for(tmp_path: Path) -> None:
    spec, _ = build(write(tmp_path / "project", SLOW), tmp_path / "build")
    for color, termination, record in play(spec, tmp_path, time="0.3"):
        assert termination == "time forfeit" and "sent no bestmove" in record, record
        game = game_from_text(record)
        assert all(p.turn != color for p in game.positions[: len(game.moves)])  # no move of its


def test_compiler_errors_are_shown_verbatim(tmp_path: Path) -> None:
    broken = {"src/Bot.java": "public class Bot {\n    public int[] move() { return nope; }\n}\n"}
    done = adjacency(
        "project", "build", str(write(tmp_path / "p", broken)), "--out", "b", cwd=tmp_path
    )
    assert done.returncode == 2
    assert "javac failed:" in done.stderr
    assert "Bot.java:2: error: cannot find symbol" in done.stderr and "nope" in done.stderr


def test_the_kit_readmes_own_bot_builds_and_answers(tmp_path: Path) -> None:
    """The Java kit's README example (a class implementing adjacency.kit.Bot), built as the
    README says, answers a legal move over the protocol."""
    readme = (REPO / "examples" / "engines" / "java" / "README.md").read_text()
    source = next(b for b in re.findall(r"```java\n(.*?)```", readme, re.S) if "MyBot" in b)
    spec, _ = build(write(tmp_path / "mybot", {"MyBot.java": source}), tmp_path / "build")
    assert spec.endswith("adjacency.kit.Main MyBot")
    command = shlex.split(spec.removeprefix("cmd:"))
    talk = "aep\nposition startpos moves c3\ngo movetime 500\nquit\n"
    done = subprocess.run(command, input=talk, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    move = done.stdout.splitlines()[-1].removeprefix("bestmove ")
    assert move in Position.start(8, 8, 28).play("c3").legal_moves()


SHAPES = {
    "Label": (
        "public int[] move(Button[][] position, String playerLabel, int roundsLeft)",
        "move(Button[][] position <- buttons, String playerLabel <- self, "
        "int roundsLeft <- rounds)",
    ),
    "Scores": (
        "public int[] move(Button[][] board, int Xscore, int Oscore)",
        "move(Button[][] board <- buttons, int Xscore <- x score, int Oscore <- o score)",
    ),
    "Typed": (
        "public int[] move(Button[][] buttons, String type, Integer depth)",
        "move(Button[][] buttons <- buttons, String type, Integer depth)",
    ),
    "Enemy": (
        "public int[] move(Button[][] b, char mine, char opponent, int enemyScore, int myScore)",
        "move(Button[][] b <- buttons, char mine <- self, char opponent <- enemy, "
        "int enemyScore <- enemy score, int myScore <- self score)",
    ),
}
"""Further ``move`` shapes of public course projects, and how the adapter fills each."""


def test_the_adapter_fills_each_parameter_by_type_and_name(tmp_path: Path) -> None:
    """Several bots, no manifest: the build lists each with how it would be called (and
    what a bot that needs arguments lacks)."""
    project = {
        f"src/shapes/{name}.java": "package shapes;\n\nimport javafx.scene.control.Button;\n\n"
        f"public class {name} {{\n    {signature} {{ return new int[] {{0, 0}}; }}\n}}\n"
        for name, (signature, _) in SHAPES.items()
    }
    done = adjacency("project", "build", str(write(tmp_path / "p", project)), "--out", "b",
                     cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    for name, (_, described) in SHAPES.items():
        if name == "Typed":  # its two arguments are not given: it is listed as unplayable
            assert "shapes.Typed: cannot be played: cannot play shapes.Typed" in done.stderr
            assert "needs 2 argument(s) after the class name (String type, Integer depth)" in (
                done.stderr
            )
        else:
            assert f"shapes.{name}: shapes.{name}() / {described}" in done.stderr, done.stderr
    typed = adjacency("project", "build", "p", "--out", "b", "--bot", "shapes.Typed",
                      "--arg", "minimax", "--arg", "4", cwd=tmp_path)  # fmt: skip
    assert typed.returncode == 0, typed.stderr
    assert "move(Button[][] buttons <- buttons, String type=minimax, Integer depth=4)" in (
        typed.stdout
    )


def test_building_inside_the_project_twice_reads_no_output_as_sources(tmp_path: Path) -> None:
    """``adjacency project build .`` from the project's folder, with the default output
    folder inside it: the second build skips the first one's output (no "two copies")."""
    project = write(tmp_path / "project", PLAYER_STRING)
    for _ in range(2):
        done = adjacency("project", "build", ".", cwd=project)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "compiled 1 source file(s)" in done.stdout
    assert (project / "adjacency-build" / "classes" / "bots" / "Bot.class").is_file()


def test_a_bot_left_out_for_its_imports_is_named_when_no_bot_is_found(tmp_path: Path) -> None:
    alert = {
        "src/Bot.java": "import javafx.scene.control.Alert;\nimport javafx.scene.control.Button;"
        "\n\npublic class Bot {\n    public int[] move(Button[][] b) {\n"
        "        new Alert(null);\n        return new int[] {0, 0};\n    }\n}\n",
        "src/Util.java": "public class Util {\n}\n",
    }
    done = adjacency(
        "project", "build", str(write(tmp_path / "p", alert)), "--out", "b", cwd=tmp_path
    )
    assert done.returncode == 2
    assert "no bot in the project" in done.stderr
    assert "left out of the build:\n  src/Bot.java: needs JavaFX beyond the stand-ins: " in (
        done.stderr
    )
    assert "javafx.scene.control.Alert" in done.stderr
