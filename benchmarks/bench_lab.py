"""The Lab tab's game tree over HTTP: time from request to JSON, and the payload's size.

Starts the web app in a real uvicorn server on 127.0.0.1 (a temporary database),
then asks ``GET /api/lab/tree`` for a depth-3 alpha-beta tree (and optionally
other depths and searches) on the 8x8 start and on a midgame position, ``--repeat``
times each, and prints the median and the extremes of the wall-clock time from
sending the request to having the parsed JSON, the payload's bytes, the tree's
nodes and whether the node cap cut it, with the load average before and after.

    python benchmarks/bench_lab.py --repeat 5
    python benchmarks/bench_lab.py --depth 4 --algorithm minimax
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import uvicorn

from adjacency import Position
from adjacency.web.app import create_app

MIDGAME_MOVES = ("c3", "f6", "d3", "e6", "c4", "f5", "e3", "d6", "b3", "g6")


def positions() -> dict[str, Position]:
    """The 8x8 start (28 rounds) and a midgame position ten plies in."""
    start = Position.start(8, 8, rounds=28)
    midgame = start
    for square in MIDGAME_MOVES:
        midgame = midgame.play(square)
    return {"start": start, "midgame": midgame}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--algorithm", default="alphabeta", choices=("alphabeta", "minimax"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "games.sqlite3")
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            print(f"load average before: {os.getloadavg()[0]:.2f}")
            for name, position in positions().items():
                url = (
                    f"http://127.0.0.1:{port}/api/lab/tree?fen={quote(position.fen())}"
                    f"&depth={args.depth}&algorithm={args.algorithm}"
                )
                times: list[float] = []
                size = 0
                data: dict[str, object] = {}
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    with urllib.request.urlopen(url, timeout=120) as response:
                        body = response.read()
                    data = json.loads(body)
                    times.append(time.perf_counter() - started)
                    size = len(body)
                nodes = data["nodes"]
                assert isinstance(nodes, list)
                print(
                    f"{name:8} {args.algorithm} depth {args.depth}: median "
                    f"{statistics.median(times) * 1000:.0f} ms (min {min(times) * 1000:.0f}, "
                    f"max {max(times) * 1000:.0f}) over {args.repeat}; "
                    f"payload {size / 1024:.1f} KiB; "
                    f"{len(nodes)} tree nodes, {data['search_nodes']} positions visited, "
                    f"complete {data['complete']}; search alone {data['seconds'] * 1000:.0f} ms"
                )
            print(f"load average after: {os.getloadavg()[0]:.2f}")
        finally:
            server.should_exit = True
            thread.join(10)


if __name__ == "__main__":
    main()
