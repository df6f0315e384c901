"""The teacher reads what happens in the server's log, through a real ``adjacency league
serve`` process and real ``adjacency connect`` clients:

* by default (INFO) one line, with its time and level, for each connection and its end,
  each refused token, each game's start and end (who, the outcome, how), and each
  step of an event (a round paired, the event finished);
* ``--log-level warning`` leaves those out (and keeps the server's own announcements);
* an unknown level is refused by the command line, before anything is served.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from adjacency.league.league_file import LeagueStore
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

WAIT = 50.0
"""Seconds any one wait may take before the test fails (a guard against hangs only)."""

STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
BAD_TOKEN = "adjl_" + "W" * 22


def lines_like(text: str, pattern: str) -> list[str]:
    """The log's lines that are ``TIME INFO LOGGER: `` followed by ``pattern``."""
    return re.findall(rf"^{STAMP} INFO adjacency\.[\w.]+: {pattern}$", text, re.MULTILINE)


def event_status(db: Path) -> str:
    with LeagueStore(db) as store:
        return store.events.named("friday").status


def refused_client(url: str, log: Path) -> None:
    """An ``adjacency connect`` with a token the league does not know; it ends (status 2)
    once the server has refused it."""
    client = start_client(url, BAD_TOKEN, "random", log)
    assert client.popen.wait(WAIT) == 2, client.text()
    assert "the league refused this token" in client.text()


def test_the_log_has_a_line_for_each_connection_refusal_game_and_event_step(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=30.0)
    tokens = {name: add_member(db, name) for name in ("red", "blue")}
    log = tmp_path / "server.log"
    server = start_server(db, 0, log)  # no --log-level: INFO
    url = server.url
    clients: list[Process] = []
    try:
        for name, token in tokens.items():
            clients.append(start_client(url, token, "greedy", tmp_path / f"{name}.log"))
        refused_client(url, tmp_path / "refused.log")
        # The event starts once both bots are there (a client slow to start under load
        # would lose its game by absence, which is not what this test is about).
        wait_until(
            lambda: len(lines_like(log.read_text(), r"bot \w+ connected from .*")) == 2,
            WAIT,
            "both bots to connect",
        )
        with LeagueStore(db) as store:  # the server's next pass pairs it
            store.events.create("friday", "round-robin", None, ["red", "blue"])
            store.events.start("friday")
        wait_until(lambda: event_status(db) == "finished", WAIT, "the event to finish")
        for client in clients:
            client.stop()
        wait_until(
            lambda: len(lines_like(log.read_text(), r"bot \w+ disconnected from .*")) == 2,
            WAIT,
            "the server to log both bots leaving",
        )
    finally:
        for client in clients:
            client.stop()
        server.stop()

    text = log.read_text()
    assert "League server ready at" in text and "Traceback" not in text
    assert sorted(lines_like(text, r"bot (\w+) connected from 127\.0\.0\.1")) == ["blue", "red"]
    refusals = lines_like(text, r"refused a bot connection from 127\.0\.0\.1: 401 (.*)")
    assert refusals == ["unknown or revoked token"], text
    assert BAD_TOKEN not in text
    with LeagueStore(db) as store:
        games = [
            store.games.game(i) for i in store.events.game_ids(store.events.named("friday").id)
        ]
        names = store.members.names({m for g in games if g is not None for m in (g.x_id, g.o_id)})
    assert len(games) == 2
    for game in games:
        assert game is not None
        x, o = names[game.x_id], names[game.o_id]
        started = lines_like(text, rf"game {game.id} started: {x} \(x\) against {o} \(o\), 30\+0.1")
        assert len(started) == 1, text
        winner = {"x": f"{x} \\(x\\) won", "o": f"{o} \\(o\\) won", "draw": "a draw"}
        ended = lines_like(
            text,
            rf"game {game.id} ended: {winner[str(game.result)]} \(normal\), "
            rf"{x} {game.x_score}-{game.o_score} {o} after {game.plies} plies",
        )
        assert len(ended) == 1, text
    assert lines_like(text, r"event friday: round 1 of 1 paired: red-blue") != [], text
    assert len(lines_like(text, "event friday finished")) == 1, text


def test_log_level_warning_leaves_out_the_info_lines(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    log = tmp_path / "server.log"
    server = start_server(db, 0, log, "--log-level", "warning")
    try:
        refused_client(server.url, tmp_path / "refused.log")
    finally:
        server.stop()
    text = log.read_text()
    assert "League server ready at" in text
    assert " INFO " not in text and "refused a bot connection" not in text, text


def test_an_unknown_log_level_is_refused_before_serving(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "adjacency", "league", "serve", "--db", str(tmp_path / "l.db"),
         "--port", "0", "--log-level", "chatty"],
        capture_output=True, text=True, timeout=60, env=env(),
    )  # fmt: skip
    assert done.returncode == 2
    assert "--log-level: invalid choice: 'chatty'" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "l.db").exists()
