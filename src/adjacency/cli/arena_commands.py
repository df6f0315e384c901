"""Arena subcommands: ``match``, ``tournament``, ``report`` and ``svg``.

Heavy modules (the arena, matplotlib) are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSettingsError
from .arguments import (
    add_executor_options,
    add_game_options,
    executor_from_args,
    positive_int,
    settings_from_args,
)

DEFAULT_DB = "arena.db"
DEFAULT_GAMES = 20
"""Games per pairing and rounds setting of a match or tournament without ``--games``."""
SPRT_GAMES = 10_000
"""The cap of an SPRT match without ``--games``: it plays to a verdict, at most this many
games per rounds setting (a test of a 5-Elo difference rarely needs more)."""


def match_settings(args: argparse.Namespace, sprt: Any = None) -> Any:
    """The settings of a new match or tournament: those of the options, with ``--games``
    defaulting to :data:`DEFAULT_GAMES`, or for an SPRT match to the cap :data:`SPRT_GAMES`."""
    games = args.games
    if games is None:
        games = SPRT_GAMES if sprt is not None else DEFAULT_GAMES
    return settings_from_args(args, sprt, games)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``match`` and ``tournament``."""
    parser.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help=f"games per pairing and rounds setting, even (default {DEFAULT_GAMES}; with "
        f"--sprt the cap: the match plays until the test accepts H0 or H1, at most "
        f"--games games, default {SPRT_GAMES})",
    )
    add_game_options(parser, time=5.0, time_note=", the original limit", random_plies=0)
    add_executor_options(parser)
    parser.add_argument(
        "--db",
        type=Path,
        default=Path(DEFAULT_DB),
        help=f"SQLite results database (default {DEFAULT_DB}); runs may share one",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="finish the latest unfinished run in --db (its stored settings apply)",
    )
    parser.add_argument(
        "--sprt",
        nargs="*",
        metavar="KEY=VALUE",
        help="sequential test, e.g. --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05: play until "
        "it accepts H0 or H1 or --games is reached (match only; stored with the run, so "
        "--resume continues the same test). --sprt stat=margin m0=0 m1=0.5 tests the mean "
        "piece margin per game (A's squares minus B's; m1 required, m0 default 0) on "
        "colour-swapped pairs instead of Elo: it sees differences that split pairs hide",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")  # fmt: skip


def register(commands: Any) -> None:
    """Add the ``match``, ``tournament``, ``report`` and ``svg`` subcommands to ``commands`` (the
    parser's subparsers)."""
    match = commands.add_parser(
        "match",
        help="play a match between two bots (colour-swapped game pairs)",
        description="Play games between bot A and bot B in colour-swapped pairs, store each "
        "game in SQLite as it ends, and print W-D-L, Elo ± 95%, the mean piece margin ± 95%, "
        "LOS and pentanomial counts per rounds setting. Bots are specs, e.g. greedy, "
        "alphabeta:depth=4, cmd:./engine.",
    )
    match.add_argument("players", nargs="*", metavar="BOT", help="two bot specs (A B)")
    add_run_options(match)
    match.set_defaults(handler=run_match, mode="match")

    tour = commands.add_parser(
        "tournament",
        help="round robin (or --gauntlet) between several bots",
        description="Play every pairing of the bots (or, with --gauntlet, the first against "
        "each other one) and print per-pairing tables and a Bradley-Terry ranking.",
    )
    tour.add_argument("players", nargs="*", metavar="BOT", help="bot specs")
    tour.add_argument("--gauntlet", action="store_true", help="first bot against each other one")
    add_run_options(tour)
    tour.set_defaults(handler=run_match, mode="round-robin")

    report = commands.add_parser(
        "report",
        help="tables, exports and a markdown/HTML report with plots from a results database",
        description="Print the result tables of a run and write a report with plots "
        "(score by rounds, Elo ladder, margins histogram); optionally export CSV, JSON and "
        "every game record.",
    )
    report.add_argument("db", type=Path, help="results database")
    report.add_argument("--run", type=positive_int, help="run id (default: the latest run)")
    report.add_argument("--all-runs", action="store_true", help="pool every run of the database")
    report.add_argument(
        "--out",
        type=Path,
        help="report directory (default: beside DB, its name without the suffix + -report: "
        "tour-report/ for tour.db)",
    )
    report.add_argument("--html", action="store_true", help="write report.html instead of .md")
    report.add_argument(
        "--format", choices=("png", "svg"), default="png", help="plot format (default png)"
    )
    report.add_argument(
        "--title", default="Arena report", help="report title (default 'Arena report')"
    )
    report.add_argument("--csv", type=Path, help="write one row per game to this CSV file")
    report.add_argument("--json", type=Path, help="write results and summaries as JSON")
    report.add_argument("--records", type=Path, help="write every game record (text format)")
    report.add_argument("--no-report", action="store_true", help="print tables only")
    report.add_argument(
        "--nodes", action="store_true", help="also print games per node (Ray node or local)"
    )
    report.set_defaults(handler=run_report)

    svg = commands.add_parser(
        "svg",
        help="draw a position as SVG",
        description="Write an SVG picture of a position: grid with coordinates, X as red "
        "crosses and O as blue rings, optionally highlighting the last move and the squares "
        "it converted (--moves plays moves first and highlights the last one).",
    )
    svg.add_argument("fen", nargs="?", help="position text (default: the 8x8 start)")
    svg.add_argument("--moves", nargs="*", default=[], metavar="SQ", help="moves to play first")
    svg.add_argument("--last", help="square to mark as the last move")
    svg.add_argument("--converted", default="", help="comma-separated squares to mark converted")
    svg.add_argument(
        "--square", type=positive_int, default=48, help="pixels per square (default 48)"
    )
    svg.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    svg.set_defaults(handler=run_svg)


def _inline_files(spec: str) -> str:
    """``spec`` with its ``@FILE`` option values written out, so that workers on other
    machines need not have the file and the stored run says which values played."""
    from ..bots import BotError
    from ..bots.lookup import parse_spec

    if "@" not in spec:
        return spec
    try:
        return str(parse_spec(spec))
    except BotError as exc:
        raise InvalidSettingsError(str(exc)) from None


def run_match(args: argparse.Namespace) -> int:
    """``adjacency match`` and ``tournament``: plan a run (or resume the stored one), play it
    with a live score, store every game as it ends and print the tables and any SPRT verdict;
    returns 0. Bad settings raise :class:`InvalidSettingsError` before any game is played."""
    from ..arena.progress_bar import LiveScore
    from ..arena.runner import create_run, execute
    from ..arena.sequential import from_settings, parse_test
    from ..arena.store import Store
    from ..arena.summary import ranking_groups, summarize
    from ..arena.tables import pairing_table, ranking_tables, sprt_outcome, sprt_text
    from ..system.signals import sigterm_as_interrupt
    from .terminal import make_console

    mode = "gauntlet" if getattr(args, "gauntlet", False) else args.mode
    try:
        sprt = None if args.sprt is None else parse_test(args.sprt)
    except ValueError as exc:
        raise InvalidSettingsError(str(exc)) from None
    console = make_console()
    capped = args.games is not None  # an SPRT match without --games plays to its verdict
    if args.resume and not Path(args.db).is_file():  # Store() would create an empty file
        raise InvalidSettingsError(f"--resume: results database {str(args.db)!r} does not exist")
    with executor_from_args(args) as executor, Store(args.db) as store:
        if args.resume:
            run = store.resumable()
            if args.players and args.players != run.players:
                raise InvalidSettingsError(
                    f"--resume: run {run.id} in {str(args.db)!r} plays {run.players}, "
                    f"not {args.players}; omit the bots to resume it"
                )
            run_id, mode = run.id, run.mode
            if sprt is None:
                sprt = from_settings(run.settings)
            console.print(
                f"Resuming run {run_id} ({run.mode}, {', '.join(run.players)}): "
                f"{store.count(run_id)} of {run.planned} games stored"
            )
        else:
            if sprt is not None and mode != "match":
                raise InvalidSettingsError("--sprt applies to a match of two bots")
            command = shlex.join(["adjacency", *sys.argv[1:]])
            settings = match_settings(args, sprt)
            players = [_inline_files(spec) for spec in args.players]
            run_id = create_run(store, mode, players, settings, command)
            if not settings.openings and not settings.random_plies and settings.games > 2:
                console.print(
                    "[yellow]note:[/yellow] every game starts from the start position; "
                    "deterministic bots will repeat the same pair of games. Use "
                    "--random-plies 2 or --openings FILE for a sample of different games."
                )
        run = store.run(run_id)
        if sprt is not None:
            cap = "" if capped or args.resume else " (--games sets the cap)"
            console.print(
                f"SPRT {sprt.describe()}: playing until it accepts H0 or H1, at most "
                f"{run.planned} games{cap}",
                markup=False,
            )
        try:
            with sigterm_as_interrupt():
                if args.quiet:
                    report = execute(store, run_id, executor, sprt)
                else:
                    with LiveScore(run.planned, store.games(run_id), mode, console) as live:
                        report = execute(store, run_id, executor, sprt, live.add)
        except KeyboardInterrupt:
            console.print(
                f"run {run_id} stopped with {store.count(run_id)} of {run.planned} games stored; "
                f"finish it with: adjacency {args.command} --resume --db "
                + shlex.quote(str(args.db))
            )
            raise
        games = store.games(run_id)
    title = f"Run {run_id}: {mode}, {run.settings.rows}x{run.settings.cols}, " + (
        f"{run.settings.time:g} s/move" if run.settings.time else "no time limit"
    )
    console.print(pairing_table(summarize(games), title=title))
    note = failure_note(games)
    if note:
        console.print(note, markup=False, soft_wrap=True)
    if mode != "match":
        for table in ranking_tables(ranking_groups(games)):
            console.print(table)
    if sprt is not None:
        console.print(sprt_text(sprt, report.llr, report.verdict))
        console.print(sprt_outcome(report.verdict, report.stored, report.planned), markup=False)
    console.print(
        f"{report.stored} of {report.planned} planned games stored in {str(args.db)!r} "
        f"(run {run_id}, {report.played_now} played now, status {report.status})"
    )
    return 0


FAILED = ("disconnection", "illegal move")
"""The terminations of a bot that failed (crashed, or answered junk) rather than lost."""


def failure_note(games: Sequence[Any]) -> str:
    """How many games a bot lost by crashing or answering junk, with the first one's
    detail in full (a ``cmd:`` bot's own words: the last lines of its stderr), so a
    failing bot is seen for what it is; ``""`` when none did."""
    failed = [g for g in games if g.termination in FAILED]
    if not failed:
        return ""
    first = failed[0]
    return (
        f"{len(failed)} of {len(games)} games ended by a crash or an illegal answer; "
        f"the first ({first.a} vs {first.b}, game {first.idx + 1}): {first.detail}"
    )


def run_report(args: argparse.Namespace) -> int:
    """``adjacency report``: print the tables of a stored run (or of every run) and write the
    exports asked for and the report; returns 0. :class:`InvalidSettingsError` if the database is
    missing or the run has no finished game."""
    from ..arena.export import write_csv, write_json, write_records
    from ..arena.run_report import (
        SprtTrace,
        default_report_dir,
        provenance_lines,
        write_report,
    )
    from ..arena.sequential import from_settings
    from ..arena.store import Store
    from ..arena.summary import ranking_groups, summarize
    from ..arena.tables import pairing_table, ranking_tables, sprt_outcome, sprt_text
    from ..plotting import SKIPPED, plots_available
    from .terminal import make_console

    if not args.db.exists():
        raise InvalidSettingsError(f"results database {str(args.db)!r} does not exist")
    console = make_console()
    with Store(args.db) as store:
        run = store.run(args.run)
        games = store.games(None if args.all_runs else run.id)
        ended = store.games(run.id, stored_order=True)
        shown = {g.run_id for g in games} | {run.id}
        origins = {r.id: r.provenance for r in store.runs() if r.id in shown}
    if not games:
        raise InvalidSettingsError(f"{str(args.db)!r} run {run.id} has no finished game yet")
    summaries = summarize(games)
    console.print(pairing_table(summaries, title=args.title))
    if len({p for g in games for p in (g.a, g.b)}) > 2:
        for table in ranking_tables(ranking_groups(games)):
            console.print(table)
    if args.nodes:
        from ..arena.summary import by_node
        from ..arena.tables import node_table

        console.print(node_table(by_node(games)))
    trace = None
    sprt = None if args.all_runs else from_settings(run.settings)
    if sprt is not None:
        trace = SprtTrace.of(sprt, ended)
        llr = trace.points[-1][1] if trace.points else 0.0
        console.print(sprt_text(sprt, llr, sprt.verdict(llr)))
        console.print(sprt_outcome(sprt.verdict(llr), len(games), run.planned), markup=False)
    if args.csv:
        write_csv(games, args.csv)
        console.print(f"wrote {args.csv}")
    # folded at the terminal's width like the tables (whole in a file or a pipe)
    console.print("\n".join(["Provenance", *provenance_lines(origins)]), markup=False)
    if args.json:
        write_json(games, args.json, origins)
        console.print(f"wrote {args.json}")
    if args.records:
        write_records(games, args.records)
        console.print(f"wrote {args.records}")
    if not args.no_report:
        out = args.out or default_report_dir(args.db)
        path = write_report(
            games, out, title=args.title, html=args.html, fmt=args.format, trace=trace,
            origins=origins,
        )  # fmt: skip
        console.print(f"wrote {path}")
        if not plots_available():
            console.print(SKIPPED, markup=False, soft_wrap=True)
    return 0


def run_svg(args: argparse.Namespace) -> int:
    """``adjacency svg``: draw a position (after ``--moves``) as SVG, to ``--output`` or standard
    output; returns 0."""
    from ..core import Position
    from ..core.svg import position_svg

    position = Position.from_fen(args.fen) if args.fen else Position.start()
    last = args.last
    converted = [s.strip() for s in args.converted.split(",") if s.strip()]
    for move in args.moves:
        converted = position.flips(move)
        position = position.play(move)
        last = move
    text = position_svg(position, last=last, converted=converted, square=args.square)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
