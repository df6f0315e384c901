"""``adjacency puzzles``: bad input refused in one line with the file unchanged, and
build, show and check end to end through the command line."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from adjacency.cli import main
from puzzle_helpers import web_database
from store_helpers import DATA

BUILD = ["puzzles", "build", "--count", "1", "--min-plies", "2", "--max-plies", "10", "-j", "1"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("adjacency puzzles: error: ")
    return err


@pytest.mark.parametrize(
    ("source", "fixture", "says"),
    [
        ("league", "arena.db", "as a league database"),
        ("arena", "web.sqlite3", "as a"),
        ("web", "league.db", "as a"),
    ],
)
def test_a_database_of_another_kind_is_refused_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, fixture: str, says: str
) -> None:
    path = tmp_path / fixture
    shutil.copy(DATA / fixture, path)
    before, names = digest(path), sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / "out.jsonl"
    assert main([*BUILD, "--from", f"{source}:{path}", "--out", str(out)]) == 2
    assert says in one_line_error(capsys)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == names  # no log, no output


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("arena:{text}", "not a SQLite database"),
        ("web:{missing}", "no such file"),
        ("data:{folder}", "manifest.json"),
        ("nonsense", "expected KIND:PATH"),
        ("chess:{text}", "expected KIND:PATH"),
    ],
)
def test_a_bad_source_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, says: str
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    (tmp_path / "folder").mkdir()
    before = digest(text)
    spec = source.format(text=text, missing=tmp_path / "missing.db", folder=tmp_path / "folder")
    assert main([*BUILD, "--from", spec, "--out", str(tmp_path / "out.jsonl")]) == 2
    assert says in one_line_error(capsys)
    assert digest(text) == before
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"not json\n", "line 1 is not a puzzle"),
        (b"\x1f\x8b\x08garbage", "not a puzzle file"),
        (b'{"format": "adjacency-puzzle", "version": 1}\n', "line 1 is not a puzzle"),
        (b"\n\n[1, 2]\n", "line 3 is not a puzzle"),
        (b"\xff\xfe\x00", "not a puzzle file"),
    ],
)
def test_a_bad_puzzle_file_is_one_line_and_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, says: str
) -> None:
    path = tmp_path / "puzzles.jsonl"
    path.write_bytes(content)
    assert main(["puzzles", "check", str(path)]) == 2
    assert says in one_line_error(capsys)
    assert path.read_bytes() == content
    assert main(["puzzles", "show", "p000000000000", "--file", str(path)]) == 2
    assert says in one_line_error(capsys)


def test_build_show_and_check_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = web_database(tmp_path / "games.sqlite3", 30, seed=2)
    out = tmp_path / "puzzles.jsonl.gz"
    argv = ["puzzles", "build", "--from", f"web:{database}", "--out", str(out)]
    argv += ["--count", "5", "--seed", "1", "--min-plies", "2", "--max-plies", "8", "-j", "1"]
    assert main(argv) == 0
    assert "5 puzzles written" in capsys.readouterr().out
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert len(lines) == 5
    # the provenance beside the file (not in it: the file is what the settings prove)
    record = json.loads((tmp_path / "puzzles.jsonl.gz.provenance.json").read_text())
    assert record["seeds"] == 1 and record["settings"]["sources"] == [f"web:{database}"]
    (data,) = record["settings"]["source_data"]  # the source's hash: it is not shipped
    assert data["from"] == f"web:{database}" and data["hashed"] == database.name
    assert data["sha256"] == hashlib.sha256(database.read_bytes()).hexdigest()
    assert record["settings"]["count"] == 5 and record["figures"]["kept"] == 5
    assert record["libraries"]["numba"] and record["machine"]["cores"] >= 1
    first = json.loads(lines[0])
    assert first["source"] == "web"

    assert main(["puzzles", "show", first["id"], "--file", str(out)]) == 0
    shown = capsys.readouterr().out
    assert first["position"] in shown and " ".join(first["solution"]) in shown
    for move, value, reply in first["refutations"][0]:
        assert f"{move:<4} {value:+d}  refuted by {reply or '(game over)'}" in shown
    assert "provenance of its build (puzzles.jsonl.gz):" in shown and "seeds: 1" in shown
    assert main(["puzzles", "show", first["id"], "--file", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["provenance"] == record

    assert main(["puzzles", "check", str(out), "--sample", "3", "--seed", "4"]) == 0
    assert "3 of 3 puzzles proved again" in capsys.readouterr().out
    assert main(["puzzles", "check", str(out)]) == 0
    assert "5 of 5 puzzles proved again" in capsys.readouterr().out

    # A puzzle whose first refutation is valued wrong fails the check (exit 1).
    first["refutations"][0][0][1] += 2
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    assert main(["puzzles", "check", str(tampered)]) == 1
    report = capsys.readouterr().out
    assert f"{first['id']}: FAILED" in report and "4 of 5 puzzles proved again" in report

    assert main(["puzzles", "show", "p000000000000", "--file", str(out)]) == 2
    assert "no puzzle 'p000000000000'" in one_line_error(capsys)


def test_build_from_training_data_names_the_shards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A training positions directory (the sharded job's layout: manifest and shards
    written by the job's own code) as the source: each puzzle's source is the shard it
    came from; a corrupt shard is refused in one line."""
    import random

    import numpy as np

    from adjacency.core import Position
    from adjacency.puzzles import load_puzzles
    from adjacency.training.dataset import JobSettings, shard_name, start_job

    job = start_job(tmp_path / "job", JobSettings(seed=3, shards=4, shard_games=4), False)
    rng = random.Random(6)
    for index in range(4):
        rows = []
        for game in range(4):
            position = Position.start()
            while position.plies_left > 8:
                position = position.play(rng.choice(position.legal_squares()))
                if position.plies_left <= 11:
                    rows.append((position, game))
        job.add(
            index,
            {
                "x": np.array([p.x for p, _ in rows], dtype=np.uint64),
                "o": np.array([p.o for p, _ in rows], dtype=np.uint64),
                "x_to_move": np.array([p.turn == "x" for p, _ in rows], dtype=bool),
                "plies": np.array([p.plies_left for p, _ in rows], dtype=np.uint8),
                "label": np.zeros(len(rows)),
                "exact": np.zeros(len(rows), dtype=bool),
                "game": np.array([g for _, g in rows], dtype=np.uint32),
            },
        )
    out = tmp_path / "puzzles.jsonl"
    argv = ["puzzles", "build", "--from", f"data:{tmp_path / 'job'}", "--out", str(out)]
    argv += ["--count", "2", "--max-plies", "11", "-j", "1"]
    assert main(argv) == 0
    capsys.readouterr()
    shards = {f"data:{shard_name(i)[:-4]}" for i in range(4)}
    puzzles = load_puzzles(out)
    assert len(puzzles) == 2 and {p.source for p in puzzles} <= shards
    record = json.loads(Path(f"{out}.provenance.json").read_text())
    (data,) = record["settings"]["source_data"]  # the manifest pins every shard's hash
    manifest = tmp_path / "job" / "manifest.json"
    assert data["sha256"] == hashlib.sha256(manifest.read_bytes()).hexdigest()
    assert data["shards"] == 4 and data["job_settings"]["seed"] == 3

    (tmp_path / "job" / shard_name(1)).write_bytes(b"corrupt")
    out.unlink()
    assert main(argv) == 2
    assert "does not match its checksum" in one_line_error(capsys)
    assert not out.exists()


def test_arena_and_league_games_are_read_and_their_files_left_as_they_were(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real match's results database and a league database with finished games: every
    position of every stored game becomes a candidate, named by its source, and neither
    file nor its folder changes (no -wal or -shm file left beside a WAL database)."""
    from adjacency.cli.puzzle_commands import read_sources
    from adjacency.core.record import game_to_text
    from adjacency.league.league_file import LeagueStore
    from league_helpers import make_league
    from puzzle_helpers import random_games

    arena = tmp_path / "arena.db"
    match = ["match", "random", "greedy", "--games", "4", "--size", "4x5", "--rounds", "4"]
    assert main([*match, "--db", str(arena)]) == 0
    league = tmp_path / "league.db"
    make_league(league, rows=4, cols=5, rounds=4)
    games = random_games(5, seed=9)
    with LeagueStore(league) as store:
        x, _ = store.members.add_member("ann", "bot", "random")
        o, _ = store.members.add_member("bob", "bot", "random")
        for game in games:
            number = store.games.start_game(x.id, o.id, game.start.fen())
            store.games.finish_game(
                number, game.result, game.termination.value, "", game_to_text(game),
                game.position.score, len(game.moves), (0.0, 0.0),
            )  # fmt: skip
    capsys.readouterr()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    candidates = read_sources([f"arena:{arena}", f"league:{league}"])
    from_league = [c.position for c in candidates if c.source == "league"]
    assert from_league == [p.fen() for g in games for p in g.positions if not p.is_over]
    from_arena = [c for c in candidates if c.source == "arena"]
    assert len(from_arena) == 4 * 8  # four 4-round games: eight positions before the end
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_line_whose_board_fields_disagree_with_its_position_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adjacency.puzzles import load_shipped

    line = load_shipped()[0].as_json()
    line["plies_left"] += 1
    path = tmp_path / "puzzles.jsonl"
    path.write_text(json.dumps(line) + "\n")
    assert main(["puzzles", "check", str(path)]) == 2
    assert "plies_left are not those of its position" in one_line_error(capsys)
