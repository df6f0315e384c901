"""A failed move told in its team's words (:mod:`adjacency.hosting.team_words`), on what
the real protocol client says of real programs: small engines written here that fail as
students' programs do (never open, never answer, answer an occupied square, exit), played
through the real :class:`~adjacency.bots.external.ExternalBot` and, for a program played
through its window, :class:`~adjacency.hosting.fx_run.DrivenBot`, whose stand-in for the
JavaFX driver writes the driver's own lines. What a team reads has no word of the engine
protocol, never ends mid-sentence, and names its bot's square or its window's rule."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from adjacency.bots.base import BotError, BotFailure, Limit
from adjacency.bots.external import ExternalBot
from adjacency.core import Position
from adjacency.core.game import Termination
from adjacency.hosting.fx_run import MARKED, DrivenBot
from adjacency.hosting.team_words import (
    LAST_LINES,
    OWN_FRAMES,
    team_words,
    told_stderr,
    whole_sentences,
)

PROTOCOL_WORDS = ("aep", "aepok", "readyok", "isready", "bestmove", "'stop'", "engine ")
"""Words of the engine protocol (and the client's ``engine 'COMMAND'``) a team never reads."""

ENGINE = """\
import sys, time
ACT = {act!r}
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "aep":
        if ACT == "never opens":
            time.sleep(60)
        print("aepok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        for said in {stderr!r}:
            print(said, file=sys.stderr, flush=True)
        if ACT == "never moves":
            time.sleep(60)
        if ACT == "exits":
            sys.exit(1)
        print("bestmove " + {square!r}, flush=True)
    elif word == "quit":
        break
"""
"""An engine that opens (or not) and at its first move writes ``stderr``'s lines, then
answers ``square``, never answers or exits with status 1 (``act``)."""

BOARD = [
    "fxdriver: its board as its window shows it, top row first:",
    *(f"fxdriver:   {' '.join('.' * 8)}" for _ in range(6)),
    "fxdriver:   X X . . . . . .",
    "fxdriver:   X X . . . . . .",
]
"""The driver's board of the start, as its window shows it."""


def engine(tmp_path: Path, act: str = "", square: str = "c3", stderr: tuple[str, ...] = ()) -> str:
    script = tmp_path / "engine.py"
    script.write_text(ENGINE.format(act=act, square=square, stderr=list(stderr)))
    return shlex.join([sys.executable, str(script)])


def failed_move(bot: ExternalBot) -> BotFailure:
    """The failure of ``bot``'s move at the start of an 8x8 game, X to move."""
    with pytest.raises(BotFailure) as failed:
        bot.choose_move(Position.start(8, 8, 2), Limit(time=0.3))
    bot.close()
    return failed.value


def assert_a_students_words(told: str) -> None:
    for word in PROTOCOL_WORDS:
        assert word not in told, (word, told)
    assert sys.executable not in told


def test_a_program_that_never_opens_did_not_finish_opening(tmp_path: Path) -> None:
    with pytest.raises(BotError) as failed:
        ExternalBot(f"[timeout=0.5] {engine(tmp_path, 'never opens')}")
    told = team_words(str(failed.value))
    assert told.startswith("the program did not finish opening within 0.5 s")
    assert_a_students_words(told)


def test_a_program_that_never_moves_gave_no_move(tmp_path: Path) -> None:
    bot = ExternalBot(f"[grace=0.2] {engine(tmp_path, 'never moves', stderr=('thinking',))}")
    failure = failed_move(bot)
    assert failure.termination is Termination.TIME_FORFEIT
    told = team_words(failure.detail)
    assert told.startswith(
        "the program gave no move in its 0.3 s for the move and 0.05 s of grace, "
        "nor in the 0.2 s after its time was up; it was stopped; its last lines:"
    )
    assert "  thinking" in told.split("\n")
    assert_a_students_words(told)


def test_an_occupied_answer_is_your_bots_choice_of_that_square(tmp_path: Path) -> None:
    failure = failed_move(ExternalBot(f"{engine(tmp_path, square='a1')}"))
    assert failure.termination is Termination.ILLEGAL_MOVE
    assert team_words(failure.detail) == "your bot chose a1, which is occupied"


def test_a_window_that_marks_an_occupied_square_tells_it_with_its_board(tmp_path: Path) -> None:
    marked = f"fxdriver: the program's bot marked a1, {MARKED}"
    bot = DrivenBot(f"{engine(tmp_path, square='a1', stderr=(marked, *BOARD))}")
    told = team_words(failed_move(bot).detail).split("\n")
    assert told[0] == "your bot chose a1, which is occupied"
    assert told[1:] == [line.removeprefix("fxdriver: ") for line in BOARD]
    assert_a_students_words("\n".join(told))


def test_a_program_that_exits_after_marking_an_occupied_square_names_it(tmp_path: Path) -> None:
    """The program's own bug: its bot chose a square that was not empty, then the program
    ended; the team reads the square, its last lines and the board at that move."""
    lines = ("Bot picks (7, 0)", f"fxdriver: the program's bot marked a1, {MARKED}", *BOARD)
    failure = failed_move(ExternalBot(f"{engine(tmp_path, 'exits', stderr=lines)}"))
    told = team_words(failure.detail).split("\n")
    assert told[0] == (
        "while choosing a move, the program exited with status 1 after your bot chose a1, "
        "which is occupied; its last lines:"
    )
    assert told[1] == "  Bot picks (7, 0)"
    assert told[-9:] == [line.removeprefix("fxdriver: ") for line in BOARD]
    assert_a_students_words("\n".join(told))


def test_a_window_that_flips_diagonals_is_told_the_rule_it_plays_otherwise(
    tmp_path: Path,
) -> None:
    """The driver ends a program whose window flips a diagonal neighbour, saying so: the
    team reads that, not that its program exited."""
    rule = (
        "fxdriver: your window flips diagonal neighbours: its bot's move at c3 turned b4, "
        "which touches c3 only diagonally; the course's rules flip only the four orthogonal "
        "ones"
    )
    failure = failed_move(ExternalBot(f"{engine(tmp_path, 'exits', stderr=(rule, *BOARD))}"))
    told = team_words(failure.detail).split("\n")
    assert told[0].startswith("while choosing a move, your window flips diagonal neighbours: ")
    assert told[0].endswith(
        "the course's rules flip only the four orthogonal ones; its last lines:"
    )
    assert_a_students_words("\n".join(told))


def test_a_line_cut_for_its_length_ends_at_a_sentence(tmp_path: Path) -> None:
    """The client cuts a long line (200 characters); the team reads it up to its last
    sentence's end, never a word cut in two."""
    board = "/".join(["........"] * 8)
    long = (
        f"fxdriver: the program's board changed from {board} to {board}; no single move of "
        "the bot does that. Its window shows the board below"
    )
    failure = failed_move(ExternalBot(f"{engine(tmp_path, 'exits', stderr=(long,))}"))
    told = team_words(failure.detail).split("\n")
    assert told[1] == (
        f"  the program's board changed from {board} to {board} "
        f"(and more: {len(long)} characters in all)"
    )


def test_a_programs_own_cut_line_is_quoted_as_the_client_cut_it(tmp_path: Path) -> None:
    own = "Score: " + "x" * 300
    failure = failed_move(ExternalBot(f"{engine(tmp_path, 'exits', stderr=(own,))}"))
    told = team_words(failure.detail).split("\n")
    assert told[1] == f"  {own[:200]}... ({len(own)} characters)"


def test_a_cut_line_keeps_its_last_whole_clause() -> None:
    """The driver's account of a hung window, its frames past the client's cut: the team
    reads where its program waited, up to the last whole clause."""
    line = (
        "the program's window has not answered for 3 s; the JavaFX thread is TIMED_WAITING "
        "in the program at Bot.java:12, at java.base@17.0.15/java.lang.Thread.sleep(Native "
        "Method) < app//Bot.move(Bo... (298 characters)"
    )
    assert whole_sentences(line) == (
        "the program's window has not answered for 3 s; the JavaFX thread is TIMED_WAITING "
        "in the program at Bot.java:12 (and more: 298 characters in all)"
    )


def test_a_cut_line_with_no_sentence_end_keeps_its_cut() -> None:
    line = "x" * 200 + "... (5000 characters)"
    assert whole_sentences(line) == line
    assert whole_sentences("a plain line. Another") == "a plain line. Another"


OFF_THREAD = (
    'Exception in thread "pool-2-thread-1" java.lang.IllegalStateException: Not on FX '
    "application thread; currentThread = pool-2-thread-1",
    "\tat javafx.graphics/com.sun.javafx.tk.Toolkit.checkFxUserThread(Toolkit.java:299)",
    "\tat game.Board.mark(Board.java:88)",
    "\tat game.Board.lambda$botTurn$0(Board.java:41)",
    "\tat java.base/java.lang.Thread.run(Thread.java:833)",
)
"""A course window's bot that marks its square from a worker thread, as Java says it."""


def test_a_window_changed_off_its_thread_is_told_what_javafx_allows(tmp_path: Path) -> None:
    """The team reads what the exception means and where, with the thread it named."""
    told = team_words(failed_move(ExternalBot(engine(tmp_path, "exits", stderr=OFF_THREAD))).detail)
    assert "its cause: java.lang.IllegalStateException: Not on FX application thread" in told
    assert "from the thread 'pool-2-thread-1'; make that change inside Platform.runLater" in told
    assert "at game.Board.mark(Board.java:88)" in told


def test_a_dry_run_that_fails_after_pages_of_prints_is_told_by_its_failure() -> None:
    """A program that prints on and on, then overflows its stack in its own recursion:
    the refusal quotes the cause, what it means and the team's frames, not the prints."""
    prints = [f"generation {n}" for n in range(500)]
    trace = [
        'fxdriver: an exception in thread "JavaFX Application Thread": '
        "java.lang.StackOverflowError",
        "\tat Genetic.mutate(Genetic.java:51)",
        *["\tat Genetic.mutate(Genetic.java:63)"] * 40,
    ]
    told = told_stderr("\n".join([*prints, *trace]))
    assert told.startswith("its cause: java.lang.StackOverflowError, at Genetic.java:51"), told
    assert "called itself without end" in told
    assert "generation" not in told and len(told.splitlines()) <= 2 + OWN_FRAMES
    plain = told_stderr("\n".join(prints))
    assert plain.splitlines() == ["its last lines:", *(f"  {p}" for p in prints[-LAST_LINES:])]
