"""The bench signature is pinned: ``adjacency bench --signature`` prints the total nodes of
the suite's fixed-depth searches and exact solves, a number that depends on the code alone.

A change that keeps every tree keeps it (a refactoring, a speed-up); a change of the
search's judgement or order changes it, and then this pin and docs/engine.md change in the
same commit, whose message quotes the new number (docs/engine.md, "The signature"). The
command runs as a user runs it, through the real CLI in its own process (about 15 s of
one core).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from protocol_helpers import REPO

SIGNATURE = 132_392_639
"""The nodes of ``adjacency bench --signature`` for the trees of this code."""


def test_the_bench_signature_is_the_pinned_one_and_the_guide_quotes_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "adjacency", "bench", "--signature", "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    positions = report["positions"]
    assert sum(p["nodes"] for p in positions) == report["signature"]  # the definition
    assert all(p["complete"] for p in positions if p["kind"] == "solve")
    assert report["signature"] == SIGNATURE
    guide = (REPO / "docs" / "engine.md").read_text()
    assert re.findall(r"signature: (\d+) nodes", guide) == [str(SIGNATURE)]
