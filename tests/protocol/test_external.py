"""The cmd: bot against misbehaving engines: each failure is recorded, no process is left."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import sys
import threading
import time

import pytest

from adjacency.bots import Limit, make_bot
from adjacency.bots.base import BotError
from adjacency.bots.external import ExternalBot, parse_command_spec
from adjacency.bots.referee import play_game
from adjacency.core import Position
from adjacency.core.game import Game, Termination
from protocol_helpers import (
    FAKE_ENGINE,
    assert_group_gone,
    assert_process_gone,
    fake_spec,
    group_members,
    running,
)

SMALL = Position.start(4, 4, 4)  # 8 plies: quick games


def play_fake(mode: str, limit: Limit, start: Position = SMALL) -> tuple[Game, ExternalBot]:
    """The fake engine (as x) against greedy; returns the game and the (closed) bot."""
    bot = make_bot(fake_spec(mode))
    assert isinstance(bot, ExternalBot)
    with bot, make_bot("greedy:seed=1") as greedy:
        game = play_game(bot, greedy, start, limit)
    return game, bot


def first_square_moves(game: Game) -> list[str]:
    """What the fake engine (x) would play in each of its positions: the first empty square."""
    return [p.legal_moves()[0] for p in game.positions[:-1] if p.turn == "x"]


@pytest.mark.parametrize(
    ("mode", "termination", "quotes"),
    [
        ("occupied", Termination.ILLEGAL_MOVE, ["'bestmove a1'", "occupied by x"]),
        ("off-board", Termination.ILLEGAL_MOVE, ["'bestmove a5'", "off the 4x4 board"]),
        ("malformed", Termination.ILLEGAL_MOVE, ["'bestmove hello'", "malformed square"]),
        ("missing-move", Termination.ILLEGAL_MOVE, ["'bestmove'", "no square given"]),
        ("crash-at-go", Termination.DISCONNECTION, ["exited with status 1", "(pretend)"]),
        (
            "spawn-child,crash-at-go",
            Termination.DISCONNECTION,
            ["exited with status 1", "(pretend)"],
        ),
        ("hang-on-go", Termination.TIME_FORFEIT, ["after 'stop'", "killed"]),
        ("ignores-stop", Termination.TIME_FORFEIT, ["after 'stop'", "killed"]),
        ("spawn-child,hang-on-go", Termination.TIME_FORFEIT, ["after 'stop'", "killed"]),
        ("slow", Termination.TIME_FORFEIT, ["answered only after 'stop'"]),
        ("readyok-once", Termination.TIME_FORFEIT, ["no 'readyok' before its move's deadline"]),
    ],
)
def test_misbehaviour_is_recorded_and_no_process_remains(
    mode: str, termination: Termination, quotes: list[str]
) -> None:
    game, bot = play_fake(mode, Limit(time=0.3))
    assert game.termination == termination
    assert game.result == "o"
    assert game.moves == []
    for quote in quotes:
        assert quote in game.termination_detail
    assert str(FAKE_ENGINE) in game.termination_detail
    assert bot.engine is not None
    assert_group_gone(bot.engine.pid)


def test_crash_mid_game_is_a_disconnection_after_the_moves_played() -> None:
    game, bot = play_fake("crash-after-moves", Limit(time=1.0))
    assert game.termination == Termination.DISCONNECTION
    assert game.result == "o"
    assert len(game.moves) == 4
    assert "segmentation fault (pretend)" in game.termination_detail
    assert bot.engine is not None
    assert_group_gone(bot.engine.pid)


def test_exit_between_moves_is_a_disconnection_not_a_silent_restart() -> None:
    game, bot = play_fake("exit-after-moves", Limit(time=1.0))
    assert game.termination == Termination.DISCONNECTION
    assert game.result == "o"
    assert len(game.moves) == 4
    assert "exited with status 4" in game.termination_detail
    assert "exiting between moves" in game.termination_detail
    assert bot.engine is not None
    assert_group_gone(bot.engine.pid)


def test_engine_is_killed_at_once_on_time_forfeit_not_only_at_close() -> None:
    bot = make_bot(fake_spec("spawn-child,ignores-stop"))
    assert isinstance(bot, ExternalBot) and bot.engine is not None
    pid = bot.engine.pid
    assert pid is not None and len(group_members(pid)) == 2  # the engine and its child
    game = play_game(bot, make_bot("greedy"), SMALL, Limit(time=0.2))
    assert game.termination == Termination.TIME_FORFEIT
    assert_group_gone(pid)
    bot.close()


def test_a_grandchild_that_left_the_group_is_killed_too() -> None:
    bot = make_bot(fake_spec("spawn-session-child,ignores-stop"))
    assert isinstance(bot, ExternalBot) and bot.engine is not None
    pid = bot.engine.pid
    assert pid is not None
    child = wait_for_child(bot)
    assert running(child) and os.getpgid(child) != pid  # setsid: not in the engine's group
    game = play_game(bot, make_bot("greedy"), SMALL, Limit(time=0.2))
    assert game.termination == Termination.TIME_FORFEIT
    assert_group_gone(pid)
    assert_process_gone(child)
    bot.close()


def wait_for_child(bot: ExternalBot) -> int:
    """The pid the fake engine reports on stderr for the child it started."""
    assert bot.engine is not None
    for _ in range(100):
        for line in bot.engine.stderr_tail():
            if line.startswith("child "):
                return int(line.split()[1])
        time.sleep(0.05)
    pytest.fail(f"the fake engine reported no child: {bot.engine.stderr_tail()}")


@pytest.mark.parametrize("mode", ["good", "crlf", "talks-after-stop", "spawn-child", "flood"])
def test_tolerated_behaviour_plays_a_whole_game(mode: str) -> None:
    game, bot = play_fake(mode, Limit(time=5.0))
    assert game.termination == Termination.NORMAL, game.termination_detail
    assert len(game.moves) == 8
    # The fake plays the first empty square: a late or duplicated bestmove was not taken.
    assert [m.square for m in game.moves[::2]] == first_square_moves(game)
    assert bot.engine is not None
    assert bot.engine.identity.name == f"Fake {'good' if mode == 'spawn-child' else mode}"
    assert_group_gone(bot.engine.pid)
    if mode == "flood":  # stderr is kept in a bounded ring buffer
        assert bot.engine.stderr_tail() == [f"stderr flood {n}" for n in range(4980, 5000)]


def test_engine_as_o_and_on_another_board() -> None:
    start = Position.start(5, 6, 5, first="o")
    with make_bot(fake_spec("good")) as engine, make_bot("random:seed=4") as other:
        game = play_game(other, engine, start, Limit(time=2.0))
    assert game.termination == Termination.NORMAL
    assert [m.square for m in game.moves][0::2] == [
        p.legal_moves()[0] for p in game.positions[:-1] if p.turn == "o"
    ]


def test_restarts_after_a_crash_for_the_next_game() -> None:
    bot = make_bot(fake_spec("crash-after-moves"))
    assert isinstance(bot, ExternalBot) and bot.engine is not None
    first_pid = bot.engine.pid
    with bot:
        game = play_game(bot, make_bot("greedy"), SMALL, Limit(time=1.0))
        assert game.termination == Termination.DISCONNECTION
        bot.new_game()
        move = bot.choose_move(SMALL, Limit(time=1.0))
        assert move == "c1"
        assert bot.engine.pid != first_pid
    assert_group_gone(first_pid)
    assert_group_gone(bot.engine.pid)


def test_stop_from_another_thread_returns_the_engines_answer() -> None:
    with make_bot(fake_spec("slow")) as bot:
        timer = threading.Timer(0.2, bot.stop)
        timer.start()
        move = bot.choose_move(SMALL, Limit(time=None))
        timer.join()
    assert move == "c1"


def test_options_are_set_after_the_handshake_and_unknown_ones_rejected() -> None:
    with make_bot(fake_spec("good", "opt.Hash=64")) as bot:
        assert isinstance(bot, ExternalBot) and bot.engine is not None
        assert "Hash" in bot.engine.identity.options
        assert bot.engine.identity.options["Hash"].maximum == 1024
    with pytest.raises(BotError, match=r"has no option 'Threads' \(it declares: Hash\)"):
        make_bot(fake_spec("good", "opt.Threads=2"))


def test_working_directory_setting(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    shutil.copy(FAKE_ENGINE, tmp_path / "engine.py")
    spec = f"cmd:[dir={tmp_path};name=Copied] {shlex.quote(sys.executable)} engine.py good"
    with make_bot(spec) as bot:
        assert isinstance(bot, ExternalBot)
        assert bot.name == "Copied"
        assert bot.choose_move(SMALL, Limit(time=2.0)) == "c1"


@pytest.mark.parametrize(
    ("mode", "messages"),
    [
        ("never-aepok", ["sent no 'aepok' within 1.5s", "waiting for something that never"]),
        ("crash-at-handshake", ["exited with status 3 during the handshake", "opening book"]),
        ("no-readyok", ["sent no 'readyok' within 1.5s", "fake engine starting"]),
    ],
)
def test_startup_failures_name_the_command_and_quote_stderr(mode: str, messages: list[str]) -> None:
    # 1.5 s, not less: a loaded machine can take over 0.5 s to start the fake engine's
    # Python, and then it has not yet written the stderr line the error must quote.
    with pytest.raises(BotError) as caught:
        make_bot(fake_spec(mode, "timeout=1.5"))
    text = str(caught.value)
    assert str(FAKE_ENGINE) in text and mode in text
    for message in messages:
        assert message in text
    found = re.search(r"fake engine starting in mode [a-z-]+, pid (\d+)", text)
    assert found is not None
    assert_group_gone(int(found.group(1)))


def test_a_program_that_cannot_start() -> None:
    with pytest.raises(BotError, match=r"cannot start engine 'no-such-engine-anywhere --x'"):
        make_bot("cmd:no-such-engine-anywhere --x")


def test_a_program_that_exits_at_once_quotes_its_stderr() -> None:
    code = "import sys; sys.stderr.write('missing library libfoo\\n'); sys.exit(2)"
    spec = f"cmd:{shlex.join([sys.executable, '-c', code])}"
    with pytest.raises(BotError, match=r"exited with status 2 during the handshake") as caught:
        make_bot(spec)
    assert "missing library libfoo" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "names no program"),
        ("[name=x]", "names no program"),
        ("[dir=/tmp python3", "no closing ']'"),
        ("[colour=red] python3", "unknown setting 'colour'; accepted: dir, name"),
        ("[dir] python3", "expected SETTING=VALUE, got 'dir'"),
        ("[dir=/no/such/dir] python3", "dir '/no/such/dir' is not a directory"),
        ("[timeout=0] python3", "timeout must be a number of seconds above 0, got '0'"),
        ("[grace=soon] python3", "grace must be a number of seconds from 0, got 'soon'"),
        ("python3 'unclosed", "cannot split the command line: No closing quotation"),
    ],
)
def test_bad_specs_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(BotError) as caught:
        parse_command_spec(text)
    assert message in str(caught.value)
    assert repr(text) in str(caught.value)


def test_spec_parsing() -> None:
    spec = parse_command_spec(
        "[dir=~;name=My Bot; opt.Hash=16;opt.Book File=a b] java -jar 'my bot.jar'"
    )
    assert spec.argv == ("java", "-jar", "my bot.jar")
    assert spec.name == "My Bot"
    assert spec.options == {"Hash": "16", "Book File": "a b"}
    assert spec.cwd is not None and not spec.cwd.startswith("~")
    assert parse_command_spec("./engine").argv == ("./engine",)


class Interrupted(BaseException):
    """Stands for a referee's alarm or Ctrl-C arriving while the engine thinks."""


def test_an_interrupted_move_kills_the_engine_at_once() -> None:
    bot = make_bot(fake_spec("spawn-child,ignores-stop"))
    assert isinstance(bot, ExternalBot) and bot.engine is not None
    pid = bot.engine.pid

    def interrupt(signum: int, frame: object) -> None:
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)  # as the referee's hard deadline does
    try:
        with pytest.raises(Interrupted):
            bot.choose_move(SMALL, Limit(time=None))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert_group_gone(pid)
    bot.close()


def test_a_disconnection_leaves_no_child_even_before_close() -> None:
    bot = make_bot(fake_spec("spawn-child,crash-at-go"))
    assert isinstance(bot, ExternalBot) and bot.engine is not None
    pid = bot.engine.pid
    game = play_game(bot, make_bot("greedy"), SMALL, Limit(time=1.0))
    assert game.termination == Termination.DISCONNECTION
    assert_group_gone(pid)
    bot.close()
