"""The aggregates the public pages read against a recomputation from the
stored games, on leagues of random games (hypothesis):

* the tables the triggers keep (``results``, ``failures``, ``current_ratings``) equal
  their recomputation by SQL, after games finish, abort and are deleted;
* the standings and a member's page computed from them equal what the league computed
  before, from every stored game (counted here in Python, fitted per game);
* a database of the earlier version (no aggregates) gets them built when opened.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjacency.league.league_file import LeagueStore
from adjacency.league.rules import PROVISIONAL_RD, LeagueRules
from adjacency.league.standings import PROVISIONAL_GAMES, has_both, member_page, standings
from adjacency.ratings.bradley_terry import WALD, ratings
from adjacency.ratings.glicko import Glicko
from league_helpers import make_league

TERMINATIONS = ("normal", "normal", "time forfeit", "illegal move", "disconnection")

game_plan = st.tuples(
    st.integers(0, 7),  # x
    st.integers(0, 7),  # o
    st.sampled_from(["x", "o", "draw", None]),  # result
    st.sampled_from(TERMINATIONS),
    st.integers(0, 60),  # plies
    st.floats(0, 30, allow_nan=False),  # x's clock time
    st.floats(0, 30, allow_nan=False),  # o's
    st.sampled_from(["finish", "finish", "unrated", "abort"]),
)


def play(store: LeagueStore, ids: list[int], plans: list[tuple[Any, ...]]) -> None:
    """Store the planned games through the store's own calls, as the server does."""
    rules = store.meta.rules()
    for x, o, result, termination, plies, x_time, o_time, how in plans:
        if ids[x] == ids[o]:
            continue
        game = store.games.start_game(ids[x], ids[o], "opening")
        if how == "abort":
            store.games.abort_game(game, "stopped", "record", plies)
            continue
        times = (round(x_time, 3), round(o_time, 3))
        rated = how == "finish"
        store.games.finish_game(
            game, result, termination, "", "", (3, 2), plies, times, rules, rated
        )


def league(root: Path) -> tuple[LeagueStore, list[int]]:
    """Four bots, a house bot and three people (one approved), people rated after two
    games against two opponents: rated and unrated games both occur."""
    db = root / "league.db"
    make_league(db, rules=LeagueRules(min_game=0.0, established_games=2))
    store = LeagueStore(db, create=False)
    ids = [store.members.add_member(f"bot-{n}", "bot")[0].id for n in range(4)]
    ids.append(store.members.add_member("house-random", "house", spec="random")[0].id)
    ids += [store.members.add_member(name, "person")[0].id for name in ("Ann", "bob", "Cy")]
    store.members.approve("Ann")
    return store, ids


def expected_standings(store: LeagueStore, online: set[int]) -> dict[str, dict[str, Any]]:
    """The standings as the league computed them before its aggregates: every rated game
    read and counted, the Bradley-Terry fit over each game."""
    games = store.games.rated_games()
    members = store.members.members()
    names = {m.id: m.name for m in members}
    record: dict[int, Counter[str]] = defaultdict(Counter)
    results = []
    for game in games:
        results.append((names[game.x_id], names[game.o_id], game.points(game.x_id)))
        for member_id in (game.x_id, game.o_id):
            points = game.points(member_id)
            record[member_id]["wins" if points == 1 else "losses" if points == 0 else "draws"] += 1
    played = {g.x_id for g in store.games.games(status="finished")}
    played |= {g.o_id for g in store.games.games(status="finished")}
    fitted = [m.name for m in members if has_both(record[m.id])]
    among = [r for r in results if r[0] in fitted and r[1] in fitted]
    fit = ratings(fitted, among, centre="games", interval=WALD) if len(fitted) > 1 else []
    elo = {r.player: r for r in fit}
    current = store.ratings.recompute_ratings()
    rows = {}
    for m in members:
        if m.kind == "person" and m.id not in played and m.id not in online:
            continue  # people who never finished a game are not listed
        count = sum(record[m.id].values())
        rating = current.get(m.id, Glicko())
        bt = elo.get(m.name)
        rows[m.name] = {
            "rating": round(rating.rating, 1),
            "rd": round(rating.rd, 1),
            "provisional": count < PROVISIONAL_GAMES or rating.rd > PROVISIONAL_RD,
            "games": count,
            **{k: record[m.id][k] for k in ("wins", "draws", "losses")},
            "elo": None if bt is None else bt.elo,
            "low": None if bt is None else bt.low,
            "high": None if bt is None else bt.high,
        }
    return rows


def expected_page(store: LeagueStore, member_id: int) -> dict[str, Any]:
    """A member's scores, time use and failures as the league computed them before:
    from each of its finished games."""
    names = {m.id: m.name for m in store.members.members()}
    opponents: dict[str, Counter[str]] = defaultdict(Counter)
    failures: Counter[str] = Counter()
    seconds, moves = 0.0, 0
    for game in store.games.games(member_id=member_id, status="finished"):
        mine = game.x_id == member_id
        opponent = names[game.o_id if mine else game.x_id]
        points = game.points(member_id)
        opponents[opponent]["games"] += 1
        opponents[opponent]["points2"] += int(points * 2)
        if points == 0 and game.termination not in (None, "normal"):
            failures[game.termination or ""] += 1
        moves += max(0, (game.plies + (0 if mine else -1) + 1) // 2)
        seconds += game.x_time if mine else game.o_time
    return {
        "opponents": [
            {"name": n, "games": c["games"], "points": c["points2"] / 2}
            for n, c in sorted(opponents.items())
        ],
        "seconds_per_move": seconds / moves if moves else None,
        "failures": dict(failures),
        "history": [
            {"game": g, "rating": round(r, 1), "rd": round(d, 1), "at": t}
            for g, r, d, t in store.ratings.history(member_id)
        ],
    }


def check(store: LeagueStore, ids: list[int]) -> None:
    assert store.ratings.totals() == store.ratings.recompute_totals()
    online = {ids[6]}  # bob, online: listed even without a finished game
    rows = {row["name"]: row for row in standings(store, online)}
    expected = expected_standings(store, online)
    assert set(rows) == set(expected)
    for name, want in expected.items():
        got = rows[name]
        for field in ("rating", "rd", "provisional", "games", "wins", "draws", "losses"):
            assert got[field] == want[field], (name, field)
        if want["elo"] is None:
            assert got["elo"] is None
        else:  # the same fit summed per pair: equal to rounding
            assert abs(got["elo"] - want["elo"]) <= 0.051 + 1e-9
            assert abs(got["elo_low"] - want["low"]) <= 0.051 + 1e-9
            assert abs(got["elo_high"] - want["high"]) <= 0.051 + 1e-9
    for member_id in ids:
        page = member_page(store, store.members.member(member_id))
        want = expected_page(store, member_id)
        assert page["opponents"] == want["opponents"]
        assert page["failures"] == want["failures"]
        assert page["history"] == want["history"]  # fewer than 500 points: all of them
        if want["seconds_per_move"] is None:
            assert page["seconds_per_move"] is None
        else:  # summed in whole milliseconds: equal to the printed precision
            assert abs(page["seconds_per_move"] - want["seconds_per_move"]) <= 0.0005 + 1e-9


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(game_plan, max_size=40), st.lists(st.integers(0, 39), max_size=3))
def test_aggregates_equal_a_recomputation_from_the_stored_games(
    plans: list[tuple[Any, ...]], deleted: list[int]
) -> None:
    with tempfile.TemporaryDirectory() as root:
        store, ids = league(Path(root))
        with store:
            play(store, ids, plans)
            check(store, ids)
            # a removal (another tool deleting games and their ratings) keeps them equal
            with store.database.transaction() as db:
                for game_id in deleted:
                    db.execute("DELETE FROM ratings WHERE game_id = ?", (game_id + 1,))
                    db.execute("DELETE FROM games WHERE id = ?", (game_id + 1,))
            assert store.ratings.totals() == store.ratings.recompute_totals()


def test_a_database_without_aggregates_gets_them_built_when_opened(tmp_path: Path) -> None:
    store, ids = league(tmp_path)
    plans = [(a % 5, (a * 3 + 1) % 8, "x" if a % 3 else "o", "normal", 30, 4.0, 3.0, "finish")
             for a in range(30)]  # fmt: skip
    with store:
        play(store, ids, plans)
        built = store.ratings.totals()
    # the file as the earlier version left it: no triggers, no aggregate tables, no mark
    with sqlite3.connect(tmp_path / "league.db") as db:
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
            db.execute(f"DROP TRIGGER {name}")
        for table in ("results", "failures", "current_ratings"):
            db.execute(f"DROP TABLE {table}")
        db.execute("DELETE FROM meta WHERE key = 'totals'")
        db.execute("PRAGMA user_version = 0")  # before numbered versions
        db.execute("PRAGMA application_id = 0")
    with LeagueStore(tmp_path / "league.db", create=False) as store:
        assert store.ratings.totals() == built == store.ratings.recompute_totals()
        assert built["results"] and built["current_ratings"]
        play(store, ids, plans[:5])  # and kept from then on
        check(store, ids)
