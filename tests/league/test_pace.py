"""The house games' pace (``league serve --pace``): a move of a game between two house
bots is played no sooner than the pace after it was asked, and the wait is not on the
bot's clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.cli import main
from adjacency.core.record import game_from_text
from adjacency.league.league_file import LeagueStore
from league_helpers import add_member, get, make_league, thread_server, wait_until

PACE = 1.0
BASE = 3.0
"""The house bots' clock (no increment): less than the four moves' pace of a side."""


def test_a_paced_house_game_takes_the_pace_a_move_off_the_clock(tmp_path: Path) -> None:
    """Two house bots on a 3 s clock without increment play 4 moves each at a pace of
    1 s: the stored game lasts at least its plies times the pace, and it ends normally,
    not on time (4 s of pace per side, more than the clock, were not charged)."""
    db = tmp_path / "league.db"
    make_league(db, rounds=6, base=BASE, increment=0.0)
    add_member(db, "house-a", "house", "random")
    add_member(db, "house-b", "house", "random")
    with thread_server(db, pace=PACE) as url:
        live = wait_until(lambda: get(f"{url}/api/league/live"), 60, "a house game")
        game_id = live[0]["id"]
        wait_until(
            lambda: get(f"{url}/api/league/games/{game_id}")["status"] == "finished",
            60,
            "the house game to end",
        )
    with LeagueStore(db) as store:
        stored = store.games.game(game_id)
    assert stored is not None and stored.ended is not None
    record = game_from_text(stored.record or "")
    plies = len(record.moves)
    assert plies == stored.plies == 8
    assert stored.ended - stored.started >= plies * PACE
    assert stored.termination == "normal", stored.detail
    # the clock charged each side its thinking, as the record's ply times say
    for color, used in (("x", stored.x_time), ("o", stored.o_time)):
        thought = sum(m.seconds or 0.0 for m in record.moves[0 if color == "x" else 1 :: 2])
        assert abs(used - thought) < 0.01
        assert used < BASE


def test_serve_pace_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``league serve --pace``: 1 s by default (a house game can be watched), 0 to 60 s
    accepted; anything else is one line and status 2, and the league file is unchanged."""
    from adjacency.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["league", "serve", "--db", "x"]).pace == 1.0
    assert parser.parse_args(["league", "serve", "--db", "x", "--pace", "0"]).pace == 0.0
    db = tmp_path / "league.db"
    make_league(db)
    before = db.read_bytes()
    for bad in ("-1", "61", "soon", "nan"):
        with pytest.raises(SystemExit) as exit_:
            main(["league", "serve", "--db", str(db), "--pace", bad])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "--pace" in err and "Traceback" not in err, err
    assert db.read_bytes() == before
