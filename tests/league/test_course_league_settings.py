"""A course league plays from the start: ``league create --course`` implies
``--from-start`` (``--openings`` keeps openings), and ``league settings`` switches a league
that has played no game yet, and refuses one that has."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.core import Position
from adjacency.league.league_file import LeagueStore
from adjacency.league.settings import default_openings
from cli_helpers import run
from league_helpers import add_member


def _openings(db: Path) -> tuple[str, ...]:
    with LeagueStore(db) as store:
        return store.meta.settings().openings


START = Position.start(8, 8, 28).fen()


def test_a_course_league_plays_from_the_start_unless_openings_are_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = tmp_path / "course.db"
    status, out, _ = run(capsys, "league", "create", "--db", str(course), "--course")
    assert status == 0 and "5 s/move, every game from the start." in out, out
    assert _openings(course) == (START,)
    booked = tmp_path / "booked.db"
    status, out, _ = run(capsys, "league", "create", "--db", str(booked), "--course", "--openings")
    assert status == 0 and f"{len(default_openings(8, 8, 28))} openings." in out, out
    assert _openings(booked) == default_openings(8, 8, 28)
    plain = tmp_path / "plain.db"
    assert run(capsys, "league", "create", "--db", str(plain), "--rounds", "8")[0] == 0
    assert _openings(plain) == default_openings(8, 8, 8)
    both = tmp_path / "both.db"
    with pytest.raises(SystemExit) as refused:
        run(capsys, "league", "create", "--db", str(both), "--from-start", "--openings")
    assert refused.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
    assert not both.exists()


def test_settings_switch_a_league_without_games_and_refuse_one_with_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "class.db"
    created = run(capsys, "league", "create", "--db", str(db), "--rounds", "8", "--move-time", "5")
    assert created[0] == 0
    start = Position.start(8, 8, 8).fen()
    status, out, _ = run(capsys, "league", "settings", "--db", str(db), "--from-start")
    assert status == 0 and "now plays every game from the start" in out, out
    with LeagueStore(db) as store:
        settings = store.meta.settings()
    assert settings.openings == (start,) and settings.from_start
    assert (settings.rounds, settings.move_time) == (8, 5.0)  # the rest as it was
    status, out, _ = run(capsys, "league", "settings", "--db", str(db), "--openings")
    assert status == 0 and f"from {len(default_openings(8, 8, 8))} openings" in out, out
    assert _openings(db) == default_openings(8, 8, 8)

    add_member(db, "a", "house", "greedy")
    add_member(db, "b", "house", "random")
    with LeagueStore(db) as store:
        store.games.start_game(1, 2, start)
    status, _, err = run(capsys, "league", "settings", "--db", str(db), "--from-start")
    assert status == 2 and "the league has 1 game already" in err, err
    assert "Traceback" not in err
    assert _openings(db) == default_openings(8, 8, 8)  # nothing changed
    status, _, err = run(capsys, "league", "settings", "--db", str(tmp_path / "none.db"),
                         "--from-start")  # fmt: skip
    assert status == 2 and "no league database" in err
    assert not (tmp_path / "none.db").exists()
