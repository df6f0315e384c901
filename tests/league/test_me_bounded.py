"""The play page's poll bounded (docs/league.md, "What is rated"): whether a person is
established is read from their rows of ``proofs`` (one per person who proved them) by
primary key, never by scanning the games, and ``GET /api/league/me`` is rate limited
per person."""

from __future__ import annotations

from pathlib import Path

from adjacency.core.position import Position
from adjacency.league.http.limits import LeagueLimits
from adjacency.league.league_file import LeagueStore
from adjacency.league.routers.people import ME_PER_MINUTE
from adjacency.league.store.members import VOUCHERS
from league_helpers import ADMIN, challenge, join, make_league, me, request, thread_server


def steps(store: LeagueStore, member: int) -> int:
    """SQLite virtual-machine steps that one establishment question costs."""
    count = [0]

    def tick() -> int:
        count[0] += 1
        return 0

    rules = store.meta.rules()
    with store.database.lock:
        store.db.set_progress_handler(tick, 1)
        try:
            store.members.established(member, rules)
        finally:
            store.db.set_progress_handler(None, 1)
    return count[0]


def play(store: LeagueStore, x: int, o: int) -> None:
    game = store.games.start_game(x, o, "opening")
    store.games.finish_game(game, "o", "normal", "", "record", (3, 4), 8, (1.0, 1.0))


def test_establishment_costs_the_same_whatever_the_number_of_games(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db, create=False) as store:
        ada = store.members.add_member("ada", "person", origin="home")[0].id
        mentors = [store.members.add_member(f"mentor{n}", "person")[0].id for n in range(8)]
        for n in range(8):
            store.members.approve(f"mentor{n}")
        bots = [store.members.add_member(f"engine{n}", "bot")[0].id for n in range(3)]
        for mentor in mentors[:3]:
            play(store, ada, mentor)
        few = steps(store, ada)
        for number in range(1500):  # ada's games against the same people, and others' games
            play(store, ada, mentors[number % 3])
            play(store, mentors[3 + number % 5], bots[number % 3])
        assert steps(store, ada) == few
        for mentor in mentors[3:]:  # more vouchers than the rule needs: it stops at 5
            for _ in range(50):
                play(store, ada, mentor)
        assert store.members.established(ada, store.meta.rules())[0] is True
        many = steps(store, ada)
        play(store, ada, mentors[0])
        assert steps(store, ada) == many
        plan = store.database.query(f"EXPLAIN QUERY PLAN {VOUCHERS}", (ada, "home", "home", 5))
        details = " ".join(str(row[-1]) for row in plan)
        assert "SEARCH p USING PRIMARY KEY (member_id=?)" in details, details
        assert "SEARCH v USING INTEGER PRIMARY KEY (rowid=?)" in details, details
        assert "games" not in details, details  # no games table


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
    with thread_server(db, house_games=False) as url:
        ada = join(url, "ada")
        for number, name in enumerate(("mentor-one", "mentor-two"), 1):
            mentor = join(url, name)
            approved = request(f"{url}/api/league/admin/members/{name}/approve", "POST", {},
                               token=ADMIN)  # fmt: skip
            assert approved.status == 200, approved
            assert me(url, ada)["rating_params"]["so_far"] == number - 1
            made = challenge(url, mentor, "ada")
            assert made.status == 202, made
            accepted = request(
                f"{url}/api/league/challenges/{made.body['challenge']}/accept", "POST", {},
                token=ada,
            )  # fmt: skip
            assert accepted.body["status"] == "started", accepted
            game = accepted.body["game"]
            secrets = {"mentor": mentor, "ada": ada}
            while (state := request(f"{url}/api/league/games/{game}").body)["status"] == "playing":
                who = "ada" if state[state["turn"]] == "ada" else "mentor"
                move = Position.from_fen(state["fen"]).legal_moves()[0]
                moved = request(f"{url}/api/league/games/{game}/move", "POST", {"move": move},
                                token=secrets[who])  # fmt: skip
                assert moved.status == 200, moved
            assert state["termination"] == "normal", state
            assert me(url, ada)["rating_params"]["so_far"] == number
