"""SIGKILL a run mid-way, resume it, and check that no game is lost or duplicated."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from adjacency.arena.store import Store
from adjacency.core.record import game_from_text

TARGET = Path(__file__).with_name("kill_target.py")


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # tables not created yet
        return 0


def test_sigkill_then_resume_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    process = subprocess.Popen(
        [sys.executable, str(TARGET), str(db)],
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while _stored(db) < 6 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the run finished before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)  # the runner and its workers, like a power cut
    process.wait(timeout=30)

    with Store(db) as store:
        run = store.run()
        before = {g.idx: g.record for g in store.games(run.id)}
        assert 6 <= len(before) < run.planned == 40
        assert run.status == "running"
        assert len(store.pending(run.id)) == run.planned - len(before)

    resumed = subprocess.run(
        [sys.executable, str(TARGET), str(db), "--resume"],
        capture_output=True, text=True, timeout=240, check=True,
    )  # fmt: skip
    status, stored, played = resumed.stdout.split()
    assert (status, int(stored), int(played)) == ("finished", 40, 40 - len(before))

    with Store(db) as store:
        games = store.games(run.id)
        assert [g.idx for g in games] == list(range(40))  # each planned game exactly once
        assert {g.idx: g.record for g in games if g.idx in before} == before  # untouched
        assert store.pending(run.id) == []
        assert store.run(run.id).status == "finished"
        tasks = {t.index: t for t in store.tasks(run.id)}
        for game in games:
            record = game_from_text(game.record)
            assert record.start.fen() == tasks[game.idx].opening
            assert (record.x_name, record.o_name) == (game.x, game.o)
            assert len(record.moves) == game.plies == 14  # 8 rounds after 2 random plies
