"""The starter kits of ``examples/engines`` (Java, JavaScript, Python), through their real
interfaces: built with the real ``javac``, run with ``java``, ``node`` and ``python3``,
playing matches through ``adjacency match`` and ``cmd:``, spoken to over pipes, compared
with :class:`adjacency.Position` move by move, and joining a real league server."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency.arena.store import Store
from adjacency.bots.baseline import immediate_gain
from adjacency.core import Position
from adjacency.core.errors import AdjacencyError
from adjacency.core.record import game_from_text
from adjacency.league.league_file import LeagueStore
from kit_helpers import (
    NODE_KIT,
    PROTOCOL_LINE,
    Engine,
    kit_command,
    tool,
)
from league_helpers import (
    add_member,
    assert_replays,
    env,
    get,
    make_league,
    start_client,
    start_server,
    wait_until,
)

pytestmark = pytest.mark.node  # the JavaScript kit; the Java kit is marked by java_build

KITS = ("java", "javascript", "python")
LEAGUE_JS = ("alphabeta", "--games", "3")


def greedy_first(position: Position) -> str:
    """The kits' greedy rule: most squares won now, ties to the first square a1, b1, ..."""
    squares = position.legal_squares()
    best = max(immediate_gain(position, sq) for sq in squares)
    return position.board.name(next(sq for sq in squares if immediate_gain(position, sq) == best))


def negamax(position: Position, depth: int) -> int:
    """The piece difference for the side to move after a full minimax search ``depth`` deep."""
    if depth == 0 or position.is_over:
        x, o = position.score
        return x - o if position.turn == "x" else o - x
    return max(-negamax(position.play(m), depth - 1) for m in position.legal_moves())


# ---------------------------------------------------------------- matches through the CLI

MATCHES = [
    ("java", "greedy"),
    ("java", "alphabeta"),
    ("javascript", "greedy"),
    ("javascript", "alphabeta"),
    ("python", "greedy"),
    ("python", "alphabeta"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("kit", "bot"), MATCHES)
def test_a_kit_bot_plays_a_match_against_random_through_the_cli(
    kit: str, bot: str, java_build: Path, tmp_path: Path
) -> None:
    # The kits answer within the budget; the margins are for a loaded 2-core machine (a kit's
    # answer 0.75 s into its 0.5 s was seen at load 11): the command's margin before 'stop'
    # (an answer after 'stop' forfeits, external.py) and the referee's (--margin).
    spec = "cmd:[margin=1] " + shlex.join(kit_command(kit, bot, java_build))
    db = tmp_path / "arena.db"
    match = [sys.executable, "-m", "adjacency", "match", spec, "random", "--games", "2"]
    options = ["--size", "5x6", "--rounds", "4", "--time", "0.5", "--db", str(db), "--quiet"]
    done = subprocess.run(
        [*match, *options, "--margin", "1", "-j", "1"],
        cwd=tmp_path,
        env=env(),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with Store(db) as store:
        games = store.games()
    assert len(games) == 2 and {g.x for g in games} == {spec, "random"}
    for row in games:
        assert row.termination == "normal", row.detail
        game = game_from_text(row.record)  # replays every move through Position.play
        assert len(game.moves) == 8 and game.position.is_over
        color = "x" if row.x == spec else "o"
        played = [(m.square, p) for m, p in zip(game.moves, game.positions, strict=False)]
        mine = [(square, p) for square, p in played if p.turn == color]
        assert len(mine) == 4
        if bot == "greedy":
            assert [square for square, _ in mine] == [greedy_first(p) for _, p in mine]


# ---------------------------------------------------------------- the protocol over pipes


@pytest.mark.parametrize("kit", KITS)
def test_the_runner_speaks_the_protocol_and_obeys_stop(kit: str, java_build: Path) -> None:
    engine = Engine(kit_command(kit, "alphabeta", java_build))
    try:
        engine.send("aep")
        hello = engine.until("aepok")
        assert hello[0].startswith("id name alphabeta") and hello[1].startswith("id author ")
        # Unknown commands and bad arguments get the error answer, and the engine goes on.
        engine.send("joho", "isready")
        assert engine.read() == "info string error: unknown command 'joho'"
        assert engine.read() == "readyok"
        engine.send("joho isready")  # unknown leading tokens are skipped, as in UCI
        assert engine.read() == "readyok"
        bad = ["position startpos moves a1", "position fen 8/8/8 x 3", "go movetime -5", "go xtime"]
        engine.send(*bad, "go depth \u00b2", "setoption name Hash value 1", "isready")
        for line in [*bad, "go depth", "setoption"]:
            assert engine.read().startswith("info string error: "), line
        assert engine.read() == "readyok"

        # stop during a search that would not end by itself (8x8, 56 plies to search).
        after_c3 = Position.start().play("c3")
        engine.send("newgame", "position startpos moves C3\r", "go infinite", "isready")
        before_stop = engine.until("readyok")
        assert not [line for line in before_stop if line.startswith("bestmove")]
        engine.send("go movetime 10", "stop")
        answer = engine.until("bestmove")
        assert "info string error: go ignored while searching; send 'stop' first" in answer
        assert answer[-1].split()[1] in after_c3.legal_moves()
        # Exactly one bestmove per go: nothing more comes when the search thread returns.
        engine.send("isready")
        assert not [line for line in engine.until("readyok") if line.startswith("bestmove")]

        # An infinite search that finishes early keeps its answer until stop.
        small = Position.start(4, 4, 4)
        engine.send("position startpos rows 4 cols 4 rounds 4", "go infinite depth 1", "isready")
        assert not [line for line in engine.until("readyok") if line.startswith("bestmove")]
        engine.send("stop")
        assert engine.until("bestmove")[-1] == f"bestmove {greedy_first(small)}"

        # A clock instead of movetime, and a finished game.
        engine.send(f"position fen {small.fen()} moves c1", "go xtime 900 otime 800")
        assert engine.until("bestmove")[-1].split()[1] in small.play("c1").legal_moves()
        engine.send("position fen xxxx/oooo/4/4 x 0", "go movetime 100")
        assert engine.until("bestmove") == [
            "info string error: the game is over in 'xxxx/oooo/4/4 x 0'; no move to make",
            "bestmove (none)",
        ]
    finally:
        status = engine.close()
    assert status == 0, engine.stderr
    assert [line for line in engine.lines if not PROTOCOL_LINE.fullmatch(line)] == []


STUBBORN = {
    "java": (
        "Stubborn.java",
        """
import adjacency.kit.*;

public class Stubborn implements Bot {
    public String move(Board board, Deadline deadline) {
        System.out.println("thinking, and never done");
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }
}
""",
    ),
    "javascript": (
        "stubborn.js",
        """
module.exports.move = (board, deadline) => {
  console.log('thinking, and never done');
  const moves = board.legalMoves();
  deadline.offer(moves[moves.length - 1]);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
""",
    ),
    "python": (
        "stubborn.py",
        """
import threading


def move(board, deadline):
    print("thinking, and never done")
    deadline.offer(board.legal_moves()[-1])
    threading.Event().wait()
""",
    ),
}


@pytest.mark.parametrize("kit", ["javascript", "python"])
def test_a_student_bot_that_prints_and_overruns_still_answers_in_time(
    kit: str, java_build: Path, tmp_path: Path
) -> None:
    """A bot of one's own, loaded by name, that prints on standard output and never returns:
    the runner answers with its last offer at the budget, and standard output stays clean."""
    name, source = STUBBORN[kit]
    (tmp_path / name).write_text(source)
    if kit == "java":
        build = tmp_path / "build"
        javac = [tool("javac"), "-cp", str(java_build), "-d", str(build), str(tmp_path / name)]
        subprocess.run(javac, check=True, timeout=300)
        command = [tool("java"), "-cp", f"{java_build}:{build}", "adjacency.kit.Main", "Stubborn"]
    else:
        command = kit_command(kit, str(tmp_path / name), java_build)
    engine = Engine(command)
    try:
        engine.send("aep", "isready")  # as a controller does: the first search starts ready
        engine.until("readyok")
        engine.send("position startpos rows 4 cols 5 rounds 3", "go movetime 300")
        assert engine.until("bestmove")[-2:] == [  # the last empty square: its offer, said so
            "info string the bot had not returned; the runner sends its last offer c4",
            "bestmove c4",
        ]
        # Still stuck in the first search (Node's runner replaces its worker: time to start it).
        engine.send("position startpos rows 4 cols 5 rounds 3 moves c4", "go movetime 2000")
        assert engine.until("bestmove")[-1] == "bestmove b4"
        engine.send("isready")
        assert engine.read() == "readyok"
    finally:
        engine.close()
    assert [line for line in engine.lines if not PROTOCOL_LINE.fullmatch(line)] == []
    assert "thinking, and never done" in engine.stderr


SILENT = {
    "javascript": (
        "silent.js",
        """
module.exports.move = () => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
""",
    ),
    "python": (
        "silent.py",
        """
import threading


def move(board, deadline):
    threading.Event().wait()
""",
    ),
}
"""Bots that offer nothing and never return (the Java one is STUBBORN's: the Java kit
has no offers)."""


@pytest.mark.parametrize("kit", KITS)
def test_the_runner_never_answers_with_a_move_of_its_own(
    kit: str, java_build: Path, tmp_path: Path
) -> None:
    """A bot that never returns, with nothing offered, gets no ``bestmove`` at its budget nor
    on ``stop`` (``readyok``, answered after ``stop`` in order, comes with no ``bestmove``
    before it): the controller's clock decides. Standard output stays clean (the Java bot
    prints, and its line goes to standard error)."""
    name, source = STUBBORN["java"] if kit == "java" else SILENT[kit]
    (tmp_path / name).write_text(source)
    if kit == "java":
        build = tmp_path / "build"
        javac = [tool("javac"), "-cp", str(java_build), "-d", str(build), str(tmp_path / name)]
        subprocess.run(javac, check=True, timeout=300)
        command = [tool("java"), "-cp", f"{java_build}:{build}", "adjacency.kit.Main", "Stubborn"]
    else:
        command = kit_command(kit, str(tmp_path / name), java_build)
    engine = Engine(command)
    try:
        engine.send("aep", "isready")
        engine.until("readyok")
        engine.send("position startpos rows 4 cols 5 rounds 3", "go movetime 100")
        engine.send("stop", "isready")
        assert engine.until("readyok") == ["readyok"]
    finally:
        engine.close()
    assert [line for line in engine.lines if not PROTOCOL_LINE.fullmatch(line)] == []
    said = "thinking, and never done" if kit == "java" else "the runner sends none"
    assert said in engine.stderr


@st.composite
def small_positions(draw: st.DrawFn) -> Position:
    rows, cols = draw(st.integers(4, 5)), draw(st.integers(4, 5))
    position = Position.start(rows, cols, draw(st.integers(2, (rows * cols - 8) // 2)))
    for _ in range(draw(st.integers(0, max(0, position.plies_left - 2)))):
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position


@hsettings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions=st.lists(small_positions(), min_size=4, max_size=6))
def test_alphabeta_finds_the_minimax_value_at_a_fixed_depth(
    positions: list[Position], java_build: Path
) -> None:
    """``go depth 3``: the score of each kit's alpha-beta is the full minimax value (objective:
    piece difference), and its move achieves it; ``go depth 1`` is the greedy move."""
    for kit in KITS:
        engine = Engine(kit_command(kit, "alphabeta", java_build))
        try:
            for position in positions:
                depth = min(3, position.plies_left)
                engine.send(f"position fen {position.fen()}", f"go depth {depth}")
                lines = engine.until("bestmove")
                move = lines[-1].split()[1]
                value = negamax(position, depth)
                scores = [line.split()[4] for line in lines if line.startswith("info depth")]
                assert int(scores[-1]) == 100 * value, (kit, position.fen(), lines)
                assert -negamax(position.play(move), depth - 1) == value, (kit, position.fen())
                engine.send(f"position fen {position.fen()}", "go depth 1")
                assert engine.until("bestmove")[-1] == f"bestmove {greedy_first(position)}"
        finally:
            engine.close()


# ---------------------------------------------------------------- the rules, differentially

SQUARES = [f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)]
ODD_SQUARES = ["C3", "c03", "a0", "i1", "a10", "3c", "cc"]


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    """A ``position`` command's arguments and what Position makes of them."""
    if draw(st.booleans()):
        rows, cols = draw(st.integers(4, 8)), draw(st.integers(4, 8))
        most = (rows * cols - 8) // 2
        rounds = draw(st.integers(0, most + 1))
        first: Literal["x", "o"] = "x" if draw(st.booleans()) else "o"
        head = f"startpos rows {rows} cols {cols} rounds {rounds} first {first}"
        try:
            position = Position.start(rows, cols, rounds, first=first)
        except AdjacencyError:
            return head, "error"
    else:
        rows, cols = draw(st.integers(4, 8)), draw(st.integers(4, 8))
        cells = draw(st.lists(st.sampled_from("xo.."), min_size=rows * cols, max_size=rows * cols))
        ranks = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
        text = "/".join(_compress(rank) for rank in ranks)
        empty = cells.count(".")
        plies = draw(st.integers(0, empty + 1))
        head = f"fen {text} {draw(st.sampled_from('xo'))} {plies}"
        try:
            position = Position.from_fen(head[4:])
        except AdjacencyError:
            return head, "error"
    moves = []
    count = draw(st.integers(0, min(30, position.plies_left)))
    wild_end = draw(st.integers(0, 3)) == 0  # then one more square, legal or not
    for number in range(count + wild_end):
        legal = position.legal_moves()
        if legal and number < count and draw(st.integers(0, 19)) > 0:
            move = draw(st.sampled_from(legal))
        else:  # any square name, on the board or not, occupied or not, or malformed
            move = draw(st.sampled_from(SQUARES + ODD_SQUARES))
        moves.append(move)
        try:
            position = position.play(move)
        except AdjacencyError:
            return f"{head} moves {' '.join(moves)}", "error"
    x, o = position.score
    legal_text = ",".join(position.legal_moves()) or "-"
    expected = f"ok {position.fen().replace(' ', ';')} {x} {o} {legal_text}"
    return f"{head} moves {' '.join(moves)}".rstrip(), expected


def _compress(rank: str) -> str:
    out, run = "", 0
    for cell in rank:
        if cell == ".":
            run += 1
            continue
        out += (str(run) if run else "") + cell
        run = 0
    return out + (str(run) if run else "")


@hsettings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(cases(), min_size=30, max_size=40))
def test_every_kit_applies_the_rules_as_position_does(
    batch: list[tuple[str, str]], java_build: Path
) -> None:
    """Start positions, position text and move sequences (occupied, off-board and malformed
    squares among them): each kit's ``--rules`` mode says what Position says, in one run."""
    text = "".join(line + "\n" for line, _ in batch)
    for kit in KITS:
        done = subprocess.run(
            kit_command(kit, "--rules", java_build),
            input=text,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        got = done.stdout.splitlines()
        assert len(got) == len(batch), (kit, done.stdout, done.stderr)
        for (line, expected), answer in zip(batch, got, strict=True):
            assert answer == expected, (kit, line)


# ---------------------------------------------------------------- a league


@pytest.mark.slow
def test_the_java_kit_and_the_node_websocket_client_play_league_games(
    java_build: Path, tmp_path: Path
) -> None:
    """The Java kit through ``adjacency connect`` and ``cmd:``, and ``league.js`` straight over
    the league's WebSocket protocol, play rated games against a house bot and each other."""
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house-greedy", "house", "greedy")
    java_token = add_member(db, "java-kit")
    node_token = add_member(db, "node-kit")
    server = start_server(db, 0, tmp_path / "server.log")
    url = server.url
    java_spec = "cmd:" + shlex.join(kit_command("java", "alphabeta", java_build))
    java = start_client(url, java_token, java_spec, tmp_path / "java.log")
    node_log = (tmp_path / "node.log").open("wb")
    node = subprocess.Popen(
        [tool("node"), "--experimental-websocket", str(NODE_KIT / "league.js"), url, *LEAGUE_JS],
        stdout=node_log,
        stderr=subprocess.STDOUT,
        env={**env(), "ADJACENCY_LEAGUE_TOKEN": node_token},
        start_new_session=True,
    )
    node_log.close()
    try:
        assert node.wait(timeout=180) == 0, (tmp_path / "node.log").read_text()

        def java_games() -> bool:
            rows = get(f"{url}/api/league/games?member=java-kit&limit=50")
            return len([g for g in rows if g["status"] == "finished"]) >= 2

        wait_until(java_games, 180, "two finished games of the Java kit")
    finally:
        stopped = time.time()  # games that end as the server stops are not checked
        server.stop()  # first: games still in play are aborted, not lost on time
        java.stop()
        if node.poll() is None:
            node.kill()
            node.wait()
    with LeagueStore(db) as store:
        finished = store.games.games(status="finished", with_record=True)
        names = {m.id: m.name for m in store.members.members()}
    played = {name: 0 for name in ("java-kit", "node-kit")}
    for game in sorted(finished, key=lambda g: g.id):
        assert game.ended is not None
        if game.ended >= stopped:
            continue
        if "node-kit" in (names[game.x_id], names[game.o_id]) and played["node-kit"] >= 3:
            # a game started as league.js left after its three (--games 3): lost on time
            assert "node-kit did not move within its clock (not connected)" in game.detail
            continue
        assert game.termination == "normal", game.detail
        assert_replays(game)
        for member in (names[game.x_id], names[game.o_id]):
            played[member] = played.get(member, 0) + 1
    assert played["java-kit"] >= 2 and played["node-kit"] >= 3, played
    node_text = (tmp_path / "node.log").read_text()
    assert "connected as node-kit" in node_text and node_token not in node_text
