"""The first move of a freshly started ``adjacency engine``, timed from the controller.

A controller that starts an engine and asks at once for a move (``go movetime T``)
counts the whole move against the engine's time: any one-off work of the engine's first
search (kernels, memory the system maps on first touch, files read once) lands inside it.
For ``--starts`` fresh processes of ``adjacency engine [--bot SPEC]``, this script does
the handshake, sets a position (of the fresh ``games`` set, ``--plies`` left, cycled;
``--seed``), and times two ``go movetime T`` on it from ``go`` to ``bestmove`` (wall
clock, this side of the pipes), beside the engine's own last reported ``time``. It prints
per start the handshake's milliseconds, both moves' wall and reported milliseconds, and
then the largest first-move and later-move overrun (wall minus T).

    python benchmarks/bench_first_go.py --starts 10 --movetime 300
    python benchmarks/bench_first_go.py --plies 40,20,13 --bot engine:tt=1024
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time

from position_sets import default_seed, describe, draw  # this folder is on the path

from adjacency.protocol.client import EngineProcess

TIMEOUT = 60.0


def until(engine: EngineProcess, word: str) -> list[str]:
    """The engine's lines up to and including the first that starts with ``word``."""
    lines = []
    while True:
        line = engine.read_line(TIMEOUT)
        if line is None:
            raise SystemExit(f"the engine ended before {word!r}")
        lines.append(line)
        if line.startswith(word):
            return lines


def timed_go(engine: EngineProcess, movetime: int) -> tuple[float, int | None]:
    """One ``go movetime``: milliseconds from sending it to ``bestmove``, and the engine's
    own last reported ``time``."""
    engine.send("isready")
    until(engine, "readyok")
    started = time.perf_counter()
    engine.send(f"go movetime {movetime}")
    lines = until(engine, "bestmove")
    wall = (time.perf_counter() - started) * 1000
    reported = [int(m.group(1)) for line in lines if (m := re.search(r" time (\d+)", line))]
    return wall, (reported[-1] if reported else None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=10, help="fresh engine processes")
    parser.add_argument("--movetime", type=int, default=300, help="milliseconds a move")
    parser.add_argument("--plies", default="40,20,13", help="plies left of the positions")
    parser.add_argument("--seed", type=int, default=None, help="of the positions (default now)")
    parser.add_argument("--bot", default=None, help="adjacency engine --bot SPEC")
    args = parser.parse_args(argv)
    seed = default_seed() if args.seed is None else args.seed
    plies = [int(p) for p in args.plies.split(",")]
    positions = [
        draw("games", 28, plies[i % len(plies)], 1, seed + i)[0] for i in range(args.starts)
    ]
    print(describe("games", seed), flush=True)
    command = [sys.executable, "-m", "adjacency", "engine"]
    if args.bot:
        command += ["--bot", args.bot]
    first: list[float] = []
    later: list[float] = []
    for position in positions:
        engine = EngineProcess(command)
        started = time.perf_counter()
        engine.start()
        try:
            engine.send("aep")
            until(engine, "aepok")
            handshake = (time.perf_counter() - started) * 1000
            engine.send(f"position fen {position.fen()}")
            one, one_reported = timed_go(engine, args.movetime)
            two, two_reported = timed_go(engine, args.movetime)
            engine.send("quit")
        finally:
            engine.close()
        first.append(one)
        later.append(two)
        print(
            f"{position.plies_left:>3} plies left: handshake {handshake:5.0f} ms, first go "
            f"{one:4.0f} ms (engine {one_reported}), second {two:4.0f} ms (engine {two_reported})",
            flush=True,
        )
    print(
        f"first go: median {statistics.median(first):.0f} ms, largest {max(first):.0f} ms "
        f"(overrun {max(first) - args.movetime:+.0f}); later go: median "
        f"{statistics.median(later):.0f} ms, largest {max(later):.0f} ms "
        f"(overrun {max(later) - args.movetime:+.0f})"
    )
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    raise SystemExit(main())
