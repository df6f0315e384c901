"""Puzzles with range, over HTTP (FastAPI's client on the real app and store): ratings that
settle (a puzzle starts with a small deviation), puzzles of a chosen theme, a streak's
puzzles climbing in rating, and the history of a browser's tries. The puzzles are the
exact oracle's (web_puzzle_helpers), a theme added to each
(themed_puzzles).

Oracles: ratings/glicko.py for the ratings, the served set for themes and ratings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from adjacency.puzzles import Puzzle
from adjacency.ratings.glicko import Glicko, rate_game
from adjacency.web.app import create_app
from adjacency.web.puzzle_records import START_RD
from web_puzzle_helpers import THEMED, themed_puzzles


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, puzzles=themed_puzzles)) as test_client:
        yield test_client


def test_a_puzzle_starts_with_a_small_deviation_and_one_try_moves_it_little(
    client: TestClient,
) -> None:
    puzzle = themed_puzzles()[1]
    shown = client.get(f"/api/puzzles/{puzzle.id}").json()["rating"]
    assert (shown["rating"], shown["rd"]) == (puzzle.rating, START_RD)
    wrong = next(r for r in puzzle.refutations[0] if r.reply is not None)
    ratings = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [wrong.move]}).json()[
        "ratings"
    ]
    before = Glicko(puzzle.rating, START_RD, puzzle.volatility)
    _, after = rate_game(Glicko(), before, 0.0)
    assert ratings["puzzle_after"]["rating"] == pytest.approx(after.rating)
    assert 0 < after.rating - puzzle.rating < 30  # from the shipped 250: over 90
    assert rate_game(Glicko(), Glicko(puzzle.rating, 250.0), 0.0)[1].rating - puzzle.rating > 90


def test_the_themes_are_counted_and_a_theme_gives_only_its_puzzles(client: TestClient) -> None:
    counts = {t["theme"]: t["puzzles"] for t in client.get("/api/puzzles/themes").json()}
    assert counts == {"only-win": 3, "quiet": 3, "corner": 1, "parity": 1, "last-move": 1}
    for puzzle, theme in zip(themed_puzzles(), THEMED, strict=True):
        for _ in range(3):
            got = client.get("/api/puzzles/next", params={"theme": theme}).json()
            assert got["id"] == puzzle.id
    assert client.get("/api/puzzles/next", params={"theme": "only-draw"}).status_code == 404
    refused = client.get("/api/puzzles/next", params={"theme": "nonsense"})
    assert refused.status_code == 422


def solve(client: TestClient, puzzle: Puzzle) -> dict[str, object]:
    first, reply, second = puzzle.solution
    assert (
        client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [first]}).json()["reply"]
        == reply
    )
    answer = client.post(
        f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [first, reply, second]}
    ).json()
    assert answer["outcome"] == "solved"
    return dict(answer)


def test_a_streak_climbs_to_the_next_harder_puzzle(client: TestClient) -> None:
    puzzles = {p.id: p for p in themed_puzzles()}
    ratings = sorted(p.rating for p in puzzles.values())
    got = client.get("/api/puzzles/next", params={"above": ratings[0] - 1}).json()
    assert got["rating"]["rating"] == ratings[0]
    climbed = [got["rating"]["rating"]]
    for _ in range(2):
        solve(client, puzzles[got["id"]])
        got = client.get(
            "/api/puzzles/next", params={"above": got["rating"]["rating"], "skip": got["id"]}
        ).json()
        climbed.append(puzzles[got["id"]].rating)
    assert climbed == ratings  # each the next harder one, none tried twice
    assert client.get("/api/puzzles/next", params={"above": -5}).status_code == 422


def test_a_streak_s_tries_are_recorded_and_never_rated(client: TestClient) -> None:
    """A try sent with ``rated`` false (a streak's: a solve, a wrong move, a hint, a
    give-up) moves no rating, says why, is in the history with its first result, and
    stays unrated when the puzzle is tried again; a rated try beside them still rates."""
    solved, missed, hinted = themed_puzzles()
    player = client.get(f"/api/puzzles/{solved.id}").json()["player"]
    first, reply, second = solved.solution
    streak = {"rated": False}
    client.post(f"/api/puzzles/{solved.id}/attempt", json={"moves": [first], **streak})
    answer = client.post(
        f"/api/puzzles/{solved.id}/attempt", json={"moves": [first, reply, second], **streak}
    ).json()
    wrong = next(r for r in missed.refutations[0] if r.reply is not None)
    miss = client.post(
        f"/api/puzzles/{missed.id}/attempt", json={"moves": [wrong.move], **streak}
    ).json()
    hint = client.post(f"/api/puzzles/{hinted.id}/hint", json={"moves": [], **streak}).json()
    gave_up = client.post(f"/api/puzzles/{hinted.id}/solution", json=streak).json()
    for ratings in (answer["ratings"], miss["ratings"], hint["ratings"]):
        assert (ratings["rated"], ratings["unrated"]) == (False, "streak")
        assert ratings["player_after"] == ratings["player_before"] == player
        assert ratings["puzzle_after"] == ratings["puzzle_before"]
    assert gave_up["ratings"]["unrated"] == "tried"  # after its hint: a later try
    for puzzle in (solved, missed, hinted):
        shown = client.get(f"/api/puzzles/{puzzle.id}").json()
        assert shown["player"] == player and shown["rating"]["rd"] == START_RD
    history = {h["id"]: h["win"] for h in client.get("/api/puzzles/history").json()}
    assert history == {solved.id: True, missed.id: False, hinted.id: False}
    again = client.post(
        f"/api/puzzles/{solved.id}/attempt", json={"moves": [first, reply, second]}
    ).json()  # a rated try now: a later one, never rated
    assert again["ratings"]["unrated"] == "tried"
    refused = client.post(
        f"/api/puzzles/{solved.id}/attempt", json={"moves": [first], "rated": "maybe"}
    )
    assert refused.status_code == 422
    with TestClient(client.app) as other:  # another browser's rated try still rates
        rated = other.post(f"/api/puzzles/{missed.id}/attempt", json={"moves": [wrong.move]})
        assert rated.json()["ratings"]["rated"] is True


def test_the_history_lists_each_tried_puzzle_with_its_first_result(client: TestClient) -> None:
    assert client.get("/api/puzzles/history").json() == []
    solved, missed, later = themed_puzzles()
    solve(client, solved)
    wrong = next(r for r in missed.refutations[0] if r.reply is not None)
    client.post(f"/api/puzzles/{missed.id}/attempt", json={"moves": [wrong.move]})
    client.post(f"/api/puzzles/{later.id}/hint", json={"moves": [], "level": 1})
    solve(client, later)  # solved after a hint: the first try stays a miss
    history = client.get("/api/puzzles/history").json()
    assert [(h["id"], h["win"], h["solved"]) for h in history] == [
        (later.id, False, True),
        (missed.id, False, False),
        (solved.id, True, True),
    ]
    for entry in history:
        rating = client.get(f"/api/puzzles/{entry['id']}").json()["rating"]["rating"]
        assert entry["rating"] == pytest.approx(rating)
        assert entry["moves"] == 2 and entry["first"] <= entry["last"]
    with TestClient(client.app) as other:  # another browser: its own (empty) history
        assert other.get("/api/puzzles/history").json() == []


def with_a_short_line() -> list[Puzzle]:
    """:func:`themed_puzzles` with the last one cut to its first move (a one-move puzzle:
    that move is still the position's only best one)."""
    *kept, last = themed_puzzles()
    short = dataclasses.replace(last, solution=last.solution[:1], refutations=last.refutations[:1])
    return [*kept, short]


def test_a_length_gives_only_puzzles_of_that_many_moves_at_any_rating(db: Path) -> None:
    puzzles = with_a_short_line()
    with TestClient(create_app(db, puzzles=with_a_short_line)) as client:
        counts = client.get("/api/puzzles/lengths").json()
        assert counts == [{"moves": 1, "puzzles": 1}, {"moves": 2, "puzzles": 2}]
        for _ in range(3):
            got = client.get("/api/puzzles/next", params={"moves": 1}).json()
            assert (got["id"], got["moves"]) == (puzzles[-1].id, 1)
            got = client.get("/api/puzzles/next", params={"moves": 2}).json()
            assert got["id"] in {p.id for p in puzzles[:2]} and got["moves"] == 2
        both = {"moves": 1, "theme": "corner"}  # the corner puzzle has two moves
        refused = client.get("/api/puzzles/next", params=both)
        assert refused.status_code == 404 and refused.json()["code"] == "no_puzzles_of_theme"
        assert client.get("/api/puzzles/next", params={"moves": 0}).status_code == 422
        answer = client.post(
            f"/api/puzzles/{puzzles[-1].id}/attempt", json={"moves": [puzzles[-1].solution[0]]}
        ).json()
        assert answer["outcome"] == "solved"
