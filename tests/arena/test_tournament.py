"""A small tournament of fast bots end to end, through the command line."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from adjacency.arena.store import GameRow, Store
from adjacency.arena.summary import standings, summarize
from adjacency.cli import main
from adjacency.core.record import game_from_text, games_from_text

pytestmark = pytest.mark.xdist_group("arena-tournament")  # one worker plays the tournament
PLAYERS = ["random", "greedy", "random:seed=11"]


@dataclass(frozen=True)
class Played:
    """The tournament every test of the first group reads: its database and printed output."""

    db: Path
    out: str


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A round robin of :data:`PLAYERS`, 4 games per pairing at 8 and 12 rounds, played
    once for the module (the tests below only read it, or copy it before writing)."""
    db = tmp_path_factory.mktemp("tournament") / "t.db"
    argv = [
        *("tournament", *PLAYERS, "--games", "4", "--rounds", "8,12", "--time", "1"),
        *("--random-plies", "2", "--seed", "4", "--concurrency", "2", "--db", str(db), "--quiet"),
    ]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(argv) == 0
    return Played(db, printed.getvalue())


def stored(db: Path) -> list[GameRow]:
    with Store(db) as store:
        return store.games(store.run().id)


def test_tournament_stores_exactly_the_planned_games(played: Played) -> None:
    assert "Ranking" in played.out and "24 of 24 planned games stored" in played.out
    with Store(played.db) as store:
        run = store.run()
        games = store.games(run.id)
        assert run.status == "finished" and run.planned == 3 * 2 * 4 == len(games)
        assert run.players == PLAYERS and run.mode == "round-robin"
    # exactly once each, and every (pairing, rounds) got its 4 games in 2 colour-swapped pairs
    assert sorted(g.idx for g in games) == list(range(24))
    assert Counter((g.a, g.b, g.rounds) for g in games) == {
        (a, b, r): 4 for a, b in [(PLAYERS[0], PLAYERS[1]), (PLAYERS[0], PLAYERS[2]),
                                  (PLAYERS[1], PLAYERS[2])] for r in (8, 12)
    }  # fmt: skip
    pairs = Counter(g.pair for g in games)
    assert set(pairs.values()) == {2}


def test_totals_agree_between_games_summaries_and_standings(played: Played) -> None:
    games = stored(played.db)
    for game in games:
        assert game.x_score + game.o_score == 8 + 2 * game.rounds
        assert game.plies == 2 * game.rounds - 2
        assert game.termination == "normal"
        assert len(game.move_times) == game.plies
    summaries = summarize(games)
    overall = [s for s in summaries if s.rounds is None]
    assert sum(s.games for s in overall) == 24
    for s in summaries:
        assert s.wins + s.draws + s.losses == s.games
        assert sum(s.penta) == s.games // 2
        assert 2 * sum(k * c for k, c in enumerate(s.penta)) / 2 == 2 * s.points  # pair points
    table = standings(games)
    assert sum(r.points for r in table) == 24
    assert sum(r.games for r in table) == 48
    assert {r.player for r in table} == set(PLAYERS)


def test_the_report_writes_tables_csv_json_records_and_plots(
    played: Played, tmp_path: Path
) -> None:
    out_dir = tmp_path / "report"
    csv_path, json_path, rec_path = tmp_path / "g.csv", tmp_path / "g.json", tmp_path / "g.txt"
    assert main(["report", str(played.db), "--out", str(out_dir), "--csv", str(csv_path),
                 "--json", str(json_path), "--records", str(rec_path)]) == 0  # fmt: skip
    assert len(csv_path.read_text().splitlines()) == 25
    data = json.loads(json_path.read_text())
    assert len(data["games"]) == 24 and len(data["ratings"]) == 3
    records = games_from_text(rec_path.read_text())
    assert len(records) == 24
    games = stored(played.db)
    assert [r.position.score for r in records] == [(g.x_score, g.o_score) for g in games]
    report = (out_dir / "report.md").read_text()
    assert "## Ranking" in report and "| greedy |" in report
    for name in ("score-by-rounds.png", "elo-ladder.png", "margins.png", "final-position.svg"):
        assert (out_dir / name).stat().st_size > 500


def test_the_html_report_is_written_only_with_the_report(played: Played, tmp_path: Path) -> None:
    html = tmp_path / "html"
    assert main(["report", str(played.db), "--out", str(html), "--html",
                 "--format", "svg", "--no-report"]) == 0  # fmt: skip
    assert not html.exists()
    assert main(["report", str(played.db), "--out", str(html), "--html", "--format", "svg"]) == 0
    assert "<table>" in (html / "report.html").read_text()


def test_a_second_run_shares_the_database_and_leaves_the_first(
    played: Played, tmp_path: Path
) -> None:
    db = tmp_path / "t.db"
    shutil.copyfile(played.db, db)  # the module's tournament stays as it was played
    assert main(["match", "greedy", "random", "--games", "2", "--rounds", "8", "--time", "1",
                 "--concurrency", "1", "--db", str(db), "--quiet"]) == 0  # fmt: skip
    with Store(db) as store:
        assert [r.id for r in store.runs()] == [1, 2]
        assert len(store.games(1)) == 24 and len(store.games(2)) == 2
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["match", "random"], "exactly 2 bot specs"),
        (["match", "random", "greedy", "--games", "3"], "must be even"),
        (["match", "random", "nosuchbot"], "unknown bot 'nosuchbot'"),
        (["match", "random", "greedy", "--rounds", "40"], "accepted 1 to 28"),
        (["match", "random", "greedy", "--sprt", "elo1=x"], "not a number"),
        (["tournament", "random", "greedy", "greedy:seed=1", "--sprt"], "--sprt applies"),
        (["match", "--resume"], "does not exist"),  # --resume never creates a database
        (["report", "missing.db"], "does not exist"),
    ],
)
def test_bad_input_is_a_clear_error(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if argv[0] != "report":
        argv = [*argv, "--db", str(tmp_path / "e.db"), "--quiet"]
    else:
        argv = ["report", str(tmp_path / argv[1])]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith(f"adjacency {argv[0]}: error:")
    db = tmp_path / "e.db"
    if db.exists():
        with Store(db) as store:
            assert store.runs() == []  # nothing was planned or stored


def test_resume_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from adjacency.arena.runner import create_run
    from adjacency.arena.schedule import RunSettings

    db = tmp_path / "r.db"
    with Store(db) as store:  # a run that was planned but never played (as after a crash)
        create_run(store, "match", ["greedy", "random"], RunSettings(rounds=(4, 6), games=4))
    assert main(["match", "random", "hill", "--resume", "--db", str(db), "--quiet"]) == 2
    assert "plays ['greedy', 'random'], not ['random', 'hill']" in capsys.readouterr().err
    assert main(["match", "--resume", "--db", str(db), "--quiet", "--concurrency", "1"]) == 0
    out = capsys.readouterr().out
    assert "Resuming run 1 (match, greedy, random): 0 of 8 games stored" in out
    assert "8 of 8 planned games stored" in out
    # Nothing left: the store has no unfinished run (a StoreError, exit 3: docs/errors.md).
    assert main(["match", "--resume", "--db", str(db), "--quiet"]) == 3
    assert "no unfinished run" in capsys.readouterr().err


def test_openings_file(tmp_path: Path) -> None:
    from adjacency.core import Position

    first = Position.start().play("d4").play("e5")
    second = Position.start().play("a3")
    book = tmp_path / "book.txt"
    book.write_text(f"# two openings\n{first.fen()}\n\n{second.fen()}\n")
    db = tmp_path / "o.db"
    argv = ["match", "greedy", "random", "--openings", str(book), "--games", "4"]
    assert main([*argv, "--rounds", "5", "--db", str(db), "--quiet", "--concurrency", "1"]) == 0
    with Store(db) as store:
        games = store.games(1)
    starts = [game_from_text(g.record).start for g in games]
    assert [(s.x, s.o, s.turn, s.plies_left) for s in starts] == [
        (first.x, first.o, "x", 8), (first.x, first.o, "x", 8),
        (second.x, second.o, "o", 9), (second.x, second.o, "o", 9),
    ]  # fmt: skip
    assert main(["report", str(db), "--run", "1", "--all-runs", "--no-report"]) == 0
    book.write_text("# nothing\n")
    assert main([*argv, "--db", str(db), "--quiet"]) == 2


def test_a_records_export_replays_and_analyses_game_by_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay games.txt`` reads a file of many games (never "expected one game record")."""
    db, records = tmp_path / "m.db", tmp_path / "games.txt"
    assert main(["match", "greedy", "random", "--games", "4", "--rounds", "4", "--size", "5x5",
                 "--time", "1", "--random-plies", "2", "--concurrency", "1", "--db", str(db),
                 "--quiet"]) == 0  # fmt: skip
    assert main(["report", str(db), "--records", str(records), "--no-report"]) == 0
    games = games_from_text(records.read_text())
    assert len(games) == 4
    capsys.readouterr()

    # Without --game: every game validated, one line each.
    assert main(["replay", str(records)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and lines[-1] == "4 games, every move valid; print one with --game N"
    for number, (line, game) in enumerate(zip(lines, games, strict=False), 1):
        assert line.startswith(f"{number}. {game.x_name} (X) vs {game.o_name} (O), {game.rounds} ")
        assert line.endswith(f": {game.result_token} ({game.termination.value})")

    # --game N: that game's final position (1-based, in file order).
    assert main(["replay", str(records), "--game", "3"]) == 0
    out = capsys.readouterr().out
    third = games[2]
    assert out.startswith(f"{third.x_name} (X) vs {third.o_name} (O), {third.rounds} rounds, ")
    assert f"{len(third.moves)} plies" in out.splitlines()[0]
    assert f"Result {third.result_token}" in out
    assert main(["replay", str(records), "--game", "5"]) == 2
    assert f"--game 5: {str(records)!r} holds 4 games" in capsys.readouterr().err

    # analyse takes the same --game; a file of several games asks for one.
    assert main(["analyse", str(records), "--game", "2", "--depth", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    second = games[1]
    assert [row["played"] for row in rows] == [move.square for move in second.moves]
    assert rows[0]["fen"] == second.positions[0].fen()
    assert main(["analyse", str(records), "--depth", "1"]) == 2
    assert "holds 4 games; pick one with --game N (1 to 4)" in capsys.readouterr().err
