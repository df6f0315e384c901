"""Arena subcommands: ``match``, ``tournament``, ``report`` and ``svg``.

Heavy modules (the arena, matplotlib) are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSettingsError
from ..core.text import is_ascii_number
from .arguments import positive_int, seconds_or_zero, whole_number

DEFAULT_DB = "arena.db"
DEFAULT_GAMES = 20
"""Games per pairing and rounds setting of a match or tournament without ``--games``."""
SPRT_GAMES = 10_000
"""The cap of an SPRT match without ``--games``: it plays to a verdict, at most this many
games per rounds setting (a test of a 5-Elo difference rarely needs more)."""


def _size(text: str) -> tuple[int, int]:
    rows, sep, cols = text.lower().partition("x")
    if not sep or not is_ascii_number(rows) or not is_ascii_number(cols):
        raise argparse.ArgumentTypeError(f"board size {text!r}: expected ROWSxCOLS such as 8x8")
    return int(rows), int(cols)


def _rounds(text: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or not all(is_ascii_number(p) for p in parts):
        raise argparse.ArgumentTypeError(
            f"rounds {text!r}: expected whole numbers separated by commas, e.g. 8,12,16,28"
        )
    return tuple(int(p) for p in parts)


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
    parser.add_argument(
        "--rounds",
        type=_rounds,
        default=(28,),
        help="one or several rounds settings, e.g. 8,12,16,28 (default 28)",
    )
    parser.add_argument("--size", type=_size, default=(8, 8), help="board ROWSxCOLS (default 8x8)")
    parser.add_argument(
        "--time",
        type=seconds_or_zero,
        default=5.0,
        help="seconds per move (default 5, the original limit; 0: none, for --depth/--nodes)",
    )
    parser.add_argument("--depth", type=positive_int, help="depth limit per move")
    parser.add_argument("--nodes", type=positive_int, help="node limit per move")
    parser.add_argument(
        "--margin",
        type=seconds_or_zero,
        default=None,
        help="seconds a move may exceed --time before losing on time (default 0.1)",
    )
    openings = parser.add_mutually_exclusive_group()
    openings.add_argument(
        "--openings",
        type=Path,
        metavar="FILE",
        help="openings, one position text per line (# comments allowed)",
    )
    openings.add_argument(
        "--random-plies",
        type=whole_number,
        default=0,
        metavar="K",
        help="start each game pair after K random plies (default 0)",
    )
    parser.add_argument(
        "--seed", type=whole_number, default=0, help="seed for openings and bots (default 0)"
    )
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
        "--resume continues the same test)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")  # fmt: skip


def add_executor_options(
    parser: argparse.ArgumentParser, what: str = "games", default: str | None = "local"
) -> None:
    """``--executor``, ``--ray-address`` and ``--concurrency``/``--jobs``: where work runs."""
    parser.add_argument(
        "--executor",
        choices=("local", "ray"),
        default=default,
        help=f"local: worker processes on this machine{' (default)' if default else ''}; "
        f"ray: one Ray task per {what[:-1]} on a Ray cluster (pip install 'adjacency[ray]'; "
        "docs/distributed.md)",
    )
    parser.add_argument(
        "--ray-address",
        metavar="ADDR",
        help="with --executor ray: 'auto' or HOST:PORT joins a cluster started with "
        "`ray start`; default: a private Ray runtime on this machine",
    )
    parser.add_argument(
        "--ray-runtime-env",
        metavar="JSON",
        help="with --ray-address: Ray runtime_env as JSON (or @FILE), e.g. "
        '\'{"pip": ["adjacency==0.1.0"]}\' to install the package on every node',
    )
    parser.add_argument(
        "--concurrency",
        "--jobs",
        "-j",
        dest="concurrency",
        type=positive_int,
        default=None,
        help=f"{what} run at once (default: number of cores; a joined Ray cluster uses "
        "all its CPUs)",
    )


def executor_from_args(args: argparse.Namespace) -> Any:
    """The executor chosen by :func:`add_executor_options` (checked; not started yet
    for ``local``, connected for ``ray``)."""
    from ..workers import make_executor

    if args.concurrency is not None and args.concurrency < 1:
        raise InvalidSettingsError(f"--concurrency must be 1 or more, got {args.concurrency}")
    if args.ray_address is not None and args.executor != "ray":
        raise InvalidSettingsError("--ray-address needs --executor ray")
    runtime_env = None
    if args.ray_runtime_env is not None:
        if args.ray_address is None:
            raise InvalidSettingsError(
                "--ray-runtime-env applies when joining a cluster (--ray-address)"
            )
        runtime_env = _runtime_env(args.ray_runtime_env)
    jobs = args.concurrency or (os.cpu_count() or 1)
    return make_executor(
        args.executor or "local",
        jobs,
        args.ray_address,
        runtime_env=runtime_env,
    )


def _runtime_env(text: str) -> dict[str, Any]:
    """A Ray runtime_env from JSON text or ``@FILE``."""
    import json

    source = text
    if text.startswith("@"):
        try:
            source = Path(text[1:]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidSettingsError(
                f"--ray-runtime-env: cannot read {text[1:]!r}: {exc}"
            ) from None
    try:
        value = json.loads(source)
    except ValueError:
        raise InvalidSettingsError(f"--ray-runtime-env {text[:80]!r} is not JSON") from None
    if not isinstance(value, dict):
        raise InvalidSettingsError('--ray-runtime-env must be a JSON object, e.g. {"pip": [...]}')
    return value


def register(commands: Any) -> None:
    match = commands.add_parser(
        "match",
        help="play a match between two bots (colour-swapped game pairs)",
        description="Play games between bot A and bot B in colour-swapped pairs, store each "
        "game in SQLite as it ends, and print W-D-L, Elo ± 95%, LOS and pentanomial counts "
        "per rounds setting. Bots are specs, e.g. greedy, alphabeta:depth=4, cmd:./engine.",
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

    from .tune_commands import register as register_tune

    register_tune(commands)


def _settings(args: argparse.Namespace, sprt: Any = None) -> Any:
    from ..arena.schedule import Settings
    from ..bots.referee import DEFAULT_MARGIN

    openings: tuple[str, ...] = ()
    if args.openings is not None:
        try:
            lines = args.openings.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise InvalidSettingsError(
                f"cannot read openings file {str(args.openings)!r}: {exc}"
            ) from None
        openings = tuple(s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#"))
        if not openings:
            raise InvalidSettingsError(f"openings file {str(args.openings)!r} holds no position")
    rows, cols = args.size
    games = args.games
    if games is None:
        games = SPRT_GAMES if sprt is not None else DEFAULT_GAMES
    return Settings(
        rows=rows,
        cols=cols,
        rounds=args.rounds,
        games=games,
        time=args.time or None,
        depth=args.depth,
        nodes=args.nodes,
        margin=DEFAULT_MARGIN if args.margin is None else args.margin,
        seed=args.seed,
        random_plies=args.random_plies,
        openings=openings,
        sprt=None if sprt is None else (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
    )


def _inline_files(spec: str) -> str:
    """``spec`` with its ``@FILE`` option values written out, so that workers on other
    machines need not have the file and the stored run says which values played."""
    from ..bots import BotError
    from ..bots.registry import parse_spec

    if "@" not in spec:
        return spec
    try:
        return str(parse_spec(spec))
    except BotError as exc:
        raise InvalidSettingsError(str(exc)) from None


def run_match(args: argparse.Namespace) -> int:
    from ..arena import stats
    from ..arena.live import LiveScore
    from ..arena.runner import create_run, execute, sigterm_as_interrupt
    from ..arena.store import Store
    from ..arena.summary import standings, summarize
    from ..arena.tables import pairing_table, ranking_table, sprt_outcome, sprt_text
    from .terminal import make_console

    mode = "gauntlet" if getattr(args, "gauntlet", False) else args.mode
    try:
        sprt = None if args.sprt is None else stats.parse_sprt(args.sprt)
    except ValueError as exc:
        raise InvalidSettingsError(str(exc)) from None
    console = make_console()
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
            if sprt is None and run.settings.sprt is not None:
                sprt = stats.Sprt(*run.settings.sprt)
            console.print(
                f"Resuming run {run_id} ({run.mode}, {', '.join(run.players)}): "
                f"{store.count(run_id)} of {run.planned} games stored"
            )
        else:
            if sprt is not None and mode != "match":
                raise InvalidSettingsError("--sprt applies to a match of two bots")
            command = shlex.join(["adjacency", *sys.argv[1:]])
            settings = _settings(args, sprt)
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
            cap = "" if args.games or args.resume else " (--games sets the cap)"
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
    if mode != "match":
        console.print(ranking_table(standings(games)))
    if sprt is not None:
        console.print(sprt_text(sprt, report.llr, report.verdict))
        console.print(sprt_outcome(report.verdict, report.stored, report.planned), markup=False)
    console.print(
        f"{report.stored} of {report.planned} planned games stored in {str(args.db)!r} "
        f"(run {run_id}, {report.played_now} played now, status {report.status})"
    )
    return 0


def run_report(args: argparse.Namespace) -> int:
    from ..arena.export import write_csv, write_json, write_records
    from ..arena.run_report import default_report_dir, write_report
    from ..arena.stats import Sprt
    from ..arena.store import Store
    from ..arena.summary import standings, summarize
    from ..arena.tables import pairing_table, ranking_table, sprt_outcome, sprt_text
    from ..plotting import SKIPPED, plots_available
    from .terminal import make_console

    if not args.db.exists():
        raise InvalidSettingsError(f"results database {str(args.db)!r} does not exist")
    console = make_console()
    with Store(args.db) as store:
        run = store.run(args.run)
        games = store.games(None if args.all_runs else run.id)
    if not games:
        raise InvalidSettingsError(f"{str(args.db)!r} run {run.id} has no finished game yet")
    summaries = summarize(games)
    console.print(pairing_table(summaries, title=args.title))
    if len({p for g in games for p in (g.a, g.b)}) > 2:
        console.print(ranking_table(standings(games)))
    if args.nodes:
        from ..arena.summary import by_node
        from ..arena.tables import node_table

        console.print(node_table(by_node(games)))
    if run.settings.sprt is not None and not args.all_runs:
        sprt = Sprt(*run.settings.sprt)
        penta = next(s.penta for s in summaries if s.rounds is None)
        llr = sprt.llr(penta)
        console.print(sprt_text(sprt, llr, sprt.verdict(llr)))
        console.print(sprt_outcome(sprt.verdict(llr), len(games), run.planned), markup=False)
    if args.csv:
        write_csv(games, args.csv)
        console.print(f"wrote {args.csv}")
    if args.json:
        write_json(games, args.json)
        console.print(f"wrote {args.json}")
    if args.records:
        write_records(games, args.records)
        console.print(f"wrote {args.records}")
    if not args.no_report:
        out = args.out or default_report_dir(args.db)
        path = write_report(games, out, title=args.title, html=args.html, fmt=args.format)
        console.print(f"wrote {path}")
        if not plots_available():
            console.print(SKIPPED, markup=False, soft_wrap=True)
    return 0


def run_svg(args: argparse.Namespace) -> int:
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
