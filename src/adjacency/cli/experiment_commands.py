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

DEFAULT_DB = "experiments.db"


def register(commands: Any) -> None:
    """Add the ``experiments`` subcommand to ``commands`` (the parser's subparsers); its help
    lists the presets."""
    from ..arena.experiments import DEFAULT_PRESET, PRESETS, ROLES

    presets = "; ".join(f"{name}: {preset.describe()}" for name, preset in PRESETS.items())
    parser = commands.add_parser(
        "experiments",
        help="reproduce the course reports' matchups with real sample sizes",
        description="Play alpha-beta vs local search, alpha-beta vs genetic, local search vs "
        "genetic and the engine against each, in colour-swapped pairs at 8/12/16/28 rounds, "
        "and write a report with plots. The course preset plays each course report's own "
        "minimax, local search and genetic bots (report-a:*, report-b:*) against each other. "
        f"Presets: {presets}. The plan is printed before the first game; --list prints it "
        "and exits.",
    )
    parser.add_argument(
        "--preset",
        choices=tuple(PRESETS),
        default=DEFAULT_PRESET,
        help=f"which matchups, time and sample size to play (default {DEFAULT_PRESET}: "
        f"{PRESETS[DEFAULT_PRESET].planned} games; see the presets above)",
    )
    parser.add_argument("--time", type=seconds, help="seconds per move (overrides the preset)")
    parser.add_argument(
        "--games",
        type=positive_int,
        help="games per pairing and rounds setting (overrides the preset)",
    )
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
    parser.add_argument(
        "--seed",
        type=whole_number,
        default=1,
        help="seed of the random opening plies and of every bot (default 1)",
    )
    parser.add_argument(
        "--random-plies", type=whole_number, help="random plies before each game pair (preset: 2)"
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=Path(DEFAULT_DB),
        help=f"SQLite results database, one game committed at a time (default {DEFAULT_DB}); "
        "--resume finishes the latest unfinished run in it",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="finish the latest unfinished run in --db (its stored preset, bots and settings "
        "apply)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("experiments-report"),
        help="report directory (default experiments-report)",
    )
    parser.add_argument("--list", action="store_true", help="print the plan and exit")  # fmt: skip
    parser.set_defaults(handler=run_experiments)


def run_experiments(args: argparse.Namespace) -> int:
    """``adjacency experiments``: play a preset's matchups (or resume the stored run), store
    every game and write the report with its plots; returns 0."""
    from ..arena.progress_bar import LiveScore
    from ..arena.run_report import write_report
    from ..arena.runner import execute
    from ..arena.store import Store
    from ..arena.summary import summarize
    from ..arena.tables import pairing_table
    from ..plotting import SKIPPED, plots_available
    from ..system.signals import sigterm_as_interrupt
    from .terminal import make_console

    console = make_console()
    if args.resume:
        if not args.db.is_file():  # Store() would create an empty file
            raise InvalidSettingsError(
                f"--resume: results database {str(args.db)!r} does not exist"
            )
        with Store(args.db) as store:
            run = store.resumable()
            stored = store.count(run.id)
        name = run.label or f"run {run.id}"
        players = run.players
        console.print(
            f"Resuming experiments ({name}) from {str(args.db)!r}: {stored} of {run.planned} "
            f"games stored, {_describe(run.settings)}"
        )
    else:
        name = args.preset
        players = _plan(args, console)
    if args.list:
        for a, b in zip(players[::2], players[1::2], strict=True):
            console.print(f"  {a} vs {b}")
        return 0
    with executor_from_args(args) as executor, Store(args.db) as store:
        if args.resume:
            run_id = run.id
        else:
            from ..arena.runner import create_run

            settings = _preset_settings(args)
            command = shlex.join(["adjacency", *sys.argv[1:]])
            run_id = create_run(store, "pairs", players, settings, command, label=args.preset)
        run = store.run(run_id)
        try:
            with (
                sigterm_as_interrupt(),
                LiveScore(run.planned, store.games(run_id), "pairs", console) as live,
            ):
                execute(store, run_id, executor, None, live.add)
        except KeyboardInterrupt:
            console.print(
                f"experiments run {run_id} ({name}) stopped with {store.count(run_id)} of "
                f"{run.planned} games stored; finish it with: "
                + shlex.join(["adjacency", "experiments", "--resume", *_where(args)]),
                markup=False,
                soft_wrap=True,
            )
            raise
        games = store.games(run_id)
        origins = {run_id: store.run(run_id).provenance}
    console.print(pairing_table(summarize(games), title=f"Experiments ({name})"))
    title = f"Reproduced experiments ({name} preset)"
    path = write_report(games, args.out, title=title, origins=origins)
    console.print(f"wrote {path}")
    if not plots_available():
        console.print(SKIPPED, markup=False, soft_wrap=True)
    return 0


def _preset_settings(args: argparse.Namespace) -> Any:
    """The settings of a new run: the preset's, with the options given overriding them."""
    from ..arena.experiments import PRESETS, experiment_settings

    return experiment_settings(
        PRESETS[args.preset],
        rounds=args.rounds,
        games=args.games,
        time=args.time,
        margin=args.margin,
        seed=args.seed,
        random_plies=args.random_plies,
    )


def _plan(args: argparse.Namespace, console: Any) -> list[str]:
    """Print what a new run is about to play (before anything starts); return its players."""
    from ..arena.experiments import PRESETS, available_pairs, role_specs

    preset = PRESETS[args.preset]
    specs = role_specs(args.bot)
    settings = _preset_settings(args)
    players, skipped = available_pairs(preset.matchups, specs)
    for line in skipped:
        console.print(f"[yellow]skipped[/yellow] {line}")
    if not players:
        raise InvalidSettingsError("none of the experiment's bots is registered")
    pairs = len(players) // 2
    rounds = settings.rounds
    planned = pairs * len(rounds) * settings.games
    as_preset = planned == preset.planned and settings.time == preset.time
    console.print(
        f"Experiments ({args.preset}): {pairs} pairings x {len(rounds)} rounds settings x "
        f"{settings.games} games = {planned} games"
        + (f" ({preset.duration})" if as_preset and preset.duration else "")
        + f", {_describe(settings)}, executor {args.executor}"
    )
    if not args.list:
        console.print(
            "Ctrl-C stops the run (every finished game is kept) and prints the --resume command"
        )
    return players


def _describe(settings: Any) -> str:
    return (
        f"{settings.time:g} s/move, margin {settings.margin:g} s, "
        f"{settings.random_plies} random opening plies"
    )


def _where(args: argparse.Namespace) -> list[str]:
    """The options that point a resumed run at the same database and report."""
    return ["--db", str(args.db), "--out", str(args.out)]
