"""Aborted games, with a real ``adjacency league serve`` process and an ``adjacency
connect`` process playing through a ``cmd:`` engine (A3, A4, B13):

* a server that stops (SIGTERM) tells the client (``game_end``, termination
  ``aborted``) and the client closes that game's engine process;
* it stops within :data:`STOP_WITHIN` seconds of SIGTERM, a game in play, a code view
  being made, a version being built again (its build folder gone) and an upload being
  built, and ends the view's worker and the builds' compilers; the view is made after
  the restart, the upload goes back to ``received`` (never refused for the stop);
* a server killed with ``kill -9`` tells the client when it is back, with the same effect;
* both ways, the aborted game keeps the moves played so far (written as the game goes).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore, StoredGame
from league_helpers import (
    ADMIN,
    Process,
    add_member,
    keep,
    make_league,
    project,
    request,
    start_client,
    start_server,
    wait_until,
)

pytestmark = pytest.mark.slow

SLEEPY = Path(__file__).resolve().parent / "sleepy_engine.py"
SERVE = ("--no-house-games",)
WAIT = 60.0
"""Seconds any one wait may take before the test fails (a guard against hangs only)."""
STOP_WITHIN = 5.0
"""Seconds within which a league server stops after SIGTERM (what is required of it)."""
MIB = 1 << 20
WORKER = "adjacency.league.grading.digest_worker"
COMPILER = "cc1plus"
SLOW_BUILD = (
    "#include <cstdio>\n"
    "template <long K> constexpr long slow() {\n"
    "    long s = 0;\n"
    "    for (long i = 0; i < 200000; ++i)\n"
    "        for (long j = 0; j < 200000; ++j) s += (i ^ j ^ K) & 1;\n"
    "    return s;\n"
    "}\n"
    + "".join(f'static_assert(slow<{k}>() >= 0, "slow");\n' for k in range(40))
    + 'int main() { std::puts("aepok"); }\n'
)
"""A C++ program whose build runs for minutes, in hand whenever the server stops: g++
evaluates each of its 40 constants (distinct, so none is remembered) up to its limit of
operations, seconds each."""


def engines(client: Process) -> set[int]:
    """The pids of the client's ``cmd:`` engines (its descendants running SLEEPY)."""
    return descendants(client, str(SLEEPY))


def descendants(process: Process, marker: str) -> set[int]:
    """The pids of ``process``'s descendants whose command line holds ``marker``."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        commands[int(entry)] = command
    found: set[int] = set()
    for pid, command in commands.items():
        ancestor = parents.get(pid)
        while ancestor and ancestor != process.popen.pid:
            ancestor = parents.get(ancestor)
        if ancestor == process.popen.pid and marker in command:
            found.add(pid)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def game_in_play_with_moves(db: Path) -> StoredGame | None:
    """A game in play whose moves so far are already in the database."""
    with LeagueStore(db) as store:
        return next((g for g in store.games.games(status="playing") if g.plies > 0), None)


def stored(db: Path, game_id: int) -> StoredGame:
    with LeagueStore(db) as store:
        game = store.games.game(game_id)
    assert game is not None
    return game


def assert_kept(db: Path, game_id: int, at_least: int) -> None:
    """The aborted game keeps a record of at least ``at_least`` plies, which replays."""
    from adjacency.core.record import game_from_text

    game = stored(db, game_id)
    assert game.status == "aborted" and game.result is None
    assert game.plies >= at_least > 0 and game.record is not None
    replayed = game_from_text(game.record)  # every move replays legally
    assert len(replayed.moves) == game.plies


def _served(view: str) -> dict[str, object] | None:
    answer = request(view, token=ADMIN)
    if answer.status == 200:
        return dict(answer.body)
    assert answer.status == 503 and answer.body["code"] == "being_prepared", answer
    time.sleep(0.1)
    return None


def test_a_stopped_server_announces_its_aborted_game_and_ends_its_work_in_hand(
    tmp_path: Path, held_port: int, sandbox_box: Path
) -> None:
    db = sandbox_box / "league.db"  # its builds beside it, reachable by the sandbox's users
    make_league(db, base=30.0)  # the sleepy bot's moves take seconds: a game outlasts the waits
    add_member(db, "house-greedy", "house", "greedy")
    token = add_member(db, "sleepy")
    add_member(db, "coder")  # a team never connected, whose code the teacher reads
    big = {"src/A.java": "<a" * (MIB // 4), "src/Bot.java": "class Bot { }\n"}
    keep(db, "coder", project(big), accepted=False)  # its view made when first asked for
    add_member(db, "rebuilt")
    keep(db, "rebuilt", project({"main.cpp": SLOW_BUILD}))  # no build folder: built again
    add_member(db, "uploader")
    with LeagueStore(db) as store:  # an upload not yet built: the builder takes it
        uploader = store.members.member_named("uploader").id
        upload, _ = store.submissions.add(uploader, project({"main.cpp": SLOW_BUILD}), "a.zip")
        rebuilding = store.submissions.version(store.members.member_named("rebuilt").id, 1)
        assert rebuilding is not None
    server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
    url = server.url
    client = start_client(url, token, f"cmd:{sys.executable} {SLEEPY}", tmp_path / "client.log")
    try:
        # A graceful stop (SIGTERM) in the middle of a game and of a code view's making.
        wait_until(lambda: game_in_play_with_moves(db), WAIT, "a game with moves")
        running = wait_until(lambda: engines(client), WAIT, "the client's engine")
        view = url + "/api/league/admin/members/coder/versions/1/code"
        assert request(view, token=ADMIN).body["code"] == "being_prepared"  # made from now
        workers = wait_until(lambda: descendants(server, WORKER), WAIT, "the view's worker")
        wait_until(lambda: len(descendants(server, COMPILER)) >= 2 or None, WAIT,
                   "the rebuild's and the upload's compilers")  # fmt: skip
        compiling = descendants(server, COMPILER)
        game = wait_until(lambda: game_in_play_with_moves(db), WAIT, "a game with moves")
        os.killpg(server.popen.pid, signal.SIGTERM)  # the game in flight now is the one aborted
        try:
            server.popen.wait(STOP_WITHIN)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server ran on {STOP_WITHIN} s after SIGTERM") from None
        wait_until(lambda: not any(alive(pid) for pid in workers), WAIT, "the worker to end")
        wait_until(lambda: not any(alive(pid) for pid in compiling), WAIT, "the builds to end")
        with LeagueStore(db) as store:  # built again at the next start, never refused
            assert store.submissions.get(upload.id).status in ("received", "building")
            for slow in (upload.id, rebuilding.id):  # done with: the restart builds nothing
                store.submissions.decide(slow, False, "done with")
        wait_until(lambda: f"game {game.id} ended: no result (aborted)" in client.text(),
                   WAIT, "the client to hear of the abort")  # fmt: skip
        wait_until(lambda: not any(alive(pid) for pid in running), WAIT, "the engine to end")
        assert_kept(db, game.id, game.plies)
        assert "Traceback" not in server.text() and "ERROR" not in server.text()
        client.stop()
        # The view whose making the stop ended is made when asked for again.
        server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
        assert request(view, token=ADMIN).body["code"] == "being_prepared"
        made = wait_until(lambda: _served(view), WAIT, "the code view")
        assert [f["path"] for f in made["files"]] == ["src/A.java", "src/Bot.java"]
    finally:
        client.stop()
        server.stop()


def test_a_killed_server_announces_its_aborted_game_when_it_is_back(
    tmp_path: Path, held_port: int
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0)  # the sleepy bot's moves take seconds: a game outlasts the waits
    add_member(db, "house-greedy", "house", "greedy")
    token = add_member(db, "sleepy")
    server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
    client = start_client(
        server.url, token, f"cmd:{sys.executable} {SLEEPY}", tmp_path / "client.log"
    )
    try:
        # kill -9 in the middle of a game; the client hears it once the server is back.
        running = wait_until(lambda: engines(client), WAIT, "the client's engine")
        game = wait_until(lambda: game_in_play_with_moves(db), WAIT, "a game with moves")
        server.kill()  # the game in flight now is the one aborted at the restart
        assert stored(db, game.id).plies >= game.plies  # on disk while it was played
        server = start_server(db, held_port, tmp_path / "server.log", *SERVE)
        wait_until(lambda: f"game {game.id} ended: no result (aborted)" in client.text(),
                   WAIT, "the client to hear of the abort after the restart")  # fmt: skip
        (said,) = [line for line in server.text().splitlines() if "at the last stop" in line]
        assert "marked aborted: " in said and f"{game.id} (" in said  # by game and names
        wait_until(lambda: not any(alive(pid) for pid in running), WAIT, "the engine to end")
        assert_kept(db, game.id, game.plies)
    finally:
        client.stop()
        server.stop()
