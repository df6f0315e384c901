"""Benchmark of the engine protocol: milliseconds per move through the ``cmd:`` client.

One move through the protocol is ``position fen ...``, ``isready``/``readyok``
(which discards stale output), ``go movetime ...`` and ``bestmove``: two round
trips over pipes plus parsing and checking on both sides. Trivial engines
(greedy: one pass over the empty squares) make that overhead the whole cost:

- ``c``: examples/engines/c/greedy_engine.c, compiled with gcc (skipped without gcc);
- ``python``: examples/engines/minimal_engine.py (standard library only);
- ``served``: ``adjacency engine --bot greedy`` (our server and bot).

Reports the median and 90th percentile over every move of ``--games`` games
on 8x8 against a random bot, after one warm-up game. Run:
``.venv/bin/python benchmarks/bench_protocol.py [--games 20]``.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from adjacency.bots import Limit, make_bot
from adjacency.bots.base import Bot
from adjacency.core import Position

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "engines"


def seconds_per_move(bot: Bot, games: int, seed: int) -> list[float]:
    """Wall-clock seconds of every ``choose_move`` of ``bot`` over ``games`` games."""
    opponent = make_bot("random", seed=seed)
    times: list[float] = []
    limit = Limit(time=5.0)
    for game in range(games + 1):
        position = Position.start()
        bot.new_game()
        while not position.is_over:
            if position.turn == "x":
                started = time.perf_counter()
                move = bot.choose_move(position, limit)
                if game > 0:  # the first game warms up caches and the engine
                    times.append(time.perf_counter() - started)
            else:
                move = opponent.choose_move(position, limit)
            position = position.play(move)
    return times


def specs(workdir: Path) -> dict[str, str]:
    found = {
        "python": "cmd:" + shlex.join([sys.executable, "-I", str(EXAMPLES / "minimal_engine.py")]),
        "served": "cmd:"
        + shlex.join([sys.executable, "-m", "adjacency", "engine", "--bot", "greedy"]),
    }
    gcc = shutil.which("gcc")
    if gcc is not None:
        binary = workdir / "greedy_engine"
        source = EXAMPLES / "c" / "greedy_engine.c"
        subprocess.run([gcc, "-std=c99", "-O2", "-o", str(binary), str(source)], check=True)
        found = {"c": f"cmd:{shlex.quote(str(binary))}", **found}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="measured games per engine")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        rows = [("in-process greedy (no protocol)", make_bot("greedy", seed=args.seed))]
        rows += [(name, make_bot(spec)) for name, spec in specs(Path(workdir)).items()]
        print(f"{'engine':34} {'moves':>6} {'median ms':>10} {'p90 ms':>8}")
        for name, bot in rows:
            with bot:
                times = seconds_per_move(bot, args.games, args.seed)
            ms = sorted(t * 1000 for t in times)
            p90 = ms[int(0.9 * (len(ms) - 1))]
            print(f"{name:34} {len(ms):6d} {statistics.median(ms):10.3f} {p90:8.3f}")


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    main()
