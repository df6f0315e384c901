"""A bot that crashes or answers junk is recorded for what it is, at once, in its own
words, through the real command line and a real league server:

* ``adjacency connect`` tells the server (``failed``): the game ends as a crash
  (termination ``disconnection``) or an illegal move with the bot's words and the last
  lines of its stderr, long before its clock would have run out, and the client prints
  them;
* ``adjacency move`` and ``adjacency match`` print the last lines of a failed ``cmd:``
  bot's stderr, and ``move`` exits non-zero with no move on its output (the Python kit
  no longer plays a stand-in move for a bot that raises);
* the Node kit's own league client ``league.js`` plays a student's module, and reports
  its crash the same way.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from cli_helpers import run_process
from kit_helpers import NODE_KIT, PYTHON_KIT, tool
from league_helpers import (
    Process,
    add_member,
    env,
    make_league,
    start_client,
    start_server,
    wait_until,
)

pytestmark = pytest.mark.slow

RAISES = 'def move(board, deadline):\n    raise ValueError("my bug on purpose")\n'
JUNK = 'def move(board, deadline):\n    return "zz99"\n'
CLOCK = 600.0
"""The league's clock: a loss on time would take ten minutes, so a game that ends within
the test's guard ended by the failure itself."""


def kit_spec(bot: Path) -> str:
    return f"cmd:{sys.executable} {PYTHON_KIT / 'engine.py'} {bot}"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_process(*args, env=env())


def first_finished(db: Path) -> StoredGame | None:
    with LeagueStore(db) as store:
        done = store.games.games(status="finished", limit=1)
    return done[0] if done else None


def serve_one_student(tmp_path: Path) -> tuple[Path, str, str, Process]:
    """A league on :data:`CLOCK` with a house bot and the team ``student``, served by a
    real ``league serve``: its file, the student's token, its URL and the server's
    process (the caller stops it)."""
    db = tmp_path / "league.db"
    make_league(db, base=CLOCK, increment=0.0)
    add_member(db, "house-random", "house", "random")
    token = add_member(db, "student")
    server = start_server(db, 0, tmp_path / "server.log")
    return db, token, server.url, server


@pytest.mark.parametrize(
    ("source", "termination", "words"),
    [
        (RAISES, "disconnection", "ValueError: my bug on purpose"),
        (JUNK, "illegal move", "'bestmove zz99'"),
    ],
)
def test_connect_reports_a_failed_bot_and_the_game_ends_at_once_in_its_words(
    tmp_path: Path, source: str, termination: str, words: str
) -> None:
    bot = tmp_path / "student.py"
    bot.write_text(source)
    db, token, url, server = serve_one_student(tmp_path)
    client = start_client(url, token, kit_spec(bot), tmp_path / "client.log", "--games", "1")
    try:
        game = wait_until(lambda: first_finished(db), 60, "the game to end")
        wait_until(lambda: client.popen.poll() is not None, 60, "the client to leave")
    finally:
        client.stop()
        server.stop()
    with LeagueStore(db) as store:
        student = store.members.member_named("student").id
    assert game.termination == termination and game.points(student) == 0
    assert game.detail.startswith("student failed: ") and words in game.detail
    assert max(game.x_time, game.o_time) < CLOCK / 2  # not a loss on time after the clock
    printed = client.text()
    assert f"the bot failed ({termination})" in printed and words in printed
    assert client.popen.returncode == 0  # it played its one game, as asked


JS_RAISES = "exports.move = () => { throw new RangeError('my bug on purpose'); };\n"


@pytest.mark.parametrize("kit", ["python", pytest.param("javascript", marks=pytest.mark.node)])
def test_move_exits_non_zero_with_the_tail_of_a_raising_bots_traceback(
    tmp_path: Path, kit: str
) -> None:
    if kit == "python":
        bot = tmp_path / "raises.py"
        bot.write_text(RAISES)
        spec, words = kit_spec(bot), "ValueError: my bug on purpose"
    else:
        bot = tmp_path / "raises.js"
        bot.write_text(JS_RAISES)
        spec, words = f"cmd:{tool('node')} {NODE_KIT / 'engine.js'} {bot}", "RangeError"
    done = cli("move", spec, "--time", "2")
    assert done.returncode == 3 and done.stdout == ""
    assert "exited with status 1; last lines of its stderr" in done.stderr
    assert words in done.stderr and "my bug on purpose" in done.stderr
    assert done.stderr.startswith("adjacency move: error: ")


def test_match_prints_the_first_failure_with_the_bots_stderr(tmp_path: Path) -> None:
    bot = tmp_path / "raises.py"
    bot.write_text(RAISES)
    db = str(tmp_path / "m.db")
    done = cli("match", kit_spec(bot), "random", "--games", "2", "--size", "6x6",
               "--rounds", "4", "--time", "2", "--quiet", "--db", db)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 of 2 games ended by a crash or an illegal answer" in done.stdout
    assert "ValueError: my bug on purpose" in done.stdout


JS_PLAYS = "exports.move = (board) => board.legalMoves()[0];\n"


@pytest.mark.node
@pytest.mark.parametrize(
    ("source", "termination"), [(JS_PLAYS, "normal"), (JS_RAISES, "disconnection")]
)
def test_the_node_league_client_plays_a_students_module_and_reports_its_crash(
    tmp_path: Path, source: str, termination: str
) -> None:
    bot = tmp_path / "my_bot.js"
    bot.write_text(source)
    db, token, url, server = serve_one_student(tmp_path)
    try:
        done = subprocess.run(
            [tool("node"), "--experimental-websocket", str(NODE_KIT / "league.js"), url,
             str(bot), "--games", "1"],
            capture_output=True, text=True, timeout=120,
            env={**env(), "ADJACENCY_LEAGUE_TOKEN": token},
        )  # fmt: skip
        game = first_finished(db)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert game is not None and game.termination == termination, game
    if termination != "normal":
        assert game.detail.startswith("student failed: RangeError: my bug on purpose")
