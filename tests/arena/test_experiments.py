"""The experiments command, with fast bots standing in for every role."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjacency.arena.experiments import MATCHUPS, available_pairs
from adjacency.arena.store import Store
from adjacency.cli import main

STAND_INS = ["alphabeta=greedy", "hill=random", "anneal=random:seed=1", "genetic=greedy:seed=2",
             "gatree=random:seed=3", "engine=greedy:seed=4"]  # fmt: skip


def test_unregistered_roles_are_skipped() -> None:
    specs = {"alphabeta": "greedy", "hill": "random", "engine": "no-such-bot"}
    players, skipped = available_pairs((("alphabeta", "hill"), ("engine", "hill")), specs)
    assert players == ["greedy", "random"]
    assert skipped == ["engine vs hill (no bot for engine)"]


def test_experiments_run_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["experiments", "--preset", "reduced", "--games", "2", "--rounds", "4,6"]
    argv += ["--time", "0.5", "--concurrency", "2", "--db", str(tmp_path / "e.db")]
    argv += ["--out", str(tmp_path / "out")]
    for item in STAND_INS:
        argv += ["--bot", item]
    assert main([*argv, "--list"]) == 0
    assert "11 pairings x 2 rounds settings x 2 games = 44 games" in capsys.readouterr().out
    assert not (tmp_path / "e.db").exists()
    assert main(argv) == 0
    with Store(tmp_path / "e.db") as store:
        run = store.run()
        assert run.mode == "pairs" and run.status == "finished"
        assert len(store.games(run.id)) == 44 == run.planned
        assert len(run.players) == 2 * len(MATCHUPS)
    report = (tmp_path / "out" / "report.md").read_text()
    assert "### Ranking at 6 rounds" in report
    assert main([*argv[:-2], "--bot", "nobody=greedy"]) == 2
    assert "--bot 'nobody=greedy'" in capsys.readouterr().err


def test_the_course_preset_plays_each_reports_bots_against_each_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["experiments", "--preset", "course", "--list"]) == 0
    out = capsys.readouterr().out
    assert "6 pairings x 3 rounds settings x 20 games = 360 games" in out
    pairs = (("minimax", "localsearch"), ("minimax", "genetic"), ("localsearch", "genetic"))
    for report in ("report-a", "report-b"):
        for a, b in pairs:
            assert f"{report}:{a} vs {report}:{b}" in out
    assert "report-a:minimax vs report-b" not in out


def test_resume_names_the_stored_preset_not_the_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--resume`` of a reduced run names its reduced size (it once said "full ... 1760 games")."""
    from adjacency.arena.progress_bar import LiveScore

    db, out = tmp_path / "e.db", tmp_path / "out"
    argv = ["experiments", "--preset", "reduced", "--games", "2", "--rounds", "4"]
    argv += ["--time", "0.5", "--concurrency", "1", "--db", str(db), "--out", str(out)]
    for item in STAND_INS:
        argv += ["--bot", item]
    add = LiveScore.add

    def interrupt_after_two(self: LiveScore, result: object) -> None:
        add(self, result)  # type: ignore[arg-type]
        if sum(self.played.values()) >= 4:  # two games, each counted for both players
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(LiveScore, "add", interrupt_after_two)
        assert main(argv) == 130
    capsys.readouterr()
    with Store(db) as store:
        assert store.run().label == "reduced" and store.run().status == "stopped"
    assert main(["experiments", "--resume", "--db", str(db), "--out", str(out)]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "Resuming experiments (reduced)" in printed and "2 of 22 games stored" in printed
    assert "full" not in printed and "1760" not in printed
    assert "Experiments (reduced)" in printed  # the table's title
    assert (out / "report.md").read_text().startswith("# Reproduced experiments (reduced preset)")
    with Store(db) as store:
        assert store.run().status == "finished" and store.count(store.run().id) == 22


@pytest.mark.slow
def test_ctrl_c_prints_the_resume_command(tmp_path: Path) -> None:
    """Ctrl-C prints more than "interrupted": docs/arena.md promises the
    ``--resume`` command. A real SIGINT to the process group, as a terminal sends it."""
    import os
    import signal
    import subprocess
    import sys
    import time

    db, out = tmp_path / "e.db", tmp_path / "out"
    child = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from adjacency.cli import main; raise SystemExit(main(sys.argv[1:]))"
    )
    argv = ["experiments", "--preset", "original", "--games", "40", "--rounds", "4"]
    argv += ["--time", "0.05", "--concurrency", "1", "--db", str(db), "--out", str(out)]
    argv += ["--bot", "alphabeta=hill", "--bot", "genetic=anneal", "--bot", "engine=hill:seed=3"]
    process = subprocess.Popen(
        [sys.executable, "-c", child, *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < deadline:
            if db.exists():
                with Store(db) as store:
                    if store.runs() and store.count(store.run().id) >= 1:
                        break
            time.sleep(0.05)
        assert process.poll() is None, "the run ended before it could be interrupted"
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, stderr
    printed = " ".join(stdout.split())
    assert "experiments run 1 (original) stopped with" in printed
    assert f"finish it with: adjacency experiments --resume --db {db} --out {out}" in printed
    with Store(db) as store:
        assert store.run().status == "stopped" and store.count(1) < store.run().planned
