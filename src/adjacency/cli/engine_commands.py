"""Engine subcommands: ``solve`` (exact endgame value), ``analyse`` and ``bench``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import Position
from ..core.errors import AdjacencyError, AdjacencyRuntimeError, InvalidPositionError
from ..core.text import quote
from .arguments import positive_int, seconds, table_megabytes, thread_count, whole_number
from .core_commands import add_game_option, pick_game, read_games

if TYPE_CHECKING:
    from ..engine.config import EngineConfig

DETERMINISTIC_NODES = 3_000_000
"""``analyse --deterministic``'s node limit for one position (about its default 3 s on one
core of a quiet machine)."""
DETERMINISTIC_RECORD_NODES = 500_000
"""``analyse --deterministic``'s node limit per move of a record (about 0.5 s)."""

SOLVE_WARNING_SECONDS = 60.0
"""Estimated solve time above which ``solve`` warns before it starts (and how to stop it)."""


def register(commands: Any) -> None:
    """Add the ``solve``, ``analyse`` and ``bench`` subcommands to ``commands`` (the parser's
    subparsers)."""
    solve = commands.add_parser(
        "solve",
        help="solve a position exactly with the engine",
        description="Print the exact final margin for the side to move under perfect play "
        "(pieces; positive: the side to move wins) and a best move.",
    )
    solve.add_argument("fen", help="position text, e.g. '6oo/6oo/8/8/8/8/xx6/xx6 x 56'")
    solve.add_argument("--wld", action="store_true", help="win/draw/loss only (faster)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--time", type=seconds, help="give up after this many seconds")
    add_setting_flag(solve, "tt", default=64, help="table size in MB (default 64)")
    from .split_commands import add_split_options

    add_split_options(solve)  # --executor/--jobs: the root's moves as parallel tasks
    add_threads_option(solve)
    solve.set_defaults(handler=run_solve)

    analyse = commands.add_parser(
        "analyse",
        help="evaluate a position or every move of a game record",
        description="Print the engine's evaluation (pieces, side to move's view) and best line "
        "for a position, or for each position of a game record file (text or .json), with "
        "the move played.",
    )
    analyse.add_argument("target", help="position text, or the path of a game record")
    add_game_option(analyse)
    analyse.add_argument(
        "--time",
        type=seconds,
        default=None,
        help="seconds per position (default 3, or 0.5 per move of a record)",
    )
    analyse.add_argument("--depth", type=positive_int, help="depth limit")
    analyse.add_argument(
        "--nodes", type=positive_int, help="node limit per position (the search stops there)"
    )
    analyse.add_argument(
        "--deterministic",
        action="store_true",
        help="the same lines, values and node counts on every run and machine: one thread "
        "(whatever --threads says), and the search stopped by nodes, not time (--nodes, "
        f"default {DETERMINISTIC_NODES:,} per position or {DETERMINISTIC_RECORD_NODES:,} per "
        "move of a record; --depth instead if given)",
    )
    add_setting_flag(
        analyse,
        "driver",
        default="pvs",
        help="iterative deepening with principal variation search and aspiration windows "
        "(pvs, the default) or with MTD(f) null-window probes (mtdf); docs/engine.md",
    )
    analyse.add_argument("--json", action="store_true", help="print JSON")
    add_threads_option(analyse)
    analyse.set_defaults(handler=run_analyse)

    bench = commands.add_parser(
        "bench",
        help="benchmark the engine on a fixed suite of positions",
        description="Search the opening and middle-game positions of a fixed suite for "
        "--seconds each (depth reached), solve its endgames (12-18 plies left) exactly, "
        "and measure raw alpha-beta speed and the time per move at 0.1 s.",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--seconds", type=seconds, default=5.0, help="seconds per search position (default 5)"
    )
    bench.add_argument(
        "--solve-limit",
        type=seconds,
        default=120.0,
        help="give up a solve after this many seconds (default 120)",
    )
    bench.add_argument(
        "--raw-depth",
        type=whole_number,
        default=8,
        help="depth of the plain alpha-beta speed probe (default 8)",
    )
    bench.add_argument(
        "--timing-moves",
        type=whole_number,
        default=200,
        help="moves of the 0.1 s timing probe (0: skip; default 200)",
    )
    bench.add_argument("--no-suite", action="store_true", help="skip the position suite")
    bench.add_argument(
        "--signature",
        action="store_true",
        help="search the suite's positions to a fixed depth (no time limit), solve its "
        "endgames, and print the total nodes as 'signature: N nodes' (the same on every "
        "machine for the same code: a commit changing the search quotes it)",
    )
    bench.set_defaults(handler=run_bench)


SETTING_FLAGS: dict[str, dict[str, Any]] = {
    "tt": {"type": table_megabytes},
    "threads": {"type": thread_count},
    "driver": {"choices": ("pvs", "mtdf")},
}
"""How the command line reads each engine setting it takes, by the setting's spec name (the
flag is ``--`` + it; :class:`~adjacency.engine.config.Setting` ``flag``). The parser is built
without loading the engine (numba: a second more for every command), so argparse's readers
and choices are named here; the readers take the declared bounds when a flag is given, and
``tests/engine/test_config.py`` holds the flags to the declarations (each declared flag
exists, each flag named after a setting is declared, the choices are the setting's)."""


def add_setting_flag(
    parser: argparse.ArgumentParser, option: str, *, default: object, help: str
) -> None:
    """Add the flag ``--OPTION`` of the engine setting whose spec name is ``option``
    (:data:`SETTING_FLAGS`), with this command's ``default`` and ``help``;
    :func:`config_from_args` reads it back."""
    parser.add_argument(f"--{option}", default=default, help=help, **SETTING_FLAGS[option])


def config_from_args(args: argparse.Namespace) -> EngineConfig:
    """The :class:`~adjacency.engine.config.EngineConfig` of a command's engine-setting
    flags (:func:`add_setting_flag`): every setting the command has a flag for, from its
    value; the others keep their defaults."""
    from ..engine.config import SETTINGS, EngineConfig

    return EngineConfig(
        **{
            setting.name: getattr(args, setting.spec[0])
            for setting in SETTINGS
            if setting.flag and hasattr(args, setting.spec[0])
        }
    )


def add_threads_option(parser: argparse.ArgumentParser) -> None:
    """``--threads``: Lazy SMP search threads; a single search gets every core by default."""
    cores = os.cpu_count() or 1
    add_setting_flag(
        parser,
        "threads",
        default=cores,
        help=f"search threads sharing the table (default: every core, {cores} here)",
    )


def run_solve(args: argparse.Namespace) -> int:
    """``adjacency solve``: print the exact margin and a best move of a position (one JSON object
    with ``--json``), the root's moves split over an executor if asked; returns 0. A finished
    position is bad input; :class:`AdjacencyRuntimeError` if ``--time`` runs out first."""
    from ..engine import Engine, warmup

    position = Position.from_fen(args.fen)
    if position.is_over:
        raise InvalidPositionError(f"position {quote(args.fen)} is already over: nothing to solve")
    warn_long_solve(position, args.time)
    warmup()  # load the compiled kernels first, so that "seconds" is the solve alone
    from .split_commands import split_from_args, wants_split

    started = time.monotonic()
    if wants_split(args):
        result = split_from_args(args, position)
    else:
        engine = Engine(config_from_args(args))
        result = engine.solve(position, wld=args.wld, seconds=args.time)
    if not result.complete:
        raise AdjacencyRuntimeError(f"could not solve {quote(args.fen)} within {args.time} s")
    pv, pv_complete = _proven_line(args, position, result.value, started)
    if args.json:
        settings = {"wld": args.wld, "time": args.time, **engine_settings(args)}
        print(
            json.dumps(
                {
                    "value": result.value,
                    "best": result.best,
                    "pv": pv,
                    "pv_complete": pv_complete,
                    "nodes": result.nodes,
                    "seconds": round(result.seconds, 4),
                    "provenance": json_provenance(settings),
                }
            )
        )
        return 0
    if args.wld:
        verdict = {1: "win", 0: "draw", -1: "loss"}[result.value]
        print(f"{verdict} for {position.turn}; best move {result.best}")
    else:
        print(f"value {result.value:+d} for {position.turn}; best move {result.best}")
    cut = "" if pv_complete else " (cut short by --time)"
    print(f"pv {' '.join(pv)}{cut}")
    print(f"nodes {result.nodes} seconds {result.seconds:.3f}")
    return 0


def _proven_line(
    args: argparse.Namespace, position: Position, value: int, started: float
) -> tuple[list[str], bool]:
    """The principal variation of a solved ``position`` (worth ``value``), every position on
    it solved (:func:`adjacency.engine.proven_line.proven_line`), within what is left of
    ``--time``; and whether it reached the end of the game. The split solve's line is
    walked by a local engine with the command's settings."""
    from ..engine import Engine
    from ..engine.proven_line import proven_line

    engine = Engine(config_from_args(args))

    limit: float | None = args.time

    def left() -> float | None:
        if limit is None:
            return None
        return max(0.01, limit - (time.monotonic() - started))

    pv: list[str] = []
    for _, step in proven_line(engine, position, value, left, wld=args.wld):
        if not step.complete:
            return pv, False
        pv.append(step.best)
    return pv, True


def warn_long_solve(position: Position, limit: float | None) -> None:
    """Say on stderr, before starting, that a solve will not finish soon (and how to stop it)."""
    from ..engine.estimate import describe_seconds, solve_seconds

    estimate = solve_seconds(position)
    if estimate < SOLVE_WARNING_SECONDS or (limit is not None and limit < estimate):
        return
    print(
        f"adjacency solve: warning: {position.plies_left} plies with "
        f"{position.empty.bit_count()} empty squares may take about {describe_seconds(estimate)} "
        "to solve exactly (a rough estimate); Ctrl-C stops it, --time bounds it",
        file=sys.stderr,
        flush=True,
    )


def _load_target(text: str, game: int | None) -> tuple[Position | None, Any]:
    """The position, or game ``game`` (1-based; needed when the file holds several)."""
    try:
        position = Position.from_fen(text)
    except AdjacencyError as fen_error:
        if not Path(text).is_file():
            raise AdjacencyError(
                f"{quote(text)} is neither position text ({fen_error}) nor a game record file"
            ) from None
    else:
        if game is not None:
            raise AdjacencyError("--game picks a game of a record file, not of position text")
        return position, None
    return None, pick_game(read_games(text), game, text)


def run_analyse(args: argparse.Namespace) -> int:
    """``adjacency analyse``: the engine's evaluation and best move for a position (3 s by
    default) or for every position of a game record (0.5 s each); returns 0. A finished position
    or a ``--time`` that is not positive is bad input."""
    from ..engine import Engine, warmup

    if args.time is not None and args.time <= 0:
        raise AdjacencyError(f"--time must be a positive number of seconds, got {args.time}")
    if args.deterministic and args.time is not None:
        raise AdjacencyError(
            "--deterministic stops the search by nodes, not time: give --nodes or --depth, "
            "not --time"
        )
    position, game = _load_target(args.target, args.game)
    warmup()
    if args.deterministic:
        args.threads = 1  # one thread: no race between helpers changes the tree
    engine = Engine(config_from_args(args))
    rows = []
    if position is not None:
        if position.is_over:
            raise InvalidPositionError(f"position {quote(args.target)} is over: nothing to analyse")
        items = [(position, None)]
        seconds: float | None = args.time or 3.0
        nodes = args.nodes or (DETERMINISTIC_NODES if args.deterministic else None)
    else:
        played = [m.square for m in game.moves]
        items = [(p, played[i]) for i, p in enumerate(game.positions[:-1])]
        seconds = args.time or 0.5
        nodes = args.nodes or (DETERMINISTIC_RECORD_NODES if args.deterministic else None)
    if args.deterministic:
        seconds = None
        nodes = None if args.depth is not None and args.nodes is None else nodes
    for current, move in items:
        result = engine.search(current, seconds=seconds, depth=args.depth, nodes=nodes)
        row = {
            "fen": current.fen(),
            "played": move,
            "best": result.move,
            "score": result.value,
            "depth": result.depth,
            "exact": result.exact,
            "pv": list(result.pv),
            "nodes": result.nodes,
            "seconds": round(result.seconds, 3),
        }
        rows.append(row)
        if not args.json:
            ply = f"{len(rows):>3} {current.turn} {move or '':>3} " if game else ""
            kind = "exact" if result.exact else f"depth {result.depth}"
            print(
                f"{ply}score {result.value:+.2f} ({kind}) best {result.move} "
                f"pv {' '.join(result.pv)}"
            )
    if args.json:
        settings = {
            "time": seconds,
            "depth": args.depth,
            "nodes": nodes,
            "deterministic": args.deterministic,
            **engine_settings(args),
        }
        record = json_provenance(settings)
        # a game's rows each carry it, so that any one row stands alone
        shown = [{**row, "provenance": record} for row in rows]
        print(json.dumps(shown[0] if position is not None else shown))
    return 0


def engine_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The engine's settings of a command (:func:`config_from_args`), JSON-ready: those that
    change a result (the table's size, the threads, the profile...) go into its record."""
    from collections.abc import Mapping
    from dataclasses import fields

    config = config_from_args(args)
    values = {f.name: getattr(config, f.name) for f in fields(config)}
    return {k: dict(v) if isinstance(v, Mapping) else v for k, v in values.items() if v is not None}


def json_provenance(settings: dict[str, Any]) -> dict[str, Any]:
    """The provenance record (:mod:`adjacency.system.provenance`) of a command's JSON."""
    from ..system.provenance import provenance

    return provenance(settings)


def run_bench(args: argparse.Namespace) -> int:
    """``adjacency bench``: run the engine's benchmark suite and, as asked, the raw search speed
    and the move timing; print a line per result, or one JSON object with ``--json``; returns 0."""
    from ..engine import warmup
    from ..engine.bench import (
        SIGNATURE_DEPTH,
        BenchLine,
        raw_speed,
        run_suite,
        signature,
        summary,
        timing,
    )
    from ..system.provenance import describe, provenance

    warmup()

    def echo(line: BenchLine) -> None:
        if args.json:
            return
        what = (
            f"depth {line.depth}"
            if line.kind == "search"
            else f"value {line.value:+.0f}" + ("" if line.complete else " (gave up)")
        )
        print(
            f"{line.name:<10} {what:<18} best {line.best:<3} {line.seconds:8.3f} s "
            f"{line.nodes:>12} nodes {line.nps / 1e6:8.2f} Mn/s wall "
            f"{line.cpu_nps / 1e6:8.2f} Mn/s CPU",
            flush=True,
        )

    settings = {
        k: getattr(args, k)
        for k in ("seconds", "solve_limit", "raw_depth", "timing_moves", "no_suite", "signature")
    }
    report: dict[str, Any] = {"provenance": provenance(settings)}
    if not args.json and not args.signature:
        print("\n".join(describe(report["provenance"])), flush=True)
    if args.signature:
        lines = run_suite(echo=echo, depth=SIGNATURE_DEPTH)
        report["signature"] = signature(lines)
        report["positions"] = summary(lines)["positions"]
        print(json.dumps(report) if args.json else f"signature: {report['signature']} nodes")
        return 0
    if not args.no_suite:
        lines = run_suite(args.seconds, args.solve_limit, echo=echo)
        report.update(summary(lines))
        if not args.json:
            print(
                f"total {report['total_seconds']:.2f} s {report['total_nodes']} nodes "
                f"{report['total_nps'] / 1e6:.2f} Mn/s wall, {report['total_cpu_seconds']:.2f} "
                f"CPU s {report['total_cpu_nps'] / 1e6:.2f} Mn/s CPU; median solve seconds "
                + ", ".join(f"{k}: {v:.3f}" for k, v in report["median_solve_seconds"].items())
            )
    if args.raw_depth > 0:
        report["raw"] = raw_speed(args.raw_depth)
        if not args.json:
            raw = report["raw"]
            print(
                f"plain alpha-beta depth {raw['depth']} from the start: {raw['nodes']} nodes "
                f"{raw['seconds']:.3f} s {raw['nps'] / 1e6:.1f} Mn/s wall, "
                f"{raw['cpu_seconds']:.3f} CPU s {raw['cpu_nps'] / 1e6:.1f} Mn/s CPU",
                flush=True,
            )
    if args.timing_moves > 0:
        from ..bots import Limit, make_bot

        bot = make_bot("engine", seed=1)
        report["timing"] = timing(
            lambda position, seconds: bot.choose_move(position, Limit(time=seconds)),
            bot.new_game,
            args.timing_moves,
            0.1,
        )
        if not args.json:
            t = report["timing"]
            print(
                f"timing: {t['moves']} moves at 0.1 s: max {t['max']:.3f} s, "
                f"mean {t['mean']:.3f} s, over 0.15 s: {t['over_0.15']}"
            )
    if args.json:
        print(json.dumps(report))
    return 0
