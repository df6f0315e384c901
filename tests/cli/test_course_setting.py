"""``--course``: the course's setting in one flag, on ``match``, ``tournament`` and
``league create``, through the real command line; an option after it still changes
its value."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.arena.store import Store
from adjacency.cli import build_parser, main
from adjacency.core.course import COURSE_MOVE_SECONDS, COURSE_ROUNDS, COURSE_SIZE
from adjacency.core.record import game_from_text
from adjacency.league.league_file import LeagueStore


def test_match_and_tournament_take_the_courses_board_time_and_rounds() -> None:
    parser = build_parser()
    for command in (["match", "greedy", "random"], ["tournament", "greedy", "random", "hill"]):
        args = parser.parse_args([*command, "--course"])
        assert (args.size, args.time, args.rounds) == (
            COURSE_SIZE,
            COURSE_MOVE_SECONDS,
            COURSE_ROUNDS,
        )
        later = parser.parse_args([*command, "--course", "--time", "1", "--rounds", "8"])
        assert (later.size, later.time, later.rounds) == (COURSE_SIZE, 1.0, (8,))
        earlier = parser.parse_args([*command, "--size", "6x6", "--course"])
        assert earlier.size == COURSE_SIZE  # the flag stands where it is given


def test_a_course_match_plays_every_round_count_on_8x8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "course.db"
    argv = ["match", "greedy", "random", "--course", "--time", "0.2", "--games", "2"]
    assert main([*argv, "--db", str(db)]) == 0, capsys.readouterr().err
    with Store(db) as store:
        games = store.games()
    assert sorted({game.rounds for game in games}) == list(COURSE_ROUNDS)
    assert len(games) == 2 * len(COURSE_ROUNDS)
    for game in games:
        start = game_from_text(game.record).start
        assert (start.rows, start.cols) == COURSE_SIZE


def test_league_create_takes_the_course_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course, changed = tmp_path / "course.db", tmp_path / "changed.db"
    assert main(["league", "create", "--db", str(course), "--course"]) == 0
    assert main(["league", "create", "--db", str(changed), "--course", "--clock", "60+1"]) == 0
    capsys.readouterr()
    with LeagueStore(course) as store:
        settings = store.meta.settings()
    assert (settings.rows, settings.cols, settings.rounds) == (*COURSE_SIZE, COURSE_ROUNDS[-1])
    assert settings.move_time == COURSE_MOVE_SECONDS
    with LeagueStore(changed) as store:
        settings = store.meta.settings()
    assert settings.move_time is None and (settings.base, settings.increment) == (60.0, 1.0)
