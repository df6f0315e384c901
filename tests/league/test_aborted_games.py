"""Aborted games, with a real ``adjacency league serve`` process and an ``adjacency
connect`` process playing through a ``cmd:`` engine (A3, A4, B13):

* a server that stops (SIGTERM) tells the client (``game_end``, termination
  ``aborted``) and the client closes that game's engine process;
* it stops within :data:`STOP_WITHIN` seconds of SIGTERM, a game in play, a code view
  being made, a version being built again (its build folder gone) and an upload being
  built, and ends the view's worker and the builds' compilers; the view is made after
  the restart, the upload goes back to ``received`` (never refused for the stop);
* the aborted game keeps the moves played so far (written as the game goes).

A server killed with ``kill -9`` tells the client when it is back, with the same effect:
tests/league/test_end_to_end.py, whose league is killed so anyway.
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
    alive,
    assert_kept,
    descendants,
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


def game_in_play_with_moves(db: Path) -> StoredGame | None:
    """A game in play whose moves so far are already in the database."""
    with LeagueStore(db) as store:
        return next((g for g in store.games.games(status="playing") if g.plies > 0), None)


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
