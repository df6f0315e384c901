"""Distance from perfect play: how many pieces the engine's timed move gives away.

For ``--positions`` positions of a 28-round game with ``--plies`` plies left (default
18, 19 and 20: position ``i`` has the ``i % 3``-th of them), drawn from ``--set``
(:mod:`position_sets`: ``games``, the default, from games played at run time between
two fixed bots; ``random``, from random play; ``suite``, the fixed self-play suite)
with ``--seed`` (default: the current time, printed), each bot of ``--bots`` chooses
its move under ``--time`` seconds with a fresh table, and the
exact solver proves the position's value and the value after that move. The
move's *loss* is the difference, in pieces (0: an optimal move). Per bot the
table gives the share of optimal moves and the mean loss, for every position and
per plies left, so v1 and the default engine are compared on the same
positions.

    python benchmarks/bench_engine_perfect.py --positions 200 --out perfect.jsonl
    python benchmarks/bench_engine_perfect.py --set suite --positions 200 --out suite.jsonl
    python benchmarks/bench_engine_perfect.py --plies 15,16 --time 0.4 --out reach.jsonl

Each finished position is appended to ``--out`` (JSON lines) at once; ``--resume``
reads that file (and its set and seed) and goes on with the positions it does not hold, so
a long run
survives an interruption. The solves use ``--threads`` solver threads; the bots
one thread each (``threads=1`` in their specs), so their moves do not depend on
the machine's core count. ``--plot FILE`` draws the loss distributions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from position_sets import SETS, default_seed, describe, generator  # this folder is on the path
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.engine import Engine, warmup

BOTS = "engine:profile=v1,threads=1,book=off;engine:threads=1,book=off"
"""The frozen first version and the default engine, one thread each and no book
(the book holds start positions only; off keeps the comparison to the search)."""


PLIES = (18, 19, 20)
"""The plies left of the positions by default: where the bot searches, not solves, at
0.1 s a move, and where the exact solves stay short."""


def positions(
    set_name: str, seed: int, count: int, plies: tuple[int, ...] = PLIES
) -> Iterator[tuple[int, Position]]:
    """Position ``i`` of the set for ``i`` below ``count``: ``plies[i % len(plies)]``
    plies left (with the default, ``18 + i % 3``: the sets of earlier runs)."""
    make = generator(set_name)
    for i in range(count):
        left = plies[i % len(plies)]
        yield i, make(28, left, i if set_name == "suite" else seed * 1_000 + i)


def parse_plies(text: str) -> tuple[int, ...]:
    """``--plies``: comma-separated plies left, each 1 to 40 (the solver's reach in a
    28-round game, and more than any benchmark here should wait for)."""
    try:
        plies = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not plies or any(not 1 <= p <= 40 for p in plies):
        raise argparse.ArgumentTypeError(f"plies left must be 1 to 40: {text!r}")
    return plies


def measure(
    index: int, position: Position, bots: list[str], seconds: float, solver: Engine
) -> dict:
    """One position: its exact value, and each bot's move, value after it and loss."""
    root = solver.solve(position)
    row: dict = {
        "index": index,
        "fen": position.fen(),
        "plies": position.plies_left,
        "value": root.value,
        "solve_nodes": root.nodes,
        "bots": {},
    }
    for spec in bots:
        bot = make_bot(spec, seed=index)
        bot.new_game()
        move = bot.choose_move(position, Limit(time=seconds))
        after = solver.solve(position.play(move), guess=-root.value)
        value = -after.value
        row["bots"][spec] = {
            "move": move,
            "value": value,
            "loss": root.value - value,
        }
        if value > root.value:
            raise AssertionError(
                f"solver inconsistency at {position.fen()!r}: {move} beats the value"
            )
    return row


def summary(rows: list[dict], bots: list[str]) -> Table:
    """Share of optimal moves and mean loss per bot, overall and per plies left."""
    table = Table(title=f"distance from perfect play ({len(rows)} positions)")
    table.add_column("bot")
    table.add_column("plies left", justify="right")
    table.add_column("positions", justify="right")
    table.add_column("optimal", justify="right")
    table.add_column("mean loss (pieces)", justify="right")
    table.add_column("largest loss", justify="right")
    for spec in bots:
        groups = [("all", rows)] + [
            (str(p), [r for r in rows if r["plies"] == p])
            for p in sorted({r["plies"] for r in rows})
        ]
        for name, group in groups:
            losses = [r["bots"][spec]["loss"] for r in group]
            if not losses:
                continue
            optimal = sum(loss == 0 for loss in losses)
            table.add_row(
                spec,
                name,
                str(len(losses)),
                f"{optimal / len(losses):.1%}",
                f"{statistics.fmean(losses):.3f}",
                str(max(losses)),
            )
    return table


def plot(rows: list[dict], bots: list[str], path: Path) -> None:
    """Bar chart of the losses per bot (share of positions per loss in pieces)."""
    from adjacency.plotting import pyplot

    plt = pyplot()
    losses = sorted({r["bots"][spec]["loss"] for r in rows for spec in bots})
    width = 0.8 / len(bots)
    fig, ax = plt.subplots(figsize=(7, 4))
    for k, spec in enumerate(bots):
        counts = [sum(r["bots"][spec]["loss"] == loss for r in rows) / len(rows) for loss in losses]
        ax.bar([i + k * width for i in range(len(losses))], counts, width, label=spec)
    ax.set_xticks(
        [i + width * (len(bots) - 1) / 2 for i in range(len(losses))], [str(x) for x in losses]
    )
    ax.set_xlabel("pieces lost against the best move")
    ax.set_ylabel("share of positions")
    lefts = sorted({r["plies"] for r in rows})
    ax.set_title(
        f"distance from perfect play, {len(rows)} positions with "
        f"{', '.join(map(str, lefts))} plies left"
    )
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument(
        "--plies",
        type=parse_plies,
        default=PLIES,
        help="plies left, comma-separated; position i has the (i mod count)-th (18,19,20)",
    )
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move (default 0.1)")
    parser.add_argument("--bots", default=BOTS, help="bot specs separated by ';'")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="solver threads")
    parser.add_argument("--tt", type=float, default=256.0, help="solver table MB")
    parser.add_argument("--out", type=Path, default=Path("perfect.jsonl"))
    parser.add_argument("--resume", action="store_true", help="go on from --out")
    parser.add_argument("--plot", type=Path, help="write the loss distribution (PNG or SVG)")
    parser.add_argument("--set", choices=SETS, default="games", help="position set (games)")
    parser.add_argument("--seed", type=int, default=None, help="of a fresh set (default: now)")
    args = parser.parse_args(argv)
    bots = [spec.strip() for spec in args.bots.split(";") if spec.strip()]
    seed = default_seed() if args.seed is None else args.seed
    rows: list[dict] = []
    if args.resume and args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
        if any(set(r["bots"]) != set(bots) for r in rows):
            print(f"{args.out} holds other bots than --bots; use another --out", file=sys.stderr)
            return 2
        if rows and args.seed is None:
            seed = rows[0].get("seed", seed)  # a resumed run keeps its set's seed
        if any((r.get("set", "suite"), r.get("seed", seed)) != (args.set, seed) for r in rows):
            print(f"{args.out} holds another --set or --seed; use another --out", file=sys.stderr)
            return 2
        if any(r["plies"] != args.plies[r["index"] % len(args.plies)] for r in rows):
            print(f"{args.out} holds other --plies; use another --out", file=sys.stderr)
            return 2
    elif args.out.exists():
        print(f"{args.out} exists: --resume to go on, or remove it", file=sys.stderr)
        return 2
    print(describe(args.set, seed), flush=True)
    warmup()
    solver = Engine(tt_mb=args.tt, threads=args.threads)
    done = {r["index"] for r in rows}
    started = time.monotonic()
    console = Console(stderr=True)
    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress, args.out.open("a") as out:
        task = progress.add_task("positions", total=args.positions, completed=len(done))
        for index, position in positions(args.set, seed, args.positions, args.plies):
            if index in done:
                continue
            solver.clear()
            row = measure(index, position, bots, args.time, solver)
            row["set"], row["seed"] = args.set, seed
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            progress.advance(task)
    rows.sort(key=lambda r: r["index"])
    Console(width=160).print(summary(rows, bots))
    print(describe(args.set, seed))
    print(
        f"{time.monotonic() - started:.0f} s this run; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    if args.plot:
        plot(rows, bots, args.plot)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    sys.exit(main())
