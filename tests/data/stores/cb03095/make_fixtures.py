"""Write the five store fixtures of ``tests/storage/test_numbered_versions.py``: the files
that main at commit ``cb03095`` wrote, the last code before the stores' numbered schema
versions (``PRAGMA user_version``).

Run once, with that commit's code::

    git worktree add /tmp/cb03095 cb03095
    PYTHONPATH=/tmp/cb03095/src .venv/bin/python tests/data/stores/cb03095/make_fixtures.py

Each database is written through its store's public API (the league with an event, so
the event tables are there too) and left as the store left it: in WAL mode, the log
folded into the file by a checkpoint (so the fixture is one file). ``league-reported.db``
is that league file after that code's ``adjacency report`` refused it, having first
created the results tables ``runs`` and ``plan`` in it (which made every ``adjacency
league`` command refuse the file from then on). ``contents.json`` holds every row as
written, read with plain :mod:`sqlite3`. Running it with newer code rewrites
the files, and then they no longer test the old files: keep the committed ones.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from adjacency.arena.games import play_task
from adjacency.arena.runner import create_run
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.cli import main as cli
from adjacency.league.events.event_store import EventStore  # type: ignore[attr-defined]  # cb03095 had it
from adjacency.league.league_file import LeagueStore
from adjacency.league.settings import LeagueSettings
from adjacency.solving.entries import Entry, RootMove
from adjacency.solving.solved_starts import solve_entry
from adjacency.solving.store import SolutionsStore
from adjacency.tuning.spsa import BatchOutcome, Param, Schedule
from adjacency.tuning.store import TuneStore
from adjacency.web.store import GameStore

HERE = Path(__file__).parent
NAMES = ("arena.db", "tuning.db", "league.db", "solutions.db", "web.sqlite3", "league-reported.db")


def _fresh(name: str) -> Path:
    path = HERE / name
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    return path


def _checkpoint(path: Path) -> None:
    """Fold the write-ahead log into the file (it stays in WAL mode, as the store left it)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def dump(path: Path) -> dict[str, list[list[Any]]]:
    """Every row of every table, read with plain :mod:`sqlite3` (no store code)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        tables = [
            name
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if not name.startswith("sqlite_")
        ]
        return {
            table: [list(row) for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid")]
            for table in sorted(tables)
        }


def main() -> None:
    arena = _fresh("arena.db")
    with Store(arena) as store:
        run_id = create_run(
            store, "match", ["random", "greedy"], RunSettings(rounds=(3,), games=4, seed=5)
        )
        for task in store.pending(run_id)[:3]:
            store.record(run_id, play_task(task))
        store.set_status(run_id, "stopped")

    tuning = _fresh("tuning.db")
    with TuneStore(tuning) as tune:
        params = [Param("a", 5.0, 0.0, 10.0, 1.0, 0.5)]
        settings = RunSettings(rounds=(3,), games=2, seed=1)
        tid = tune.create("greedy", params, Schedule(pairs=10, big_a=0), settings, 2, "tune",
                          Path("/tmp/out.json"))  # fmt: skip
        tune.checkpoint(tid, BatchOutcome(1, 1, 2, 1, 0, 1, (5.25,)))

    league = _fresh("league.db")
    with LeagueStore(league) as ls:
        ls.meta.create(LeagueSettings(rows=6, cols=6, rounds=4), "adjl_admin-secret")
        a, _ = ls.members.add_member("alpha", "bot")
        b, _ = ls.members.add_member("beta", "house", spec="random")
        for x, o, result in ((a, b, "x"), (b, a, "draw")):
            game = ls.games.start_game(x.id, o.id, "fen")
            ls.games.finish_game(game, result, "normal", "", "record", (10, 8), 8, (1.0, 2.0))
        ls.games.start_game(a.id, b.id, "fen")
        EventStore(ls).create("spring", "round-robin", None, ["alpha", "beta"], start=None)

    solutions = _fresh("solutions.db")
    with SolutionsStore(solutions) as ss:
        ss.put(solve_entry(Entry(4, 4, 1), tt_mb=4))
        ss.put_move(Entry(4, 4, 3), True, RootMove("b2", 2, "c3", 17, 0.25))

    web = _fresh("web.sqlite3")
    with GameStore(web) as games:
        games.save("g1", 1.0, {"rows": 6, "moves": ["c3"]}, {"seats": {"owner": "k1"}})
        games.save("g2", 2.0, {"rows": 4, "moves": []}, {"note": "old"})

    _checkpoint(league)
    reported = _fresh("league-reported.db")
    shutil.copyfile(league, reported)
    assert cli(["report", str(reported), "--out", str(HERE / "no-report")]) == 3  # refused
    assert not (HERE / "no-report").exists()

    for name in NAMES:
        _checkpoint(HERE / name)
    contents = {name: dump(HERE / name) for name in NAMES}
    (HERE / "contents.json").write_text(json.dumps(contents, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
