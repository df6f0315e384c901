"""``adjacency train-eval``: train the engine's learned evaluation (docs/engine.md).

Self-play positions, labels by a deeper search of the frozen reference engine
(exact solves near the end), ridge least squares per plies left; writes a
versioned weights file (:mod:`adjacency.engine.training`).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from .arguments import non_negative_number, positive_int, whole_number


def register(commands: Any) -> None:
    """Add the ``train-eval`` subcommand to ``commands`` (the parser's subparsers)."""
    train = commands.add_parser(
        "train-eval",
        help="train the engine's learned evaluation by self-play",
        description="Play --games self-play games on 8x8 (a depth-2 search with 20% random "
        "moves, rounds drawn from 8-28), label every position by a --depth search of the "
        "frozen v1 engine or, with at most --exact-plies left, by the exact solver, fit "
        "weights per plies left by ridge least squares and write them to --out "
        "(copy it to src/adjacency/engine/weights/eval-8x8.json to ship it).",
    )
    train.add_argument("--games", type=positive_int, default=400, help="self-play games")
    train.add_argument("--depth", type=positive_int, default=6, help="label search depth")
    train.add_argument(
        "--exact-plies",
        type=whole_number,
        default=8,
        help="solve exactly with this many plies left",
    )
    train.add_argument("--seed", type=whole_number, default=1, help="self-play seed")
    train.add_argument(
        "--window",
        type=whole_number,
        default=2,
        help="fit each phase on +-this many plies (default 2)",
    )
    train.add_argument(
        "--ridge", type=non_negative_number, default=1.0, help="ridge penalty (default 1)"
    )
    train.add_argument("--version", type=positive_int, default=1, help="weights file version")
    train.add_argument("--out", type=Path, default=Path("eval-8x8.json"), help="output file")
    train.set_defaults(handler=run_train)


def run_train(args: argparse.Namespace) -> int:
    """``adjacency train-eval``: play self-play games, label their positions, fit the learned
    evaluation's weights and write them to ``--out``; returns 0. ``--exact-plies``, ``--window``
    or ``--ridge`` out of range raise :class:`~adjacency.core.errors.AdjacencyError` before any
    game."""
    import random

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..core.errors import AdjacencyError
    from ..engine import warmup
    from ..engine.training import fit, label_positions, self_play_positions
    from ..engine.weights_file import save_weights

    if not 0 <= args.exact_plies <= 20 or not 0 <= args.window <= 10 or args.ridge < 0:
        raise AdjacencyError(
            "--exact-plies must be 0-20, --window 0-10 and --ridge at least 0, got "
            f"{args.exact_plies}, {args.window}, {args.ridge}"
        )
    warmup()
    started = time.monotonic()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=Console(stderr=True)) as progress:
        tasks: dict[str, Any] = {}

        def report(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done)

        positions = self_play_positions(random.Random(args.seed), args.games, progress=report)
        samples = label_positions(positions, args.depth, args.exact_plies, progress=report)
    table, stats = fit(samples, args.window, args.ridge)  # InvalidSettingsError: exit 2
    meta = {
        "command": (
            f"adjacency train-eval --games {args.games} --depth {args.depth} "
            f"--exact-plies {args.exact_plies} --seed {args.seed} --window {args.window} "
            f"--ridge {args.ridge} --version {args.version}"
        ),
        "positions": len(samples),
        "exact_labels": sum(s.exact for s in samples),
        "seconds": round(time.monotonic() - started, 1),
        "rms_error_pieces": stats["rms_error_pieces"],
    }
    save_weights(table, args.out, args.version, meta)
    print(json.dumps({k: v for k, v in meta.items() if k != "rms_error_pieces"}))
    print(f"wrote {args.out}")
    return 0
