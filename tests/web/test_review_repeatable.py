"""A game review is a function of the game alone: the same marks every time, under load too.

The review searches to fixed depths and solves within a node budget (never a time
budget), on one thread with its table cleared before each search, so two reviews of
one game give the same events, however busy the machine. Exact marks are checked
against full solves, the summary against the marks, the progress against the plies.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
from typing import Any
from urllib.parse import urlsplit

import pytest

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text
from adjacency.engine import Engine
from adjacency.lab.review import (
    REVIEW_SOLVE_PLIES,
    Stopper,
    player_summary,
    review,
    review_depth,
)

Events = list[tuple[str, dict[str, Any]]]


def a_game(seed: int = 7) -> tuple[list[Position], list[str]]:
    """A 6x6 game of 14 rounds (28 plies) of random moves: its first positions are too far
    from the end for the solver, the last ones within its reach."""
    rng = random.Random(seed)
    positions = [Position.start(6, 6, rounds=14)]
    moves: list[str] = []
    while not positions[-1].is_over:
        moves.append(rng.choice(positions[-1].legal_moves()))
        positions.append(positions[-1].play(moves[-1]))
    return positions, moves


def reviewed(positions: list[Position], moves: list[str], **budgets: int) -> Events:
    events: Events = []
    review(positions, moves, lambda event, data: events.append((event, data)), Stopper(), **budgets)
    return events


@pytest.fixture(scope="module")
def game() -> tuple[list[Position], list[str]]:
    return a_game()


@pytest.fixture(scope="module")
def first_review(game: tuple[list[Position], list[str]]) -> Events:
    return reviewed(*game)


def test_two_reviews_are_identical_even_while_the_machine_is_busy(
    game: tuple[list[Position], list[str]], first_review: Events
) -> None:
    stop = threading.Event()

    def burn() -> None:  # a CPU burner beside the review, as another user's search would be
        n = 0
        while not stop.is_set():
            n = (n * 31 + 7) % 1_000_003

    burners = [threading.Thread(target=burn, daemon=True) for _ in range(2)]
    for burner in burners:
        burner.start()
    try:
        second = reviewed(*game)
    finally:
        stop.set()
        for burner in burners:
            burner.join()
    assert second == first_review
    assert first_review[-1] == ("done", {"reason": "complete"})


def test_marks_say_how_sure_they_are_and_exact_ones_are_exact(
    game: tuple[list[Position], list[str]], first_review: Events
) -> None:
    positions, moves = game
    judged = {data["ply"]: data for event, data in first_review if event == "move"}
    assert sorted(judged) == list(range(1, len(moves) + 1))
    exact = [ply for ply, data in judged.items() if data["exact"]]
    estimated = [ply for ply, data in judged.items() if not data["exact"]]
    assert exact and estimated  # the game has both kinds
    # the exact zone is the end of the game, within the solver's reach
    assert min(exact) > max(estimated)
    assert positions[min(exact) - 1].plies_left <= REVIEW_SOLVE_PLIES
    engine = Engine(tt_mb=16, threads=1)
    for ply in exact:
        data = judged[ply]
        before, after = positions[ply - 1], positions[ply]
        assert data["depth"] is None
        value_before = engine.solve(before).value
        value_after = after.margin() if after.is_over else engine.solve(after).value
        mover_after = -value_after  # the position after is scored for the opponent
        if moves[ply - 1] == data["best"]:
            assert data["loss"] == 0 == value_before - mover_after
        else:
            assert data["loss"] == value_before - mover_after
        x_after = mover_after if data["mover"] == "x" else -mover_after
        assert data["value"] == x_after
        assert (data["mark"] is not None) == (data["loss"] > 0)
    for ply in estimated:  # every horizon on an even ply of the game: the same parity
        depth = judged[ply]["depth"]
        assert depth == review_depth(ply - 1) and (ply - 1 + depth) % 2 == 0


def test_the_summary_counts_the_marks_and_the_progress_counts_the_moves(
    first_review: Events,
) -> None:
    judged = [data for event, data in first_review if event == "move"]
    (summary,) = [data for event, data in first_review if event == "summary"]
    for color in ("x", "o"):
        own = [data for data in judged if data["mover"] == color]
        row = summary[color]
        assert row == player_summary(judged, color)
        assert row["moves"] == len(own)
        assert row["exact"] == sum(data["exact"] for data in own)
        for mark, key in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes")):
            assert row[key] == sum(data["mark"] == mark for data in own)
        assert row["blunders"] == sum(data["mark"] == "blunder" for data in own)
        assert row["loss"] == round(sum(data["loss"] for data in own), 2)
        assert 0 <= row["accuracy"] <= 100
        assert (row["accuracy"] == 100) == (row["loss"] == 0)
    progress = [data for event, data in first_review if event == "progress"]
    total = len(judged)
    assert [data["done"] for data in progress] == list(range(total + 1))
    assert {data["total"] for data in progress} == {total}
    kinds = [event for event, _ in first_review]
    assert kinds[-2:] == ["summary", "done"] and kinds[0] == "progress"


def test_a_player_summary_scores_pieces_lost() -> None:
    judged = [
        {"mover": "x", "loss": 0.0, "mark": None, "exact": True},
        {"mover": "x", "loss": 4.0, "mark": "mistake", "exact": True},
        {"mover": "x", "loss": 10.0, "mark": "blunder", "exact": False},
        {"mover": "o", "loss": 2.0, "mark": "inaccuracy", "exact": False},
    ]
    assert player_summary(judged, "x") == {
        "moves": 3,
        "accuracy": 33.9,  # 100 * (1 + e**-4 + e**-10) / 3
        "inaccuracies": 0,
        "mistakes": 1,
        "blunders": 1,
        "loss": 14.0,
        "average_loss": 4.67,
        "exact": 2,
    }
    assert player_summary(judged, "o")["accuracy"] == 13.5  # 100 * e**-2
    assert player_summary([], "x")["accuracy"] == 100.0


# ----------------------------------------------------------------- over HTTP


def stream(server: str, path: str) -> Events:
    """Every server-sent event of ``path`` until the stream ends."""
    parts = urlsplit(server)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        assert response.status == 200, response.read()
        events: Events = []
        for block in response.read().decode().split("\n\n"):
            lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "event" in lines:
                events.append((lines["event"], json.loads(lines["data"])))
        return events
    finally:
        connection.close()


def test_the_served_review_is_the_same_twice(
    server: str, game: tuple[list[Position], list[str]], first_review: Events
) -> None:
    positions, moves = game
    played = Game(positions[0], "A", "B")
    for move in moves:
        played.play(move)
    parts = urlsplit(server)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    body = json.dumps({"record": game_to_text(played)})
    connection.request("POST", "/api/games/import", body, {"Content-Type": "application/json"})
    game_id = json.loads(connection.getresponse().read())["id"]
    connection.close()
    once = stream(server, f"/api/games/{game_id}/review")
    assert once == stream(server, f"/api/games/{game_id}/review") == first_review
