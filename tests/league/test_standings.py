"""The standings a class can read: provisional members listed
after the established ones, Bradley-Terry intervals that narrow with a member's games
(members without both a win and a loss left out of the fit), numbers printed alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.league.league_file import LeagueStore
from adjacency.league.standings import standings
from adjacency.ratings.bradley_terry import ratings
from league_helpers import make_league


def results(a: str, b: str, games: int, a_wins: int) -> list[tuple[str, str, float]]:
    return [(a, b, 1.0 if n < a_wins else 0.0) for n in range(games)]


def widths(
    players: list[str], games: list[tuple[str, str, float]], centre: str
) -> dict[str, float]:
    return {r.player: r.high - r.low for r in ratings(players, games, centre=centre)}


def test_intervals_narrow_with_games_and_a_newcomer_does_not_widen_them() -> None:
    games = results("a", "b", 1000, 600) + results("c", "a", 2000, 1100)
    before = widths(["a", "b", "c"], games, "games")
    assert before["a"] < before["c"] < before["b"]  # 3000, 2000, 1000 games
    assert before["a"] < 20
    newcomer = [*games, ("d", "a", 1.0)]  # one game, a win
    after = widths(["a", "b", "c", "d"], newcomer, "games")
    assert all(after[p] < 1.05 * before[p] for p in "abc")
    # centred on the plain mean (a round robin's zero point), the newcomer's own huge
    # interval leaks into everyone's: what the league showed before
    plain = widths(["a", "b", "c", "d"], newcomer, "mean")
    assert all(plain[p] > 2 * before[p] for p in "abc")
    with pytest.raises(ValueError, match="centre must be"):
        ratings(["a", "b"], games[:3], centre="median")


def play(store: LeagueStore, x: int, o: int, result: str) -> None:
    game = store.games.start_game(x, o, "opening")
    store.games.finish_game(game, result, "normal", "", "record", (10, 4), 8, (1.0, 1.0))


def test_provisional_members_are_listed_apart_and_perfect_scores_are_not_fitted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    with LeagueStore(db, create=False) as store:
        old, rival, lucky = (
            store.members.add_member(n, "bot")[0].id for n in ("old", "rival", "lucky")
        )
        for n in range(30):
            play(store, old, rival, "x" if n % 3 else "o")
        play(store, lucky, rival, "x")  # one game, a win: a high rating, provisional
        rows = standings(store)
    names = [r["name"] for r in rows]
    assert names == ["old", "rival", "lucky"]
    by_name = {r["name"]: r for r in rows}
    assert by_name["lucky"]["provisional"] and by_name["lucky"]["rating"] > by_name["old"]["rating"]
    assert not by_name["old"]["provisional"]
    assert by_name["lucky"]["elo"] is None  # a perfect score has no estimate
    assert by_name["old"]["elo"] is not None
    assert main(["league", "standings", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("old "))
    assert re.search(r"[+-]\d+ \[[+-]\d+, [+-]\d+\]$", line), line  # signed whole numbers
    assert next(x for x in out.splitlines() if x.startswith("lucky")).endswith(
        "needs a win and a loss"
    )
