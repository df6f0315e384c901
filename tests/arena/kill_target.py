"""A run to be killed by test_kill_resume: ``python kill_target.py DB [--resume]``.

Plays slow fake bots (10 ms per move) in two worker processes through the real
runner, store and pool executor. Run as a script in its own process group.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjacency.arena.runner import create_run, execute
from adjacency.arena.schedule import RunSettings
from adjacency.arena.store import Store
from adjacency.workers import PoolExecutor
from arena_fakes import factory

SETTINGS = RunSettings(rounds=(8,), games=40, time=1.0, random_plies=2, seed=3)


def main() -> None:
    db = Path(sys.argv[1])
    with Store(db) as store, PoolExecutor(2) as executor:
        if "--resume" in sys.argv:
            run_id = store.resumable().id
        else:
            run_id = create_run(store, "match", ["slow", "slow2"], SETTINGS, "kill test", factory)
        report = execute(store, run_id, executor, factory=factory)
    print(report.status, report.stored, report.played_now)


if __name__ == "__main__":
    main()
