"""``adjacency train-eval``: train the engine's learned or pattern evaluation (docs/engine.md).

Self-play positions, labels by a deeper search of the frozen reference engine
(exact solves near the end), ridge least squares per plies left (``--kind
features``) or per phase over the line patterns (``--kind patterns``, positions
generated on the executor); writes a versioned weights file
(:mod:`adjacency.training.fit`). With ``--data DIR`` the positions are a resumable,
sharded job on disk (:mod:`adjacency.training.dataset`) that the fit streams from.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from .arguments import (
    Option,
    add_executor_options,
    executor_from_args,
    non_negative_number,
    positive_int,
    rounds_list,
    whole_number,
)


def training_provenance(args: argparse.Namespace) -> dict[str, Any]:
    """The provenance record a weights file keeps in its ``training`` section
    (:mod:`adjacency.system.provenance`): the code, libraries and machine, the command's
    settings (every option with a plain value) and its seed."""
    from ..system.provenance import provenance

    plain = (str, int, float, bool, type(None))
    settings = {
        key: str(value) if isinstance(value, Path) else value
        for key, value in sorted(vars(args).items())
        if isinstance(value, (*plain, Path))
        or (isinstance(value, (list, tuple)) and all(isinstance(v, plain) for v in value))
    }
    return provenance(settings, seeds=getattr(args, "seed", None))


def register(commands: Any) -> None:
    """Add the ``train-eval`` subcommand to ``commands`` (the parser's subparsers)."""
    train = commands.add_parser(
        "train-eval",
        help="train the engine's learned or pattern evaluation by self-play",
        description="Play --games self-play games on 8x8 (a depth-2 search with 20% random "
        "moves, rounds drawn from 8-28), label every position by a --depth search of the "
        "frozen v1 engine or, with at most --exact-plies left, by the exact solver, fit "
        "weights per plies left by ridge least squares and write them to --out "
        "(copy it to src/adjacency/engine/weights/eval-8x8.json to ship it). "
        "With --kind patterns: the games (--rounds, default 28) are played and labelled "
        "on the executor in chunks of --chunk-games seeded from --seed (the output is the "
        "same for any number of workers), every --holdout-th chunk is kept out of the fit "
        "to measure the held-out error against the learned evaluation, and the pattern "
        "weights per phase of 4 plies are written to --out (ship it as "
        "src/adjacency/engine/weights/patterns-8x8.json).",
    )
    for option in TRAIN_OPTIONS:
        option.add(train)
    patterns = train.add_argument_group("--kind patterns")
    for option in PATTERN_OPTIONS:
        option.add(patterns)
    add_executor_options(patterns, what="chunks")
    data = train.add_argument_group(
        "--data DIR: the positions as a resumable sharded job (with --kind patterns)",
        "ceil(--games / --chunk-games) shards of --chunk-games games each are played and "
        "labelled on the executor and written to DIR (shard-NNNNN.npz and manifest.json "
        "with the settings, each shard's counts and SHA-256, and the totals); shard i "
        "depends on --seed and i alone, so a killed job continued with --resume ends with "
        "the same files as an uninterrupted one (Ctrl-C stops it between shards with one line; "
        "--resume continues). Each game draws its two players from "
        "--players, opens with 0 to --opening-plies random moves, plays a random move "
        "with probability --epsilon, and keeps each position with probability --sample. "
        "The fit then streams the shards, holding out every --holdout-th shard.",
    )
    for option in DATA_JOB_OPTIONS:
        option.add(data)
    train.set_defaults(handler=run_train)
    weights = commands.add_parser(
        "weights",
        help="the shipped evaluation weights: how each file was fitted, its provenance",
        description="Print, for each shipped weights file (the learned evaluation's and the "
        "pattern evaluation's), the train-eval command that fitted it, its figures, its "
        "provenance record (what is not known of a file fitted before records were kept "
        "is written 'unknown'), its training data's SHA-256 (or why it was not recorded) "
        "and its weights' own SHA-256, checked against the file.",
    )
    weights.add_argument("--json", action="store_true", help="the training records as JSON")
    weights.set_defaults(handler=run_weights)


def run_weights(args: argparse.Namespace) -> int:
    """``adjacency weights``: the shipped weights files' training records."""
    from ..engine.weights_file import shipped_training
    from ..system.provenance import describe

    records = shipped_training()
    if args.json:
        print(json.dumps(records, indent=1))
        return 0
    for name, training in records.items():
        print(f"{name}: fitted by {training.get('command', 'an unrecorded command')}")
        figures = {
            k: v for k, v in training.items()
            if k not in ("command", "provenance", "weights_sha256") and not isinstance(v, dict)
        }  # fmt: skip
        if figures:
            print("  " + ", ".join(f"{k}={v}" for k, v in figures.items()))
        print("\n".join(f"  {line}" for line in describe(training.get("provenance"))))
        print("\n".join(f"  {line}" for line in hashes_shown(name, training)))
    return 0


def hashes_shown(name: str, training: dict[str, Any]) -> list[str]:
    """The lines of ``adjacency weights`` on a shipped file's hashes: its training data's
    SHA-256 (or why it was not recorded) and its weights' own, checked against the file."""
    from ..engine.weights_file import DEFAULT_FILE, NOT_RECORDED, file_weights_sha256

    data = training.get("data") or {"sha256": NOT_RECORDED, "why": "no data record"}
    if data.get("sha256") == NOT_RECORDED:
        lines = [f"training data: sha256 not recorded: {data.get('why', 'no reason given')}"]
    else:
        lines = [f"training data: sha256 {data['sha256']} ({data.get('positions')} positions)"]
    recorded = training.get("weights_sha256", "not recorded")
    held = file_weights_sha256(DEFAULT_FILE.parent / name)
    verdict = "matches the file" if recorded == held else f"the file's weights hash to {held}"
    return [*lines, f"weights: sha256 {recorded} ({verdict})"]


PLAYERS_TEXT = "v1:1,v1:2,v3:2,v4:3"
"""The default ``--players`` (:data:`adjacency.training.dataset.PLAYERS`)."""


def players_list(text: str) -> tuple[tuple[str, int], ...]:
    """``--players``: ``PROFILE:DEPTH`` pairs separated by commas (a known engine
    profile, a depth from 1 to 8)."""
    from ..engine.profiles import PROFILES

    players = []
    for item in text.split(","):
        profile, _, depth = item.strip().partition(":")
        if profile not in PROFILES or not depth.isdigit() or not 1 <= int(depth) <= 8:
            raise argparse.ArgumentTypeError(
                f"expected PROFILE:DEPTH,... with a profile of {', '.join(PROFILES)} and a "
                f"depth of 1-8, got {item!r}"
            )
        players.append((profile, int(depth)))
    return tuple(players)


TRAIN_OPTIONS = (
    Option(
        ("--kind",),
        {
            "choices": ("features", "patterns"),
            "default": "features",
            "help": "features: the learned evaluation (default); patterns: the pattern evaluation",
        },
    ),
    Option(
        ("--games",),
        {
            "type": positive_int,
            "default": 400,
            "help": "self-play games",
        },
    ),
    Option(
        ("--depth",),
        {
            "type": positive_int,
            "default": 6,
            "help": "label search depth",
        },
    ),
    Option(
        ("--exact-plies",),
        {
            "type": whole_number,
            "default": None,
            "help": "solve exactly with at most this many plies left (default 8; with --data 16)",
        },
    ),
    Option(
        ("--seed",),
        {
            "type": whole_number,
            "default": 1,
            "help": "self-play seed",
        },
    ),
    Option(
        ("--window",),
        {
            "type": whole_number,
            "default": 2,
            "help": "fit each phase on +-this many plies (default 2)",
        },
    ),
    Option(
        ("--ridge",),
        {
            "type": non_negative_number,
            "default": 1.0,
            "help": "ridge penalty (default 1)",
        },
    ),
    Option(
        ("--version",),
        {
            "type": positive_int,
            "default": 1,
            "help": "weights file version",
        },
    ),
    Option(
        ("--out",),
        {
            "type": Path,
            "default": None,
            "help": "output file (default eval-8x8.json; with --kind patterns patterns-8x8.json)",
        },
    ),
)
"""``train-eval``'s options for either kind."""

PATTERN_OPTIONS = (
    Option(
        ("--rounds",),
        {
            "type": rounds_list,
            "default": (28,),
            "help": "rounds of the self-play games, drawn at random (default 28)",
        },
    ),
    Option(
        ("--chunk-games",),
        {
            "type": positive_int,
            "default": 4,
            "help": "games per chunk of work (default 4)",
        },
    ),
    Option(
        ("--holdout",),
        {
            "type": whole_number,
            "default": 5,
            "help": "keep every this-many-th chunk out of the fit to measure the error (0: none)",
        },
    ),
    Option(
        ("--save-samples",),
        {
            "type": Path,
            "help": "also write the labelled positions to this file",
        },
    ),
    Option(
        ("--load-samples",),
        {
            "type": Path,
            "help": "fit on the positions of a --save-samples file made with the same settings "
            "instead of generating them",
        },
    ),
    Option(
        ("--parity",),
        {
            "action": "store_true",
            "help": "also fit a parity weight per phase (the last mover's edge; docs/engine.md); "
            "the shipped v4 weights were fitted without it",
        },
    ),
)
"""The options of ``--kind patterns`` (its group in the help; the executor's are added after
them)."""

DATA_JOB_OPTIONS = (
    Option(
        ("--data",),
        {
            "type": Path,
            "metavar": "DIR",
            "help": "the job's directory",
        },
    ),
    Option(
        ("--resume",),
        {
            "action": "store_true",
            "help": "continue the job in --data (made with the same settings): make only its "
            "missing shards, then fit",
        },
    ),
    Option(
        ("--no-fit",),
        {
            "action": "store_true",
            "help": "generate the shards only; write no weights",
        },
    ),
    Option(
        ("--fit-only",),
        {
            "action": "store_true",
            "help": "fit on the shards the job in --data has made so far and make none (a long "
            "job fitted before its end; the weights file names how many shards it used)",
        },
    ),
    Option(
        ("--target",),
        {
            "choices": ("search", "outcome", "blend", "backup"),
            "default": "search",
            "help": "what the fit learns: search, the stored labels (a --depth v1 search, exact "
            "with at most --exact-plies left; default); outcome, the exact value of the first "
            "exactly labelled position later in the same game, for the side to move; blend, "
            "the TD(lambda) return between the two (--lambda); backup, exact labels kept and "
            "every other position labelled by a --backup-depth search of the pattern "
            "evaluation fitted so far for fewer plies left, phase by phase outward",
        },
    ),
    Option(
        ("--backup-depth",),
        {
            "type": positive_int,
            "default": None,
            "help": "with --target backup: the depth of the labelling searches (default 4, the "
            "phase width: one fit a phase)",
        },
    ),
    Option(
        ("--lambda",),
        {
            "dest": "td_lambda",
            "type": non_negative_number,
            "default": None,
            "help": "with --target blend: the weight of the later positions, 0-1 (default 0.7; "
            "1 is outcome, 0 search)",
        },
    ),
    Option(
        ("--players",),
        {
            "type": players_list,
            "default": PLAYERS_TEXT,
            "help": f"the self-play players, PROFILE:DEPTH,... (default {PLAYERS_TEXT})",
        },
    ),
    Option(
        ("--opening-plies",),
        {
            "type": whole_number,
            "default": 4,
            "help": "each game opens with 0 to this many random moves (default 4)",
        },
    ),
    Option(
        ("--epsilon",),
        {
            "type": non_negative_number,
            "default": 0.1,
            "help": "chance of a random move after the opening (default 0.1)",
        },
    ),
    Option(
        ("--sample",),
        {
            "type": non_negative_number,
            "default": 0.5,
            "help": "chance that a position is kept and labelled (default 0.5)",
        },
    ),
)
"""The options of ``--data DIR``, the positions as a resumable sharded job."""


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
    from ..engine.weights_file import save_weights
    from ..training.fit import data_record, fit, label_positions, self_play_positions

    if args.exact_plies is None:
        args.exact_plies = 16 if args.data is not None else 8
    if not 0 <= args.exact_plies <= 20 or not 0 <= args.window <= 10 or args.ridge < 0:
        raise AdjacencyError(
            "--exact-plies must be 0-20, --window 0-10 and --ridge at least 0, got "
            f"{args.exact_plies}, {args.window}, {args.ridge}"
        )
    if args.data is not None:
        return run_train_job(args)
    if args.resume or args.no_fit or args.target != "search":
        raise AdjacencyError(
            "--resume, --no-fit and --target need --data DIR (the shards keep each position's game)"
        )
    if args.kind == "patterns":
        return run_train_patterns(args)
    out = args.out or Path("eval-8x8.json")
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
    meta["provenance"] = training_provenance(args)
    meta["data"] = data_record(samples)
    save_weights(table, out, args.version, meta)
    print(
        json.dumps(
            {k: v for k, v in meta.items() if k not in ("rms_error_pieces", "provenance", "data")}
        )
    )
    print(f"wrote {out}")
    return 0


def run_train_patterns(args: argparse.Namespace) -> int:
    """``adjacency train-eval --kind patterns``: generate (or load) the labelled chunks,
    fit the pattern weights on all but the held-out chunks, measure the held-out error
    against the learned evaluation and write the weights to ``--out``; returns 0."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..core import Position
    from ..core.errors import InvalidSettingsError
    from ..engine import warmup
    from ..engine.weights_file import save_patterns
    from ..system.signals import sigterm_as_interrupt
    from ..training.fit import (
        chunks,
        data_record,
        fit_patterns,
        generate_samples,
        holdout_errors,
        load_samples,
        save_samples,
    )

    out = args.out or Path("patterns-8x8.json")
    if args.holdout == 1:
        raise InvalidSettingsError("--holdout 1 would keep every chunk out of the fit")
    if args.ridge <= 0:
        raise InvalidSettingsError(f"--kind patterns needs --ridge above 0, got {args.ridge}")
    for rounds in args.rounds:
        Position.start(8, 8, rounds)  # InvalidSettingsError before any game: exit 2
    work = chunks(
        args.seed, args.games, args.chunk_games, args.rounds, args.depth, args.exact_plies
    )
    started = time.monotonic()
    if args.load_samples is not None:
        labelled = load_samples(args.load_samples, work)  # WeightsError: exit 2
    else:
        executor = executor_from_args(args)
        warmup()
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        with (
            sigterm_as_interrupt(),
            executor,
            Progress(*columns, console=Console(stderr=True)) as progress,
        ):
            task = progress.add_task("chunks", total=len(work))

            def report(stage: str, done: int, total: int) -> None:
                progress.update(task, completed=done)

            labelled = generate_samples(executor, work, progress=report)
        if args.save_samples is not None:
            save_samples(args.save_samples, work, labelled)
    seconds = round(time.monotonic() - started, 1)
    held = [i for i in range(len(work)) if args.holdout and i % args.holdout == args.holdout - 1]
    train = [s for i, group in enumerate(labelled) if i not in held for s in group]
    test = [s for i in held for s in labelled[i]]
    table, stats = fit_patterns(train, args.window, args.ridge, args.parity)  # exit 2: too few
    rounds = ",".join(str(r) for r in args.rounds)
    meta: dict[str, Any] = {
        "command": (
            f"adjacency train-eval --kind patterns --games {args.games} --depth {args.depth} "
            f"--exact-plies {args.exact_plies} --seed {args.seed} --rounds {rounds} "
            f"--chunk-games {args.chunk_games} --holdout {args.holdout} "
            f"--window {args.window} --ridge {args.ridge} --version {args.version}"
            + (" --parity" if args.parity else "")
        ),
        "positions": len(train),
        "held_out_positions": len(test),
        "exact_labels": sum(s.exact for s in train),
    }
    if test:
        meta["held_out_rms_pieces"] = holdout_errors(train, test, table, args.window)
    meta["rms_error_pieces"] = stats["rms_error_pieces"]
    meta["provenance"] = training_provenance(args)
    meta["data"] = data_record([s for group in labelled for s in group])  # held out too
    save_patterns(table, out, args.version, meta)
    shown = {k: v for k, v in meta.items() if k not in ("rms_error_pieces", "provenance", "data")}
    print(json.dumps({**shown, "generation_seconds": seconds}))
    print(f"wrote {out}")
    return 0


def run_train_job(args: argparse.Namespace) -> int:
    """``adjacency train-eval --kind patterns --data DIR``: make (or, with ``--resume``,
    finish) the sharded job in ``DIR`` on the executor with a progress bar, then fit the
    pattern weights by streaming its shards, holding out every ``--holdout``-th shard,
    and write them to ``--out``; returns 0. Bad settings or a bad directory (missing, of
    other settings, a corrupt shard) raise an
    :class:`~adjacency.core.errors.AdjacencyError` (one line, exit 2) before any game.
    Ctrl-C or SIGTERM while the shards are made stops between two shards
    (:func:`~adjacency.system.signals.stop_on_signals`): every shard written is kept, one
    line says how many and that ``--resume`` continues, and the exit status is 130."""
    import math

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ..core import Position
    from ..core.errors import InvalidSettingsError
    from ..engine import warmup
    from ..system.signals import stop_on_signals
    from ..training.dataset import JobSettings, generate, start_job
    from ..workers import WorkerError

    if args.kind != "patterns":
        raise InvalidSettingsError(
            "--data makes the pattern evaluation's data: add --kind patterns"
        )
    if args.save_samples is not None or args.load_samples is not None:
        raise InvalidSettingsError(
            "--data keeps the positions itself: drop --save-samples and --load-samples"
        )
    if args.holdout == 1:
        raise InvalidSettingsError("--holdout 1 would keep every shard out of the fit")
    if args.fit_only and args.no_fit:
        raise InvalidSettingsError("--fit-only makes no shards and --no-fit no weights: drop one")
    if args.ridge <= 0:
        raise InvalidSettingsError(f"--kind patterns needs --ridge above 0, got {args.ridge}")
    if args.td_lambda is not None and (args.target != "blend" or args.td_lambda > 1):
        raise InvalidSettingsError(
            f"--lambda goes with --target blend and must be 0-1, got {args.td_lambda} "
            f"with --target {args.target}"
        )
    if args.backup_depth is not None and args.target != "backup":
        raise InvalidSettingsError(
            f"--backup-depth goes with --target backup, got --target {args.target}"
        )
    if args.epsilon > 1 or not 0 < args.sample <= 1:
        raise InvalidSettingsError(
            f"--epsilon must be 0-1 and --sample above 0 up to 1, got {args.epsilon}, {args.sample}"
        )
    for rounds in args.rounds:
        Position.start(8, 8, rounds)  # InvalidSettingsError before any game: exit 2
    settings = JobSettings(
        seed=args.seed,
        shards=math.ceil(args.games / args.chunk_games),
        shard_games=args.chunk_games,
        rounds=args.rounds,
        players=args.players,
        opening_plies=args.opening_plies,
        epsilon=args.epsilon,
        sample=args.sample,
        depth=args.depth,
        exact_plies=args.exact_plies,
    )
    job = start_job(args.data, settings, args.resume or args.fit_only)  # DatasetError: exit 2
    started = time.monotonic()
    made = 0
    stopped = False
    if not job.complete and not args.fit_only:
        executor = executor_from_args(args)
        warmup()
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[positions]:,} positions ({task.fields[rate]}/s)"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
        )
        # Ctrl-C and SIGTERM stop between two shards (stop_on_signals: never inside the
        # executor's locks); the workers a terminal's Ctrl-C also reached end their shard
        # with KeyboardInterrupt, or die idle (WorkerError): both are the same stop.
        with (
            stop_on_signals() as stop,
            executor,
            Progress(*columns, console=Console(stderr=True)) as progress,
            contextlib.closing(generate(job, executor)) as entries,
        ):
            total = job.manifest()["totals"]["positions"]
            task = progress.add_task(
                "shards", total=settings.shards, completed=len(job.done), positions=total, rate=0
            )
            try:
                for entry in entries:
                    made += entry["positions"]
                    rate = round(made / max(time.monotonic() - started, 1e-9))
                    progress.update(
                        task, completed=len(job.done), positions=total + made, rate=f"{rate:,}"
                    )
                    if stop.requested:
                        break
            except (KeyboardInterrupt, WorkerError):
                if not stop.requested:
                    raise
            stopped = stop.requested
    if stopped:
        from . import EXIT_INTERRUPTED

        print(
            f"stopped with {len(job.done)} of {settings.shards} shards written (each one "
            "kept): --resume continues",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    seconds = round(time.monotonic() - started, 1)
    totals = job.manifest()["totals"]
    summary: dict[str, Any] = {
        "data": str(args.data),
        "shards": totals["shards"],
        "positions": totals["positions"],
        "exact_labels": totals["exact"],
        "labelled_now": made,
        "generation_seconds": seconds,
    }
    if args.no_fit:
        print(json.dumps(summary))
        return 0
    return _fit_job(args, job, summary)


def _fit_job(args: argparse.Namespace, job: Any, summary: dict[str, Any]) -> int:
    """Fit the pattern weights on ``job``'s shards (streamed) toward ``--target``'s labels
    (:func:`~adjacency.training.dataset.target_labels`), measure the held-out error against
    the same target, write ``--out`` and print the summary; returns 0."""
    import numpy as np

    from ..engine.weights_file import UNITS, save_patterns
    from ..training.backed_up import job_labels
    from ..training.dataset import (
        MANIFEST,
        manifest_sha256,
        phase_rows_from_shards,
        relabelled,
        shard_rows,
        split,
    )
    from ..training.fit import fit_pattern_phases, holdout_table

    out = args.out or Path("patterns-8x8.json")
    done = sorted(job.done)  # the shards fitted and held out: their count, or their list
    train, held = split(job, args.holdout)
    count = sum(job.done[i]["positions"] for i in train)
    td_lambda = 0.7 if args.td_lambda is None else args.td_lambda
    depth = 4 if args.backup_depth is None else args.backup_depth
    backed = None
    if args.target == "backup":
        started = time.monotonic()
        backed = job_labels(
            job, train, held, depth, args.window, args.ridge, args.parity,
            progress=lambda stage, done, total: print(
                f"{stage}: {done} of {total} plies left", file=sys.stderr, flush=True
            ),
        )  # fmt: skip
        summary["backup_seconds"] = round(time.monotonic() - started, 1)
    rows = phase_rows_from_shards(job, train, args.target, td_lambda, backed)
    table, stats = fit_pattern_phases(rows, count, args.window, args.ridge, args.parity)
    players = ",".join(f"{p}:{d}" for p, d in args.players)
    rounds = ",".join(str(r) for r in args.rounds)
    meta: dict[str, Any] = {
        "command": (
            f"adjacency train-eval --kind patterns --data DIR --games {args.games} "
            f"--chunk-games {args.chunk_games} --depth {args.depth} "
            f"--exact-plies {args.exact_plies} --seed {args.seed} --rounds {rounds} "
            f"--players {players} --opening-plies {args.opening_plies} "
            f"--epsilon {args.epsilon} --sample {args.sample} --holdout {args.holdout} "
            f"--window {args.window} --ridge {args.ridge} --version {args.version}"
            + (" --fit-only" if args.fit_only else "")
            + (" --parity" if args.parity else "")
            + ("" if args.target == "search" else f" --target {args.target}")
            + (f" --lambda {td_lambda}" if args.target == "blend" else "")
            + (f" --backup-depth {depth}" if args.target == "backup" else "")
        ),
        "shards": len(done) if done == list(range(len(done))) else done,
        "positions": count,
        "held_out_positions": sum(job.done[i]["positions"] for i in held),
        "exact_labels": sum(job.done[i]["exact"] for i in train),
    }
    if held:
        parts = [
            shard_rows(
                relabelled(job.read(i), args.target, td_lambda)
                if backed is None
                else {**job.read(i), "label": backed[i]}
            )
            for i in held
        ]
        columns, features, labels, plies = (np.concatenate([p[k] for p in parts]) for k in range(4))
        meta["held_out_rms_pieces"] = holdout_table(columns, features, labels / UNITS, plies, table)
    meta["rms_error_pieces"] = stats["rms_error_pieces"]
    meta["provenance"] = training_provenance(args)
    meta["data"] = {
        "sha256": manifest_sha256(job.directory),
        "hashed": f"the job's {MANIFEST} (every shard's SHA-256 and the settings)",
        "positions": count + meta["held_out_positions"],
    }
    save_patterns(table, out, args.version, meta)
    shown = {
        k: v
        for k, v in meta.items()
        if k not in ("rms_error_pieces", "command", "provenance", "data")
    }
    print(json.dumps({**summary, **shown}))
    print(f"wrote {out}")
    return 0
