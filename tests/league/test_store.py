"""The league database: members and tokens, games and ratings, crash recovery, settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from adjacency.core import Position
from adjacency.core.details import DetailCode
from adjacency.core.errors import InvalidSettingsError
from adjacency.league.league_file import LeagueError, LeagueStore, token_hash
from adjacency.league.settings import LeagueSettings, book_openings, parse_clock
from adjacency.storage import WrongDatabaseError


def make_store(tmp_path: Path, **settings: object) -> LeagueStore:
    store = LeagueStore(tmp_path / "league.db")
    store.meta.create(LeagueSettings(**settings), "adjl_admin-secret")  # type: ignore[arg-type]
    return store


def test_tokens_are_stored_as_hashes_and_act_for_their_member_only(tmp_path: Path) -> None:
    store = make_store(tmp_path, rows=6, cols=6, rounds=4)
    alice, token = store.members.add_member("alice", "bot")
    bob, bob_token = store.members.add_member("bob", "bot")
    assert token is not None and bob_token is not None and token != bob_token
    assert len(token) == len("adjl_") + 22  # 128 bits in URL-safe base64
    dump = "\n".join(sqlite3.connect(tmp_path / "league.db").iterdump())
    assert token not in dump and token_hash(token) in dump
    assert store.members.authenticate(token) == alice
    assert store.members.authenticate(bob_token) == bob
    assert store.members.authenticate("adjl_" + "x" * 22) is None
    assert store.meta.is_admin("adjl_admin-secret") and not store.meta.is_admin(token)
    store.members.revoke("alice")
    assert store.members.authenticate(token) is None
    fresh = store.members.rotate("alice")
    assert (
        store.members.authenticate(fresh) is not None and store.members.authenticate(token) is None
    )


def test_names_are_unique_bounded_and_printable(tmp_path: Path) -> None:
    store = make_store(tmp_path, rows=6, cols=6, rounds=4)
    store.members.add_member("team-1", "bot")
    for bad in ("TEAM-1", "", "a" * 33, "two words", "tab\t", "é"):
        with pytest.raises(LeagueError):
            store.members.add_member(bad, "bot")
    assert [m.name for m in store.members.members()] == ["team-1"]
    house, token = store.members.add_member("greedy-house", "house", spec="greedy")
    assert token is None and house.spec == "greedy"
    with pytest.raises(LeagueError):
        store.members.rotate("greedy-house")


def test_ratings_are_a_recomputation_of_the_stored_games_and_in_flight_games_abort(
    tmp_path: Path,
) -> None:
    store = make_store(tmp_path, rows=6, cols=6, rounds=4)
    a, _ = store.members.add_member("a", "bot")
    b, _ = store.members.add_member("b", "bot")
    c, _ = store.members.add_member("c", "house", spec="random")
    for x, o, result in ((a, b, "x"), (b, c, "draw"), (c, a, "o"), (a, c, "x")):
        game = store.games.start_game(x.id, o.id, "fen")
        store.games.finish_game(game, result, "normal", "", "record", (10, 8), 8, (1.0, 2.0))
    flying = store.games.start_game(b.id, a.id, "fen")
    store.close()
    store = LeagueStore(tmp_path / "league.db")  # as after kill -9: reopen
    assert store.games.abort_in_flight() == 1
    aborted = store.games.game(flying)
    assert aborted is not None and aborted.status == "aborted" and aborted.rated_seq is None
    assert aborted.detail == "the server stopped during the game"  # pages translate its code
    assert aborted.end_detail().code == DetailCode.SERVER_STOPPED_DURING
    assert aborted.end_detail().params == {}
    assert store.ratings.ratings() == store.ratings.recompute_ratings()
    ratings = store.ratings.ratings()
    assert ratings[a.id].rating > 1500 > ratings[b.id].rating
    assert [g for g, *_ in store.ratings.history(a.id)] == [1, 3, 4]
    thinned, rated = store.ratings.rated_history(a.id, points=2)  # a member page's chart
    assert [g for g, *_ in thinned] == [1, 4] and rated == 3  # the latest kept, all counted
    with pytest.raises(Exception, match="not in play"):
        store.games.finish_game(flying, "x", "normal", "", "r", (1, 1), 1, (0.0, 0.0))


def test_settings_are_fixed_at_creation(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    settings = store.meta.settings()
    assert (settings.rows, settings.cols, settings.rounds) == (8, 8, 28)
    assert settings.time_control == "60+1"
    assert list(settings.openings) == book_openings()
    with pytest.raises(LeagueError, match="already holds"):
        store.meta.create(LeagueSettings(rows=6, cols=6, rounds=4), "adjl_other")


def test_openings_fit_the_league_and_are_reproducible() -> None:
    short = LeagueSettings(rows=8, cols=8, rounds=6)
    assert 8 <= len(short.openings) <= len(book_openings())
    for number in range(len(short.openings)):
        assert short.opening(number).plies_left + short.opening(number).ply_count == 12
    small = LeagueSettings(rows=6, cols=6, rounds=4, move_time=0.5)
    assert small.openings == LeagueSettings(rows=6, cols=6, rounds=4).openings
    assert small.time_control == "0.5 s/move"
    assert all(Position.from_fen(t).rows == 6 for t in small.openings)
    assert parse_clock("60+1") == (60.0, 1.0) and parse_clock("5") == (5.0, 0.0)
    for bad in ("", "1+", "-1+0", "nan+1", "60+100"):
        with pytest.raises(InvalidSettingsError):
            parse_clock(bad)
    with pytest.raises(InvalidSettingsError):
        LeagueSettings(rows=6, cols=6, rounds=40)


def test_a_league_from_the_start_is_told_from_one_of_openings() -> None:
    """``from_start``: every game starts from the start position (a program's window
    plays only such games), whatever its rounds; a league with openings is not."""
    assert not LeagueSettings(rows=8, cols=8, rounds=6).from_start
    for rounds in (2, 28):
        start = Position.start(8, 8, rounds).fen()
        assert LeagueSettings(rows=8, cols=8, rounds=rounds, openings=(start,)).from_start
    opening = LeagueSettings(rows=8, cols=8, rounds=6).openings[0]
    start = Position.start(8, 8, 6).fen()
    assert not LeagueSettings(rows=8, cols=8, rounds=6, openings=(start, opening)).from_start


def test_other_files_are_refused_and_left_as_they_were(tmp_path: Path) -> None:
    foreign = tmp_path / "results.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE runs (id INTEGER)")
    before = foreign.read_bytes()
    with pytest.raises(WrongDatabaseError, match="holds tables that no league database has"):
        LeagueStore(foreign)
    assert foreign.read_bytes() == before
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all\n" * 100)
    with pytest.raises(WrongDatabaseError, match="not a SQLite database"):
        LeagueStore(text)
    missing = tmp_path / "missing.db"
    with pytest.raises(LeagueError, match="no league database"):
        LeagueStore(missing, create=False)
    assert not missing.exists()
