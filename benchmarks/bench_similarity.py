"""The similarity report's time for a class: ``--teams`` course-shaped projects
(tests/similarity_class.py: seven teams written apart with two planted copies, then
their projects again under other names, so that most pairs have passages to show),
their fingerprints made once (as the league does when a version is accepted, timed
apart) and the report made from the stored prints (what each request costs), with the
course's skeleton as the template.

    python benchmarks/bench_similarity.py --teams 30

State the machine's load beside the figures (``uptime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from adjacency.league.grading.fingerprints import pack, project_prints, unpack
from adjacency.league.grading.similarity import compare_prints

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the tests' course-shaped projects
from similarity_class import PLANTED, big_class, template  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    projects = big_class(args.teams)
    lines = sum(len(t.splitlines()) for files in projects.values() for t in files.values())
    started = time.perf_counter()
    stored = {team: pack(project_prints(files)) for team, files in projects.items()}
    made = time.perf_counter() - started
    skeleton = project_prints(template())
    times = []
    for _ in range(args.runs):
        started = time.perf_counter()
        prints = {team: unpack(data) for team, data in stored.items()}
        report = compare_prints(prints, projects.__getitem__, skeleton)
        times.append(time.perf_counter() - started)
    listed = {(pair.a, pair.b) for pair in report.listed}
    print(f"teams {len(projects)}, {lines} lines of code, load {os.getloadavg()[0]:.1f}")
    each = made / len(projects)
    print(f"fingerprints made once: {made:.2f} s for the class ({each:.3f} s a team)")
    print(f"report from the stored prints: median {statistics.median(times):.2f} s of {args.runs}")
    print(f"pairs {len(report.pairs)}, listed {len(listed)}, planted listed {listed >= PLANTED}")


if __name__ == "__main__":
    main()
