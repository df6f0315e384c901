"""People resign and abort league games through the real server: a resignation is a
finished, stored result (the opponent wins, termination ``resignation``), rated once
both sides played a few moves; an abort before the person's first move
stores the game as aborted (no result, no rating change, not counted); after the first
move only resigning is left; bots and strangers cannot do either."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjacency.core.position import Position
from adjacency.league.league_file import LeagueStore
from adjacency.league.rules import LeagueRules
from adjacency.ratings.glicko import Glicko
from league_helpers import (
    add_member,
    challenge,
    get,
    join,
    me,
    request,
)

LEAGUE = {"rules": LeagueRules(established_games=0), "rounds": 10}
"""The league of :func:`league` (tests/league/conftest.py): people are established at
once, so a resignation once both played moves both ratings; games long enough to
resign after four moves each."""


def start_game(url: str, ada: str, bob: str) -> int:
    """ada challenges bob, bob accepts; the game's id (ada plays X in her first game)."""
    me(url, bob)  # bob's page is open
    number = challenge(url, ada, "bob").body["challenge"]
    accepted = request(f"{url}/api/league/challenges/{number}/accept", "POST", {}, token=bob)
    assert accepted.status == 200 and accepted.body["status"] == "started", accepted
    return int(accepted.body["game"])


def act(url: str, secret: str, game: int, action: str, body: Any = None) -> Any:
    return request(f"{url}/api/league/games/{game}/{action}", "POST", body or {}, token=secret)


def test_a_person_resigns_a_rated_game_and_the_opponent_wins(league: tuple[str, Path]) -> None:
    url, db = league
    ada, bob = join(url, "ada"), join(url, "bob")
    game = start_game(url, ada, bob)
    state = get(f"{url}/api/league/games/{game}")
    assert (state["x"], state["o"], state["turn"]) == ("ada", "bob", "x")
    for _ in range(4):  # four moves each: the game was played (docs/league.md)
        for secret in (ada, bob):
            fen = get(f"{url}/api/league/games/{game}")["fen"]
            move = Position.from_fen(fen).legal_moves()[0]
            assert act(url, secret, game, "move", {"move": move}).status == 200
    assert act(url, ada, game, "move", {"move": Position.from_fen(
        get(f"{url}/api/league/games/{game}")["fen"]).legal_moves()[0]}).status == 200  # fmt: skip
    resigned = act(url, bob, game, "resign")  # bob resigns while it is his turn
    assert resigned.status == 200, resigned
    assert resigned.body["status"] == "finished"
    assert (resigned.body["result"], resigned.body["termination"]) == ("x", "resignation")
    assert "bob resigned" in resigned.body["detail"]
    assert resigned.body["detail_code"] == "resigned"  # pages translate it
    assert resigned.body["detail_params"] == {"player": "bob"}
    listed = get(f"{url}/api/league/games?member=bob")[0]  # stored: read back alike
    assert (listed["detail_code"], listed["detail_params"]) == ("resigned", {"player": "bob"})
    assert me(url, ada)["games"] == [] and me(url, bob)["games"] == []
    with LeagueStore(db) as store:
        stored = store.games.game(game)
        ratings = store.ratings.ratings()
        members = {m.name: m.id for m in store.members.members()}
    assert stored is not None and stored.status == "finished" and stored.rated_seq is not None
    assert stored.result == "x" and stored.termination == "resignation"
    assert ratings[members["ada"]].rating > 1500 > ratings[members["bob"]].rating
    again = act(url, bob, game, "resign")
    assert again.status == 404 and "not in play" in again.body["detail"]


def test_a_resignation_before_playing_rates_nobody(league: tuple[str, Path]) -> None:
    """A rating change needs the loser to have played the game: bob resigning after
    ada's first move rates nobody, although both are established."""
    url, db = league
    ada, bob = join(url, "ada"), join(url, "bob")
    game = start_game(url, ada, bob)
    assert act(url, ada, game, "move", {"move": "c3"}).status == 200
    assert act(url, bob, game, "resign").status == 200
    assert get(f"{url}/api/league/games/{game}")["result"] == "x"
    with LeagueStore(db) as store:
        stored = store.games.game(game)
        assert stored is not None and stored.rated_seq is None
        assert store.games.rated_games() == [] and set(store.ratings.ratings().values()) <= {
            Glicko()
        }


def test_a_person_aborts_before_their_first_move_and_nothing_counts(
    league: tuple[str, Path],
) -> None:
    url, db = league
    ada, bob = join(url, "ada"), join(url, "bob")
    game = start_game(url, ada, bob)
    assert act(url, ada, game, "move", {"move": "c3"}).status == 200
    late = act(url, ada, game, "abort")  # ada has moved: only resigning is left to her
    assert late.status == 409 and "resign instead" in late.body["detail"]
    aborted = act(url, bob, game, "abort")  # bob has not moved yet
    assert aborted.status == 200, aborted
    assert aborted.body["status"] == "aborted" and aborted.body["result"] is None
    assert "bob aborted" in aborted.body["detail"]
    assert (aborted.body["detail_code"], aborted.body["detail_params"]) == (
        "aborted",
        {"player": "bob"},
    )
    with LeagueStore(db) as store:
        stored = store.games.game(game)
        ratings = store.ratings.ratings()
    assert stored is not None and stored.status == "aborted" and stored.rated_seq is None
    assert stored.plies == 1  # the move played is kept with the aborted game
    assert all(r.rating == 1500 for r in ratings.values())
    standings = {row["name"]: row for row in get(f"{url}/api/league/standings")}
    assert standings["ada"]["games"] == standings["bob"]["games"] == 0


def test_only_the_games_people_may_resign_or_abort(league: tuple[str, Path]) -> None:
    url, db = league
    ada, bob, cy = join(url, "ada"), join(url, "bob"), join(url, "cy")
    bot = add_member(db, "somebot")
    game = start_game(url, ada, bob)
    for action in ("resign", "abort"):
        stranger = act(url, cy, game, action)
        assert stranger.status == 403 and "not yours" in stranger.body["detail"]
        assert act(url, bot, game, action).status in (401, 403)  # a bot's token is no person's
        assert act(url, "not-a-secret", game, action).status == 401
        assert act(url, ada, 999_999, action).status == 404
    assert get(f"{url}/api/league/games/{game}")["status"] == "playing"  # nothing changed


def test_a_challengers_colour_alternates_over_the_games_that_counted(
    league: tuple[str, Path],
) -> None:
    """The challenger plays X in its first counted game, O in its second: an aborted game
    does not count, so aborting cannot be used to pick a colour (the count is the store's
    ``game_count`` without aborted games, not a read of every game)."""
    url, db = league
    ada, bob = join(url, "ada"), join(url, "bob")

    def ada_plays() -> tuple[int, str]:
        game = start_game(url, ada, bob)
        (live,) = [g for g in request(f"{url}/api/league/live").body if g["id"] == game]
        return game, "x" if live["x"] == "ada" else "o"

    first, colour = ada_plays()
    assert colour == "x"
    assert act(url, bob, first, "abort").status == 200  # nothing counts
    second, colour = ada_plays()
    assert colour == "x"  # still her first counted game
    assert act(url, ada, second, "resign").status == 200  # this one counts
    _, colour = ada_plays()
    assert colour == "o"
    with LeagueStore(db) as store:
        ada_id = next(m.id for m in store.members.members() if m.name == "ada")
        assert store.games.game_count(ada_id) == 3
        assert store.games.game_count(ada_id, aborted=False) == 2
