"""Ratings nobody can farm (docs/league.md, "What is rated"): a person's
games rate nobody until the person is established (N games against N different
opponents, or the admin's approval), and a rating moves at most a few points against a
provisional opponent. The attack is replayed through the real server and client."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import pytest

from adjacency.cli import main
from adjacency.league.league_file import LeagueError, LeagueStore
from adjacency.league.rules import PROVISIONAL_CHANGE, LeagueRules, rate
from adjacency.ratings.glicko import Glicko, rate_game
from league_helpers import (
    ADMIN,
    add_member,
    make_league,
    request,
    standing,
    start_client,
    thread_server,
    wait_until,
)


def join(url: str, name: str) -> str:
    answer = request(f"{url}/api/league/people", "POST", {"name": name})
    assert answer.status == 201, answer
    secret: str = answer.body["secret"]
    return secret


def finished(url: str, game: int) -> dict[str, Any] | None:
    """The stored game once it is no longer in play."""
    state: dict[str, Any] = request(f"{url}/api/league/games/{game}").body
    return None if state["status"] == "playing" else state


def test_throwaway_people_losing_on_time_do_not_move_a_bots_rating(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, base=0.5, increment=0.0)
    token = add_member(db, "farmed")
    with thread_server(db, house_games=False) as url:
        client = start_client(url, token, "random", tmp_path / "client.log")
        try:
            wait_until(lambda: standing(url, "farmed")["online"], 60, "the bot to connect")
            for number in range(8):  # eight throwaway people, one after another
                secret = join(url, f"sock{number}")
                assert request(f"{url}/api/league/me", token=secret).body["rated"] is False
                started = request(
                    f"{url}/api/league/challenge", "POST", {"opponent": "farmed"}, token=secret
                )
                assert started.status == 201 and started.body["color"] == "x", started
                game = started.body["game"]
                ended = wait_until(functools.partial(finished, url, game), 30, "a time loss")
                assert (ended["result"], ended["termination"]) == ("o", "time forfeit")
            row = standing(url, "farmed")
            assert (row["rating"], row["rd"], row["games"]) == (1500.0, 350.0, 0)
            listed = request(f"{url}/api/league/games?member=farmed").body
            assert len(listed) == 8 and not any(g["rated"] for g in listed)
        finally:
            client.stop()
    with LeagueStore(db, create=False) as store:
        farmed = store.members.member_named("farmed").id
        assert store.ratings.ratings()[farmed] == Glicko()
        assert store.ratings.history(farmed) == []
        assert store.ratings.recompute_ratings() == store.ratings.ratings()


def play(store: LeagueStore, x: int, o: int, result: str = "x") -> None:
    game = store.games.start_game(x, o, "opening")
    store.games.finish_game(game, result, "normal", "", "record", (10, 4), 8, (1.0, 1.0))


def test_a_person_is_established_by_five_established_people_not_by_bots(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db, create=False) as store:
        ada = store.members.add_member("ada", "person")[0].id
        bots = [store.members.add_member(f"bot{n}", "bot")[0].id for n in range(6)]
        for bot in bots:  # bots vouch for nobody
            play(store, ada, bot, "o")
        rules = store.meta.rules()
        assert "(0 so far)" in store.members.established(ada, rules)[1]
        vouchers = [store.members.add_member(f"mentor{n}", "person")[0].id for n in range(5)]
        for n in range(5):
            store.members.approve(f"mentor{n}")
        for _ in range(5):  # five games against one established person: still provisional
            play(store, ada, vouchers[0], "o")
        assert store.members.established(ada, rules)[0] is False
        assert "(1 so far)" in store.members.established(ada, rules)[1]
        assert store.ratings.ratings()[vouchers[0]] == Glicko()
        for voucher in vouchers[1:]:  # five different established people now
            play(store, ada, voucher, "o")
        assert store.members.established(ada, rules) == (True, "your games are rated")
        assert all(g.rated_seq is None for g in store.games.games())
        play(store, ada, bots[5], "o")  # rated, and limited against a provisional person
        after = store.ratings.ratings()[bots[5]]
        assert after.rd < 350 and 1500 < after.rating <= 1500 + PROVISIONAL_CHANGE
        assert len(store.games.rated_games()) == 1
        assert store.ratings.recompute_ratings() == store.ratings.ratings()


def test_with_approved_people_only_the_admin_establishes_a_person(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(people="approved", min_game=0.0))
    with LeagueStore(db, create=False) as store:
        ada = store.members.add_member("ada", "person")[0].id
        bots = [store.members.add_member(f"bot{n}", "bot")[0].id for n in range(6)]
        for bot in bots:
            play(store, ada, bot)
        rules = store.meta.rules()
        assert store.members.established(ada, rules) == (
            False,
            "your games are unrated until the league's admin approves you",
        )
        assert store.games.rated_games() == []
        with pytest.raises(LeagueError, match="only people need approval"):
            store.members.approve("bot0")
        store.members.approve("ada")
        assert store.members.established(ada, rules)[0] is True
        play(store, ada, bots[0])
        assert len(store.games.rated_games()) == 1


def test_the_admin_approves_a_person_over_http_and_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(people="approved", min_game=0.0))
    with thread_server(db, house_games=False) as url:
        ada = join(url, "ada")
        join(url, "bob")
        assert request(f"{url}/api/league/me", token=ada).body["rated"] is False
        approve = f"{url}/api/league/admin/members/ada/approve"
        assert request(approve, "POST", {}, token=ada).status == 403  # not the admin's
        answer = request(approve, "POST", {}, token=ADMIN)
        assert answer.status == 200 and answer.body == {"name": "ada", "approved": True}
        assert request(f"{url}/api/league/me", token=ada).body["rated"] is True
    assert main(["league", "approve", "bob", "--db", str(db)]) == 0
    assert "Approved bob" in capsys.readouterr().out
    assert main(["league", "approve", "nobody", "--db", str(db)]) == 2
    assert "no member named 'nobody'" in capsys.readouterr().err


def test_league_rules_are_checked_and_stored_by_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    bad = ["league", "create", "--db", str(db), "--established-games", "500"]
    assert main(bad) == 2
    assert "established games must be 0 to 100, got 500" in capsys.readouterr().err
    with LeagueStore(db) as store:
        assert not store.meta.created  # nothing was written
    good = ["league", "create", "--db", str(db), "--people", "approved", "--min-game", "5"]
    assert main(good) == 0
    with LeagueStore(db, create=False) as store:
        assert store.meta.rules() == LeagueRules(people="approved", established_games=5, min_game=5)


def test_a_rating_moves_at_most_a_few_points_against_a_provisional_opponent() -> None:
    settled, newcomer = Glicko(1500.0, 100.0), Glicko()
    free_x, free_o = rate_game(settled, newcomer, 1.0)
    assert free_x.rating - settled.rating > PROVISIONAL_CHANGE  # what farming earned
    new_x, new_o = rate(settled, newcomer, 1.0)
    assert new_x.rating == settled.rating + PROVISIONAL_CHANGE and new_x.rd == free_x.rd
    assert new_o == free_o  # the provisional side moves freely
    assert rate(settled, Glicko(1500.0, 80.0), 1.0) == rate_game(settled, Glicko(1500.0, 80.0), 1.0)


def test_bad_rules_are_refused() -> None:
    for bad in ({"people": "anyone"}, {"established_games": -1}, {"min_game": -1.0}):
        with pytest.raises(ValueError):
            LeagueRules(**bad)  # type: ignore[arg-type]
    assert LeagueRules.from_dict({}) == LeagueRules()


def test_the_shortest_game_spaces_out_instant_bots(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(min_game=0.5))
    add_member(db, "quick", "house", "random")
    add_member(db, "quicker", "house", "random")
    with thread_server(db) as url:
        wait_until(
            lambda: len(request(f"{url}/api/league/games?limit=10").body) >= 5,
            60,
            "five games of the two house bots",
        )
    with LeagueStore(db, create=False) as store:
        games = sorted(
            (g for g in store.games.games() if g.status == "finished"), key=lambda g: g.started
        )
        assert len(games) >= 4
        for before, after in itertools.pairwise(games):
            # the same two bots play every game: each starts half a second after the
            # previous one started at the earliest (random bots finish in milliseconds)
            assert after.started - before.started >= 0.5
