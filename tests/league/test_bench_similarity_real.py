"""The real-project similarity benchmark (benchmarks/bench_similarity_real.py) runs end
to end, so it cannot rot: on a folder of course-shaped projects written here (the
planted classes' nine teams written apart, one team again under another name, and one
holding another team's project and a renamed copy of a third's bot), each kind of copy
is planted and listed, and the three pairs that share code before any planting are
reported apart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from league_helpers import REPO, env
from similarity_class import BEAM
from similarity_planted import renamed, written_apart

SCRIPT = REPO / "benchmarks" / "bench_similarity_real.py"


def test_every_kind_of_copy_is_planted_and_listed_and_shared_code_reported_apart(
    tmp_path: Path,
) -> None:
    teams = written_apart()
    teams["kappa"] = {**teams["gamma"], "src/k/BeamCopyBot.java": renamed(BEAM, "K")}
    teams["lambda"] = dict(teams["beta"])
    for name, files in teams.items():
        for path, text in files.items():
            (tmp_path / f"{name}+project" / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / f"{name}+project" / path).write_text(text)
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--draws", "1", "--seed", "1"],
        env=env(), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].endswith("; 11 projects"), run.stdout
    kinds = ("ring of 3 in 6", "ring of 4 in 9", "-line function in 9", "whole classes", "corpus")
    for kind, line in zip(kinds, lines[1:6], strict=True):
        assert kind in line and " 0 other;" in line and "missed" not in line, line
    assert "precision 1.00 (14/14), recall 1.00 (14/14)" in lines[6], run.stdout
    shared = "[('beta', 'lambda'), ('eta', 'kappa'), ('gamma', 'kappa')]"  # copies, unplanted
    assert shared in lines[6], run.stdout


def test_a_folder_with_too_few_projects_is_refused_in_one_line(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)],
        env=env(), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 2 and "holds 0 projects with Java sources; 11 needed" in run.stderr
    assert "Traceback" not in run.stderr
