"""The opening explorer: the moves played from a position in the stored games, counted as
games are stored (this server's) or read in bounded steps (a league's file).

Oracles: the rules core (each game replayed with Position.play, its result and margin from
the final position) and the league's own store, which writes the league's file exactly as
a league server does.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from adjacency.core import Position
from adjacency.core.game import Game, Termination
from adjacency.core.record import game_to_text
from adjacency.league.league_file import LeagueStore
from adjacency.web.app import create_app
from adjacency.web.explorer_index import OPENING_PLIES, LeagueFeed, position_key
from adjacency.web.store import GameStore
from league_helpers import add_member, make_league

HUMANS = {"x": {"kind": "human"}, "o": {"kind": "human"}}


def played(client: TestClient, start: Position, moves: list[str]) -> dict[str, Any]:
    """A game between two people on this browser, ``moves`` played through the API."""
    state = client.post("/api/games", json={**HUMANS, "start": start.fen()}).json()
    for square in moves:
        answer = client.post(f"/api/games/{state['id']}/moves", json={"square": square})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return dict(state)


def random_line(start: Position, rng: random.Random, plies: int | None = None) -> list[str]:
    position, line = start, list[str]()
    while not position.is_over and (plies is None or len(line) < plies):
        line.append(rng.choice(position.legal_moves()))
        position = position.play(line[-1])
    return line


def expected(start: Position, games: list[list[str]], at: Position) -> dict[str, list[float]]:
    """Per move from ``at``: [games, x wins, o wins, draws, margin sum] over the finished
    ``games`` (move lists from ``start``), counting their first OPENING_PLIES plies."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for line in games:
        positions = [start]
        for square in line:
            positions.append(positions[-1].play(square))
        end = positions[-1]
        x, o = end.score
        result = end.outcome()
        for ply, square in enumerate(line[:OPENING_PLIES]):
            if positions[ply] == at:
                row = sums[square]
                row[0] += 1
                row[1 + ("x", "o", "draw").index(str(result))] += 1
                row[4] += x - o
    return sums


def shown(client: TestClient, at: Position) -> dict[str, list[float]]:
    answer = client.get("/api/explorer", params={"fen": at.fen()})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["games"] == sum(m["games"] for m in body["moves"])
    counts = [m["games"] for m in body["moves"]]
    assert counts == sorted(counts, reverse=True)
    return {
        m["move"]: [m["games"], m["x_wins"], m["o_wins"], m["draws"], m["margin"] * m["games"]]
        for m in body["moves"]
    }


def same(got: dict[str, list[float]], want: dict[str, list[float]]) -> None:
    assert got.keys() == want.keys()
    for move, row in want.items():
        assert got[move][:4] == row[:4], move
        assert abs(got[move][4] - row[4]) < 0.02 * max(1, row[0]), move


def test_finished_games_are_counted_from_every_position_they_passed(client: TestClient) -> None:
    start = Position.start(4, 4, 4)
    rng = random.Random(7)
    finished = [random_line(start, rng) for _ in range(6)]
    finished.append(list(finished[0]))  # the same game twice: counted twice (two games)
    for line in finished:
        assert played(client, start, line)["status"] == "over"
    played(client, start, random_line(start, rng, 3))  # unfinished: not counted
    for at in (start, start.play(finished[0][0])):
        same(shown(client, at), expected(start, finished, at))
    assert sum(row[0] for row in shown(client, start).values()) == len(finished)


def test_a_resigned_game_counts_and_an_aborted_one_does_not(client: TestClient) -> None:
    start = Position.start(5, 5, 4)
    resigned = played(client, start, ["c3", "c4"])
    answer = client.post(f"/api/games/{resigned['id']}/resign", json={"side": "x"})
    assert answer.status_code == 200, answer.text
    aborted = client.post("/api/games", json={**HUMANS, "start": start.fen()}).json()
    assert client.post(f"/api/games/{aborted['id']}/abort", json={"side": "x"}).status_code == 200
    body = client.get("/api/explorer", params={"fen": start.fen()}).json()
    final = start.play("c3").play("c4")
    x, o = final.score
    assert body["moves"] == [
        {"move": "c3", "games": 1, "x_wins": 0, "o_wins": 1, "draws": 0, "margin": x - o,
         "book": body["moves"][0]["book"]},
    ]  # fmt: skip


def test_a_game_saved_again_after_its_end_is_counted_once(db: Path) -> None:
    start = Position.start(4, 4, 2)
    game = Game(start)
    for square in random_line(start, random.Random(3)):
        game.play(square)
    from adjacency.core.record import game_to_dict

    with GameStore(db) as store:
        for _ in range(3):
            store.save("g1", 0.0, game_to_dict(game), {})
        moves = store.explore(start)
    assert [(m.move, m.games) for m in moves] == [(game.moves[0].square, 1)]


def test_games_stored_before_the_explorer_are_counted_when_the_store_upgrades(
    db: Path,
) -> None:
    start = Position.start(4, 4, 2)
    game = Game(start)
    for square in random_line(start, random.Random(5)):
        game.play(square)
    from adjacency.core.record import game_to_dict

    with GameStore(db) as store:
        store.save("old", 0.0, game_to_dict(game), {})
    with sqlite3.connect(db) as raw:  # back to the version before the explorer's step
        raw.executescript(
            "DROP TABLE explorer; DROP TABLE explorer_seen; DROP TABLE explorer_feed; "
            "DROP TABLE explorer_pending; PRAGMA user_version = 4"
        )
    with GameStore(db) as store:
        assert [(m.move, m.games) for m in store.explore(start)] == [(game.moves[0].square, 1)]


def test_the_book_value_comes_with_the_moves_where_the_book_holds_the_position(
    client: TestClient,
) -> None:
    from adjacency.engine.book import lookup

    start = Position.start(4, 4, 4)
    hit = lookup(start)
    assert hit is not None  # the shipped 4x4 book holds its start
    body = client.get("/api/explorer", params={"fen": start.fen()}).json()
    value = hit.value if start.turn == "x" else -hit.value
    assert (body["book"], body["book_moves"]) == (value, sorted(hit.moves))
    line = [hit.moves[0], *random_line(start.play(hit.moves[0]), random.Random(1))]
    played(client, start, line)
    body = client.get("/api/explorer", params={"fen": start.fen()}).json()
    assert [(m["move"], m["book"]) for m in body["moves"]] == [(hit.moves[0], value)]


def test_a_bad_position_text_is_refused_saying_why(client: TestClient) -> None:
    for fen in ("nonsense", "x" * 500, "6oo/6oo/8/8/8/8/xx6/xx6 z 56"):
        answer = client.get("/api/explorer", params={"fen": fen})
        assert answer.status_code == 400, answer.text
        assert answer.json()["detail"]
    assert client.get("/api/explorer").status_code == 422


def league_with_games(path: Path, lines: list[tuple[list[str], str]]) -> list[int]:
    """A league in ``path`` (6x6, 4 rounds) whose games are ``lines``: (moves, "finished" |
    "aborted" | "playing"); their ids."""
    make_league(path)
    add_member(path, "a")
    add_member(path, "b")
    ids = []
    with LeagueStore(path) as store:
        a, b = store.members.member_named("a").id, store.members.member_named("b").id
        start = Position.start(6, 6, 4)
        for moves, status in lines:
            game = Game(start)
            for square in moves:
                game.play(square)
            game_id = store.games.start_game(a, b, start.fen())
            ids.append(game_id)
            if status == "finished":
                x, o = game.position.score
                outcome = game.position.outcome()
                game.result, game.termination = outcome, Termination.NORMAL
                store.games.finish_game(
                    game_id, outcome, "normal", "", game_to_text(game), (x, o),
                    len(moves), (0.0, 0.0), rated=False,
                )  # fmt: skip
            elif status == "aborted":
                store.games.abort_game(game_id, "gone", game_to_text(game), len(moves))
    return ids


def test_a_leagues_finished_games_are_read_a_bounded_step_at_a_time(tmp_path: Path) -> None:
    league = tmp_path / "league.sqlite3"
    start = Position.start(6, 6, 4)
    rng = random.Random(11)
    lines = [random_line(start, rng) for _ in range(7)]
    statuses = ["finished", "playing", "finished", "aborted", "finished", "finished", "finished"]
    ids = league_with_games(league, list(zip(lines, statuses, strict=True)))
    with GameStore(tmp_path / "games.sqlite3") as store:
        feed = LeagueFeed(league)
        read = []
        for _ in range(5):
            with store._transaction() as db:
                read.append(feed.catch_up(db, step=2))
        assert read == [2, 3, 3, 2, 1]  # the game in play (id 2) is looked at again each step
        counted = [lines[i] for i, s in enumerate(statuses) if s == "finished"]
        with store._lock:
            from adjacency.web.explorer_index import moves_from

            got = {m.move: m.games for m in moves_from(store.db, start)}
        assert got == dict(Counter(line[0] for line in counted))
        # the game in play ends: the next step counts it, once
        game = Game(start)
        for square in lines[1]:
            game.play(square)
        x, o = game.position.score
        with LeagueStore(league) as league_store:
            league_store.games.finish_game(
                ids[1], game.position.outcome(), "normal", "", game_to_text(game), (x, o),
                len(lines[1]), (0.0, 0.0), rated=False,
            )  # fmt: skip
        for _ in range(2):
            with store._transaction() as db:
                feed.catch_up(db, step=2)
        feed.close()
        with store._lock:
            got = {m.move: m.games for m in moves_from(store.db, start)}
    counted.append(lines[1])
    assert got == dict(Counter(line[0] for line in counted))


def test_the_server_counts_a_leagues_games_with_its_own(tmp_path: Path) -> None:
    league = tmp_path / "league.sqlite3"
    start = Position.start(6, 6, 4)
    rng = random.Random(2)
    lines = [random_line(start, rng) for _ in range(3)]
    league_with_games(league, [(line, "finished") for line in lines])
    before = league.read_bytes()
    app = create_app(tmp_path / "games.sqlite3", league_db=league)
    with TestClient(app) as client:
        mine = random_line(start, rng)
        played(client, start, mine)
        same(shown(client, start), expected(start, [*lines, mine], start))
    assert league.read_bytes() == before  # read only
    assert position_key(start) != position_key(start.play(mine[0]))


def test_the_play_command_refuses_a_missing_league_file(tmp_path: Path) -> None:
    missing = tmp_path / "no-league.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "adjacency", "play", "--no-browser", "--league-db", str(missing)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert f"--league-db {missing}: no such file" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_play_command_counts_the_league_file_it_is_given(tmp_path: Path) -> None:
    league = tmp_path / "league.sqlite3"
    start = Position.start(6, 6, 4)
    line = random_line(start, random.Random(9))
    league_with_games(league, [(line, "finished")])
    process = subprocess.Popen(
        [sys.executable, "-m", "adjacency", "play", "--no-browser", "--port", "0",
         "--db", str(tmp_path / "games.sqlite3"), "--league-db", str(league)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert process.stdout is not None
        ready = process.stdout.readline()
        assert "Adjacency is ready at " in ready, ready
        url = ready.split("ready at ")[1].split()[0]
        with httpx.Client(base_url=url, timeout=30) as api:
            body = api.get("/api/explorer", params={"fen": start.fen()}).json()
        assert [(m["move"], m["games"]) for m in body["moves"]] == [(line[0], 1)]
        process.send_signal(signal.SIGINT)
        # read both pipes to the end: a server blocked on a full pipe cannot exit cleanly
        _, errors = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, errors
