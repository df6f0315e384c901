"""The SQLite store: one commit per game, no duplicates, shared files, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.arena.games import play_task
from adjacency.arena.runner import create_run, execute
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store, StoreError
from adjacency.storage import WrongDatabaseError
from adjacency.workers import SerialExecutor

SETTINGS = RunSettings(rounds=(4,), games=4, time=1.0, seed=2)


def test_a_game_cannot_be_stored_twice(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        run_id = create_run(store, "match", ["random", "greedy"], SETTINGS)
        first = store.pending(run_id)[0]
        result = play_task(first)
        store.record(run_id, result)
        with pytest.raises(StoreError, match=r"UNIQUE constraint failed.*another process"):
            store.record(run_id, result)
        assert store.count(run_id) == 1  # the failed insert was rolled back
        assert [t.index for t in store.pending(run_id)] == [1, 2, 3]
        stored = store.games(run_id)[0]
        assert (stored.x_score, stored.o_score, stored.plies) == (
            result.x_score, result.o_score, result.plies,
        )  # fmt: skip
        assert stored.record == result.record and stored.a_points == result.a_points


def test_two_stores_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    with Store(path) as one, Store(path) as two:
        run_a = create_run(one, "match", ["random", "greedy"], SETTINGS)
        run_b = create_run(two, "match", ["greedy", "random"], SETTINGS)
        execute(one, run_a, SerialExecutor())
        execute(two, run_b, SerialExecutor())
        assert [r.status for r in one.runs()] == ["finished", "finished"]
        assert len(two.games(run_a)) == len(one.games(run_b)) == 4
        assert len(one.games()) == 8
        with pytest.raises(StoreError, match="no unfinished run"):
            one.resumable()
        with pytest.raises(StoreError, match="has no run 7; runs: 1, 2"):
            one.run(7)


def test_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(WrongDatabaseError, match=r"cannot use .*junk\.db.* as a results database"):
        Store(junk)
    with Store(tmp_path / "empty.db") as store, pytest.raises(StoreError, match="holds no runs"):
        store.run()
