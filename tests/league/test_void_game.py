"""A game the teacher voids, through the real league server: it counts nowhere (the
standings, the ratings replayed without it and equal to a recomputation from the
stored games, the aggregates, the event's table, crosstable and exports, the grading
sheet), its reason is shown where the game is, the action is logged naming the game
and both teams; with ``replay`` its pair plays it again; refusals change nothing."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from adjacency.bots import Limit, make_bot
from adjacency.bots.referee import play_game
from adjacency.core.record import game_to_text
from adjacency.league.events.event_pairing import round_robin
from adjacency.league.league_file import LeagueStore
from adjacency.league.rules import rate
from adjacency.ratings.glicko import Glicko
from league_helpers import ADMIN, add_member, request, wait_until

HOUSE = ("h1", "h2", "h3", "h4")
REASON = "h2's program was h3's, copied"


def store_game(
    store: LeagueStore, x: int, o: int, seed: int, pair: int | None = None, leg: int = 0
) -> int:
    """A real game of greedy against random, stored finished and rated; its id."""
    start = store.meta.settings().opening(0)
    record = play_game(make_bot("greedy", seed=seed), make_bot("random", seed=seed), start,
                       Limit(time=None))  # fmt: skip
    game = store.games.start_game(x, o, start.fen(), pair, leg)
    store.games.finish_game(game, record.result, record.termination.value, "",
                            game_to_text(record), record.position.score, len(record.moves),
                            (0.5, 0.5))  # fmt: skip
    return game


def a_league(db: Path) -> dict[str, int]:
    """Four house bots, six ladder games and the first round of the paused event
    ``cup`` played; the members' ids."""
    for name in HOUSE:
        add_member(db, name, "house", "random")
    with LeagueStore(db) as store:
        ids = {m.name: m.id for m in store.members.members()}
        for seed, (x, o) in enumerate(
            [("h1", "h2"), ("h2", "h3"), ("h3", "h1"), ("h2", "h4"), ("h4", "h1"), ("h3", "h2")]
        ):
            store_game(store, ids[x], ids[o], seed)
        event = store.events.create("cup", "round-robin", None, list(HOUSE))
        store.events.start("cup")
        boards = round_robin(store.events.members(event.id))[0]
        assert store.events.add_round(event.id, 0, boards, 4, set())
        for board in store.events.boards(event.id):
            assert board.b is not None
            store_game(store, board.a, board.b, 10 + board.id, board.pair_id, 0)
            store_game(store, board.b, board.a, 20 + board.id, board.pair_id, 1)
        store.events.pause("cup")
    return ids


def replayed_ratings(store: LeagueStore) -> dict[int, Glicko]:
    """The ratings from the finished rated games alone, rated here in their order."""
    current: dict[int, Glicko] = {}
    for game in store.games.rated_games():
        x_points = {"x": 1.0, "o": 0.0}.get(game.result or "", 0.5)
        x, o = current.get(game.x_id, Glicko()), current.get(game.o_id, Glicko())
        current[game.x_id], current[game.o_id] = rate(x, o, x_points)
    return current


def test_a_voided_ladder_game_counts_nowhere_and_shows_why(
    league: tuple[str, Path], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="adjacency")  # the server's default level
    url, db = league
    ids = a_league(db)
    with LeagueStore(db) as store:
        ladder = [g for g in store.games.games() if g.pair_id is None]
        (voided,) = [g.id for g in ladder if (g.x_id, g.o_id) == (ids["h2"], ids["h3"])]
        before = {r["name"]: r["games"] for r in request(f"{url}/api/league/standings").body}
    api = f"{url}/api/league/admin/games/{voided}/void"
    done = request(api, "POST", {"reason": f"  {REASON} \n"}, ADMIN)
    assert done.status == 200, done
    assert done.body == {"game": voided, "x": "h2", "o": "h3", "reason": REASON, "replay": False}
    game = request(f"{url}/api/league/games/{voided}").body
    assert game["status"] == "aborted" and REASON in json.dumps(game)
    after = {**before, "h2": before["h2"] - 1, "h3": before["h3"] - 1}

    def counted() -> dict[str, int]:
        return {r["name"]: r["games"] for r in request(f"{url}/api/league/standings").body}

    wait_until(lambda: counted() == after, 30, "the standings without it")  # reused 1 s
    with LeagueStore(db) as store:
        assert voided not in [g.id for g in store.games.rated_games()]
        current = {m: round(r.rating, 6) for m, r in store.ratings.current_ratings().items()}
        recomputed = store.ratings.recompute_ratings()
        assert current == {m: round(recomputed[m].rating, 6) for m in current}
        assert current == {m: round(r.rating, 6) for m, r in replayed_ratings(store).items()}
        assert store.ratings.totals() == store.ratings.recompute_totals()
        rows = store.db.execute("SELECT COUNT(*) FROM ratings WHERE game_id = ?", (voided,))
        assert rows.fetchone()[0] == 0
    sheet = request(f"{url}/api/league/admin/grading", token=ADMIN).body["teams"]
    assert {r["team"]: (r["games"], r["abandoned"]) for r in sheet} == {
        name: (games, 0) for name, games in after.items()
    }

    def logged() -> bool:
        lines = request(f"{url}/api/league/admin/log?text=voided", token=ADMIN).body["lines"]
        line = f"the teacher voided game {voided} (h2 against h3): {REASON}"
        return any(line in found["message"] for found in lines)

    wait_until(logged, 30, "the teacher's action in the log")
    # refusals: nothing changes
    assert request(api, "POST", {"reason": "again"}, ADMIN).status == 400
    assert request(api, "POST", {"reason": ""}, ADMIN).status == 422
    assert request(api, "POST", {"reason": "   "}, ADMIN).status == 400
    assert request(api, "POST", {"reason": "x"}).status == 401
    assert request(f"{url}/api/league/admin/games/999999/void", "POST", {"reason": "x"},
                   ADMIN).status == 404  # fmt: skip
    assert counted() == after


def test_a_voided_event_game_leaves_its_table_and_exports_and_is_played_again(
    league: tuple[str, Path],
) -> None:
    url, db = league
    a_league(db)
    event_api = f"{url}/api/league/events/cup"
    with LeagueStore(db) as store:
        event = store.events.named("cup")
        board = store.events.boards(event.id)[0]
        (leg0,) = [g for g in store.games.games() if g.pair_id == board.pair_id and g.leg == 0]
        (leg1,) = [g for g in store.games.games() if g.pair_id == board.pair_id and g.leg == 1]
        first_leg = leg0.id
        voided = leg1.id
    void = f"{url}/api/league/admin/games/{{}}/void"
    # leg 0 is not its pair's last finished game: voided only, never replayed
    refused = request(void.format(first_leg), "POST", {"reason": "x", "replay": True}, ADMIN)
    assert refused.status == 400 and "last game" in refused.body["detail"], refused
    table = request(event_api).body
    points = {r["name"]: r["points"] for r in table["standings"]}
    done = request(void.format(voided), "POST", {"reason": REASON, "replay": True}, ADMIN)
    assert done.status == 200 and done.body["replay"], done
    names = {leg1.x_id: done.body["x"], leg1.o_id: done.body["o"]}
    lost = {names[m]: leg1.points(m) for m in (leg1.x_id, leg1.o_id)}
    without = {name: p - lost.get(name, 0.0) for name, p in points.items()}

    def recounted() -> dict[str, float]:
        return {r["name"]: r["points"] for r in request(event_api).body["standings"]}

    wait_until(lambda: recounted() == without, 30, "the table without it")  # shared a while
    table = request(event_api).body
    cells = [g for row in table["crosstable"]["games"] for cell in row for g in cell]
    assert voided not in cells and first_leg in cells
    files = {n: request(f"{event_api}/{n}", raw=True).body for n in ("games.txt", "table.json")}
    assert files["games.txt"].count('[Round "1"]') == 3  # of the round's four games
    exported = json.loads(files["table.json"])["crosstable"]["games"]
    assert voided not in [g for row in exported for cell in row for g in cell]
    # resumed, the server plays the leg again: same pair, same leg, a new game
    assert request(f"{url}/api/league/admin/events/cup/resume", "POST", {}, ADMIN).status == 200

    def again() -> bool:
        with LeagueStore(db) as store:
            return any(g.pair_id == board.pair_id and g.leg == 1 and g.id != voided
                       and g.status == "finished" for g in store.games.games())  # fmt: skip

    wait_until(again, 60, "the voided leg played again")
