"""Events run by a real ``adjacency league serve`` process with connected bots, each
through a ``kill -9`` of the server in the middle (finished games kept, games in flight
aborted and replayed), checked against a recomputation from the stored games, their
export replayed by ``adjacency replay`` and read by ``adjacency report``:

* a round robin of ``adjacency connect`` bots with one member never connected (it loses
  every game on time);
* a double round robin of six connected bots, among them the Java kit (compiled with
  ``javac`` here), the Node kit through ``cmd:node`` and the Node kit's own WebSocket
  client ``league.js``.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from adjacency.league.events.event_standings import EventGame, crosstable
from adjacency.league.league_file import LeagueStore, StoredGame
from adjacency.sandbox.pressure import PRESSURE_ENV
from cli_helpers import run_process
from kit_helpers import NODE_KIT, kit_command, tool
from league_helpers import (
    Process,
    add_member,
    assert_replays,
    env,
    get,
    make_league,
    start_client,
    start_server,
    wait_until,
)

pytestmark = [pytest.mark.slow, pytest.mark.node]

WAIT = 50.0
"""Seconds any one wait may take before the test fails (a guard against hangs only)."""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_process(*args, env=env(), timeout=60)


def event_state(db: Path) -> tuple[str, int, int]:
    """The event's status, its finished games and its games in play."""
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        return (
            event.status,
            len(events.game_ids(event.id)),
            len(events.game_ids(event.id, "playing")),
        )


def kill_in_the_middle(db: Path, server: Process, finished: int) -> tuple[set[int], set[int]]:
    """``kill -9`` the server once ``finished`` event games have finished and one is in
    play; the finished games and those in flight at the kill."""

    def frozen_in_play() -> bool:
        """Stop the server (SIGSTOP) once a game is in play, and keep it stopped if one
        still is: a game that ended just before is never taken for one in flight."""
        if not ((s := event_state(db))[1] >= finished and s[2] >= 1):
            return False
        os.kill(server.popen.pid, signal.SIGSTOP)
        if event_state(db)[2] >= 1:
            return True
        os.kill(server.popen.pid, signal.SIGCONT)
        return False

    wait_until(frozen_in_play, WAIT, "games in play")
    server.kill()
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        finished_before = set(events.game_ids(event.id))
        in_flight = set(events.game_ids(event.id, "playing"))
    assert in_flight
    return finished_before, in_flight


def check_stored_games(
    db: Path, finished_before: set[int], in_flight: set[int]
) -> tuple[list[StoredGame], list[EventGame]]:
    """The finished event's stored games (each replays legally; every leg of every pair
    once; the games finished before the kill kept, those in flight aborted), and the
    games as :class:`EventGame` recomputed from the stored rows."""
    with LeagueStore(db) as store:
        events = store.events
        event = events.named("friday")
        assert event.status == "finished"
        ids = events.game_ids(event.id)
        assert finished_before <= set(ids)
        assert set(events.game_ids(event.id, "aborted")) == in_flight
        boards = {b.pair_id: b for b in events.boards(event.id) if b.pair_id is not None}
        games: list[StoredGame] = []
        recomputed: list[EventGame] = []
        for game_id in ids:
            game = store.games.game(game_id)
            assert game is not None and game.pair_id is not None
            assert_replays(game)
            board = boards[game.pair_id]
            assert board.b is not None
            x_points = {"x": 1.0, "o": 0.0}.get(game.result or "", 0.5)
            recomputed.append(EventGame(board.round, board.a, board.b, game.leg, x_points))
            games.append(game)
        assert sorted(ids) == sorted(set(ids))
        legs = sorted((g.pair_id, g.leg) for g in games)
        assert legs == sorted((p, leg) for p in boards for leg in (0, 1))
    return games, recomputed


def check_export(db: Path, out: Path, recomputed: list[EventGame]) -> dict[str, Any]:
    """Export the event into ``out``: its crosstable is the recomputation's, every game of
    ``games.txt`` replays (``adjacency replay``) and ``adjacency report`` reads
    ``games.db`` with every member in it; the exported table."""
    exported = cli("league", "event", "export", "--db", str(db), "friday", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    table: dict[str, Any] = json.loads((out / "table.json").read_text())
    assert table["event"]["status"] == "finished"
    with LeagueStore(db) as store:
        names = {m.id: m.name for m in store.members.members()}
    order = table["crosstable"]["names"]
    expected = {(names[a], names[b]): list(v) for (a, b), v in crosstable(recomputed).items()}
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            assert table["crosstable"]["cells"][i][j] == expected.get((a, b)), (a, b)
    replay = cli("replay", str(out / "games.txt"))  # every game, validated move by move
    assert replay.returncode == 0, replay.stderr
    assert f"{len(recomputed)} games, every move valid" in replay.stdout, replay.stdout
    report = cli("report", str(out / "games.db"), "--no-report")
    assert report.returncode == 0, report.stderr
    for name in order:
        assert name in report.stdout
    return table


def test_a_round_robin_runs_to_its_end_through_a_killed_server(
    tmp_path: Path, held_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PRESSURE_ENV, "none")  # a quiet machine's grace: 10 s of wall time
    db = tmp_path / "league.db"
    make_league(db, base=1.5, increment=0.05)
    specs = {"rando": "random", "greedo": "greedy", "rando2": "random"}
    tokens = {name: add_member(db, name) for name in specs}
    add_member(db, "ghost")  # never connects: loses every game on time
    made = cli("league", "event", "create", "--db", str(db), "friday",
               "--format", "round-robin", "--members", "rando,greedo,rando2,ghost")  # fmt: skip
    assert made.returncode == 0, made.stderr
    server = start_server(db, held_port, tmp_path / "server.log")
    url = server.url
    clients: list[Process] = []
    try:
        for name, spec in specs.items():
            clients.append(start_client(url, tokens[name], spec, tmp_path / f"{name}.log"))
        wait_until(  # the event starts once they are all connected
            lambda: all(r["online"] for r in get(f"{url}/api/league/standings")
                        if r["name"] in specs),
            WAIT,
            "the bots to connect",
        )  # fmt: skip
        started = cli("league", "event", "start", "--db", str(db), "friday")
        assert started.returncode == 0, started.stderr
        finished_before, in_flight = kill_in_the_middle(db, server, 2)
        server = start_server(db, held_port, tmp_path / "server.log")
        wait_until(lambda: event_state(db)[0] == "finished", WAIT, "the event to finish")
    finally:
        for client in clients:
            client.stop()
        server.stop()

    games, recomputed = check_stored_games(db, finished_before, in_flight)
    assert len(games) == 12  # 6 pairs of two games, each leg once
    with LeagueStore(db) as store:
        ghost = store.members.member_named("ghost").id
    for game in games:
        if ghost in (game.x_id, game.o_id):
            assert game.termination == "time forfeit" and game.points(ghost) == 0
    table = check_export(db, tmp_path / "export", recomputed)
    assert table["standings"][-1]["name"] == "ghost" and table["standings"][-1]["points"] == 0


def test_a_double_round_robin_of_six_bots_with_the_java_and_node_kits(
    java_build: Path, tmp_path: Path, held_port: int
) -> None:
    """Six connected bots: the Java kit's alpha-beta and the Node and Python kits' greedy
    through ``adjacency connect`` and ``cmd:``, the Node kit's ``league.js`` over the
    WebSocket protocol, and two built-in bots; a double round robin (10 rounds of 3
    boards, 60 games) on a 4x4 board, the server killed after 20 games. Every game is
    decided on the board (no bot loses on time or by an illegal move)."""
    db = tmp_path / "league.db"
    make_league(db, rows=4, cols=4, rounds=4, base=10.0, increment=0.1)
    specs = {
        "java-kit": "cmd:" + shlex.join(kit_command("java", "alphabeta", java_build)),
        "node-kit": "cmd:" + shlex.join(kit_command("javascript", "greedy", java_build)),
        "python-kit": "cmd:" + shlex.join(kit_command("python", "greedy", java_build)),
        "rando": "random",
        "greedo": "greedy",
    }
    tokens = {name: add_member(db, name) for name in specs}
    node_token = add_member(db, "node-ws")
    members = ["java-kit", "node-ws", "rando", "node-kit", "greedo", "python-kit"]
    with LeagueStore(db) as store:  # what `event create` does (the test above runs it)
        store.events.create("friday", "double-round-robin", None, members)
    server = start_server(db, held_port, tmp_path / "server.log")
    url = server.url
    clients: list[Process] = []
    node_log = (tmp_path / "node-ws.log").open("wb")
    node = subprocess.Popen(
        [tool("node"), "--experimental-websocket", str(NODE_KIT / "league.js"), url, "alphabeta"],
        stdout=node_log,
        stderr=subprocess.STDOUT,
        env={**env(), "ADJACENCY_LEAGUE_TOKEN": node_token},
        start_new_session=True,
    )
    node_log.close()
    try:
        for name, spec in specs.items():
            clients.append(start_client(url, tokens[name], spec, tmp_path / f"{name}.log"))
        wait_until(
            lambda: all(r["online"] for r in get(f"{url}/api/league/standings")
                        if r["name"] in members),
            WAIT,
            "the bots to connect",
        )  # fmt: skip
        started = cli("league", "event", "start", "--db", str(db), "friday")
        assert started.returncode == 0, started.stderr
        finished_before, in_flight = kill_in_the_middle(db, server, 20)
        server = start_server(db, held_port, tmp_path / "server.log")
        wait_until(lambda: event_state(db)[0] == "finished", WAIT, "the event to finish")
    finally:
        for client in clients:
            client.stop()
        if node.poll() is None:
            node.kill()
            node.wait()
        server.stop()

    games, recomputed = check_stored_games(db, finished_before, in_flight)
    assert len(games) == 60  # 15 pairings a cycle, two cycles, a colour-swapped pair each
    for game in games:
        assert game.termination == "normal", game.detail
    with LeagueStore(db) as store:
        names = {m.id: m.name for m in store.members.members()}
    played = {name: 0 for name in members}
    for game in games:
        played[names[game.x_id]] += 1
        played[names[game.o_id]] += 1
    assert played == {name: 20 for name in members}
    table = check_export(db, tmp_path / "export", recomputed)
    cells = table["crosstable"]["cells"]  # each pairing: two pairs of two games
    assert all(cell[1] == 4 for i, row in enumerate(cells) for j, cell in enumerate(row) if i != j)
    node_text = (tmp_path / "node-ws.log").read_text()
    assert "connected as node-ws" in node_text and node_token not in node_text
