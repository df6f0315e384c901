"""An event run by a real ``adjacency league serve`` process with ``adjacency connect``
bots: a round robin played to its end, one member never connected (it loses every
game on time), a ``kill -9`` of the server in the middle (finished games kept, games
in flight aborted and replayed), the final crosstable equal to a recomputation from
the stored games, and the export replays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.league.event_standings import EventGame, crosstable
from adjacency.league.event_store import EventStore
from adjacency.league.store import LeagueStore
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
from net_helpers import free_port

pytestmark = pytest.mark.slow

WAIT = 50.0
"""Seconds any one wait may take before the test fails (a guard against hangs only)."""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "adjacency", *args],
        env=env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def event_state(db: Path) -> tuple[str, int, int]:
    """The event's status, its finished games and its games in play."""
    with LeagueStore(db) as store:
        events = EventStore(store)
        event = events.named("friday")
        return (
            event.status,
            len(events.game_ids(event.id)),
            len(events.game_ids(event.id, "playing")),
        )


def test_a_round_robin_runs_to_its_end_through_a_killed_server(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=1.5, increment=0.05)
    specs = {"rando": "random", "greedo": "greedy", "rando2": "random"}
    tokens = {name: add_member(db, name) for name in specs}
    add_member(db, "ghost")  # never connects: loses every game on time
    made = cli("league", "event", "create", "--db", str(db), "friday",
               "--format", "round-robin", "--members", "rando,greedo,rando2,ghost")  # fmt: skip
    assert made.returncode == 0, made.stderr
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(db, port, tmp_path / "server.log")
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

        # kill -9 the server while an event game is in play, after some have finished
        wait_until(lambda: (s := event_state(db))[1] >= 2 and s[2] >= 1, WAIT, "games in play")
        server.kill()
        with LeagueStore(db) as store:
            events = EventStore(store)
            event = events.named("friday")
            finished_before = set(events.game_ids(event.id))
            in_flight = set(events.game_ids(event.id, "playing"))
        assert in_flight
        server = start_server(db, port, tmp_path / "server.log")
        wait_until(lambda: event_state(db)[0] == "finished", WAIT, "the event to finish")
    finally:
        for client in clients:
            client.stop()
        server.stop()

    with LeagueStore(db) as store:
        events = EventStore(store)
        event = events.named("friday")
        ids = events.game_ids(event.id)
        assert finished_before <= set(ids)
        assert set(events.game_ids(event.id, "aborted")) == in_flight
        assert len(ids) == 12  # 6 pairs of two games, each leg once
        names = {m.id: m.name for m in store.members()}
        ghost = store.member_named("ghost").id
        boards = {b.pair_id: b for b in events.boards(event.id) if b.pair_id is not None}
        recomputed: list[EventGame] = []
        for game_id in ids:
            game = store.game(game_id)
            assert game is not None and game.pair_id is not None
            assert_replays(game)
            if ghost in (game.x_id, game.o_id):
                assert game.termination == "time forfeit" and game.points(ghost) == 0
            board = boards[game.pair_id]
            assert board.b is not None
            x_points = {"x": 1.0, "o": 0.0}.get(game.result or "", 0.5)
            recomputed.append(EventGame(board.round, board.a, board.b, game.leg, x_points))
        assert sorted(ids) == sorted(set(ids))
        legs = sorted((store.game(i).pair_id, store.game(i).leg) for i in ids)  # type: ignore[union-attr]
        assert legs == sorted((p, leg) for p in boards for leg in (0, 1))

    out = tmp_path / "export"
    exported = cli("league", "event", "export", "--db", str(db), "friday", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    table = json.loads((out / "table.json").read_text())
    assert table["event"]["status"] == "finished"
    order = table["crosstable"]["names"]
    expected = crosstable(recomputed)
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            cell = table["crosstable"]["cells"][i][j]
            want = next(
                (list(v) for (x, y), v in expected.items() if (names[x], names[y]) == (a, b)),
                None,
            )
            assert cell == want, (a, b)
    assert table["standings"][-1]["name"] == "ghost" and table["standings"][-1]["points"] == 0
    replay = cli("replay", str(out / "games.txt"), "--game", "12")
    assert replay.returncode == 0, replay.stderr
