"""The similarity report's precision and recall on planted copies: the classes of
``tests/similarity_planted.py`` (course-shaped projects written here: rings of 3 in 6
teams, of 4 and of 5 in 9 teams, a 48-line function with 6 names renamed inside a
team's own file, whole classes renamed, copies from an earlier year's corpus), each
compared at the report's defaults three ways:

- ``before``: the rule this report replaced: the template and every fingerprint in
  half the teams or more (at least 3) left out, the file shares alone;
- ``shares``: the file shares alone (no matched block lists a pair), the course's
  template uploaded as the base;
- ``blocks``: the shares and the matched blocks (the report as it is), with the base;
- ``majority``: the shares and the blocks with no base uploaded (the majority rule).

A pair of projects listed is right when it is a planted copy; precision is the right
ones among those listed, recall the planted ones listed. The time is the report's
from the fingerprints (made once before, as the league keeps them), median of
``--runs``, with its CPU time (what a loaded machine does not stretch).

    python benchmarks/bench_similarity_planted.py

State the machine's load beside the figures (``uptime``).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from adjacency.league.grading.fingerprints import Print, ProjectPrints, project_prints
from adjacency.league.grading.similarity import BLOCK_TOKENS, Report, compare_prints

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the tests' course-shaped projects
from similarity_planted import CLASSES, Planted, template  # noqa: E402

NEVER = 10**9
"""A block size no file reaches: the shares alone list pairs."""


def _half(prints: dict[str, ProjectPrints]) -> list[Print]:
    """The fingerprints in half the projects or more, and in at least 3: the majority
    the report left out, template or not, before the base was taken by its source."""
    counts: Counter[int] = Counter()
    for project in prints.values():
        counts.update({mark.hash for found in project.values() for mark in found})
    need = max(3, math.ceil(len(prints) / 2))
    return [Print(h, 0, 0) for h, n in counts.items() if n >= need]


def _report(planted: Planted, way: str, runs: int) -> tuple[Report, float, float]:
    """The report of ``planted`` compared ``way``, and its median time and CPU time of
    ``runs`` from the fingerprints made before."""
    prints = {team: project_prints(files) for team, files in planted.teams.items()}
    corpus = {name: project_prints(files) for name, files in planted.corpus.items()}
    texts = {**planted.corpus, **planted.teams}
    base = None if way == "majority" else project_prints(template())
    if way == "before" and base is not None:
        base = {"base": [*(m for found in base.values() for m in found), *_half(prints)]}
    block = NEVER if way in ("shares", "before") else BLOCK_TOKENS
    times, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        report = compare_prints(prints, texts.__getitem__, base, corpus=corpus, block_tokens=block)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return report, statistics.median(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}")
    totals: dict[str, list[int]] = {}
    for make in CLASSES:
        planted = make()
        for way in ("before", "shares", "blocks", "majority"):
            report, took, used = _report(planted, way, args.runs)
            listed = {(pair.a, pair.b) for pair in report.listed}
            right = len(listed & planted.copies)
            total = totals.setdefault(way, [0, 0, 0])
            total[0] += right
            total[1] += len(listed)
            total[2] += len(planted.copies)
            print(
                f"{planted.name:32} {way:9} listed {len(listed):2}, right {right:2} "
                f"of {len(planted.copies):2} planted; {took:.2f} s ({used:.2f} s CPU)"
                + (f"; {len(report.common)} majority files" if report.majority else "")
            )
    for way, (right, shown, copies) in totals.items():
        precision = right / shown if shown else 1.0
        print(
            f"all {way:9}: precision {precision:.2f} ({right}/{shown}), "
            f"recall {right / copies:.2f} ({right}/{copies})"
        )


if __name__ == "__main__":
    main()
