"""The play page's poll bounded (docs/league.md, "What is rated"): whether a person is
established is read from a few rows of ``proofs`` by primary key, never by scanning the
games, and ``GET /api/league/me`` is rate limited per person."""

from __future__ import annotations

from pathlib import Path

from adjacency.league.limits import LeagueLimits
from adjacency.league.routers.people import ME_PER_MINUTE
from adjacency.league.store import LeagueStore
from league_helpers import add_member, challenge, join, make_league, me, request, thread_server


def steps(store: LeagueStore, member: int) -> int:
    """SQLite virtual-machine steps that one establishment question costs."""
    count = [0]

    def tick() -> int:
        count[0] += 1
        return 0

    rules = store.rules()
    with store.database.lock:
        store.db.set_progress_handler(tick, 1)
        try:
            store.established(member, rules)
        finally:
            store.db.set_progress_handler(None, 1)
    return count[0]


def play(store: LeagueStore, x: int, o: int) -> None:
    game = store.start_game(x, o, "opening")
    store.finish_game(game, "o", "resignation", "", "record", (3, 4), 2, (1.0, 1.0))


def test_establishment_costs_the_same_whatever_the_number_of_games(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db, create=False) as store:
        ada = store.add_member("ada", "person")[0].id
        bots = [store.add_member(f"engine{n}", "bot")[0].id for n in range(8)]
        for bot in bots[:3]:
            play(store, ada, bot)
        few = steps(store, ada)
        for number in range(1500):  # ada's games against the same bots, and everyone else's
            play(store, ada, bots[number % 3])
            play(store, bots[3 + number % 5], bots[number % 3])
        assert steps(store, ada) == few
        for bot in bots[3:]:  # more opponents than the rule needs: still its 5 rows at most
            for _ in range(50):
                play(store, ada, bot)
        assert store.established(ada, store.rules())[0] is True
        many = steps(store, ada)
        play(store, ada, bots[0])
        assert steps(store, ada) == many
        plan = store.database.query(
            "EXPLAIN QUERY PLAN SELECT COUNT(*), TOTAL(games) FROM "
            "(SELECT games FROM proofs WHERE member_id = ? LIMIT ?)",
            (ada, 5),
        )
        details = " ".join(str(row[-1]) for row in plan)
        assert "SEARCH proofs USING PRIMARY KEY (member_id=?)" in details, details
        assert "games" not in details.replace("TOTAL(games)", ""), details  # no games table


def test_a_flood_of_me_is_refused_per_person_and_spares_the_others(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    limits = LeagueLimits(burst=10)
    with thread_server(db, limits=limits) as url:
        flooder, other = join(url, "flooder"), join(url, "patient")
        answers = [request(f"{url}/api/league/me", token=flooder) for _ in range(40)]
        refused = [a for a in answers if a.status == 429]
        assert answers[0].status == 200 and len(refused) >= 10, [a.status for a in answers]
        assert "too many requests from flooder" in refused[0].body["detail"]
        assert f"{ME_PER_MINUTE:g} per minute" in refused[0].body["detail"]
        told = request(f"{url}/api/league/me", token=other)  # same address, own bucket
        assert told.status == 200 and told.body["name"] == "patient", told


def test_me_tells_a_new_proof_as_soon_as_the_game_ends(tmp_path: Path) -> None:
    """The hall keeps what /me read for a few seconds (the page asks every second), and
    forgets it when one of the person's games ends."""
    db = tmp_path / "league.db"
    make_league(db, base=60.0, increment=0.0)
    for name in ("house-one", "house-two"):
        add_member(db, name, "house", "random")
    with thread_server(db, house_games=False) as url:
        ada = join(url, "ada")
        for number, bot in enumerate(("house-one", "house-two"), 1):
            assert me(url, ada)["rating_params"]["so_far"] == number - 1
            started = challenge(url, ada, bot)
            assert started.status == 201, started
            game = started.body["game"]
            resigned = request(f"{url}/api/league/games/{game}/resign", "POST", {}, token=ada)
            assert resigned.status == 200, resigned
            assert me(url, ada)["rating_params"]["so_far"] == number
