"""The ``tune`` subcommand: SPSA tuning of numeric bot options (:mod:`adjacency.tuning.spsa`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSettingsError
from .arguments import (
    add_executor_options,
    add_game_options,
    executor_from_args,
    non_negative_number,
    positive_int,
    positive_number,
    settings_from_args,
)

DEFAULT_DB = "tune.db"
DEFAULT_OUT = "tuned.json"


def register(commands: Any) -> None:
    """Add the ``tune`` subcommand to ``commands`` (the parser's subparsers)."""
    tune = commands.add_parser(
        "tune",
        help="tune numeric bot options with SPSA (fishtest's method)",
        description="Play colour-swapped game pairs between two copies of BOT whose tuned "
        "options are theta + c_k*flip and theta - c_k*flip, and move theta along the result "
        "(SPSA, as fishtest tunes Stockfish). Checkpoints every batch in --db, writes the "
        "tuned values as a JSON file that a spec loads with @FILE, a plot of every parameter, "
        "and prints the SPRT match that checks the result.",
    )
    tune.add_argument("bot", nargs="?", help="bot spec to tune, e.g. anneal or engine:time=0.05")
    tune.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=START,MIN,MAX[,C_END[,R_END]]",
        help="a numeric option to tune (repeat for several); C_END defaults to 5%% of the "
        "range (at least 1 for whole-number options), R_END to 0.002",
    )
    tune.add_argument(
        "--games",
        type=positive_int,
        default=2000,
        help="games in the whole run, even (default 2000)",
    )
    tune.add_argument(
        "--batch",
        type=positive_int,
        help="game pairs per batch and checkpoint (default: 2 per worker)",
    )
    tune.add_argument(
        "--alpha", type=positive_number, default=None, help="a_k decay exponent (0.602)"
    )
    tune.add_argument(
        "--gamma", type=positive_number, default=None, help="c_k decay exponent (0.101)"
    )
    tune.add_argument(
        "--stability",
        type=non_negative_number,
        default=None,
        metavar="A",
        help="A (default: 10%% of pairs)",
    )
    add_game_options(tune, time=0.1, random_plies=2, seeded="flips, openings and bots")
    add_executor_options(tune)
    tune.add_argument(
        "--db",
        type=Path,
        default=Path(DEFAULT_DB),
        help=f"SQLite checkpoint database of tuning runs (default {DEFAULT_DB}); --resume "
        "continues the latest unfinished run in it",
    )
    tune.add_argument("--resume", action="store_true", help="continue the latest unfinished run")
    tune.add_argument(
        "--out",
        type=Path,
        help=f"tuned values (default {DEFAULT_OUT}; kept with the run: --resume writes it again)",
    )
    tune.add_argument(
        "--plot",
        type=Path,
        help="plot file (default: --out with -plot.png; kept with the run like --out)",
    )
    tune.add_argument("--quiet", action="store_true", help="no progress bar")
    tune.set_defaults(handler=run_tune)


def _new_run(args: argparse.Namespace, concurrency: int) -> tuple[Any, ...]:
    """The new run ``args`` ask for, checked before any file is opened (bad input
    changes nothing): the arguments of :meth:`~adjacency.tuning.store.TuneStore.create`."""
    from ..bots import BotError, make_bot
    from ..tuning.spsa import A_FRACTION, ALPHA, GAMMA, Schedule, parse_param, with_options

    if not args.bot:
        raise InvalidSettingsError("name the bot to tune, e.g. adjacency tune anneal --param ...")
    if not args.param:
        raise InvalidSettingsError("give at least one --param NAME=START,MIN,MAX to tune")
    params = [parse_param(text, args.bot) for text in args.param]
    if len({p.name for p in params}) != len(params):
        raise InvalidSettingsError("a --param is given twice")
    if args.games < 2 or args.games % 2:
        raise InvalidSettingsError(f"--games must be even and 2 or more, got {args.games}")
    if args.batch is not None and args.batch < 1:
        raise InvalidSettingsError(f"--batch must be 1 or more pairs, got {args.batch}")
    try:
        make_bot(with_options(args.bot, {p.name: p.text(p.start) for p in params})).close()
    except BotError as exc:
        raise InvalidSettingsError(str(exc)) from None
    settings = settings_from_args(args)
    pairs = args.games // 2
    schedule = Schedule(
        pairs,
        A_FRACTION * pairs if args.stability is None else args.stability,
        ALPHA if args.alpha is None else args.alpha,
        GAMMA if args.gamma is None else args.gamma,
    )
    batch = args.batch or max(2, 2 * concurrency)
    command = shlex.join(["adjacency", *sys.argv[1:]])
    out = args.out or Path(DEFAULT_OUT)
    return (args.bot, params, schedule, settings, batch, command, out, args.plot)


def run_tune(args: argparse.Namespace) -> int:
    """``adjacency tune``: run (or resume) an SPSA tuning run batch by batch, checkpointing in
    ``--db``, then write the tuned values and the plot and print the SPRT match that checks them;
    returns 0."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..plotting import SKIPPED, plots_available
    from ..system.signals import sigterm_as_interrupt
    from ..tuning.plot import parameter_plot
    from ..tuning.spsa import batches, run_batch, tuned_values, with_options
    from ..tuning.store import TuneStore, plot_path
    from .terminal import make_console

    console = make_console()
    with contextlib.ExitStack() as stack:
        executor = stack.enter_context(executor_from_args(args))
        planned = None if args.resume else _new_run(args, executor.concurrency)
        store = stack.enter_context(TuneStore(args.db))
        if planned is None:
            run = store.resumable()
            if args.bot and args.bot != run.bot:
                raise InvalidSettingsError(
                    f"--resume: tuning run {run.id} tunes {run.bot!r}, not {args.bot!r}"
                )
            console.print(
                f"Resuming tuning run {run.id} ({run.bot}): {run.pairs_done} of "
                f"{run.schedule.pairs} pairs done"
            )
            # The run's own files, unless this resume names others (then they are kept).
            store.set_files(run.id, args.out or (None if run.out else Path(DEFAULT_OUT)), args.plot)
            run = store.run(run.id)
        else:
            run = store.run(int(store.create(*planned)))
        out = run.out or Path(DEFAULT_OUT)
        plot = run.plot or plot_path(out)
        store.set_status(run.id, "running")
        theta = run.theta
        done = run.pairs_done
        names = ", ".join(p.name for p in run.params)
        columns = (
            TextColumn("[bold]tune[/bold] {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
        )
        try:
            with (
                sigterm_as_interrupt(),
                Progress(*columns, console=console, disable=args.quiet) as progress,
            ):
                bar = progress.add_task(_describe(run.params, theta), total=2 * run.schedule.pairs)
                progress.update(bar, completed=2 * done)
                for number, first, size in batches(run.schedule.pairs, run.batch_pairs, done):
                    outcome = run_batch(
                        executor, run.bot, run.params, run.schedule, run.settings, theta,
                        number, first, size, on_game=lambda _: progress.advance(bar),
                    )  # fmt: skip
                    store.checkpoint(run.id, outcome)
                    theta = outcome.theta
                    _write_values(out, tuned_values(run.params, theta))
                    progress.update(bar, description=_describe(run.params, theta))
        except KeyboardInterrupt:
            store.set_status(run.id, "stopped")
            console.print(
                f"tuning run {run.id} stopped at its last checkpoint; continue it with: "
                f"adjacency tune --resume --db {shlex.quote(str(args.db))}"
            )
            raise
        store.set_status(run.id, "finished")
        run = store.run(run.id)
    values = tuned_values(run.params, run.theta)
    _write_values(out, values)
    console.print(f"tuned {names}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    if plots_available():
        parameter_plot(run, plot)
        console.print(f"wrote {_shown(out)} and {_shown(plot)}", markup=False, soft_wrap=True)
    else:
        console.print(f"wrote {_shown(out)}", markup=False, soft_wrap=True)
        console.print(SKIPPED, markup=False, soft_wrap=True)
    tuned = run.bot + ("," if ":" in run.bot else ":") + f"@{_shown(out)}"
    start = with_options(run.bot, {p.name: p.text(p.start) for p in run.params})
    verify = ["adjacency", "match", tuned, start, "--sprt", "elo0=0", "elo1=10"]
    verify += _game_options(run.settings)
    console.print("verify against the start values with an SPRT match:")
    console.print("  " + shlex.join(verify), markup=False, soft_wrap=True)
    return 0


def _shown(path: Path) -> str:
    """A stored (absolute) path as typed: relative when it is under the working directory."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _describe(params: Any, theta: Any) -> str:
    return " ".join(f"{p.name}={p.text(t)}" for p, t in zip(params, theta, strict=True))


def _write_values(path: Path, values: dict[str, int | float]) -> None:
    try:
        path.write_text(json.dumps(values, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InvalidSettingsError(f"cannot write {str(path)!r}: {exc.strerror}") from None


def _game_options(settings: Any) -> list[str]:
    """The match options that play the same kind of games as the tuning run."""
    options = ["--rounds", ",".join(map(str, settings.rounds))]
    if (settings.rows, settings.cols) != (8, 8):
        options += ["--size", f"{settings.rows}x{settings.cols}"]
    options += ["--time", f"{settings.time or 0:g}"]
    if settings.depth:
        options += ["--depth", str(settings.depth)]
    if settings.nodes:
        options += ["--nodes", str(settings.nodes)]
    if settings.random_plies:
        options += ["--random-plies", str(settings.random_plies)]
    return options
