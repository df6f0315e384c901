"""The JavaFX driver's own test, with the JDK alone: its pure classes (the rules, the
``position`` command's reading, square names, the command line, the words that choose a
button, the crash's frames) compile without JavaFX, pass the driver's ``SelfTest``, and
agree with the server's own rules (:mod:`adjacency.core`) and the recipe's
:func:`~adjacency.hosting.fx_recipe.plain` on positions and names drawn here."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from adjacency.core import Position
from adjacency.core.fen import Color
from adjacency.hosting.fx_build import driver_sources
from adjacency.hosting.fx_recipe import plain

pytestmark = pytest.mark.jvm

PURE = ("Rules", "Setup", "Options", "Words", "Json", "Failure", "Threads", "Waits", "Calls")
SELF_TEST = "SelfTest"
"""The driver's classes that need no JavaFX; its self-test is :data:`SELF_TEST`."""

MAIN = "adjacency.fxdriver.SelfTest"


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pure classes compiled with the JDK alone (no module path: a JavaFX import in
    one of them fails here)."""
    out = tmp_path_factory.mktemp("fxdriver-self-test")
    package = driver_sources() / "adjacency" / "fxdriver"
    sources = [str(package / f"{name}.java") for name in (*PURE, SELF_TEST)]
    subprocess.run(["javac", "-Xlint:all", "-Werror", "-d", str(out), *sources], check=True)
    return out


def self_test(classes: Path, *args: str, lines: str = "") -> str:
    done = subprocess.run(
        ["java", "-Xshare:auto", "-cp", str(classes), MAIN, *args],
        input=lines,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_driver_passes_its_own_checks(classes: Path) -> None:
    said = self_test(classes).strip()
    assert said.startswith("fxdriver self-test: "), said
    assert " checks passed in " in said and "FAILED" not in said, said


def shown(position: Position) -> str:
    """A board as the driver's ``Rules.show`` writes it: top rank first, ``.xo``."""
    ranks = []
    for rank in range(8, 0, -1):
        ranks.append(
            "".join(
                {None: ".", "x": "x", "o": "o"}[position.piece_at(f"{file}{rank}")]
                for file in "abcdefgh"
            )
        )
    return "/".join(ranks)


def test_the_driver_reads_positions_as_the_server_plays_them(classes: Path) -> None:
    """Random games from the start (any rounds, either first) and from position text,
    the driver's reading of each ``position`` command against the server's own."""
    draw = random.Random(20261127)
    commands: list[str] = []
    wanted: list[str] = []
    for _ in range(300):
        rounds = draw.randint(2, 28)
        first: Color = draw.choice(("x", "o"))
        position = Position.start(8, 8, rounds, first)
        moves = []
        for _ in range(draw.randint(0, 2 * rounds)):
            square = draw.choice(position.legal_moves())
            moves.append(square)
            position = position.play(square)
        if draw.random() < 0.5:
            head = f"position startpos rows 8 cols 8 rounds {rounds} first {first}"
            commands.append(" ".join([head, *(["moves", *moves] if moves else [])]))
        else:
            # the same game as position text, a move or two of it after the text
            cut = max(0, len(moves) - draw.randint(0, 2))
            earlier = Position.start(8, 8, rounds, first)
            for square in moves[:cut]:
                earlier = earlier.play(square)
            rest = moves[cut:]
            commands.append(
                f"position fen {earlier.fen()}" + (" moves " + " ".join(rest) if rest else "")
            )
        wanted.append(f"{shown(position)} {position.turn} {position.plies_left}")
    answers = self_test(classes, "--positions", lines="\n".join(commands) + "\n").splitlines()
    assert answers == wanted


def test_the_driver_refuses_what_it_cannot_play(classes: Path) -> None:
    """A board other than 8x8, a taken square, a square off the board: said, not played."""
    commands = [
        "position startpos rows 6 cols 7",
        "position startpos moves a1",
        "position startpos moves c3 c3",
        "position startpos moves i9",
        "position fen 6oo/6oo/8/8/8/8/xx6/xx7 x 8",
    ]
    answers = self_test(classes, "--positions", lines="\n".join(commands) + "\n").splitlines()
    assert answers == [
        "error: the program's board is 8x8; the game's is 6x7",
        "error: a move the driver cannot play: a1",
        "error: a move the driver cannot play: c3",
        "error: a move the driver cannot play: i9",
        "error: the program's board is 8x8; the game's is not (6oo/6oo/8/8/8/8/xx6/xx7)",
    ]


def test_the_driver_names_squares_as_the_server_does(classes: Path) -> None:
    names = self_test(classes, "--names").split()
    assert names == [f"{file}{rank}" for rank in range(8, 0, -1) for file in "abcdefgh"]


def test_the_driver_matches_names_as_the_recipe_does(classes: Path) -> None:
    """The driver finds a control by the name the recipe gave it: both read names alike
    (case, surrounding spaces and trailing colons aside)."""
    draw = random.Random(7)
    alphabet = "aAbZ :\t.-_xXéÉİı1"
    names = ["".join(draw.choice(alphabet) for _ in range(draw.randint(0, 9))) for _ in range(400)]
    names = [name.replace("\t", " ") for name in names]
    answers = self_test(classes, "--plain", lines="\n".join(names) + "\n").split("\n")[:-1]
    assert answers == [plain(name) for name in names]
