"""What the costliest request of each kind takes from the server: CPU seconds and memory.

Each request is sent through the real web app (its ASGI client) in a fresh process,
at the worst settings the server admits (the lab's deepest tree on 8x8, the largest
genetic run, the longest climb, the live analysis of an opening position until it
stops by itself, the review of a whole 28-round game), after the engine's kernels
are loaded (not counted). Reported per request: wall seconds, CPU seconds of the
whole process (every thread: what the request took from the machine), and the
peak resident memory above the process's baseline.

    python benchmarks/bench_request_cost.py                 # every request, a table
    python benchmarks/bench_request_cost.py --only lab-tree --json

CPU seconds do not depend on the machine's load for CPU-bound work, but requests
bounded by wall time (the analysis, the lab's engine views) use less CPU when the
machine is busy: give the load average with the figures (printed at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

OPENING = "6oo/o5oo/3x4/8/x6x/8/xx2oo2/xx3x1o x 48"
"""An 8x8 position eight plies into a 28-round game: far from the end, wide open."""

REQUESTS: dict[str, tuple[str, str]] = {
    "lab-tree": ("GET", f"/api/lab/tree?depth=4&algorithm=minimax&cap=20000&fen={OPENING}"),
    "lab-tree-alphabeta": ("GET", f"/api/lab/tree?depth=4&table=true&fen={OPENING}"),
    "lab-compare": ("GET", f"/api/lab/compare?depth=4&fen={OPENING}"),
    "lab-deepening": ("GET", f"/api/lab/deepening?seconds=6&fen={OPENING}"),
    "lab-engine": ("GET", f"/api/lab/engine?seconds=5&fen={OPENING}"),
    "lab-climb": ("GET", f"/api/lab/climb?spec=hill:sideways=10000,restarts=10000&fen={OPENING}"),
    "lab-anneal": ("GET", f"/api/lab/climb?spec=anneal:cooling=0.9999,tmin=0.0001&fen={OPENING}"),
    "lab-evolution": (
        "GET",
        f"/api/lab/evolution?spec=genetic:population=200,generations=200,horizon=32&fen={OPENING}",
    ),
    "lab-gatree": (
        "GET",
        f"/api/lab/evolution?spec=gatree:population=200,generations=200,depth=64&fen={OPENING}",
    ),
    "analysis-live": ("STREAM", f"/api/analysis/live?fen={OPENING}"),
    "review": ("REVIEW", ""),
}
"""Each request at the worst settings the server admits (the same-site GETs of the pages)."""

CHILD = r"""
import json, random, resource, sys, tempfile, time
from pathlib import Path
from fastapi.testclient import TestClient
from adjacency import Position
from adjacency.engine import warmup
from adjacency.web.app import create_app
from adjacency.web.limits import Limits

kind, method, url = sys.argv[1:4]
warmup()
limits = Limits(creates_per_minute=1e6, moves_per_minute=1e6, burst=10**6)
folder = Path(tempfile.mkdtemp())

def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_maxrss

with TestClient(create_app(folder / "games.db", limits=limits)) as client:
    if method == "REVIEW":
        human = {"kind": "human"}
        people = {"x": human, "o": human, "rows": 8, "cols": 8, "rounds": 28}
        game = client.post("/api/games", json=people).json()
        rng, position = random.Random(1), Position.start(8, 8, rounds=28)
        while not position.is_over:
            move = rng.choice(position.legal_moves())
            answer = client.post(f"/api/games/{game['id']}/moves", json={"square": move})
            assert answer.status_code == 200, answer.text
            position = position.play(move)
        method, url = "STREAM", f"/api/games/{game['id']}/review"
    cpu0, rss0 = usage()
    t0 = time.monotonic()
    if method == "STREAM":
        with client.stream("GET", url) as response:
            status = response.status_code
            for _ in response.iter_lines():
                pass
    else:
        status = client.get(url).status_code
    wall = time.monotonic() - t0
    cpu1, rss1 = usage()
print(json.dumps({"request": kind, "status": status, "wall": wall, "cpu": cpu1 - cpu0,
                  "rss_mb": max(0, rss1 - rss0) / 1024, "peak_mb": rss1 / 1024}))
"""


def measure(kind: str, timeout: float) -> dict[str, object]:
    """Run request ``kind`` in a fresh process; its figures (or why it did not finish)."""
    method, url = REQUESTS[kind]
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, kind, method, url],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"request": kind, "status": f"still running after {timeout:g} s"}
    if done.returncode != 0:
        return {"request": kind, "status": f"failed: {done.stderr.strip()[-300:]}"}
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(REQUESTS), help="one request")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per request")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    console = Console()
    results = []
    for kind in args.only or list(REQUESTS):
        with console.status(f"measuring {kind}"):
            results.append(measure(kind, args.timeout))
        if args.json:
            print(json.dumps(results[-1]))
    if not args.json:
        table = Table("request", "status", "wall s", "CPU s", "memory +MB", "peak MB")
        for r in results:
            figures = [
                f"{r[k]:.1f}" if k in r else "-" for k in ("wall", "cpu", "rss_mb", "peak_mb")
            ]
            table.add_row(str(r["request"]), str(r["status"]), *figures)
        console.print(table)
    console.print(f"load average {os.getloadavg()[0]:.2f} (source: {Path(__file__).name})")
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    raise SystemExit(main())
