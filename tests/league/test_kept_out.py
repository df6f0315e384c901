"""A member kept out of the league's games (a template or sparring account), through
the real league server playing its house bots: never paired on the ladder while kept
out, not in the standings, taken into no event, its games unrated; brought back, it
plays and is listed again. Refusals change nothing."""

from __future__ import annotations

from pathlib import Path

from adjacency.league.league_file import LeagueStore
from league_helpers import ADMIN, add_member, join, make_league, request, thread_server, wait_until

HOUSE = ("h1", "h2", "h3")


def games_of(db: Path, name: str) -> tuple[int, int]:
    """The finished games in the league, and those ``name`` played."""
    with LeagueStore(db) as store:
        member = store.members.member_named(name).id
        games = store.games.games(status="finished")
    return len(games), sum(member in (g.x_id, g.o_id) for g in games)


def test_a_kept_out_account_is_never_paired_listed_or_entered(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    for name in (*HOUSE, "sparring"):
        add_member(db, name, "house", "random")
    team = add_member(db, "team")
    with LeagueStore(db) as store:
        store.members.keep_out("sparring")
    with thread_server(db) as url:  # the server plays its house bots' games
        standings = f"{url}/api/league/standings"
        wait_until(lambda: games_of(db, "h1")[0] >= 12, 60, "a dozen ladder games")
        assert games_of(db, "sparring")[1] == 0
        assert "sparring" not in [r["name"] for r in request(standings).body]
        overview = request(f"{url}/api/league/admin/overview", token=ADMIN).body
        kept = {m["name"]: m["kept_out"] for m in overview["members"]}
        assert kept == {"h1": False, "h2": False, "h3": False, "sparring": True, "team": False}
        # no event takes it: named, refused with the reason; nothing is created
        body = {"name": "cup", "format": "round-robin", "members": ["h1", "sparring"]}
        refused = request(f"{url}/api/league/admin/events", "POST", body, ADMIN)
        assert refused.status == 400 and "kept out" in refused.body["detail"], refused
        assert request(f"{url}/api/league/events/cup").status == 404
        # refusals: a person, a member in an event not finished, no token, a team's token
        join(url, "ana")
        keep = f"{url}/api/league/admin/members/{{}}/keep-out"
        assert request(keep.format("ana"), "POST", {"kept_out": True}, ADMIN).status == 400
        body = {"name": "cup", "format": "round-robin", "members": ["h1", "h2"]}
        assert request(f"{url}/api/league/admin/events", "POST", body, ADMIN).status == 201
        busy = request(keep.format("h1"), "POST", {"kept_out": True}, ADMIN)
        assert busy.status == 400 and "withdraw it" in busy.body["detail"], busy
        assert request(keep.format("h3"), "POST", {"kept_out": True}).status == 401
        assert request(keep.format("h3"), "POST", {"kept_out": True}, team).status == 403
        assert request(keep.format("nobody"), "POST", {"kept_out": True}, ADMIN).status == 404
        # brought back: paired and listed again
        back = request(keep.format("sparring"), "POST", {"kept_out": False}, ADMIN)
        assert back.body == {"name": "sparring", "kept_out": False}
        wait_until(lambda: games_of(db, "sparring")[1] >= 2, 60, "sparring's games")
        wait_until(
            lambda: "sparring" in [r["name"] for r in request(standings).body], 30, "it listed"
        )


def test_a_kept_out_members_games_are_unrated(tmp_path: Path) -> None:
    """A game of a kept-out member (a person's challenge of a sparring bot) ends
    unrated: no rated place, no rating row; the same game after it is back is rated."""
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "a", "house", "random")
    add_member(db, "sparring", "house", "random")
    with LeagueStore(db) as store:
        a, sparring = (store.members.member_named(n).id for n in ("a", "sparring"))
        opening = store.meta.settings().opening(0).fen()
        store.members.keep_out("sparring")
        first = store.games.start_game(a, sparring, opening)
        store.games.finish_game(first, "x", "normal", "", "", (3, 2), 10, (1.0, 1.0))
        store.members.keep_out("sparring", False)
        second = store.games.start_game(a, sparring, opening)
        store.games.finish_game(second, "x", "normal", "", "", (3, 2), 10, (1.0, 1.0))
        rated = [g.id for g in store.games.rated_games()]
        rows = store.db.execute("SELECT DISTINCT game_id FROM ratings").fetchall()
    assert rated == [second] and rows == [(second,)]
