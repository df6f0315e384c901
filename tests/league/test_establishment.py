"""Establishment that throwaway accounts cannot manufacture (docs/league.md, "What is
rated"): a game proves a person only when their opponent was established as it ended
(a bot, a house bot, an established person), so people who only play each other stay
provisional however many games they play; the count is kept as games end and read in
a few rows; and one address cannot mint people without bound."""

from __future__ import annotations

import functools
import itertools
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.league.limits import LeagueLimits
from adjacency.league.members import replay_proofs
from adjacency.league.rules import LeagueRules
from adjacency.league.store import LeagueStore
from adjacency.ratings.glicko import Glicko
from league_helpers import (
    add_member,
    challenge,
    join,
    make_league,
    me,
    request,
    start_client,
    thread_server,
    wait_until,
)


def finished(url: str, game: int) -> dict[str, Any] | None:
    state: dict[str, Any] = request(f"{url}/api/league/games/{game}").body
    return None if state["status"] == "playing" else state


def resign(url: str, secret: str, game: int) -> None:
    answer = request(f"{url}/api/league/games/{game}/resign", "POST", {}, token=secret)
    assert answer.status == 200 and answer.body["termination"] == "resignation", answer


def standing(url: str, name: str) -> dict[str, Any]:
    row: dict[str, Any] = next(
        r for r in request(f"{url}/api/league/standings").body if r["name"] == name
    )
    return row


def test_puppets_that_play_each_other_cannot_farm_a_bots_rating(tmp_path: Path) -> None:
    """The attack replayed: six throwaway people play each other (each five games against
    five different opponents) and resign, then each resigns to its author's bot. Before
    the rule each was established by then and the bot gained 60 points here (10 a game,
    each puppet's deviation being high), 224 in the probe's longer run."""
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    token = add_member(db, "farmed")
    with thread_server(db, house_games=False) as url:
        client = start_client(url, token, "random", tmp_path / "client.log")
        try:
            wait_until(lambda: standing(url, "farmed")["online"], 60, "the bot to connect")
            names = [f"puppet{n}" for n in range(6)]
            secrets = {name: join(url, name) for name in names}
            for a, b in itertools.combinations(names, 2):  # 15 games, each of the six plays 5
                me(url, secrets[b])  # b's play page is open
                made = challenge(url, secrets[a], b)
                assert made.status == 202, made
                number = made.body["challenge"]
                accepted = request(
                    f"{url}/api/league/challenges/{number}/accept", "POST", {}, token=secrets[b]
                )
                assert accepted.body["status"] == "started", accepted
                resign(url, secrets[a], accepted.body["game"])
            for name in names:
                told = me(url, secrets[name])
                assert told["rated"] is False, told
                assert told["rating_params"] == {"count": 5, "so_far": 0}, told
            for name in names:  # each resigns to the attacker's bot
                started = challenge(url, secrets[name], "farmed")
                assert started.status == 201, started
                game = started.body["game"]
                resign(url, secrets[name], game)
                wait_until(functools.partial(finished, url, game), 30, "the game's end")
            listed = request(f"{url}/api/league/games?member=farmed").body
            assert len(listed) == 6 and not any(g["rated"] for g in listed)
        finally:
            client.stop()
    with LeagueStore(db, create=False) as store:
        farmed = store.member_named("farmed").id
        assert store.ratings()[farmed] == Glicko() and store.history(farmed) == []
        assert store.rated_games() == []
        # each puppet's one game against the bot is all that proves it
        assert sorted(store.proofs().values()) == [1] * 6


def test_one_address_cannot_add_people_without_bound(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    limits = LeagueLimits(requests_per_minute=60_000.0, burst=5)  # joins' own rate: no bound
    with thread_server(db, limits=limits) as url:
        for number in range(5):
            join(url, f"student{number}")
        refused = request(f"{url}/api/league/people", "POST", {"name": "student5"})
        assert refused.status == 429, refused
        assert "too many people joined from your address" in refused.body["detail"]
    with LeagueStore(db, create=False) as store:
        assert store.member_count() == 5  # the refused join added nobody


# ----------------------------------------------------------- the stored count


def model(
    kinds: dict[int, str], games: list[tuple[int, int]], rules: LeagueRules
) -> dict[tuple[int, int], int]:
    """The rule, written out: games in the order they end; a game proves a person when
    the opponent was a bot or an established person before it."""
    proofs: dict[tuple[int, int], int] = {}

    def established(member: int) -> bool:
        if kinds[member] != "person":
            return True
        mine = [n for (m, _), n in proofs.items() if m == member]
        return rules.established(False, sum(mine), len(mine))

    for x, o in games:
        proven = [(a, b) for a, b in ((x, o), (o, x)) if kinds[a] == "person" and established(b)]
        for key in proven:
            proofs[key] = proofs.get(key, 0) + 1
    return proofs


@settings(max_examples=25, deadline=None)
@given(
    people=st.integers(2, 5),
    bots=st.integers(0, 3),
    needed=st.integers(0, 3),
    picks=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=30),
)
def test_the_stored_count_agrees_with_the_rule_and_a_replay(
    tmp_path_factory: Any, people: int, bots: int, needed: int, picks: list[tuple[int, int]]
) -> None:
    db = tmp_path_factory.mktemp("proofs") / "league.db"
    rules = LeagueRules(min_game=0.0, established_games=needed)
    make_league(db, rules=rules)
    with LeagueStore(db, create=False) as store:
        ids = [store.add_member(f"p{n}", "person")[0].id for n in range(people)]
        ids += [store.add_member(f"b{n}", "bot")[0].id for n in range(bots)]
        kinds = {m.id: m.kind for m in store.members()}
        games = [(ids[a % len(ids)], ids[b % len(ids)]) for a, b in picks]
        games = [(x, o) for x, o in games if x != o]
        for x, o in games:
            game = store.start_game(x, o, "opening")
            store.finish_game(game, "o", "resignation", "", "record", (3, 4), 2, (1.0, 1.0))
        expected = model(kinds, games, rules)
        assert store.proofs() == expected
        with store.database.lock:
            assert replay_proofs(store.db, rules) == expected
        for member in ids:
            mine = [n for (m, _), n in expected.items() if m == member]
            ok = kinds[member] != "person" or rules.established(False, sum(mine), len(mine))
            assert store.established(member, rules)[0] is ok


def test_a_file_written_before_the_rule_is_replayed_when_opened(tmp_path: Path) -> None:
    """An older file counted every game: opening it replays its games under the rule, so
    people who established each other are provisional again."""
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(min_game=0.0, established_games=1))
    with LeagueStore(db, create=False) as store:
        ada, bob = (store.add_member(n, "person")[0].id for n in ("ada", "bob"))
        bot = store.add_member("greedy1", "bot")[0].id
        for x, o in ((ada, bob), (ada, bot)):
            store.finish_game(
                store.start_game(x, o, "opening"), "x", "normal", "", "r", (3, 2), 2, (1, 1)
            )
    with sqlite3.connect(db) as raw:  # as a file of the earlier version (1) holds it
        raw.execute("DROP TABLE proofs")
        raw.execute("DELETE FROM meta WHERE key = 'proofs'")
        raw.execute("PRAGMA user_version = 1")
    with LeagueStore(db, create=False) as store:
        assert store.proofs() == {(ada, bot): 1}
        rules = store.rules()
        assert store.established(ada, rules)[0] is True
        assert store.established(bob, rules)[0] is False
