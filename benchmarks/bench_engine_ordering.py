"""What each move-ordering term (and the table, and late move reductions) buys the engine.

Searches the bench suite's opening and middle-game positions to a fixed depth with
one term switched on at a time and reports nodes and seconds (positional evaluation):

    python benchmarks/bench_engine_ordering.py --depth 7
"""

from __future__ import annotations

import argparse
import sys
import time

from adjacency.core import Position
from adjacency.engine import Engine, warmup
from adjacency.engine.bench import SUITE
from adjacency.engine.kernels.layout import (
    ORDER_ALL,
    ORDER_CAPTURES,
    ORDER_EVAL,
    ORDER_HISTORY,
    ORDER_KILLERS,
    ORDER_TT,
)

VARIANTS = (
    ("no ordering", 0, True),
    ("table move", ORDER_TT, True),
    ("+ captures", ORDER_TT | ORDER_CAPTURES, True),
    ("+ killers", ORDER_TT | ORDER_CAPTURES | ORDER_KILLERS, True),
    ("+ history", ORDER_TT | ORDER_CAPTURES | ORDER_KILLERS | ORDER_HISTORY, True),
    ("eval, table move only", ORDER_TT | ORDER_EVAL, True),
    ("eval for captures (all)", ORDER_ALL, True),
    ("all, no table", ORDER_ALL, False),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--lmr", action="store_true", help="keep late move reductions on")
    args = parser.parse_args(argv)
    warmup()
    positions = [(name, Position.from_fen(fen)) for name, fen in SUITE if "end" not in name]
    print(f"depth {args.depth}, late move reductions {'on' if args.lmr else 'off'}")
    for label, ordering, use_tt in VARIANTS:
        nodes = 0
        seconds = 0.0
        for _, position in positions:
            engine = Engine(tt_mb=64, ordering=ordering, use_tt=use_tt, reductions=args.lmr)
            started = time.perf_counter()
            result = engine.search(position, depth=args.depth)
            seconds += time.perf_counter() - started
            nodes += result.nodes
        print(f"{label:<18} {nodes:>12} nodes {seconds:8.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
