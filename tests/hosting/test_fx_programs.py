"""A team's own JavaFX program played through its own window: course-shaped projects
(:mod:`fx_course_projects`), each from GitHub's Download ZIP with a stand-in of the JavaFX
SDK inside, built by the real ``javac`` against Debian's OpenJFX, read by a
dry run and played by the driver in bubblewrap under a private Xvfb, whole games with each
colour against ``greedy`` in the arena's games. Every move the program makes is checked
against its own bot's rule (the bot named by the choice, on the board as the window draws
it: the league's, or a half-turn of it), so a move that the program did not make cannot
pass. The hostile programs lose with their reason: a crash with the team's exception and
file, a hung window on time, a mark on an occupied square as an illegal move. (Each
course shape's rated games, with each colour, are ``test_fx_league.py``'s, through the
real server; the form's rules are ``test_fx_forms.py``'s, on recorded windows; each form
the driver reads or plays its own way is read and played here, a game with each colour.)
"""

from __future__ import annotations

import re
import struct
import subprocess
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

import pytest

from adjacency.arena import games
from adjacency.arena.games import GameResult, play_task
from adjacency.arena.schedule import GameTask
from adjacency.bots import Bot, BotError, Limit, make_bot
from adjacency.core import Position
from adjacency.core.game import Termination
from adjacency.core.record import game_from_text
from adjacency.hosting import fx_run
from adjacency.hosting.fx_build import FxBuild, build_fx
from adjacency.hosting.fx_check import CHECK_ROUNDS, check_driven_program
from adjacency.hosting.fx_kind import LANGUAGE, look
from adjacency.hosting.fx_recipe import Recipe, recipe_for
from adjacency.hosting.fx_run import DryRun, dry_run, fx_bot
from adjacency.hosting.java_build import BuildFailed
from adjacency.hosting.move_clock import GRACE
from adjacency.hosting.player import Choice
from adjacency.hosting.seat import BotSeat
from adjacency.hosting.team_words import LAST_BOARD_HEAD, team_words
from adjacency.sandbox import check
from fx_course_projects import (
    ATTACKS,
    BOT_BUTTON,
    DIAGONAL,
    EXITS,
    FORGES,
    FORMS,
    HOSTILE,
    NEXT_BUTTON,
    PAUSE_SECONDS,
    PAUSES,
    SHAPES,
    SPINS,
    THINKS_ALOUD,
    TWO_BOTS_FORM,
    WRITES_FILES,
    Shape,
    assert_board_picture,
    bot_move,
    download_zip,
    write,
)
from fx_forms import RECORDED, recorded, recording
from league_helpers import wait_until
from sandbox_helpers import own_sandboxes, reachable_folder

pytestmark = [pytest.mark.jvm, pytest.mark.xdist_group("fx-programs")]

ROUNDS = 4


@dataclass
class Built:
    build: FxBuild
    form: dict[str, object]
    picture: bytes
    recipe: Recipe


def assert_looks_recorded(shape: Shape, looks: dict[str, dict[str, Any]]) -> None:
    """Every look a real dry run of ``shape`` took read the form recorded for it
    (:mod:`fx_forms`): the recorded windows cannot rot."""
    kept = recorded(shape)
    for key, form in looks.items():
        assert kept.get(key) == form, (
            f"{shape.name}'s look {key} read another form than its recording (re-record: "
            f".venv/bin/python tests/fx_forms.py): {form}"
        )


AT_ONCE = 3
"""Shapes a workshop builds and dry-runs at once (:class:`Workshop`): a dry run mostly
waits for its program's window, so on two cores their waits overlap."""


@dataclass
class Made:
    """A shape's build and, for a dry-run shape, its look (``look``'s recipe and dry run)
    with every look it took (:func:`~fx_forms.recording`)."""

    build: FxBuild
    seen: tuple[Recipe, DryRun] | None
    looks: dict[str, dict[str, Any]]


class Workshop:
    """Each shape built, and dry-run but for the hostile ones, once for the module;
    every look of a recorded shape is compared with its recording, in the test that
    asks for the shape. The shapes come in ``waves`` (each the shapes, with whether each
    is dry-run, that the module's tests ask for next): the first ask for a shape of a
    wave builds and dry-runs that whole wave, :data:`AT_ONCE` shapes at a time, and waits
    for all of it (that test pays its wave; no build runs beside a test's games); a shape
    in no wave is built when asked. A shape whose build or dry run failed fails the test
    that asks for it with that error, and the next ask tries the shape again."""

    def __init__(self, folder: Path, waves: Sequence[Sequence[tuple[Shape, bool]]] = ()) -> None:
        self.folder = folder
        self.waves = [list(wave) for wave in waves]
        self.done: dict[str, Built] = {}
        self.fetched: dict[tuple[str, bool], Future[Made]] = {}

    def built(self, shape: Shape, dry: bool = True) -> Built:
        if shape.name not in self.done:
            self.fetch(shape, dry)
            future = self.fetched.pop((shape.name, dry), None)
            made = future.result() if future is not None else self.make(shape, dry)
            if made.seen is not None:
                if shape in RECORDED:  # what the unit tests read is what the driver reads
                    assert_looks_recorded(shape, made.looks)
                recipe, seen = made.seen
                form, picture = seen.form, seen.picture
            else:  # the hostile shapes have the per-side shape's form
                form, picture = self.built(SHAPES[0]).form, b""
                recipe = recipe_for(form)
            self.done[shape.name] = Built(made.build, form, picture, recipe)
        return self.done[shape.name]

    def fetch(self, shape: Shape, dry: bool) -> None:
        """Where ``shape`` is in a wave not yet fetched: make every shape of that wave
        not yet built (:meth:`make`), :data:`AT_ONCE` at a time, and wait for them all."""
        wave = next((w for w in self.waves if (shape, dry) in w), None)
        if wave is None:
            return
        self.waves.remove(wave)
        with ThreadPoolExecutor(AT_ONCE, thread_name_prefix="workshop") as pool:
            for each, each_dry in wave:
                if each.name not in self.done and (each.name, each_dry) not in self.fetched:
                    self.fetched[each.name, each_dry] = pool.submit(self.make, each, each_dry)

    def make(self, shape: Shape, dry: bool) -> Made:
        """``shape`` built and, where ``dry``, read by the product's dry runs."""
        # As GitHub's Download ZIP, with the SDK's jars and libraries, a report and a
        # screenshot beside the sources: more than the engine-protocol route takes.
        zips = self.folder / "zips"
        zips.mkdir(exist_ok=True)
        project = download_zip(shape, zips / f"{shape.name}.zip")
        build = build_fx(project, self.folder / "builds" / shape.name)
        looks: dict[str, dict[str, Any]] = {}
        if not dry:
            return Made(build, None, looks)
        with recording(looks):
            seen = look(build, self.folder / "dry" / shape.name, {})
        return Made(build, seen, looks)


WAVES: tuple[tuple[tuple[Shape, bool], ...], ...] = (
    # the per-side shape and every hostile one, each built once; asked for first
    (
        (SHAPES[0], True),
        *((shape, False) for shape in (WRITES_FILES, *HOSTILE, DIAGONAL, EXITS, FORGES)),
        *((shape, False) for shape in (SPINS, *ATTACKS, *THINKS_ALOUD, PAUSES)),
    ),
    # the buttons' shapes and the forms, in the order their tests ask, a wave a shape
    # a thread (more at once crowd two cores: the wave's first test would wait too long)
    tuple((shape, True) for shape in (BOT_BUTTON, NEXT_BUTTON, FORMS[0])),
    tuple((shape, True) for shape in (FORMS[2], FORMS[3], FORMS[4])),
    ((FORMS[7], True),),
)
"""The shapes :func:`workshop` makes together (:class:`Workshop`): each wave's first
test pays it."""


@pytest.fixture(scope="module")
def workshop(fx_tools: None) -> Iterator[Workshop]:
    check()  # the sandbox starts here (a failure names the fix)
    with reachable_folder("adjacency-fx-") as folder:
        yield Workshop(folder, WAVES)


@pytest.fixture(autouse=True)
def bots_own_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    """The arena's referee interrupts a move 1 s past its budget, a backstop by the wall
    clock for a bot that never returns; a driven program's bot stops and ends its
    program by itself 0.55 s past it, and on a loaded machine ending a JVM and its
    display takes longer than what is left, so the backstop would cut its account short
    ("did not answer ... and was interrupted"). Here the backstop waits 20 s: each game's
    verdict and words are the bot's own, as on a quiet machine."""
    monkeypatch.setattr(games, "HARD_GRACE", 20.0)


def play(built: Built, colour: str, seconds: float = 20.0, rounds: int = ROUNDS) -> GameResult:
    """One game of ``rounds`` rounds on 8x8: the program as ``colour`` against greedy."""

    def factory(spec: str, seed: int | None) -> Bot:
        return fx_bot(built.build, built.recipe) if spec == "fx" else make_bot(spec, seed)

    x, o = ("fx", "greedy") if colour == "x" else ("greedy", "fx")
    start = Position.start(8, 8, rounds).fen()
    task = GameTask(0, 0, 0, x, o, x, o, 8, 8, rounds, start, 1, seconds, None, None, 0.05)
    return play_task(task, factory)


def test_a_program_finds_no_folder_of_the_servers_to_write(workshop: Workshop) -> None:
    """Neither its dry run (its form and picture come on standard output) nor its game
    gives the program a folder it may write but its private ``/tmp``: one that throws as
    soon as it writes a file anywhere else starts, is read and plays to the end."""
    built = workshop.built(WRITES_FILES, dry=False)  # its form is the per-side shape's
    seen = dry_run(built.build, workshop.folder / "dry" / WRITES_FILES.name)
    assert seen.picture.startswith(b"\x89PNG\r\n\x1a\n") and seen.form["controls"], seen.form
    result = play(built, "x")
    assert result.termination == "normal", result.detail


def test_the_dry_run_reads_the_form_and_draws_the_window(workshop: Workshop) -> None:
    """The per-side shape built and read by the real dry runs, re-recorded: each look
    reads the form its recording holds (:class:`Workshop`; the form's rules are
    ``test_fx_forms.py``'s on those recordings), and the window is drawn."""
    built = workshop.built(SHAPES[0])
    listed = cast(list[dict[str, Any]], built.form["controls"])
    controls = {c["id"]: c for c in listed}
    assert controls["typeO"]["options"] == ["Person", "Bot Minimax", "Bot Random"]
    assert controls["typeO"]["label"] == "Player O"
    assert controls["numberOfRounds"]["value"] == "28"
    assert controls["firstBox"] == {
        "kind": "check",
        "id": "firstBox",
        "label": "O moves first",
        "options": [],
        "value": "false",
        "window": 0,
    }
    assert [c["label"] for c in listed if c["kind"] == "button"] == ["Play", "Reset"]
    png = built.picture
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert 200 < width < 1000 and 150 < height < 800
    assert built.form["path"] == ["Play"]  # the button that opened the board


def check_moves(
    result: GameResult,
    shape: Shape,
    colour: str,
    from_top: bool,
    rounds: int = ROUNDS,
    turned: bool = True,
) -> None:
    """Every move of the program's side is its bot's (scanning from the window's top-left
    or bottom-right), on the board as the program draws it (where not ``turned``, a
    window whose bot takes the side that must move: the league's board)."""
    assert result.termination == "normal", result.detail
    assert result.plies == 2 * rounds
    game = game_from_text(result.record)
    position = game.start
    # The bot plays O in the window unless its choice said X; the window's board is the
    # league's when the bot's league colour starts in the bot's corner, else a half-turn.
    half_turn = turned and (colour == "x") != (shape_bot_mark(shape) == "X")
    for move in game.moves:
        if position.turn == colour:
            assert move.square == bot_move(position, from_top, half_turn), game.moves
        position = position.play(move.square)


def shape_bot_mark(shape: Shape) -> str:
    """The mark of the bot's pieces under the default choice: O in every shape written
    here (the person on X's box, ``Person vs Bot``, a bot type or a fixed bot for O)."""
    return "O"


HOSTILE_LOSSES = {
    # shape -> the termination, words of the detail, the move time
    "crashes": (
        "disconnection",
        ["the program crashed", "the bot lost its way", "Bot.java:"],
        20.0,
    ),
    "hangs": (
        "time forfeit",
        [
            "sent no bestmove",
            "the JavaFX thread is TIMED_WAITING in the program at Bot.java:",
            "its board as its window last showed it, top row first:",  # it does not answer
        ],
        8.0,
    ),
    "occupied": ("illegal move", ["is occupied"], 20.0),
}


@pytest.mark.parametrize("shape", HOSTILE, ids=[s.name for s in HOSTILE])
def test_a_program_that_breaks_loses_with_its_reason(workshop: Workshop, shape: Shape) -> None:
    """Each breaks at its bot's second move (the game's third ply, the program being X):
    nothing answers for it, the game ends there with the reason in the team's terms."""
    built = workshop.built(shape, dry=False)
    termination, words, seconds = HOSTILE_LOSSES[shape.name]
    result = play(built, "x", seconds)
    assert result.termination == termination, result.detail
    assert result.result == "o"
    assert result.plies == 2, result.record
    for word in words:
        assert word in result.detail, result.detail


def test_a_window_that_flips_diagonals_is_told_its_rule_difference(workshop: Workshop) -> None:
    """A window that flips diagonal neighbours too: at the first move that turns one (the
    bot's or its opponent's), the driver ends the game naming the rule difference, and
    the team reads it first, in one sentence, not cut."""
    result = play(workshop.built(DIAGONAL, dry=False), "x")
    assert result.termination == "disconnection", result.detail
    told = team_words(result.detail).split("\n")
    said = re.fullmatch(
        r"while choosing a move, your window flips diagonal neighbours: (its bot's|the "
        r"opponent's) move at [a-h][1-8] turned [a-h][1-8](, [a-h][1-8])*, which touch(es)? "
        r"[a-h][1-8] only diagonally; the course's rules flip only the four orthogonal "
        r"ones; its last lines:",
        told[0],
    )
    assert said is not None, told
    assert "its board as its window shows it, top row first:" in told


def test_a_program_that_exits_is_told_with_its_last_lines_and_board(workshop: Workshop) -> None:
    """A program that ends its JVM at its bot's second move, after its own words on the
    square its bot chose: the team reads that it exited, its own last line, and the board
    it ended on."""
    result = play(workshop.built(EXITS, dry=False), "x")
    assert result.termination == "disconnection", result.detail
    told = team_words(result.detail).split("\n")
    assert told[0] == "while choosing a move, the program exited with status 1; its last lines:"
    assert any(re.fullmatch(r"  Bot chose \(\d, \d\), which is taken", t) for t in told), told
    assert "  the program ended the JVM" in told, told
    # its JavaFX thread ends the JVM: the board as the driver last read it, at that move
    assert len(told) > 9 and told[-9] == LAST_BOARD_HEAD, told


def test_a_program_that_speaks_the_protocol_itself_is_not_heard(workshop: Workshop) -> None:
    """Only the driver speaks: the program's ``bestmove a1`` (a square never empty) sent
    by the JVM's own standard output, by the driver's stream reached by reflection from
    the handler of uncaught exceptions, and by the protocol's descriptors under
    ``/proc/self/fd``, at its bot's first three moves, is never heard: had one line
    reached the protocol, the game would be lost there as an illegal move. Every move
    credited is its bot's, as its window marked it."""
    built = workshop.built(FORGES, dry=False)
    result = play(built, "x")
    check_moves(result, FORGES, "x", from_top=True)


def test_the_check_is_a_game_with_each_colour(workshop: Workshop) -> None:
    """A program that plays is accepted after a short game with each colour; one that
    marks an occupied square is refused naming the colour, the move and the reason."""
    good = workshop.built(SHAPES[0])
    assert good.recipe.fewest_rounds == 2  # the rounds box offers 2, 4, ... 28
    verdict = check_driven_program(lambda: fx_bot(good.build, good.recipe), 20.0, rounds=2)
    assert verdict.accepted, verdict.detail
    assert "2 rounds with each colour against greedy" in verdict.detail
    bad = workshop.built(HOSTILE[2], dry=False)
    verdict = check_driven_program(lambda: fx_bot(bad.build, bad.recipe), 20.0, rounds=2)
    assert not verdict.accepted
    assert re.fullmatch(
        r"as X, at move 3 \([^)]*\): your bot chose [a-h][1-8], which is occupied",
        verdict.detail.splitlines()[0],
    ), verdict.detail
    assert_board_told(verdict.detail.splitlines()[1:])
    assert_board_picture(verdict.picture)


CHECK_REFUSALS = {
    # a hostile shape -> words of its check's refusal, whether a picture of its board
    # goes with it (a window that no longer answers draws none)
    "crashes": (["the bot lost its way", "Bot.java:"], True),
    "hangs": (["gave no move"], False),
}


@pytest.mark.parametrize("shape", HOSTILE[:2], ids=[s.name for s in HOSTILE[:2]])
def test_the_check_refuses_a_program_that_breaks_with_the_reason(
    workshop: Workshop, shape: Shape
) -> None:
    """The check on the league's clock (2 s a move here, so a hung window is given up on
    in seconds, not the course's 5) refuses a program that crashes or hangs its window
    at its bot's second move, as X in its first game, with the reason in its words and,
    but for a window that no longer answers, the picture of its board then (which the
    league keeps for its team: an occupied square is ``test_fx_league.py``'s, through the
    real server)."""
    bad = workshop.built(shape, dry=False)
    words, pictured = CHECK_REFUSALS[shape.name]
    verdict = check_driven_program(lambda: fx_bot(bad.build, bad.recipe), 2.0, rounds=2)
    assert not verdict.accepted, verdict.detail
    assert verdict.detail.startswith("as X, at move 3 ("), verdict.detail
    for word in words:
        assert word in verdict.detail, verdict.detail
    if pictured:
        assert_board_picture(verdict.picture)
    else:
        assert verdict.picture is None, verdict.detail


def assert_board_told(lines: list[str]) -> None:
    """``lines`` are the driver's account of a mark on a square that was not empty, after
    the team's words that name the square (``your bot chose b2, which is occupied``): the
    board as the program's window shows it, eight rows of eight marks (the program's own
    ``X``/``O``, ``.`` for empty), with the block of each side."""
    assert lines[0] == "its board as its window shows it, top row first:", lines
    rows = [line.split() for line in lines[1:]]
    assert len(rows) == 8 and all(len(row) == 8 for row in rows), lines
    marks = {mark for row in rows for mark in row}
    assert marks <= {"X", "O", "."} and {"X", "O"} <= marks, lines


@pytest.mark.parametrize("shape", [HOSTILE[0], HOSTILE[2]], ids=["crashes", "occupied"])
def test_a_failure_in_a_rated_game_tells_the_board_and_shows_it(
    workshop: Workshop, shape: Shape
) -> None:
    """Through the league's seat (:class:`~adjacency.hosting.seat.BotSeat`, as a rated game
    asks its moves), a program whose bot crashes, or marks a square that is not empty,
    loses at that move with its reason and a picture of its board as its window drew it
    then (sent on the protocol: the sandbox writes no file); a mark also tells the board
    in words."""
    bad = workshop.built(shape, dry=False)
    seat = BotSeat(Choice(bad.build.folder, bad.build.main, bad.recipe.driver_args(), LANGUAGE))
    greedy = make_bot("greedy")
    position = Position.start(8, 8, ROUNDS)
    seat.open()
    try:
        first = seat.move(position.fen(), 20.0, 40.0)  # X: its first move, legal
        assert first.failure is None and first.move is not None, first
        position = position.play(first.move)
        position = position.play(greedy.choose_move(position, Limit(time=1.0)))
        second = seat.move(position.fen(), 20.0, 40.0)  # its second: a marked square
    finally:
        seat.close()
    assert second.move is None and second.failure is not None, second
    assert_board_picture(second.picture)
    termination, reason = second.failure
    if shape.hostile == "crash":
        assert termination is Termination.DISCONNECTION, second
        assert "the bot lost its way" in reason and "Bot.java:" in reason, reason
        return
    assert termination is Termination.ILLEGAL_MOVE, second
    lines = reason.splitlines()
    assert re.fullmatch(r"your bot chose [a-h][1-8], which is occupied", lines[0]), reason
    assert_board_told(lines[1:])


def test_the_check_charges_the_whole_sandboxs_cpu(workshop: Workshop) -> None:
    """The check runs on the rated games' clock: a program that thinks on past its
    seconds of CPU is stopped there and refused for its CPU time, not its wall time."""
    spinner = workshop.built(SPINS, dry=False)
    verdict = check_driven_program(lambda: fx_bot(spinner.build, spinner.recipe), 3.0, rounds=2)
    assert not verdict.accepted
    assert verdict.detail.startswith("as X, at move 3 ("), verdict.detail
    assert "used more than its 3 s of CPU" in verdict.detail, verdict.detail


def test_a_program_that_fails_at_its_start_is_refused_with_the_cause(
    fx_tools: None, tmp_path: Path
) -> None:
    """Its FXML file missing, the program's start throws; JavaFX wraps that in "Exception
    in Application start method", and the refusal says the cause and the team's line."""
    check()
    with reachable_folder("adjacency-fx-start-") as folder:
        project = write(SHAPES[0], folder / "project")
        for fxml in project.rglob("*.fxml"):
            fxml.unlink()
        build = build_fx(project, folder / "build")
        with pytest.raises(BuildFailed) as refused:
            dry_run(build, folder / "dry")
    said = str(refused.value)
    assert "its cause: java.lang.NullPointerException: Location is required." in said, said
    assert "at Main.java:" in said, said


def test_a_window_that_plays_itself_is_refused_in_those_words(fx_tools: None) -> None:
    """A form of two bot boxes and no person side: Play opens the board, where the two
    bots play each other with no click. The dry run sees the board move for both marks
    and the build is refused saying so, not that no button opened the board."""
    check()
    with reachable_folder("adjacency-fx-itself-") as folder:
        build = build_fx(write(TWO_BOTS_FORM, folder / "project"), folder / "build")
        with pytest.raises(BuildFailed) as refused:
            look(build, folder / "dry", {})
    said = str(refused.value)
    assert said == (
        "your window plays its two bots against each other: after 'Mainkan' its board "
        "moved for both O and X with no click, so no side is left for the league's "
        "opponent; a league game needs a window where a person plays one side"
    ), said


def test_an_error_alert_loses_with_its_text(workshop: Workshop) -> None:
    """A name left empty: the program answers Play with an error alert, not a board; the
    game is lost at the program's first move with the alert's words."""
    built = workshop.built(SHAPES[0])
    settings = tuple((k, "" if k == "nameX" else v) for k, v in built.recipe.settings)
    empty = Built(built.build, built.form, built.picture, replace(built.recipe, settings=settings))
    result = play(empty, "x")
    assert result.termination == "disconnection", result.detail
    assert result.plies == 0
    assert "the program showed an error alert: " in result.detail
    assert "Please fill in both names" in result.detail


@pytest.mark.parametrize("shape", ATTACKS, ids=[s.name for s in ATTACKS])
def test_an_attack_on_the_driver_or_the_machine_stays_in_its_sandbox(
    workshop: Workshop, shape: Shape, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window that never opens cannot start (no handshake: the league's game is lost by
    its disconnection); a modal dialog that never
    closes loses on time at the move that opened it; a program looking for other games'
    displays sees only its own (a display of this test's runs on the host meanwhile) and
    the display it starts itself ends with its game. Nothing answers for the program.
    The window that never opens is given 8 s for its handshake here, not the product's
    30 s: it never answers, however long it is waited for."""
    built = workshop.built(shape, dry=False)
    monkeypatch.setattr(fx_run, "HANDSHAKE_SECONDS", 8.0)
    host = None
    if shape.hostile == "displays":  # another game's display, on the host
        host = subprocess.Popen(
            ["/usr/bin/Xvfb", ":57", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        if host is not None:
            wait_until(lambda: Path("/tmp/.X11-unix/X57").exists(), 20, "the host's display")
        if shape.hostile == "no-window":
            with pytest.raises(BotError, match="sent no 'aepok' within 8s"):
                play(built, "x", 4.0)
            # no process of its sandbox is left (of this test's: another test's or league's
            # driven programs may run on the machine meanwhile)
            wait_until(lambda: not own_sandboxes(), 20, "the program's sandbox to end")
            return
        result = play(built, "x", 4.0)
    finally:
        if host is not None:
            host.kill()
            host.wait()
    if shape.hostile == "modal":
        assert (result.result, result.termination, result.plies) == ("o", "time forfeit", 2)
        # its window still answers: the loss shows its board as the window draws it
        assert "its board as its window shows it, top row first:" in result.detail
        rows = re.findall(r"fxdriver:   ((?:[XO.] ){7}[XO.])", result.detail)
        assert len(rows) == 8 and sum(row.count("X") + row.count("O") for row in rows) >= 8
    else:
        assert result.termination == "normal", result.detail  # it saw no other display
        assert "saw another display" not in result.detail
    # what it started (the display :77 included) ended with its game; this test's own
    # sandboxes only, as another league's programs may start displays meanwhile
    wait_until(lambda: not own_sandboxes(), 20, "the program's sandbox to end")


@pytest.mark.parametrize(
    ("shape", "colour"),
    [(BOT_BUTTON, "x"), (BOT_BUTTON, "o"), (NEXT_BUTTON, "x")],
    ids=["move-bot-x", "move-bot-o", "next-x"],
)
def test_a_bot_that_moves_at_a_button_s_press_is_pressed_on(
    workshop: Workshop, shape: Shape, colour: str
) -> None:
    """A program whose bot waits for its person to press ``Move Bot`` (enabled at the
    bot's turn), or ``Next`` beside the course window's ``End Game`` and ``Play New
    Game``: the driver, finding the program idle at its bot's turn, presses it once, as a
    person would (never a button that ends or restarts the game), and the moves are the
    team's bot's."""
    result = play(workshop.built(shape), colour)
    check_moves(result, shape, colour, from_top=True)


FORM_CASES = {
    # a test's id -> the form, what its verdict says it plays, whether its window's board
    # turns with the bot's league colour; one journey a form the driver reads or plays its
    # own way (the rules of each, and the teams' choices, are test_fx_forms.py's on the
    # recorded windows; a form's league journey is test_fx_league.py's)
    "blank-first": (
        FORMS[0],
        "plays Minimax as O; your form also offers Local Search: choose on your page",
        True,
    ),
    "stacked": (
        FORMS[2],
        "plays Minimax as O; your form also offers Local Search: choose on your page",
        True,
    ),
    "first-window": (FORMS[3], "plays Minimax as O", True),
    # X moves first, always: the bot goes on the side that must move, its board never turned
    "per-player": (
        FORMS[4],
        "plays Minimax as X when it moves first, as O when it moves second; your form also "
        "offers Local Search: choose on your page",
        False,
    ),
    # radio buttons are read as a box: the bot's group opens on Local Search, and the
    # league plays its adversarial search, Minimax; who moves first is a group in a pane
    # beside its label, set for each game
    "radios": (
        FORMS[7],
        "plays Minimax as O; your window opens on Local Search and offers Local Search, "
        "Minimax, Genetic: the league plays Minimax, the course's adversarial search; "
        "choose another on your page",
        True,
    ),
}


@pytest.mark.parametrize("case", FORM_CASES)
def test_a_form_is_read_as_a_person_reads_it(workshop: Workshop, case: str) -> None:
    """Each course-shaped form the driver reads or plays its own way
    (:data:`~fx_course_projects.FORMS`: a blank first option and a start button named
    ``Mainkan``, stacked panes shown by a mode box, a first window that chooses the mode
    by its buttons, a box per player and no first mover, radio buttons), from its
    Download ZIP, built and read by the real dry runs (every look the recorded one:
    :class:`Workshop`), is said to play the bot its window shows (or the first real one
    where it shows none, saying what else it offers; the adversarial search its bots'
    group offers where it opens on another bot, saying why), as O (per player: on the
    side that must move), its side confirmed by its bot's own move; its check takes the
    fewest rounds its window offers, and a game of them with each colour ends on the
    board, every move of the program's side its bot's, never the window's own."""
    shape, verdict, turned = FORM_CASES[case]
    built = workshop.built(shape)
    assert built.recipe.seen is True, (case, built.recipe)
    said = f"program {built.build.main}, {built.recipe.describe()}"
    assert said == f"program Main, {verdict}", said
    rounds = built.recipe.fewest_rounds or CHECK_ROUNDS  # as the league's check takes them
    assert rounds == 2, (case, built.recipe)
    for colour in ("x", "o"):
        result = play(built, colour, rounds=rounds)
        check_moves(result, shape, colour, from_top=True, rounds=rounds, turned=turned)


@pytest.mark.parametrize("shape", THINKS_ALOUD, ids=[s.name for s in THINKS_ALOUD])
def test_a_bot_out_of_time_is_told_where_it_was_thinking(workshop: Workshop, shape: Shape) -> None:
    """A bot still thinking when its clock runs out, printing as it goes (its prints bury
    the driver's lines on standard error): the loss says where the program was thinking
    (its JavaFX thread, or the thread of its own that runs its code), as the driver sent
    it on the protocol at 'stop', or 3 s into the move (on a loaded machine the process
    can be killed before the stop's note is read: the earlier note then says it)."""
    result = play(workshop.built(shape, dry=False), "x", 4.0)
    assert (result.termination, result.result, result.plies) == ("time forfeit", "o", 2)
    assert "sent no bestmove" in result.detail, result.detail
    thread = "JavaFX thread" if shape.thread == "fx" else "thread 'Thread-"
    where = re.compile(
        rf"(at its clock's end|3 s into its move), its {re.escape(thread)}.*?was RUNNABLE "
        r"in the program at Bot\.java:"
    )
    assert where.search(result.detail.partition("; last lines of its stderr")[0]), result.detail


def test_a_move_is_timed_from_the_call_of_the_bot_not_the_windows_pause(
    workshop: Workshop,
) -> None:
    """Through the league's seat on a 1 s clock, a program whose window waits 2.5 s after
    the opponent's move before it calls its bot (as a person would want to see the move):
    the pause is the window's, not the bot's, so its moves are in time and charged what its
    bot's calls took, as the driver's span says. At its third move its bot itself sleeps
    2.5 s before it answers: a bot's own idle time is its own, and that move is lost on
    time."""
    built = workshop.built(PAUSES, dry=False)
    seat = BotSeat(
        Choice(built.build.folder, built.build.main, built.recipe.driver_args(), LANGUAGE)
    )
    greedy = make_bot("greedy")
    position = Position.start(8, 8, ROUNDS)
    answers, spans = [], []
    seat.open()
    try:
        for _ in range(3):  # X: the window pauses, then calls its bot
            answer = seat.move(position.fen(), 1.0, 30.0)
            answers.append(answer)
            spans.append(fx_run.bot_span(seat.bot))
            if answer.move is None or answer.failure is not None:
                break
            position = position.play(answer.move)
            position = position.play(greedy.choose_move(position, Limit(time=1.0)))
    finally:
        seat.close()
    assert len(answers) == 3, answers
    for answer, span in zip(answers[:2], spans, strict=False):
        assert answer.failure is None and answer.move is not None, answer
        assert answer.wall >= PAUSE_SECONDS, answer  # the window did pause before its bot
        assert span is not None and span.seconds < PAUSE_SECONDS / 2, (span, answer)
        assert span.waited is not None, span  # the calls' own waits, measured in the sandbox
        assert answer.own < 1.0, answer
    last = answers[2]
    assert last.failure is not None and last.failure[0] is Termination.TIME_FORFEIT, last
    # its sleep, less at most the machine's waits for a CPU in the move, beyond clock and grace
    assert last.own > 1.0 + GRACE, last
