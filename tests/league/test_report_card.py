"""A version's report card (adjacency.league.grading.report_card): its figures against
a small game checked by hand, and the card through the real league server for the team
and the teacher (JSON, CSV, the printable page).

The game: 4x4, 3 rounds, each side playing its first legal move. The solver proves every
position of it: X is lost by 2 from the start, and its moves c2 (d2 kept the value) and
a3 (b3 did) each lose 2 more squares, so the game ends 4-10; O's moves are all best.
"""

from __future__ import annotations

import csv
import io
import math
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjacency.core import Position
from adjacency.core.game import Game
from adjacency.core.record import game_to_text
from adjacency.league.grading import card_worker
from adjacency.league.grading.card_sheet import board_link, column_position
from adjacency.league.grading.card_worker import CardFailed, CardKeeper
from adjacency.league.grading.report_card import (
    SUMMARY,
    CardGame,
    allowed_seconds,
    card,
    card_basis,
    games_of_version,
    phase,
    reviewed_moves,
    summary,
)
from adjacency.league.http.app import create_app
from adjacency.league.league_file import LeagueStore
from adjacency.league.store.move_time_rows import MoveSeconds
from league_helpers import ADMIN, add_member, make_league, request

LEAGUE_SERVER = {"analysis_board": "http://board.test"}

X_ACCURACY = round((100 + 2 * 100 * math.exp(-2)) / 3, 1)
"""X's three moves: one best (100), two losing 2 squares each (100 e^-2 each): 42.4."""


def small_game() -> str:
    """The game of the module's docstring, on a 10+1 clock."""
    game = Game(start=Position.start(4, 4, 3))
    while not game.positions[-1].is_over:
        game.play(game.positions[-1].legal_moves()[0])
    game.tags["TimeControl"] = "10+1"
    return game_to_text(game)


def as_x(record: str, game_id: int = 7) -> CardGame:
    """X's side of the small game (lost), with its moves' charged seconds."""
    return CardGame(game_id, "x", record, 0.0, "normal", "beta", {0: 0.5, 2: 1.5, 4: 1.0})


def test_the_card_of_a_small_game_is_the_one_checked_by_hand() -> None:
    record = small_game()
    reviewed = reviewed_moves(record)
    assert [(d["move"], d["best"], d["loss"], d["exact"]) for d in reviewed] == [
        ("c1", "c1", 0.0, True), ("d1", "d1", 0.0, True), ("c2", "d2", 2.0, True),
        ("d2", "d2", 0.0, True), ("a3", "b3", 2.0, True), ("b3", "b3", 0.0, True),
    ]  # fmt: skip
    made = card(1, [as_x(record)], {7: reviewed})
    assert (made["games"], made["points"], made["moves"]) == (1, 0.0, 3)
    assert made["accuracy"] == X_ACCURACY == 42.4
    # 6 plies: every move is among the last 12, none in the opening or the middle
    assert made["phases"]["end"]["moves"] == 3 and made["phases"]["end"]["accuracy"] == 42.4
    assert made["phases"]["opening"] == {"moves": 0, "accuracy": None, "worst": None}
    assert made["phases"]["end"]["worst"]["move"] == "c2"  # the first of the two worst
    assert (made["inaccuracy_count"], made["mistake_count"], made["blunder_count"]) == (2, 0, 0)
    assert [(m["ply"], m["move"], m["best"], m["fen"]) for m in made["marks"]] == [
        (3, "c2", "d2", "2oo/2oo/xx2/xxoo x 4"),
        (5, "a3", "b3", "2oo/2xo/xxoo/xxxo x 2"),
    ]
    # lost from the start: no move turned it, so the move that lost most lost it
    (lost,) = made["losses"]
    assert (lost["game"], lost["opponent"], lost["move"]["move"]) == (7, "beta", "c2")
    # 3.0 s charged of the 10 + 3 x 1 s its clock allowed over its 3 moves
    assert made["time"] == {
        "moves": 3, "charged": 3.0, "allowed": 13.0, "share": 0.231, "mean": 1.0,
        "slowest": {"game": 7, "ply": 3, "seconds": 1.5, "fen": "2oo/2oo/xx2/xxoo x 4"},
    }  # fmt: skip
    # the figures' positions on the analysis board: the worst (c2), the slowest move
    c2 = "2oo/2oo/xx2/xxoo x 4"
    linked = {name: column_position(made, name) for name in SUMMARY}
    assert linked == {
        **dict.fromkeys(SUMMARY), "accuracy": c2, "end": c2, "inaccuracies": c2,
        "lost_games": c2, "seconds": c2,
    }  # fmt: skip
    assert (
        board_link("http://board.test", c2)
        == "http://board.test/?fen=2oo%2F2oo%2Fxx2%2Fxxoo%20x%204"
    )
    # O's side of the same game: all its moves best, no loss
    o_card = card(1, [CardGame(7, "o", record, 1.0, "normal", "alpha", {})], {7: reviewed})
    assert (o_card["accuracy"], o_card["marks"], o_card["losses"]) == (100.0, [], [])
    assert o_card["time"]["allowed"] is None and summary(o_card)["clock_share"] is None


def test_a_game_lost_by_a_failure_names_no_move_and_phases_split_a_long_game() -> None:
    record = small_game()
    failed = CardGame(7, "x", record, 0.0, "time forfeit", "beta", {})
    assert card(1, [failed], {7: reviewed_moves(record)})["losses"][0]["move"] is None
    assert [phase(0, 40), phase(11, 29), phase(12, 28), phase(30, 12)] == [
        "opening", "opening", "middle", "end",
    ]  # fmt: skip
    assert allowed_seconds("5 s/move", 4) == 20.0 and allowed_seconds("60+1", 2) == 62.0
    assert allowed_seconds("nonsense", 3) is None


def test_a_card_is_kept_until_its_games_change_and_a_failed_game_is_not_retried() -> None:
    record = small_game()
    asked: list[list[int]] = []

    def review(records: dict[int, str]) -> dict[int, list[dict[str, object]]]:
        asked.append(sorted(records))
        if 9 in records:
            raise CardFailed("game 9 cannot be reviewed")
        return {i: reviewed_moves(text) for i, text in records.items()}

    keeper = CardKeeper(review)

    def ready(games: list[CardGame]) -> dict[str, object]:
        deadline = time.monotonic() + 30
        while (made := keeper.card(1, 1, games)) is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        return made

    try:
        one = [as_x(record, 7)]
        assert ready(one)["moves"] == 3 and keeper.card(1, 1, one) is ready(one)
        two = [*one, as_x(record, 8)]
        assert ready(two)["moves"] == 6  # only the new game reviewed
        four = [*two, as_x(record, 9), as_x(record, 10)]
        made = ready(four)
        assert (made["games"], made["reviewed"], made["moves"]) == (4, 3, 9)
        assert ready(four) is made
        # the batch failed, then each game alone: 9 failed and is never asked again
        assert asked == [[7], [8], [9, 10], [9], [10]]
        assert keeper.failures == ["game 9 cannot be reviewed"]
    finally:
        keeper.stop()


def stored_game(db: Path) -> tuple[str, int]:
    """alpha (X, its version 1) lost the small game to beta (O, its version 1), rated,
    with alpha's moves' seconds kept; alpha's token and the game's id."""
    token = add_member(db, "alpha")
    add_member(db, "beta")
    record = small_game()
    with LeagueStore(db) as store:
        alpha, beta = (store.members.member_named(n).id for n in ("alpha", "beta"))
        for member in (alpha, beta):
            kept, _ = store.submissions.add(member, f"{member}".encode(), "t.zip")
            store.submissions.decide(kept.id, True, "")
        game = lost_game(store, record)
        for ply, seconds in as_x(record).charged.items():
            store.move_times.keep(game, MoveSeconds(ply, alpha, seconds, 0.0, 0.0, seconds))
    return token, game


def reviewed_here(records: dict[int, str]) -> dict[int, list[dict[str, Any]]]:
    """The review of :func:`~.card_worker.review_apart`, made in this process."""
    return {i: reviewed_moves(text) for i, text in records.items()}


def fails(*_: object) -> Any:
    """Stands for the card's making where nothing may be made."""
    raise AssertionError("a card was made where the kept one should have been served")


def alpha_version(store: LeagueStore) -> tuple[int, list[CardGame]]:
    """alpha's version (its submission id) and its games, as a card is made from them."""
    alpha = store.members.member_named("alpha").id
    (version,) = store.submissions.versions(alpha)
    return version.id, games_of_version(store, alpha, version.id)


def lost_game(store: LeagueStore, record: str) -> int:
    """alpha's version 1 (X) lost ``record`` to beta's version 1 (O), rated; its id."""
    alpha, beta = (store.members.member_named(n).id for n in ("alpha", "beta"))
    versions = [store.submissions.versions(member)[0].id for member in (alpha, beta)]
    game = store.games.start_game(alpha, beta, Position.start(4, 4, 3).fen())
    store.submissions.set_versions(game, *versions)
    store.games.finish_game(game, "o", "normal", "", record, (4, 10), 6, (3.0, 1.0))
    return game


def test_a_kept_card_is_served_for_its_games_and_made_again_after_a_new_one(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    stored_game(db)
    with LeagueStore(db) as store:
        submission, games = alpha_version(store)
        basis = card_basis(1, games)
        assert store.cards.card(submission, basis) is None  # none made yet
        made = card(1, games, reviewed_here({g.id: g.record for g in games}))
        store.cards.keep(submission, basis, made)
        assert store.cards.card(submission, basis) == made  # as JSON, back whole
        assert store.cards.card(submission, card_basis(2, games)) is None
        # a game played since: another basis, the kept card is stale
        later = lost_game(store, games[0].record)
        _, more = alpha_version(store)
        assert [g.id for g in more] == [games[0].id, later]
        assert store.cards.card(submission, card_basis(1, more)) is None
        # the keeper reads the kept card without a review, and makes the new one
        reviewed: list[list[int]] = []

        def review(records: dict[int, str]) -> dict[int, list[dict[str, Any]]]:
            reviewed.append(sorted(records))
            return reviewed_here(records)

        keeper = CardKeeper(review, db)
        try:
            assert keeper.card(submission, 1, games, store) == made and reviewed == []
            deadline = time.monotonic() + 30
            while (remade := keeper.card(submission, 1, more, store)) is None:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        finally:
            keeper.stop()
        assert reviewed == [[games[0].id, later]] and remade["games"] == 2
        assert store.cards.card(submission, card_basis(1, more)) == remade
        assert store.cards.card(submission, basis) is None  # replaced: one row a version
        assert store.database.query("SELECT COUNT(*) FROM report_cards") == [(1,)]


def test_a_restarted_league_serves_a_kept_card_without_making_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    token, _ = stored_game(db)
    bearer = {"Authorization": f"Bearer {token}"}
    monkeypatch.setattr(card_worker, "review_apart", reviewed_here)
    first = create_app(db, builds=False, house_games=False)
    with TestClient(first, base_url="http://127.0.0.1") as client:
        deadline = time.monotonic() + 30
        while (entry := client.get("/api/league/cards", headers=bearer).json()["versions"][0])[
            "state"
        ] != "ready":
            assert time.monotonic() < deadline and entry["state"] == "computing", entry
            time.sleep(0.05)
    # the server restarted: no game reviewed, no card made, the kept one served at once
    monkeypatch.setattr(card_worker, "review_apart", fails)
    monkeypatch.setattr(card_worker, "card", fails)
    again = create_app(db, builds=False, house_games=False)
    with TestClient(again, base_url="http://127.0.0.1") as client:
        (served,) = client.get("/api/league/cards", headers=bearer).json()["versions"]
    assert served == entry and served["card"]["accuracy"] == X_ACCURACY


def test_the_card_through_the_league_for_the_team_and_the_teacher(
    league: tuple[str, Path],
) -> None:
    url, db = league
    token, game = stored_game(db)
    deadline = time.monotonic() + 50  # made apart, at the lowest priority
    while True:
        answer = request(url + "/api/league/cards", token=token)
        assert answer.status == 200, answer
        (entry,) = answer.body["versions"]
        if entry["state"] == "ready" or time.monotonic() > deadline:
            break
        assert entry["state"] == "computing" and entry["card"] is None
        time.sleep(0.5)
    assert answer.body["team"] == "alpha" and answer.body["board"] == "http://board.test"
    made = entry["card"]
    assert entry["state"] == "ready", entry
    assert (made["accuracy"], made["inaccuracy_count"], made["time"]["share"]) == (
        42.4, 2, 0.231,
    )  # fmt: skip
    assert made["losses"][0]["game"] == game and made["losses"][0]["move"]["best"] == "d2"
    # the teacher: a team's cards, every card's row as CSV, the page to print
    assert request(url + "/api/league/admin/cards?team=alpha", token=ADMIN).body == answer.body
    assert request(url + "/api/league/admin/cards?team=nobody", token=ADMIN).status == 404
    assert request(url + "/api/league/admin/cards.csv", token=token).status == 403
    sheet = request(url + "/api/league/admin/cards.csv", token=ADMIN, raw=True)
    assert sheet.status == 200
    rows = {r["team"]: r for r in csv.DictReader(io.StringIO(sheet.body))}
    assert (rows["alpha"]["accuracy"], rows["alpha"]["inaccuracies"]) == ("42.4", "2")
    assert (rows["alpha"]["lost_games"], rows["alpha"]["clock_share"]) == ("1", "0.231")
    assert rows["beta"]["state"] in ("ready", "computing")  # asked for the first time
    page = request(url + "/api/league/admin/cards.html?lang=id&team=alpha", token=ADMIN, raw=True)
    assert page.status == 200 and "Rapor versi" in page.body
    link = "http://board.test/?fen=" + "2oo%2F2oo%2Fxx2%2Fxxoo%20x%204"
    assert f'<a href="{link}">' in page.body  # c2's position, on the analysis board
    assert f"permainan {game}, ply 3: c2 (lebih baik d2; 2.0 petak hilang)" in page.body
