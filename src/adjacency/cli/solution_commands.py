"""The ``solutions`` command: the solved-game table (run, show, plot) and its book.

``adjacency solutions run`` solves start positions of every board size and game
length rounds upward (see :mod:`adjacency.solving.solved_starts`), in parallel,
resumable from its SQLite file; ``show`` prints the table and the frontier,
``plot`` draws the heat map and the cost growth, ``book`` writes (or checks) the
book files the engine plays from.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSettingsError
from .arguments import (
    add_executor_options,
    command_line,
    executor_from_args,
    positive_int,
    seconds,
    seconds_or_zero,
)
from .engine_commands import add_setting_flag

DEFAULT_DB = "solutions.db"
PROJECT_DB = "src/adjacency/solving/data/solutions.db"
"""Where the repository keeps the project's table (docs/solutions.md); the package ships it."""
DB_HELP = f"SQLite file (default {DEFAULT_DB}; the project's table: {PROJECT_DB})"
READ_HELP = (
    f"SQLite file (default: {DEFAULT_DB} if the current folder has one, else the project's "
    "table shipped with the package)"
)

MOVE_POLL = 5.0
"""Seconds between two looks at the first moves a long entry's worker has kept; first
moves proven faster are counted, not printed."""


def register(commands: Any) -> None:
    """Add the ``solutions`` subcommand, with its ``run``, ``show``, ``plot`` and ``book``
    actions, to ``commands`` (the parser's subparsers)."""
    solutions = commands.add_parser(
        "solutions",
        help="solve start positions of every board size and length (the solved-game table)",
        description="Exact values of start positions under perfect play, for board sizes "
        "4x4 to 8x8 and rounds from 1 upward, with their principal variations and optimal "
        "first moves; results go to a SQLite file and runs resume. docs/solutions.md has "
        "the table.",
    )
    actions = solutions.add_subparsers(dest="action", metavar="ACTION", required=True)

    run = actions.add_parser(
        "run",
        help="solve the entries not yet in the database",
        description="Solve entries rounds upward per board size until one takes longer "
        "than --budget (the frontier), in parallel on the executor. Entries already stored "
        "are skipped; timeouts are retried only with a larger budget.",
    )
    run.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    run.add_argument(
        "--sizes",
        default="all",
        help="'all' (default), 'square' or board sizes such as 4x4,6x7",
    )
    run.add_argument(
        "--first",
        default="x,o",
        help="first movers: x, o or x,o (default); mirror images are derived, not solved",
    )
    run.add_argument(
        "--budget",
        type=seconds_or_zero,
        default=60.0,
        help="seconds per entry (default 60; 0: no limit, for the long entries: their "
        "first moves are kept as they are proven, so a run stopped resumes at the next)",
    )
    run.add_argument("--rounds-max", type=positive_int, help="stop every size at this many rounds")
    run.add_argument(
        "--no-symmetry",
        action="store_true",
        help="the plain solve: every first move, and no entry derived from a mirror image",
    )
    add_setting_flag(run, "tt", default=64.0, help="table MB per solve (default 64)")
    add_setting_flag(
        run,
        "threads",
        default=1,
        help="solver threads per entry, sharing its tree (default 1; with --jobs 1 "
        "for one long entry on every core)",
    )
    add_executor_options(run, what="entries", one="entry")
    run.add_argument("--quiet", action="store_true", help="no progress display")
    run.set_defaults(handler=run_run)

    recompute = actions.add_parser(
        "recompute",
        help="solve again the rows whose provenance was reconstructed",
        description="Solve again, one at a time in this process, every row stored before "
        "records were kept (its provenance reconstructed) whose solve was recorded as taking "
        "at most --up-to seconds, with the row's own budget and symmetry; a row whose value, "
        "optimal first moves and first-move values come out the same is replaced by the new "
        "one, with its full record, and its mirror images derived again. Timeouts and longer "
        "rows stay reconstructed; solutions show lists them.",
    )
    recompute.add_argument("--db", default=DEFAULT_DB, help=DB_HELP)
    recompute.add_argument(
        "--up-to",
        type=seconds,
        required=True,
        help="the longest recorded solve time (seconds) of a row to solve again",
    )
    add_setting_flag(recompute, "tt", default=64.0, help="table MB per solve (default 64)")
    add_setting_flag(recompute, "threads", default=1, help="solver threads per entry")
    recompute.set_defaults(handler=run_recompute)

    show = actions.add_parser(
        "show",
        help="print the table, the frontier and the cost of each entry",
        description="Print the stored values (first mover's view: + the first mover wins, "
        "- the second), the frontier of each board size and every entry's cost.",
    )
    show.add_argument("--db", default=None, help=READ_HELP)
    show.add_argument("--no-symmetry", action="store_true", help="the plain-solve rows")
    show.add_argument("--markdown", action="store_true", help="markdown tables (docs)")
    show.add_argument("--json", action="store_true", help="every entry as JSON")
    show.set_defaults(handler=run_show)

    plot = actions.add_parser(
        "plot",
        help="draw the heat map of values and the growth of solve cost",
        description="Write values.png (size x rounds heat map) and growth.png (nodes per "
        "entry against rounds, with the exponential fit of each size) into --out.",
    )
    plot.add_argument("--db", default=None, help=READ_HELP)
    plot.add_argument("--out", type=Path, default=Path("."), help="directory (default .)")
    plot.set_defaults(handler=run_plot)

    book = actions.add_parser(
        "book",
        help="write the book files from the database, or verify a book file",
        description="Write one book file per board size (proven positions: the starts, "
        "every first move and the principal variations) into --out, or check --verify "
        "FILE and print its header.",
    )
    book.add_argument("--db", default=None, help=READ_HELP)
    book.add_argument("--out", type=Path, help="directory for the book files")
    book.add_argument("--verify", type=Path, metavar="FILE", help="check one book file")
    book.set_defaults(handler=run_book)


def _open(path: str, create: bool) -> Any:
    """The solutions database at ``path``; one that must exist already (``create`` false)
    and does not is :class:`InvalidSettingsError` naming the shipped table and how to make
    one."""
    from ..solving.store import SolutionsStore

    if not create and not Path(path).is_file():
        raise InvalidSettingsError(
            f"no solutions database at {path!r}: leave out --db for the project's table "
            f"(shipped with the package), or make one with "
            f"'adjacency solutions run --db {path}'"
        )
    return SolutionsStore(path, create=create)


@contextlib.contextmanager
def _reading(args: argparse.Namespace) -> Iterator[tuple[Any, str]]:
    """The store ``show``, ``plot`` and ``book`` read, with the name to quote: ``--db``
    when given (it must exist), else ``solutions.db`` here when there is one, else the
    table shipped with the package (read from a private copy, so an installed package's
    folder is never written)."""
    from ..solving.store import SolutionsStore, shipped_table

    if args.db is not None or Path(DEFAULT_DB).is_file():
        path = args.db or DEFAULT_DB
        with _open(path, create=False) as store:
            yield store, path
        return
    with shipped_table() as copy, SolutionsStore(copy, create=False) as store:
        yield store, "the shipped table"


def run_run(args: argparse.Namespace) -> int:
    """``adjacency solutions run``: solve the entries not yet stored, rounds upward per board
    until ``--budget`` runs out, on the executor, with a progress bar; returns 0."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from ..solving.entries import EntryResult
    from ..solving.progress import MoveWatch
    from ..solving.run import run_table
    from ..solving.solved_starts import parse_sizes, plan_lanes
    from ..system.signals import sigterm_as_interrupt

    sizes = parse_sizes(args.sizes)
    firsts = tuple(f.strip() for f in args.first.split(",") if f.strip())
    if not firsts or any(f not in ("x", "o") for f in firsts) or len(set(firsts)) < len(firsts):
        raise InvalidSettingsError(f"--first must be x, o or x,o, got {args.first!r}")
    symmetry = not args.no_symmetry
    lanes = plan_lanes(sizes, firsts, derive_images=symmetry)  # type: ignore[arg-type]
    console = Console(stderr=True, quiet=args.quiet)
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=args.quiet,
    )
    task = progress.add_task("solving", total=None)

    def on_plan(total: int) -> None:
        progress.update(task, total=total)

    def on_result(result: EntryResult, skipped: int) -> None:
        if result.status == "solved":
            what = f"value {result.value:+d}, {len(result.optimal)} optimal first move(s)"
        else:
            what = f"timeout after {result.seconds:.1f} s (the frontier)"
        progress.console.print(
            f"{result.entry}: {what}; {result.nodes:,} nodes, {result.seconds:.2f} s"
        )
        progress.advance(task, 1 + skipped)

    checkpoint = None if args.executor == "ray" else str(args.db)
    watching = threading.Event()

    def watch() -> None:
        # First moves of a long entry, as its worker keeps them (only local workers do).
        moves = MoveWatch(str(args.db), symmetry, slowest=MOVE_POLL)
        while True:
            for line in moves.look():
                progress.console.print(line)
            if watching.wait(MOVE_POLL):
                return

    watcher = threading.Thread(target=watch, name="solutions-moves", daemon=True)
    with (
        sigterm_as_interrupt(),
        _open(args.db, create=True) as store,
        executor_from_args(args) as ex,
        progress,
    ):
        if checkpoint is not None and not args.quiet:
            watcher.start()
        try:
            report = run_table(
                store,
                lanes,
                ex,
                args.budget or None,
                symmetry=symmetry,
                rounds_limit=args.rounds_max,
                tt_mb=args.tt,
                on_plan=on_plan,
                on_result=on_result,
                threads=args.threads,
                checkpoint=checkpoint,
                command=command_line(args),
            )
        finally:
            watching.set()
    solved = sum(1 for r in report.computed if r.status == "solved")
    console.print(
        f"{solved} entries solved and {len(report.computed) - solved} timed out now, "
        f"{report.stored} found stored, {report.derived} derived by symmetry; "
        f"solve time of this run {sum(r.seconds for r in report.computed):.1f} s"
    )
    return 0


def run_recompute(args: argparse.Namespace) -> int:
    """``adjacency solutions recompute``: solve again the reconstructed rows up to
    ``--up-to`` seconds, printing each, then what was done and left; returns 0."""
    from ..solving.entries import EntryResult
    from ..solving.run import recompute_table

    def on_result(old: EntryResult, new: EntryResult | None) -> None:
        assert new is not None
        outcome = "timed out" if new.status != "solved" else f"value {new.value:+d}"
        print(
            f"{old.entry}{'' if old.symmetry else ' (no symmetry)'}: {outcome}; "
            f"{new.nodes:,} nodes in {new.seconds:.2f} s (stored: {old.nodes:,} in "
            f"{old.seconds:.2f} s)",
            flush=True,
        )

    with _open(args.db, create=False) as store:
        report = recompute_table(
            store,
            args.up_to,
            tt_mb=args.tt,
            threads=args.threads,
            command=command_line(args),
            on_result=on_result,
        )
    same = sum(1 for old, new in report.recomputed if old.nodes == new.nodes)
    print(
        f"{len(report.recomputed)} rows solved again with the same values ({same} with the "
        f"same node count) and {report.derived} images derived again, "
        f"{sum(new.seconds for _, new in report.recomputed):.1f} s of solving; "
        f"{len(report.timed_out)} ran past their budget here and "
        f"{len(report.disagree)} disagree (left as they were); {len(report.left)} left "
        "reconstructed (timeouts and longer solves)"
    )
    for old, new in report.disagree:
        print(f"disagrees: {old.entry}: stored {old.value}, now {new.value}")
    return 1 if report.disagree else 0


def _stored(store: Any, path: str, symmetry: bool = True) -> list[Any]:
    results: list[Any] = store.results(symmetry=symmetry)
    if not results:
        flag = "" if symmetry else " --no-symmetry"
        raise InvalidSettingsError(
            f"no{flag} entries in {path!r} yet: run 'adjacency solutions run --db {path}{flag}'"
        )
    return results


def run_show(args: argparse.Namespace) -> int:
    """``adjacency solutions show``: print the stored table as text or Markdown, or its rows as
    JSON with ``--json``; returns 0."""
    from ..solving.progress import progress_lines
    from ..solving.report import entry_rows, text_tables

    with _reading(args) as (store, path):
        results = _stored(store, path, symmetry=not args.no_symmetry)
        plain = None if args.no_symmetry else store.results(symmetry=False)
        running = store.in_progress(symmetry=not args.no_symmetry)
    if args.json:
        print(json.dumps(entry_rows(results)))
        return 0
    print(text_tables(results, markdown=args.markdown, plain=plain))
    for line in progress_lines(running, symmetry=not args.no_symmetry):
        print(line)
    return 0


def run_plot(args: argparse.Namespace) -> int:
    """``adjacency solutions plot``: write the value and cost-growth plots of the stored entries
    to ``--out`` (the ``plots`` extra is needed); returns 0."""
    from ..plotting import pyplot
    from ..solving.report import plot_growth, plot_values

    with _reading(args) as (store, name):
        results = _stored(store, name)
    pyplot()  # without the plots extra: a clear error before any directory is made
    args.out.mkdir(parents=True, exist_ok=True)
    for path in (plot_values(results, args.out), plot_growth(results, args.out)):
        print(path)
    return 0


def run_book(args: argparse.Namespace) -> int:
    """``adjacency solutions book``: write the stored entries' book lines to ``--out``, one file
    per board size, or with ``--verify FILE`` check one book and describe it; returns 0."""
    from ..engine.book import load_book, write_books

    if args.verify is not None:
        book = load_book(args.verify)
        print(
            f"{args.verify}: book format {book.version}, board {book.board.dimensions}, "
            f"{len(book)} positions, checksum ok"
        )
        return 0
    if args.out is None:
        raise InvalidSettingsError("solutions book: give --out DIR to write, or --verify FILE")
    with _reading(args) as (store, name):
        results = _stored(store, name)
    lines = [line for result in results for line in result.book]
    for path in write_books(lines, args.out):
        print(path)
    return 0
