"""Establishment that throwaway accounts cannot manufacture (docs/league.md, "What is
rated"): a played game (no resignation, a few moves each) proves a person only when
their opponent was an established person as it ended, counted once per address or
approval, so puppets that play each other or the league's bots stay provisional
however many games they play; a loss rates only when the loser played; the count is
kept as games end and read in a few rows; and one address cannot mint people without
bound."""

from __future__ import annotations

import contextlib
import functools
import http.client
import itertools
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.rules import LeagueRules
from adjacency.league.store.proofs import replay_proofs
from adjacency.league.store.schema import STORE_SCHEMA
from adjacency.ratings.glicko import Glicko
from adjacency.serving.addresses import address_key
from league_helpers import (
    add_member,
    challenge,
    join,
    make_league,
    me,
    request,
    standing,
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


def resign_at_once(url: str, secret: str, opponent: str) -> None:
    """Challenge a bot (started at once, or queued until it is free), resign the game as
    soon as it starts, and wait for its end."""
    made = challenge(url, secret, opponent)
    assert made.status in (201, 202), made

    def started() -> int | None:
        state = request(f"{url}/api/league/challenges/{made.body['challenge']}", token=secret)
        assert state.body["status"] in ("queued", "started"), state
        return state.body["game"]  # type: ignore[no-any-return]

    game = made.body["game"] if made.status == 201 else wait_until(started, 30, "the game")
    resign(url, secret, game)
    wait_until(functools.partial(finished, url, game), 30, "the game's end")


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
        farmed = store.members.member_named("farmed").id
        assert store.ratings.ratings()[farmed] == Glicko() and store.ratings.history(farmed) == []
        assert store.games.rated_games() == []
        assert store.members.proofs() == {}  # resignations, and bots, prove nobody


def test_puppets_that_resign_to_the_leagues_bots_cannot_farm_a_bots_rating(
    tmp_path: Path,
) -> None:
    """The attack replayed: puppets from one address each resign once to each of five
    league bots (under the earlier rule that made each of them established), then
    resign to their author's bot. Bots vouch for nobody and resignations prove nothing,
    so the puppets stay provisional and the bot gains nothing (before the rule it
    gained 10 points a puppet here, +110 in the probe's longer run)."""
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(min_game=0.0), base=60.0, increment=0.0)
    house = [f"house{n}" for n in range(5)]
    for name in house:
        add_member(db, name, "house", "random")
    token = add_member(db, "farmed")
    with thread_server(db, house_games=False) as url:
        client = start_client(url, token, "random", tmp_path / "client.log")
        try:
            wait_until(lambda: standing(url, "farmed")["online"], 60, "the bot to connect")
            secrets = {f"puppet{n}": join(url, f"puppet{n}") for n in range(6)}
            for secret in secrets.values():
                for bot in house:
                    resign_at_once(url, secret, bot)
            for secret in secrets.values():
                told = me(url, secret)
                assert told["rated"] is False and told["rating_params"]["so_far"] == 0, told
                resign_at_once(url, secret, "farmed")
            listed = request(f"{url}/api/league/games?member=farmed&limit=200").body
            against = [g for g in listed if {g["x"], g["o"]} & set(secrets)]
            assert len(against) == 6 and not any(g["rated"] for g in against), against
        finally:
            client.stop()
    with LeagueStore(db, create=False) as store:
        assert store.members.proofs() == {}  # resignations, and bots, prove nobody
        assert store.ratings.recompute_ratings() == store.ratings.ratings()
    assert puppets_gain(db, "farmed") == 0.0


def puppets_gain(db: Path, bot: str) -> float:
    """The rating points ``bot`` won in its games against people (its games against the
    house bots of the ladder are the league's own)."""
    with contextlib.closing(sqlite3.connect(db)) as raw:
        rows = raw.execute(
            "SELECT r.rating, (SELECT COUNT(*) FROM members p WHERE p.kind = 'person' "
            "AND p.id IN (g.x_id, g.o_id)) FROM ratings r JOIN games g ON g.id = r.game_id "
            "WHERE r.member_id = (SELECT id FROM members WHERE name = ?) ORDER BY r.seq",
            (bot,),
        ).fetchall()
    gain, before = 0.0, 1500.0
    for rating, people in rows:
        gain += (rating - before) if people else 0.0
        before = rating
    return gain


def test_people_join_with_the_key_of_their_address(tmp_path: Path) -> None:
    """A person's address is kept as a key (not the address) with the person: people
    who joined from one address are one voucher, from two addresses two."""
    db = tmp_path / "league.db"
    make_league(db)
    with thread_server(db, house_games=False) as url:
        port = int(url.rsplit(":", 1)[1])
        for name, source in (("ada", "127.0.0.2"), ("bob", "127.0.0.2"), ("cy", "127.0.0.3")):
            connection = http.client.HTTPConnection("127.0.0.1", port, source_address=(source, 0))
            body = json.dumps({"name": name})
            connection.request(
                "POST", "/api/league/people", body, {"Content-Type": "application/json"}
            )
            assert connection.getresponse().status == 201
            connection.close()
    with sqlite3.connect(db) as raw:
        origins = dict(raw.execute("SELECT name, origin FROM members").fetchall())
    assert origins["ada"] == origins["bob"] == address_key("127.0.0.2")
    assert origins["cy"] == address_key("127.0.0.3") != origins["ada"]
    assert "127.0.0" not in origins["ada"]


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
        assert store.members.member_count() == 5  # the refused join added nobody


# ----------------------------------------------------------- the stored count


def model(
    people: dict[int, tuple[bool, str | None]],
    games: list[tuple[int, int, str, int]],
    rules: LeagueRules,
) -> tuple[dict[tuple[int, int], int], dict[int, set[str]]]:
    """The rule, written out: games in the order they end; a game not resigned that ended
    on the board or after four moves or more each proves a person when the opponent was
    an established person before it; the proofs count once per voucher (an approved
    person on their own, the others once per address), never people of the person's own
    address."""
    proofs: dict[tuple[int, int], int] = {}
    vouchers: dict[int, set[str]] = {}

    def voucher(member: int) -> str:
        approved, origin = people[member]
        if approved:
            return f"approved:{member}"
        return f"member:{member}" if origin is None else f"origin:{origin}"

    def established(member: int) -> bool:
        return member in people and rules.established(
            people[member][0], len(vouchers.get(member, ()))
        )

    for x, o, termination, plies in games:
        if termination == "resignation" or (termination != "normal" and plies < 8):
            continue
        proven = [(a, b) for a, b in ((x, o), (o, x)) if a in people and established(b)]
        for a, b in proven:
            proofs[a, b] = proofs.get((a, b), 0) + 1
            if people[b][0] or people[b][1] is None or people[b][1] != people[a][1]:
                vouchers.setdefault(a, set()).add(voucher(b))
    return proofs, vouchers


@settings(max_examples=25, deadline=None)
@given(
    people=st.lists(st.tuples(st.booleans(), st.sampled_from([None, "a", "b", "c"])), min_size=2,
                    max_size=6),
    bots=st.integers(0, 2),
    needed=st.integers(0, 3),
    picks=st.lists(
        st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from(["normal", "resignation",
                  "time forfeit"]), st.integers(0, 12)),
        max_size=30,
    ),
)  # fmt: skip
def test_the_stored_count_agrees_with_the_rule_and_a_replay(
    tmp_path_factory: Any,
    people: list[tuple[bool, str | None]],
    bots: int,
    needed: int,
    picks: list[tuple[int, int, str, int]],
) -> None:
    db = tmp_path_factory.mktemp("proofs") / "league.db"
    rules = LeagueRules(min_game=0.0, established_games=needed)
    make_league(db, rules=rules)
    with LeagueStore(db, create=False) as store:
        ids = [
            store.members.add_member(f"p{n}", "person", origin=origin)[0].id
            for n, (_, origin) in enumerate(people)
        ]
        for n, (approved, _) in enumerate(people):
            if approved:
                store.members.approve(f"p{n}")
        who = {ids[n]: person for n, person in enumerate(people)}
        ids += [store.members.add_member(f"b{n}", "bot")[0].id for n in range(bots)]
        games = [
            (ids[a % len(ids)], ids[b % len(ids)], termination, plies)
            for a, b, termination, plies in picks
        ]
        games = [game for game in games if game[0] != game[1]]
        for x, o, termination, plies in games:
            game = store.games.start_game(x, o, "opening")
            store.games.finish_game(game, "o", termination, "", "record", (3, 4), plies, (1.0, 1.0))
        expected, vouchers = model(who, games, rules)
        assert store.members.proofs() == expected
        with store.database.lock:
            assert replay_proofs(store.db, rules) == expected
        for member in ids:
            ok = member not in who or rules.established(
                who[member][0], len(vouchers.get(member, ()))
            )
            assert store.members.established(member, rules)[0] is ok


def test_people_of_one_address_vouch_once_and_approved_people_each(tmp_path: Path) -> None:
    """A newcomer is established by five distinct vouchers: four established people
    from one address count once, the approved ones of a shared school address each
    count, and the newcomer's own address counts for nothing."""
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(min_game=0.0))
    with LeagueStore(db, create=False) as store:
        rules = store.meta.rules()
        new = store.members.add_member("newcomer", "person", origin="home")[0].id
        school = [
            store.members.add_member(f"pupil{n}", "person", origin="school")[0] for n in range(4)
        ]
        kin = store.members.add_member("sibling", "person", origin="home")[0]
        for person in [*school, kin]:
            store.members.approve(person.name)
        crowd = [
            store.members.add_member(f"crowd{n}", "person", origin="cafe")[0] for n in range(4)
        ]

        def play(x: int, o: int, termination: str = "normal", plies: int = 8) -> None:
            game = store.games.start_game(x, o, "opening")
            store.games.finish_game(game, "x", termination, "", "record", (9, 3), plies, (1.0, 1.0))

        for person in crowd:  # each established by the four approved pupils and the sibling
            for voucher in [*school, kin]:
                play(voucher.id, person.id)
            assert store.members.established(person.id, rules)[0] is True
        for person in crowd:  # four people of one address: one voucher
            play(person.id, new)
        assert store.members.established(new, rules) == (
            False,
            store.members.established(new, rules)[1],
        )
        assert store.members.established(new, rules)[1].params == {"count": 5, "so_far": 1}
        play(kin.id, new)  # approved, but of the newcomer's own address: still a voucher
        play(school[0].id, new, "resignation")  # a resignation proves nothing
        play(school[1].id, new, "time forfeit", 7)  # lost on time after three moves each
        assert store.members.established(new, rules)[1].params["so_far"] == 2
        for pupil in school[:3]:
            play(pupil.id, new)
        assert store.members.established(new, rules)[0] is True


def test_a_loss_rates_only_when_the_loser_played(tmp_path: Path) -> None:
    """Between an established person and a bot, a loss that did not end on the board
    before each side made four moves (by resignation, on time, by an illegal move) moves
    no rating; played, it does."""
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(min_game=0.0))
    with LeagueStore(db, create=False) as store:
        ada = store.members.add_member("ada", "person")[0].id
        store.members.approve("ada")
        bot = store.members.add_member("robot", "bot")[0].id
        for result, termination, plies in (
            ("x", "resignation", 0),
            ("x", "time forfeit", 7),
            ("x", "illegal move", 3),
        ):
            game = store.games.start_game(bot, ada, "opening")
            store.games.finish_game(game, result, termination, "", "r", (5, 5), plies, (1.0, 1.0))
        assert store.games.rated_games() == [] and store.ratings.ratings()[bot] == Glicko()
        game = store.games.start_game(ada, bot, "opening")  # the bot lost at once: rated
        store.games.finish_game(game, "x", "resignation", "", "r", (5, 5), 0, (1.0, 1.0))
        game = store.games.start_game(bot, ada, "opening")  # ada lost having played: rated
        store.games.finish_game(game, "x", "resignation", "", "r", (5, 5), 8, (1.0, 1.0))
        assert len(store.games.rated_games()) == 2
        assert store.ratings.recompute_ratings() == store.ratings.ratings()


def test_a_file_written_before_the_rule_is_replayed_when_opened(tmp_path: Path) -> None:
    """An older file counted every game: opening it replays its games under today's
    rule, so people who established each other are provisional again."""
    db = tmp_path / "league.db"
    make_league(db, rules=LeagueRules(min_game=0.0, established_games=1))
    with LeagueStore(db, create=False) as store:
        ada, bob, cy = (store.members.add_member(n, "person")[0].id for n in ("ada", "bob", "cy"))
        store.members.approve("cy")
        for x, o in ((ada, bob), (ada, cy)):
            store.games.finish_game(
                store.games.start_game(x, o, "opening"), "x", "normal", "", "r", (3, 2), 8, (1, 1)
            )
    with sqlite3.connect(db) as raw:  # as a file of the earlier version (1) holds it
        raw.execute("DROP TABLE proofs")
        raw.execute("DELETE FROM meta WHERE key = 'proofs'")
        raw.execute("PRAGMA user_version = 1")
    with LeagueStore(db, create=False) as store:
        assert store.members.proofs() == {(ada, cy): 1}
        rules = store.meta.rules()
        assert store.members.established(ada, rules)[0] is True
        assert store.members.established(bob, rules)[0] is False


FIXTURE = Path(__file__).parents[1] / "data" / "stores" / "b9a869d" / "league.db"
"""A league file of version 5 written by the code before only established people vouched
(``tests/data/stores/b9a869d/make_league.py``): a person established by five
resignations to bots, whose resignation to the bot ``farmed`` was rated, and an approved
person's rated game."""


def test_a_file_of_the_previous_version_is_upgraded_and_its_proofs_replayed(
    tmp_path: Path,
) -> None:
    db = tmp_path / "league.db"
    shutil.copyfile(FIXTURE, db)
    with contextlib.closing(sqlite3.connect(db)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 5
        assert raw.execute("SELECT COUNT(*) FROM proofs").fetchone()[0] == 7
        ratings = raw.execute("SELECT * FROM ratings ORDER BY seq").fetchall()
        games = raw.execute("SELECT id, rated_seq FROM games ORDER BY id").fetchall()
    with LeagueStore(db, create=False) as store:
        rules = store.meta.rules()
        puppet, ada = store.members.member_named("puppet").id, store.members.member_named("ada").id
        assert store.members.proofs() == {}  # resignations to bots prove nothing now
        assert store.members.established(puppet, rules)[0] is False
        assert store.members.established(ada, rules)[0] is True  # approved
        assert store.ratings.recompute_ratings() == store.ratings.ratings()
    with contextlib.closing(sqlite3.connect(db)) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == STORE_SCHEMA.version
        assert raw.execute("SELECT * FROM ratings ORDER BY seq").fetchall() == ratings
        assert raw.execute("SELECT id, rated_seq FROM games ORDER BY id").fetchall() == games
        origins = raw.execute("SELECT DISTINCT origin FROM members").fetchall()
        assert origins == [(None,)]  # nobody's address was kept then
