"""Write the five store fixtures of ``tests/storage/test_before_after.py``.

Run once, with the code of the commit before the shared store helper
(:mod:`adjacency.storage`) existed: ``python tests/data/stores/make_fixtures.py``.
Each database is written through its store's public API, so it holds exactly what
that code wrote; the test opens them with today's code and compares the contents.
Running it again with newer code rewrites the files (then they no longer test the
old code path: keep the committed ones).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from adjacency.arena.games import play_task
from adjacency.arena.runner import create_run
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.league.league_file import LeagueStore
from adjacency.league.settings import LeagueSettings
from adjacency.solving.solved_starts import Entry, RootMove, solve_entry
from adjacency.solving.store import SolutionsStore
from adjacency.tuning.spsa import BatchOutcome, Param, Schedule
from adjacency.tuning.store import TuneStore
from adjacency.web.store import GameStore

HERE = Path(__file__).parent


def _fresh(name: str) -> Path:
    path = HERE / name
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    return path


def _checkpoint(path: Path) -> None:
    """Fold the write-ahead log into the file, so the fixture is one file."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")


def main() -> None:
    arena = _fresh("arena.db")
    with Store(arena) as store:
        run_id = create_run(
            store, "match", ["random", "greedy"], RunSettings(rounds=(3,), games=4, seed=5)
        )
        for task in store.pending(run_id)[:3]:
            store.record(run_id, play_task(task))
        store.set_status(run_id, "stopped")
    _checkpoint(arena)

    tuning = _fresh("tuning.db")
    with TuneStore(tuning) as tune:
        params = [Param("a", 5.0, 0.0, 10.0, 1.0, 0.5)]
        settings = RunSettings(rounds=(3,), games=2, seed=1)
        tid = tune.create("greedy", params, Schedule(pairs=10, big_a=0), settings, 2, "tune",
                          Path("/tmp/out.json"))  # fmt: skip
        tune.checkpoint(tid, BatchOutcome(1, 1, 2, 1, 0, 1, (5.25,)))
        tune.checkpoint(tid, BatchOutcome(2, 2, 2, 2, 0, 0, (5.5,)))
    _checkpoint(tuning)

    league = _fresh("league.db")
    with LeagueStore(league) as ls:
        ls.meta.create(LeagueSettings(rows=6, cols=6, rounds=4), "adjl_admin-secret")
        a, _ = ls.members.add_member("alpha", "bot")
        b, _ = ls.members.add_member("beta", "house", spec="random")
        for x, o, result in ((a, b, "x"), (b, a, "draw")):
            game = ls.games.start_game(x.id, o.id, "fen")
            ls.games.finish_game(game, result, "normal", "", "record", (10, 8), 8, (1.0, 2.0))
        ls.games.start_game(a.id, b.id, "fen")
    _checkpoint(league)

    solutions = _fresh("solutions.db")
    with SolutionsStore(solutions) as ss:
        for rounds in (1, 2):
            ss.put(solve_entry(Entry(4, 4, rounds), tt_mb=4))
        ss.put_move(Entry(4, 4, 3), True, RootMove("b2", 2, "c3", 17, 0.25))
    _checkpoint(solutions)

    web = _fresh("web.sqlite3")
    games = GameStore(web)
    games.save("g1", 1.0, {"rows": 6, "moves": ["c3"]}, {"seats": {"owner": "k1"}})
    games.save("g2", 2.0, {"rows": 4, "moves": []}, {"note": "old"})
    games.close()
    _checkpoint(web)


if __name__ == "__main__":
    main()
