"""The ``experiments`` subcommand: the course reports' matchups with real sample sizes.

The presets, roles and matchups are plain data in :mod:`adjacency.arena.experiments`;
this module only turns command-line options into a run and prints its results.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSettingsError
from .arguments import (
    add_executor_options,
    executor_from_args,
    positive_int,
    rounds_list,
    seconds,
    seconds_or_zero,
    whole_number,
)


def register(commands: Any) -> None:
    from ..arena.experiments import PRESETS, ROLES

    parser = commands.add_parser(
        "experiments",
        help="reproduce the course reports' matchups with real sample sizes",
        description="Play alpha-beta vs local search, alpha-beta vs genetic, local search vs "
        "genetic and the engine against each, in colour-swapped pairs at 8/12/16/28 rounds, "
        "and write a report with plots. Presets: full (0.2 s/move, 40 games per pairing and "
        "setting, about 26 min on 2 cores), reduced (0.1 s/move, 20 games, about 9 min), "
        "original (5 s/move, 8 rounds, 4 games, 4 pairings), course (each course report's "
        "own minimax, local search and genetic bots against each other, report-a:* and "
        "report-b:*, at 8/16/28 rounds, 0.5 s/move, 20 games).",
    )
    parser.add_argument("--preset", choices=tuple(PRESETS), default="full")
    parser.add_argument("--time", type=seconds, help="seconds per move (overrides the preset)")
    parser.add_argument("--games", type=positive_int, help="games per pairing and rounds setting")
    parser.add_argument(
        "--rounds", type=rounds_list, help="rounds settings, e.g. 8,12,16,28 (overrides the preset)"
    )
    parser.add_argument(
        "--margin",
        type=seconds_or_zero,
        default=0.25,
        help="time margin before a loss on time (default 0.25 s)",
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="ROLE=SPEC",
        help=f"bot for a role ({', '.join(ROLES)}), e.g. --bot hill=hill:neighbourhood=area",
    )
    add_executor_options(parser)
    parser.add_argument("--seed", type=whole_number, default=1)
    parser.add_argument(
        "--random-plies", type=whole_number, help="random plies before each game pair (preset: 2)"
    )
    parser.add_argument("--db", type=Path, default=Path("experiments.db"))
    parser.add_argument("--resume", action="store_true", help="finish the latest unfinished run")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("experiments-report"),
        help="report directory (default experiments-report)",
    )
    parser.add_argument("--list", action="store_true", help="print the plan and exit")  # fmt: skip
    parser.set_defaults(handler=run_experiments)


def run_experiments(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..arena.experiments import (
        PRESETS,
        available_pairs,
        experiment_settings,
        role_specs,
    )
    from ..arena.live import LiveScore
    from ..arena.run_report import write_report
    from ..arena.runner import create_run, execute, sigterm_as_interrupt
    from ..arena.store import Store
    from ..arena.summary import summarize
    from ..arena.tables import pairing_table
    from ..plotting import SKIPPED, plots_available

    preset = PRESETS[args.preset]
    specs = role_specs(args.bot)
    settings = experiment_settings(
        preset,
        rounds=args.rounds,
        games=args.games,
        time=args.time,
        margin=args.margin,
        seed=args.seed,
        random_plies=args.random_plies,
    )
    players, skipped = available_pairs(preset.matchups, specs)
    console = Console()
    for line in skipped:
        console.print(f"[yellow]skipped[/yellow] {line}")
    if not players:
        raise InvalidSettingsError("none of the experiment's bots is registered")
    pairs = len(players) // 2
    rounds = settings.rounds
    planned = pairs * len(rounds) * settings.games
    console.print(
        f"Experiments ({args.preset}): {pairs} pairings x {len(rounds)} rounds settings x "
        f"{settings.games} games = {planned} games, {settings.time:g} s/move, "
        f"margin {settings.margin:g} s, {settings.random_plies} random opening plies, "
        f"executor {args.executor}"
    )
    if args.list:
        for a, b in zip(players[::2], players[1::2], strict=True):
            console.print(f"  {a} vs {b}")
        return 0
    with executor_from_args(args) as executor, Store(args.db) as store:
        if args.resume:
            run_id = store.resumable().id
        else:
            command = shlex.join(["adjacency", *sys.argv[1:]])
            run_id = create_run(store, "pairs", players, settings, command)
        run = store.run(run_id)
        with (
            sigterm_as_interrupt(),
            LiveScore(run.planned, store.games(run_id), "pairs", console) as live,
        ):
            execute(store, run_id, executor, None, live.add)
        games = store.games(run_id)
    console.print(pairing_table(summarize(games), title=f"Experiments ({args.preset})"))
    path = write_report(games, args.out, title=f"Reproduced experiments ({args.preset} preset)")
    console.print(f"wrote {path}")
    if not plots_available():
        console.print(SKIPPED, markup=False, soft_wrap=True)
    return 0
