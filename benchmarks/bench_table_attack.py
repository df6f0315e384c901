"""The page attack on memory against ``adjacency play`` with its default settings.

Starts the server, sends eight bot-vs-bot games of ``engine:time=60,threads=2,tt=256``
(what one page may ask within the create rate), lets the admitted games play for
``--seconds`` while sampling the server's resident memory, and reports how many games
were admitted and refused, the resident memory before the attack and its peak
(``VmHWM``), with the load average. The server's table budget
(``adjacency.web.limits.Limits.bot_tables_mb``) is what keeps the peak under 1 GB.

    python benchmarks/bench_table_attack.py --seconds 30
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

SPEC = "engine:time=60,threads=2,tt=256"


def call(opener: Any, url: str, method: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    req = urllib.request.Request(url, data, method=method, headers=headers)
    try:
        with opener.open(req, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def memory_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the games play")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "adjacency", "play", "--no-browser", "--port", str(port),
             "--db", str(Path(tmp) / "games.sqlite3")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            server.stdout.readline()  # ready
            time.sleep(2.0)  # the engine's warm-up
            before = memory_kb(server.pid, "VmRSS")
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
            url = f"http://127.0.0.1:{port}/api/games"
            game = {"x": {"kind": "bot", "spec": SPEC}, "o": {"kind": "bot", "spec": SPEC}}
            answers = [call(opener, url, "POST", game) for _ in range(8)]
            admitted = sum(status == 201 for status, _ in answers)
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                time.sleep(0.5)
            peak = memory_kb(server.pid, "VmHWM")
        finally:
            server.terminate()
            server.wait(30)
    print(
        f"games admitted {admitted}, refused {8 - admitted}; resident memory before "
        f"{before / 1024:.0f} MB, peak {peak / 1024:.0f} MB after {args.seconds:g} s; "
        f"load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
