"""Puzzle ratings nobody can buy (docs/puzzles.md, "Ratings"), through the real app and
store (FastAPI's client, from an address that is not this machine's): the client
cookie is the server's, signed with the time it was issued, and only a long-lived one
moves ratings; a solution shown at an address (given up, hinted, solved) makes a later
solve there unrated, whichever browser; a puzzle's rating moves at most so many times
an hour however many players there are."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from adjacency.puzzles import Puzzle
from adjacency.web import cookies
from adjacency.web.app import create_app
from adjacency.web.limits import Limits
from adjacency.web.seats import CLIENT_COOKIE
from web_puzzle_helpers import LazyPuzzles, browser, key

PUZZLES = LazyPuzzles()
HOME = ("203.0.113.7", 50000)
"""A player's address (documentation range): not this machine, so every limit applies."""
AWAY = ("198.51.100.9", 50000)
DAY = 86400


def attempt(client: TestClient, puzzle: Puzzle, moves: list[str]) -> Any:
    answer = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": moves})
    assert answer.status_code == 200, answer.text
    return answer.json()


def rating(client: TestClient, puzzle: Puzzle) -> float:
    value: float = client.get(f"/api/puzzles/{puzzle.id}").json()["rating"]["rating"]
    return value


def test_a_cookie_the_client_picks_moves_no_rating(db: Path) -> None:
    """200 throwaway cookies moved a puzzle's rating 2122 to 2621: now a client's own
    string is re-issued by the server (signed, its age starting now) and a fresh
    cookie is not trusted with ratings."""
    puzzle = PUZZLES[0]
    app = create_app(db, puzzles=lambda: PUZZLES)
    with TestClient(app, client=HOME) as client:
        before = rating(client, puzzle)
        for n in range(5):
            client.cookies.set(CLIENT_COOKIE, f"any-string-i-like-{n:04d}")
            answer = client.post(
                f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [puzzle.solution[0]]}
            )
            issued = answer.cookies.get(CLIENT_COOKIE)
            assert issued is not None and issued != f"any-string-i-like-{n:04d}"
            assert cookies.read(key(db), issued) is not None
            solved = attempt(client, puzzle, list(puzzle.solution))
            assert solved["outcome"] == "solved"
            assert solved["ratings"]["rated"] is False, solved
            assert solved["ratings"]["unrated"] == "new_player"
            client.cookies.clear()
        assert rating(client, puzzle) == before


def test_a_forged_or_altered_cookie_is_replaced(db: Path) -> None:
    app = create_app(db, puzzles=lambda: PUZZLES)
    with TestClient(app), browser(app, HOME) as client:
        mine = client.cookies[CLIENT_COOKIE]
        signed = cookies.read(key(db), mine)
        assert signed is not None and abs(signed.issued - time.time()) < 60
        forged = [
            cookies.issue(b"not the server's key", signed.id, signed.issued - 10 * DAY),
            mine.replace(f".{signed.issued}.", f".{signed.issued - 10 * DAY}."),
            mine + "x",
        ]
        for text in forged:
            client.cookies.set(CLIENT_COOKIE, text)
            answer = client.get("/puzzles")
            fresh = answer.cookies.get(CLIENT_COOKIE)
            assert fresh is not None and fresh != text
            again = cookies.read(key(db), fresh)
            assert again is not None and again.id != signed.id and again.issued >= signed.issued


def test_a_long_lived_player_is_rated(db: Path) -> None:
    puzzle = PUZZLES[1]
    app = create_app(db, puzzles=lambda: PUZZLES)
    with TestClient(app), browser(app, HOME, age=2 * DAY) as client:
        before = rating(client, puzzle)
        solved = attempt(client, puzzle, list(puzzle.solution))
        assert solved["ratings"]["rated"] is True and solved["ratings"]["unrated"] is None
        assert rating(client, puzzle) < before
        again = attempt(client, puzzle, list(puzzle.solution))
        assert again["ratings"]["unrated"] == "tried"


def test_giving_up_in_one_browser_then_solving_in_another_does_not_count(db: Path) -> None:
    """The attack replayed: a throwaway browser gives up to see each puzzle's solution,
    the main (long-lived) one solves it; the main player's rating stays. A player at
    another address who solves a puzzle nobody gave away is rated."""
    app = create_app(db, puzzles=lambda: PUZZLES)
    with (
        TestClient(app),
        browser(app, HOME, age=30 * DAY) as main,
        browser(app, HOME, age=30 * DAY) as throwaway,
        browser(app, AWAY, age=30 * DAY) as elsewhere,
    ):
        start = main.get(f"/api/puzzles/{PUZZLES[0].id}").json()["player"]
        for puzzle in PUZZLES[1:]:
            shown = throwaway.post(f"/api/puzzles/{puzzle.id}/solution")
            assert shown.status_code == 200 and shown.json()["solution"] == list(puzzle.solution)
            solved = attempt(main, puzzle, list(puzzle.solution))
            assert solved["outcome"] == "solved" and solved["ratings"]["rated"] is False
            assert solved["ratings"]["unrated"] == "shown_here"
        assert main.get(f"/api/puzzles/{PUZZLES[0].id}").json()["player"] == start
        honest = attempt(elsewhere, PUZZLES[0], list(PUZZLES[0].solution))
        assert honest["ratings"]["rated"] is True
        # a hint shows the way too: after one, another browser's solve there is unrated
        with browser(app, AWAY, age=30 * DAY) as second:
            hinted = elsewhere.post(f"/api/puzzles/{PUZZLES[1].id}/hint", json={"moves": []})
            assert hinted.status_code == 200
            late = attempt(second, PUZZLES[1], list(PUZZLES[1].solution))
            assert late["ratings"]["unrated"] == "shown_here"


def test_giving_up_on_one_address_then_solving_on_another_does_not_count(db: Path) -> None:
    """The attack across addresses: a throwaway browser elsewhere (another network)
    gives up, or takes a hint, to see each puzzle's line; the main long-lived browser
    at home solves it. No request links the two, so the rule is the puzzle's: while
    another browser was shown its line lately, a first attempt is not rated
    (``shown_elsewhere``). The browser that gave up is not barred from its own retry
    as practice, and a puzzle nobody gave away still rates the main browser."""
    app = create_app(db, puzzles=lambda: PUZZLES)
    with (
        TestClient(app),
        browser(app, HOME, age=30 * DAY) as main,
        browser(app, AWAY, age=30 * DAY) as throwaway,
    ):
        start = main.get(f"/api/puzzles/{PUZZLES[0].id}").json()
        given, hinted, untouched = PUZZLES[0], PUZZLES[1], PUZZLES[2]
        shown = throwaway.post(f"/api/puzzles/{given.id}/solution")
        assert shown.status_code == 200 and shown.json()["solution"] == list(given.solution)
        hint = throwaway.post(f"/api/puzzles/{hinted.id}/hint", json={"moves": [], "level": 2})
        assert hint.status_code == 200 and hint.json()["move"] == hinted.solution[0]
        for puzzle in (given, hinted):
            before = rating(main, puzzle)
            solved = attempt(main, puzzle, list(puzzle.solution))
            assert solved["outcome"] == "solved" and solved["ratings"]["rated"] is False
            assert solved["ratings"]["unrated"] == "shown_elsewhere", solved
            assert rating(main, puzzle) == before
        after = main.get(f"/api/puzzles/{PUZZLES[0].id}").json()
        assert after["player"] == start["player"]
        assert after["player_puzzles"] == start["player_puzzles"] == 0
        again = attempt(throwaway, given, list(given.solution))  # its own retry: practice
        assert again["ratings"]["unrated"] == "tried"
        honest = attempt(main, untouched, list(untouched.solution))
        assert honest["ratings"]["rated"] is True


def test_a_puzzles_rating_moves_a_bounded_number_of_times_an_hour(db: Path) -> None:
    """Long-lived players from many addresses: a puzzle's rating takes at most
    ``puzzle_ratings_per_hour`` changes; the others are recorded unrated."""
    puzzle = PUZZLES[2]
    limits = Limits(puzzle_ratings_per_hour=4)
    app = create_app(db, limits=limits, puzzles=lambda: PUZZLES)
    rated = []
    with TestClient(app, client=HOME) as reader:
        for n in range(10):
            with browser(app, (f"192.0.2.{n + 1}", 50000), age=2 * DAY) as player:
                answer = attempt(player, puzzle, list(puzzle.solution))["ratings"]
                rated.append(answer["rated"])
                assert answer["rated"] or answer["unrated"] == "puzzle_busy", answer
        assert rated == [True] * 4 + [False] * 6
        assert reader.get(f"/api/puzzles/{puzzle.id}").json()["plays"] == 4


def test_this_machines_own_user_is_trusted_as_by_every_limit(db: Path) -> None:
    """The machine's own user (``adjacency play`` on a laptop) is rated at once, as every
    limit of the app spares it unless ``limit_loopback`` is set."""
    puzzle = PUZZLES[0]
    with TestClient(create_app(db, puzzles=lambda: PUZZLES), client=("127.0.0.1", 5)) as me:
        assert attempt(me, puzzle, list(puzzle.solution))["ratings"]["rated"] is True
    app = create_app(db, limits=Limits(limit_loopback=True), puzzles=lambda: PUZZLES)
    with TestClient(app, client=("127.0.0.1", 5)) as me:
        answer = attempt(me, PUZZLES[1], list(PUZZLES[1].solution))["ratings"]
        assert answer["unrated"] == "new_player"
