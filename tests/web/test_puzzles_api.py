"""The puzzle page's API over HTTP (FastAPI's client on the real app and store): solving
move by move, a wrong move's refutation, hints, giving up, the next puzzle, both
ratings computed by ratings/glicko.py, the per-browser limit on tries, and bad requests.
The puzzles are the exact oracle's (web_puzzle_helpers), not the engine's."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.core import Position
from adjacency.puzzles import PHASES, Puzzle, load_shipped
from adjacency.ratings.glicko import Glicko, rate_game
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from adjacency.web.puzzle_records import initial_rating
from web_puzzle_helpers import LazyPuzzles, oracle_puzzles

PUZZLES = LazyPuzzles()
"""Three 3-move puzzles rated 1400, 1500 and 1600, each with wrong moves that have a reply."""


def serve(db: Path, limits: Limits | None = None) -> TestClient:
    return TestClient(create_app(db, limits=limits, puzzles=oracle_puzzles))


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with serve(db) as test_client:
        yield test_client


def glicko(info: dict[str, float]) -> Glicko:
    return Glicko(info["rating"], info["rd"], info["volatility"])


def same(info: dict[str, float], expected: Glicko) -> bool:
    """Whether the API's rating is ``expected`` (computed here by ratings/glicko.py)."""
    shown = (info["rating"], info["rd"], info["volatility"])
    return shown == pytest.approx((expected.rating, expected.rd, expected.volatility))


def start(puzzle: Puzzle) -> Glicko:
    """The puzzle's rating before anyone tried it here: the shipped one, its deviation
    capped (the store's contract, :func:`initial_rating`)."""
    return initial_rating(puzzle)


def attempt(client: TestClient, puzzle: Puzzle, moves: list[str]) -> Any:
    return client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": moves})


def a_wrong_move(puzzle: Puzzle, step: int = 0) -> Any:
    """A refutation with a reply (the move does not end the game)."""
    return next(r for r in puzzle.refutations[step] if r.reply is not None)


def test_the_page_and_a_puzzle_show_no_solution(client: TestClient) -> None:
    puzzle = PUZZLES[0]
    page = client.get(f"/puzzles/{puzzle.id}")
    assert page.status_code == 200 and "js/puzzles/main.js" in page.text
    assert "adjacency_client" in page.headers.get("set-cookie", "")
    view = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert view["position"] == puzzle.position and view["turn"] == puzzle.turn
    assert view["cells"].count(".") == len(Position.from_fen(puzzle.position).legal_moves())
    assert view["moves"] == 2 and view["plays"] == 0 and not view["tried"]
    assert same(view["rating"], start(puzzle)) and same(view["player"], Glicko())
    assert not {"solution", "refutations", "themes", "value"} & set(view)


def test_solving_move_by_move_is_a_win_for_the_player(client: TestClient) -> None:
    puzzle = PUZZLES[1]
    first, reply, second = puzzle.solution
    answer = attempt(client, puzzle, [first]).json()
    assert answer["outcome"] == "correct" and answer["reply"] == reply
    assert answer["ratings"] is None and answer["solution"] is None
    answer = attempt(client, puzzle, [first, reply, second]).json()
    assert answer["outcome"] == "solved"
    assert answer["solution"] == list(puzzle.solution)
    assert answer["themes"] == list(puzzle.themes)
    player, rating = rate_game(Glicko(), start(puzzle), 1.0)
    ratings = answer["ratings"]
    assert ratings["rated"] and ratings["win"] is True
    assert same(ratings["player_after"], player) and same(ratings["puzzle_after"], rating)
    assert player.rating > 1500 and rating.rating < puzzle.rating
    view = client.get(f"/api/puzzles/{puzzle.id}").json()
    assert same(view["player"], player) and same(view["rating"], rating)
    assert view["plays"] == 1 and view["player_puzzles"] == 1 and view["tried"]


def test_a_wrong_move_gets_its_refutation_and_is_a_loss(client: TestClient) -> None:
    puzzle = PUZZLES[0]
    wrong = a_wrong_move(puzzle)
    answer = attempt(client, puzzle, [wrong.move]).json()
    assert answer["outcome"] == "wrong"
    assert (answer["reply"], answer["value"]) == (wrong.reply, wrong.value)
    assert answer["value"] < answer["best_value"] == puzzle.value
    assert answer["solution"] is None
    player, rating = rate_game(Glicko(), start(puzzle), 0.0)
    ratings = answer["ratings"]
    assert ratings["rated"] and ratings["win"] is False
    assert same(ratings["player_after"], player) and same(ratings["puzzle_after"], rating)
    assert player.rating < 1500 and rating.rating > puzzle.rating
    # a retry is practice: solved now, no rating moves
    solved = attempt(client, puzzle, list(puzzle.solution)).json()
    assert solved["outcome"] == "solved" and not solved["ratings"]["rated"]
    assert same(solved["ratings"]["player_after"], player)
    assert same(solved["ratings"]["puzzle_after"], rating)


def test_a_wrong_second_move_is_refuted_after_the_line_so_far(client: TestClient) -> None:
    puzzle = PUZZLES[2]
    first, reply, _ = puzzle.solution
    wrong = a_wrong_move(puzzle, 1)
    answer = attempt(client, puzzle, [first, reply, wrong.move]).json()
    assert (answer["outcome"], answer["reply"], answer["value"]) == (
        "wrong",
        wrong.reply,
        wrong.value,
    )


def quarter(position: Position, move: str) -> list[str]:
    """The squares on the same side of the middle row and of the middle column as
    ``move`` (the middle of an odd side counts with the lower half), by their names."""
    names = [position.board.name(i) for i in range(position.board.size)]

    def halves(name: str) -> tuple[bool, bool]:
        file, rank = "abcdefgh".index(name[0]), int(name[1:]) - 1
        return rank >= (position.rows + 1) // 2, file >= (position.cols + 1) // 2

    return [name for name in names if halves(name) == halves(move)]


def test_hints_show_the_quarter_then_the_move_and_count_as_a_loss(client: TestClient) -> None:
    puzzle = PUZZLES[1]
    first, reply, second = puzzle.solution
    position = Position.from_fen(puzzle.position)
    one = client.post(f"/api/puzzles/{puzzle.id}/hint", json={"moves": [], "level": 1}).json()
    assert one["move"] is None
    assert sorted(one["region"]) == sorted(quarter(position, first))
    player, rating = rate_game(Glicko(), start(puzzle), 0.0)
    assert one["ratings"]["rated"] and same(one["ratings"]["player_after"], player)
    assert same(one["ratings"]["puzzle_after"], rating)
    two = client.post(f"/api/puzzles/{puzzle.id}/hint", json={"moves": [first, reply], "level": 2})
    assert two.json()["move"] == second and not two.json()["ratings"]["rated"]
    solved = attempt(client, puzzle, [first, reply, second]).json()
    assert solved["outcome"] == "solved" and not solved["ratings"]["rated"]


def test_giving_up_shows_the_solution_and_is_a_loss(client: TestClient) -> None:
    puzzle = PUZZLES[2]
    answer = client.post(f"/api/puzzles/{puzzle.id}/solution").json()
    assert answer["solution"] == list(puzzle.solution) and answer["best_value"] == puzzle.value
    player, _ = rate_game(Glicko(), start(puzzle), 0.0)
    assert answer["ratings"]["rated"] and same(answer["ratings"]["player_after"], player)


def test_each_browser_has_its_own_rating(db: Path) -> None:
    puzzle = PUZZLES[0]
    with serve(db) as ann, TestClient(ann.app) as bob:
        attempt(ann, puzzle, list(puzzle.solution))
        after_ann = client_view(ann, puzzle)
        answer = attempt(bob, puzzle, [a_wrong_move(puzzle).move]).json()
        assert same(answer["ratings"]["player_before"], Glicko())
        assert same(answer["ratings"]["puzzle_before"], glicko(after_ann["rating"]))
        player, rating = rate_game(Glicko(), glicko(after_ann["rating"]), 0.0)
        assert same(answer["ratings"]["player_after"], player)
        assert same(answer["ratings"]["puzzle_after"], rating)
        assert client_view(ann, puzzle)["player"] == after_ann["player"]


def client_view(client: TestClient, puzzle: Puzzle) -> Any:
    return client.get(f"/api/puzzles/{puzzle.id}").json()


def test_ratings_survive_a_restart(db: Path) -> None:
    puzzle = PUZZLES[0]
    with serve(db) as client:
        attempt(client, puzzle, list(puzzle.solution))
        before = client_view(client, puzzle)
        cookies = dict(client.cookies)
    with serve(db) as client:
        client.cookies.update(cookies)
        assert client_view(client, puzzle) == before


def test_the_next_puzzle_is_one_not_tried_yet(client: TestClient) -> None:
    tried: list[str] = []
    for _ in PUZZLES:
        view = client.get("/api/puzzles/next").json()
        assert view["id"] not in tried and not view["tried"]
        tried.append(view["id"])
        client.post(f"/api/puzzles/{view['id']}/solution")
    # every puzzle tried: the one tried longest ago comes back, unless it is skipped
    assert client.get("/api/puzzles/next").json()["id"] == tried[0]
    assert client.get("/api/puzzles/next", params={"skip": tried[0]}).json()["id"] == tried[1]


def test_the_next_puzzle_is_rated_near_the_player(db: Path) -> None:
    """Among 30 puzzles rated 800 to 2250, a new player (1500) gets one of the 12 rated
    nearest (1200 to 1800, 1200 and 1800 tied: 13 candidates at most)."""
    many = [
        dataclasses.replace(PUZZLES[i % 3], id=f"p{i:012x}", rating=800.0 + 50 * i)
        for i in range(30)
    ]
    with TestClient(create_app(db, puzzles=lambda: many)) as client:
        for _ in range(20):
            rating = client.get("/api/puzzles/next").json()["rating"]["rating"]
            assert 1200 <= rating <= 1800


def test_tries_per_browser_are_limited(db: Path) -> None:
    limits = Limits(puzzle_tries_per_minute=0.001, puzzle_burst=2)
    puzzle = PUZZLES[0]
    with serve(db, limits) as client, TestClient(client.app) as other:
        for _ in range(2):
            assert attempt(client, puzzle, [puzzle.solution[0]]).status_code == 200
        refused = attempt(client, puzzle, [puzzle.solution[0]])
        assert refused.status_code == 429 and refused.json()["code"] == "puzzle_tries"
        hint = client.post(f"/api/puzzles/{puzzle.id}/hint", json={"moves": []})
        assert hint.status_code == 429
        assert attempt(other, puzzle, [puzzle.solution[0]]).status_code == 200
        # the refused tries changed nothing: the first browser never failed the puzzle
        assert not client_view(client, puzzle)["tried"]


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/puzzles/pnosuchpuzzle/attempt", {"moves": ["a1"]}, 404, "puzzle_not_found"),
        ("/api/puzzles/" + "x" * 300, None, 404, "puzzle_not_found"),
        ("{p}/attempt", {"moves": ["z9"]}, 422, "malformed"),
        ("{p}/attempt", {"moves": []}, 422, "malformed"),
        ("{p}/attempt", {"moves": ["a1"] * 10}, 422, "malformed"),
        ("{p}/attempt", {"moves": ["c3"], "extra": 1}, 422, "malformed"),
        ("{p}/attempt", {"moves": "{first}"}, 422, "malformed"),
        ("{p}/attempt", {"moves": ["{occupied}"]}, 400, "invalid"),
        ("{p}/attempt", {"moves": ["{first}", "{reply}"]}, 400, "puzzle_line"),
        ("{p}/attempt", {"moves": ["{wrong}", "{reply}", "{second}"]}, 400, "puzzle_line"),
        (
            "{p}/attempt",
            {"moves": ["{first}", "{reply}", "{second}", "a1", "a2"]},
            400,
            "puzzle_line",
        ),
        ("{p}/hint", {"moves": ["{first}"]}, 400, "puzzle_line"),
        ("{p}/hint", {"moves": ["{wrong}", "{reply}"]}, 400, "puzzle_line"),
        ("{p}/hint", {"moves": [], "level": 3}, 422, "malformed"),
    ],
)
def test_bad_requests_get_a_clear_error_and_change_nothing(
    client: TestClient, path: str, body: Any, status: int, code: str
) -> None:
    puzzle = PUZZLES[0]
    first, reply, second = puzzle.solution
    position = Position.from_fen(puzzle.position)
    occupied = next(
        position.board.name(i) for i in range(position.board.size) if position.x >> i & 1
    )
    fill = {
        "{first}": first,
        "{reply}": reply,
        "{second}": second,
        "{wrong}": a_wrong_move(puzzle).move,
        "{occupied}": occupied,
    }

    def filled(value: Any) -> Any:
        if isinstance(value, str):
            return fill.get(value, value)
        if isinstance(value, list):
            return [filled(v) for v in value]
        if isinstance(value, dict):
            return {k: filled(v) for k, v in value.items()}
        return value

    url = path.replace("{p}", f"/api/puzzles/{puzzle.id}")
    answer = client.get(url) if body is None else client.post(url, json=filled(body))
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code and answer.json()["detail"]
    assert "Traceback" not in answer.text
    assert not client_view(client, puzzle)["tried"]


def test_the_shipped_set_is_served_by_default(db: Path) -> None:
    shipped = {p.id: p for p in load_shipped()}
    assert len(shipped) >= 1000
    with TestClient(create_app(db)) as client:
        view = client.get("/api/puzzles/next").json()
        puzzle = shipped[view["id"]]
        assert view["position"] == puzzle.position
        twelfth = sorted(abs(p.rating - 1500) for p in shipped.values())[11]
        assert abs(view["rating"]["rating"] - 1500) <= twelfth  # among the 12 nearest
        line = list(puzzle.solution)
        for end in range(1, len(line), 2):
            step = attempt(client, puzzle, line[:end]).json()
            assert (step["outcome"], step["reply"]) == ("correct", line[end])
        assert attempt(client, puzzle, line).json()["outcome"] == "solved"


PLIES = {"endgame": range(1, 15), "middlegame": range(15, 29), "opening": range(29, 65)}
"""The plies left of each phase (docs/puzzles.md), read here from the position text."""


def test_the_phases_are_counted_and_a_phase_gives_only_its_puzzles(db: Path) -> None:
    shipped = load_shipped()
    counted = Counter(p.phase for p in shipped)
    assert counted["endgame"] and counted["middlegame"]  # both builds are served
    with TestClient(create_app(db)) as client:
        counts = client.get("/api/puzzles/phases").json()
        assert counts == [
            {"phase": name, "puzzles": counted[name]} for name in PHASES if counted[name]
        ]
        for phase in counted:
            for _ in range(3):
                view = client.get("/api/puzzles/next", params={"phase": phase}).json()
                assert int(view["position"].split()[-1]) in PLIES[phase]
                client.post(f"/api/puzzles/{view['id']}/solution")  # tried: the next is another
        refused = client.get("/api/puzzles/next", params={"phase": "late"})
        assert refused.status_code == 422 and refused.json()["code"] == "malformed"


def test_a_phase_combines_with_a_theme_and_a_length(db: Path) -> None:
    middle = [p for p in load_shipped() if p.phase == "middlegame"]
    theme, moves = middle[0].themes[0], (len(middle[0].solution) + 1) // 2
    wanted = {"phase": "middlegame", "theme": theme, "moves": moves}
    matching = {p.id for p in middle if theme in p.themes and (len(p.solution) + 1) // 2 == moves}
    with TestClient(create_app(db)) as client:
        for _ in range(3):
            view = client.get("/api/puzzles/next", params=wanted).json()
            assert view["id"] in matching and view["moves"] == moves
    with serve(db) as client:  # the oracle's puzzles: all of the endgame
        assert client.get("/api/puzzles/phases").json() == [
            {"phase": "endgame", "puzzles": len(PUZZLES)}
        ]
        assert client.get("/api/puzzles/next", params={"phase": "endgame"}).status_code == 200
        for params in ({"phase": "middlegame"}, {"phase": "endgame", "moves": 1}):
            refused = client.get("/api/puzzles/next", params=params)
            assert refused.status_code == 404, refused.text
            assert refused.json()["code"] == "no_puzzles_of_theme"
            assert refused.json()["params"]["phase"] == params["phase"]
