"""The analysis board's API: the editor's checks, live lines, exact results, game review.

Oracles: the ``adjacency solve`` command for exact results, and the suite's brute force
(:mod:`oracles`, the rules core only) for a reviewed game's values and for small
positions, drawn within its budget.
"""

from __future__ import annotations

import http.client
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from fastapi.testclient import TestClient
from hypothesis import example, given, settings
from hypothesis import strategies as st

from adjacency.core import Position, other
from adjacency.core.game import Game
from adjacency.core.record import game_to_text
from adjacency.lab.review import Stopper, classify
from adjacency.web.analysis import exact_result, new_engine
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from oracles import exact_value, move_values, play_into_budget
from web_helpers import a_game_with_mistakes

SMALL_START = Position.start(4, 4, 4)


LIVE_SERVER = {"limits": Limits(solve_seconds=60)}
"""The options of this module's server (tests/web/conftest.py): it checks results, not
speed."""


def sse(url: str, path: str, stop: Any, limit: int = 500) -> list[tuple[str, dict[str, Any]]]:
    """Read server-sent events from ``path`` until ``stop(events)`` is true or the stream
    ends; then close the connection (which stops the server's work)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    events: list[tuple[str, dict[str, Any]]] = []
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        assert response.status == 200, response.read()
        buffer = b""
        while len(events) < limit and not stop(events):
            chunk = response.read1(65536)
            if not chunk:
                break
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                lines = dict(
                    line.split(": ", 1) for line in block.decode().splitlines() if ": " in line
                )
                if "event" in lines:
                    events.append((lines["event"], json.loads(lines["data"])))
    finally:
        connection.close()
    return events


def editor(rows: int, cols: int, cells: str, turn: str, plies: int) -> dict[str, Any]:
    return {"rows": rows, "cols": cols, "cells": cells, "turn": turn, "plies_left": plies}


@pytest.mark.parametrize(
    ("cells", "plies", "words", "code", "params"),
    [
        ("xx" + "." * 14, 2, "2 pieces on the board", "too_few_pieces", {"count": 2}),
        (
            "xxxx" + "oooo" + "x" + "." * 7,
            2,
            "whole number of rounds",
            "odd_plies",
            {"count": 9, "plies": 2},
        ),
        (
            "xxxx" + "oooo" + "." * 8,
            10,
            "10 plies left but only 8 empty squares",
            "too_many_plies",
            {"plies": 10, "count": 8},
        ),
        ("xxxx" + "oooo" + "." * 8, 0, "the game is over", "no_plies_left", {}),
    ],
)
def test_the_editor_rejects_impossible_positions(
    client: TestClient, cells: str, plies: int, words: str, code: str, params: dict[str, int]
) -> None:
    """Each refusal says why, with a stable code and the numbers its words name (the
    page words it in its own language from them)."""
    response = client.post("/api/analysis/position", json=editor(4, 4, cells, "x", plies))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["fen"] is None and words in answer["problem"]
    assert answer["code"] == code and answer["params"] == params


def test_the_editor_names_a_possible_position(client: TestClient) -> None:
    cells = "xx..xx.." + "....oo" + "oo"
    fen = client.post("/api/analysis/position", json=editor(4, 4, cells, "o", 4)).json()["fen"]
    position = Position.from_fen(fen)
    assert position.turn == "o" and position.plies_left == 4
    assert position.rows == 4 and (position.x | position.o).bit_count() == 8
    wrong = client.post("/api/analysis/position", json=editor(5, 5, cells, "o", 4))
    assert wrong.json()["fen"] is None and "25 squares" in wrong.json()["problem"]


def solve_cli(fen: str) -> int:
    out = subprocess.run(
        [sys.executable, "-m", "adjacency", "solve", "--json", fen],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    return int(json.loads(out)["value"])


@pytest.mark.slow
def test_live_analysis_exact_result_equals_adjacency_solve_and_lines_deepen(server: str) -> None:
    rng = random.Random(7)
    position = Position.start(5, 5, 8)
    while position.plies_left > 10:
        position = position.play(rng.choice(position.legal_moves()))
    fen = position.fen()
    events = sse(
        server,
        f"/api/analysis/live?fen={quote(fen)}",
        lambda ev: sum(e == "lines" for e, _ in ev) >= 3,
    )
    exact = next(data for event, data in events if event == "exact")
    value = solve_cli(fen)  # the mover's margin under perfect play
    mover = position.turn
    assert exact["value"] == (value if mover == "x" else -value)
    winner = (
        "Draw"
        if value == 0
        else f"{(mover if value > 0 else other(mover)).upper()} wins by {abs(value)}"
    )
    assert exact["text"].startswith(winner)
    keeps = set(exact["keeps"])
    for move, score in exact["moves"].items():
        assert (score == exact["value"]) == (move in keeps)
    lines = [data for event, data in events if event == "lines"]
    # 10 plies left: the depths whose horizon falls on an even ply of the game.
    assert [d["depth"] for d in lines] == [2, 4, 6]
    for data in lines:
        assert 1 <= len(data["lines"]) <= 3
        scores = [line["score"] if mover == "x" else -line["score"] for line in data["lines"]]
        assert scores == sorted(scores, reverse=True)
        for line in data["lines"]:
            assert line["pv"][0] == line["move"] and line["move"] in position.legal_moves()


def test_review_marks_exactly_the_moves_where_the_solved_value_dropped(server: str) -> None:
    start, moves, dropped = a_game_with_mistakes()
    assert dropped and len(dropped) < len(moves)  # the test game has both kinds
    game = Game(start, "A", "B")
    for move in moves:
        game.play(move)
    request = json.dumps({"record": game_to_text(game)})
    parts = urlsplit(server)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    connection.request("POST", "/api/games/import", request, {"Content-Type": "application/json"})
    game_id = json.loads(connection.getresponse().read())["id"]
    connection.close()
    events = sse(server, f"/api/games/{game_id}/review", lambda ev: False)
    assert events[-1] == ("done", {"reason": "complete"})
    reviewed = {data["ply"]: data for event, data in events if event == "move"}
    assert sorted(reviewed) == list(range(1, len(moves) + 1))
    assert all(data["exact"] for data in reviewed.values())
    assert sorted(p for p, data in reviewed.items() if data["mark"]) == dropped
    position = start
    for ply, move in enumerate(moves, 1):
        position = position.play(move)
        mover_after = exact_value(position)
        x_value = mover_after if position.turn == "x" else -mover_after
        assert reviewed[ply]["value"] == x_value


@pytest.mark.parametrize(
    ("loss", "exact", "before", "after", "mark"),
    [
        (0, True, 2, 2, None),
        (2, True, 4, 2, "inaccuracy"),
        (4, True, 6, 2, "mistake"),
        (2, True, 1, -1, "blunder"),  # a win thrown into a loss
        (1, False, 3, 2, None),
        (2, False, 3, 1, "inaccuracy"),
        (5, False, 3, -2, "mistake"),
        (9, False, 3, -6, "blunder"),
    ],
)
def test_classify_thresholds(
    loss: float, exact: bool, before: float, after: float, mark: Any
) -> None:
    assert classify(loss, exact, before, after) == mark


def test_analyses_beyond_the_cap_are_429(tmp_path: Path) -> None:
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(analyses=0))
    with TestClient(app) as client:
        fen = SMALL_START.fen()
        response = client.get(f"/api/analysis/live?fen={quote(fen)}")
        assert response.status_code == 429 and "analyses" in response.json()["detail"]
        bad = client.get("/api/analysis/live?fen=" + quote("xx2/4/4/4 x 2"))
        assert bad.status_code == 400


def test_one_client_address_runs_one_analysis_at_a_time(tmp_path: Path) -> None:
    """One address cannot hold both of the server's analysis slots: its second analysis
    or review at once is 429, while another address still gets the other slot."""
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(analyses=2, limit_loopback=True))
    with TestClient(app) as client:
        app.state.analyses.take(2, clients=("address testclient",))  # its analysis
        response = client.get(f"/api/analysis/live?fen={quote(SMALL_START.fen())}")
        assert response.status_code == 429
        assert "your address already runs 1 analyses" in response.json()["detail"]
        app.state.analyses.take(2, clients=("address 198.51.100.7",))  # admitted
        assert app.state.analyses.running == 2


def test_a_book_position_gets_its_proven_value_beyond_the_solvers_reach(server: str) -> None:
    """The 8x8 start at 6 rounds (12 plies: minutes to solve) is in the shipped book:
    the analysis reports the book's value and optimal moves at once."""
    from adjacency.engine.book import lookup

    position = Position.start(8, 8, rounds=6)
    proven = lookup(position)
    assert proven is not None  # the book shipped with the package holds it
    events = sse(
        server,
        f"/api/analysis/live?fen={quote(position.fen())}",
        lambda ev: any(e == "exact" for e, _ in ev),
    )
    exact = next(data for event, data in events if event == "exact")
    # docs/solutions.md: the second mover (O) wins by 2 at 6 rounds on 8x8.
    assert proven.value == -2
    assert exact["value"] == -2 and exact["text"].startswith("O wins by 2")
    assert "proven in the book" in exact["text"]
    assert set(exact["keeps"]) == set(proven.moves) and exact["keeps"]
    assert set(exact["keeps"]) <= set(position.legal_moves())


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(4, 4, 3), (4, 5, 4), (5, 5, 4)]))
@example(seed=1_000_000, shape=(5, 5, 4))  # 0 random plies: 4e10 sequences before the budget
def test_exact_result_keeps_exactly_the_moves_minimax_keeps(
    seed: int, shape: tuple[int, int, int]
) -> None:
    """One solve plus one probe per move gives the value and the set of optimal moves
    that solving every move by brute force gives.

    The position: random plies from the start, then more until the brute force's tree is
    within its budget (:func:`oracles.play_into_budget`), so no draw can hang the test.
    """
    rows, cols, rounds = shape
    rng = random.Random(seed)
    position = Position.start(rows, cols, rounds)
    for _ in range(rng.randrange(0, position.plies_left - 1)):
        position = position.play(rng.choice(position.legal_moves()))
    position = play_into_budget(position, rng)
    assert not position.is_over
    found = exact_result(new_engine(), position, 60.0, Stopper())
    assert found is not None
    value, keeps, every = found
    values = move_values(position)
    assert every and value == max(values.values()) == exact_value(position)
    assert keeps == {m: value for m, v in values.items() if v == value}


class StopAfter(Stopper):
    """A stop that comes after ``checks`` looks at the flag (a deterministic time-out)."""

    def __init__(self, checks: int) -> None:
        super().__init__()
        self.checks = checks

    @property
    def stopped(self) -> bool:
        self.checks -= 1
        return self.checks < 0


def test_exact_result_cut_short_among_the_probes_still_has_the_value() -> None:
    rng = random.Random(3)
    position = Position.start(5, 5, 6)
    for _ in range(2):
        position = position.play(rng.choice(position.legal_moves()))
    whole = exact_result(new_engine(), position, 60.0, Stopper())
    assert whole is not None and whole[2] and len(whole[1]) >= 2
    cut = exact_result(new_engine(), position, 60.0, StopAfter(3))
    assert cut is not None
    value, keeps, every = cut
    assert value == whole[0] and not every
    assert keeps.items() < whole[1].items()  # some of the moves that keep it, no others
    assert exact_result(new_engine(), position, 60.0, StopAfter(0)) is None


def test_the_live_analysis_searches_its_lines_on_one_thread() -> None:
    """The solver may split its 2-second budget over two threads; the lines that follow
    (up to a minute) take one core, as the server's analysis cap counts them."""
    from adjacency.web.analysis import analyse

    position = Position.start(8, 8, rounds=28).play("c3").play("f6").play("d4")
    seen: list[int] = []
    stopper = Stopper()

    def emit(event: str, data: dict[str, Any]) -> None:
        if event == "lines" and stopper.engine is not None:
            seen.append(stopper.engine.threads)
            stopper.stop()

    analyse(position, emit, stopper)
    assert seen == [1]
