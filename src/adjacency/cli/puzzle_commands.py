"""The ``puzzles`` command: build a puzzle file from played games, show and check puzzles.

``adjacency puzzles build`` reads candidate positions from a league database, an arena
results database, the web's games database (each only read: the file is checked by its
store's own test and then read through the store from a snapshot, so it is never
written) and the training data (a positions job directory, every shard checked against
its manifest), and proves them on the executor (:mod:`adjacency.puzzles.build`);
``show`` prints one puzzle, ``check`` re-proves a puzzle file. docs/puzzles.md.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSettingsError
from ..core.text import quote
from .arguments import add_executor_options, executor_from_args, positive_int, whole_number

SOURCE_KINDS = ("league", "arena", "web", "data")
"""The ``--from`` kinds: ``KIND:PATH``."""


def register(commands: Any) -> None:
    """Add the ``puzzles`` subcommand with ``build``, ``show`` and ``check``."""
    puzzles = commands.add_parser(
        "puzzles",
        help="puzzles proven by the exact solver: build, show, check",
        description="Positions from played games where exactly one move keeps the best "
        "outcome, proven by the exact solver (docs/puzzles.md).",
    )
    actions = puzzles.add_subparsers(dest="action", metavar="ACTION", required=True)

    build = actions.add_parser(
        "build",
        help="prove positions from played games into a puzzle file",
        description="Candidates from the sources (deduplicated, filtered by plies left "
        "and legal moves, shuffled by --seed) are proved in batches on the executor until "
        "--count puzzles are found. A checkpoint OUT.partial lets --resume go on after a "
        "kill; the file is the same byte for byte as an uninterrupted build's.",
    )
    build.add_argument(
        "--from",
        dest="sources",
        nargs="+",
        required=True,
        metavar="KIND:PATH",
        help="league:FILE, arena:FILE, web:FILE (databases, read only) or data:DIR "
        "(a training positions directory, `adjacency train-eval job`)",
    )
    build.add_argument("--out", required=True, help="the puzzle file (.jsonl or .jsonl.gz)")
    build.add_argument("--count", type=positive_int, default=1000, help="puzzles to keep")
    build.add_argument("--seed", type=whole_number, default=0, help="the candidates' shuffle")
    build.add_argument("--min-plies", type=positive_int, default=8, help="fewest plies left")
    build.add_argument("--max-plies", type=positive_int, default=16, help="most plies left")
    build.add_argument("--resume", action="store_true", help="go on from OUT.partial")
    add_executor_options(build, what="batches")
    build.set_defaults(handler=run_build)

    show = actions.add_parser("show", help="print one puzzle: board, solution, refutations")
    show.add_argument("id", help="the puzzle's id (p and 12 hex digits)")
    show.add_argument("--file", help="a puzzle file (default: the shipped set)")
    show.add_argument(
        "--json", action="store_true", help="the puzzle and its build's provenance as JSON"
    )
    show.set_defaults(handler=run_show)

    check = actions.add_parser(
        "check",
        help="re-prove the puzzles of a file with the exact solver",
        description="Every puzzle (or a --sample of them) is proved again on a fresh "
        "engine: the only move at every step, every value, every reply. Exit status 1 "
        "if any fails.",
    )
    check.add_argument("file", help="a puzzle file (.jsonl or .jsonl.gz)")
    check.add_argument("--sample", type=positive_int, help="check this many, drawn by --seed")
    check.add_argument("--seed", type=whole_number, default=0, help="the sample's draw")
    check.set_defaults(handler=run_check)


# ------------------------------------------------------------------------- sources


def parse_source(text: str) -> tuple[str, Path]:
    """``KIND:PATH`` of ``--from``; :class:`InvalidSettingsError` otherwise."""
    kind, sep, path = text.partition(":")
    if not sep or kind not in SOURCE_KINDS or not path:
        raise InvalidSettingsError(
            f"--from {quote(text)}: expected KIND:PATH with KIND one of {', '.join(SOURCE_KINDS)}"
        )
    return kind, Path(path)


@contextlib.contextmanager
def snapshot(path: Path, kind: str, config: Any, schema: Any) -> Iterator[Path]:
    """A private copy of the database at ``path`` after its store's own check (which
    only reads: a file that is not ``kind``'s database is refused by the store's
    :class:`~adjacency.storage.WrongDatabaseError`, byte for byte unchanged).

    The connection only reads (the check's pragmas, then SQLite's backup into the copy),
    but is not opened in SQLite's read-only mode: on a write-ahead-log database a
    read-only connection leaves ``-wal`` and ``-shm`` files beside it, which the last
    ordinary connection to close removes."""
    from ..storage import check_file

    if not path.is_file():
        raise InvalidSettingsError(f"--from {kind}:{path}: no such file")
    with tempfile.TemporaryDirectory(prefix="adjacency-puzzles-") as folder:
        copy = Path(folder) / "copy.sqlite3"
        try:
            source = sqlite3.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise InvalidSettingsError(f"--from {kind}:{path}: cannot open: {exc}") from None
        try:
            check_file(source, path, config, schema)
            with contextlib.closing(sqlite3.connect(copy)) as target:
                source.backup(target)
        except sqlite3.Error as exc:
            raise InvalidSettingsError(f"--from {kind}:{path}: cannot read: {exc}") from None
        finally:
            source.close()
        yield copy


SKIPPED: list[str] = []
"""The stored games whose record did not parse (``KIND id``), skipped by the readers and
counted in the build's summary: one damaged row never stops a build."""


def _game_positions(parse: Any, record: Any, where: str) -> Iterator[str]:
    from ..core.errors import AdjacencyError

    try:
        game = parse(record)
    except AdjacencyError:
        SKIPPED.append(where)
        return
    for position in game.positions:
        if not position.is_over:
            yield position.fen()


def league_candidates(path: Path) -> Iterator[tuple[str, str]]:
    """Positions of the league's stored games (every game with a record, by id)."""
    from ..core.record import game_from_text
    from ..league.league_file import LeagueStore
    from ..league.store.schema import CONFIG, STORE_SCHEMA

    with snapshot(path, "league", CONFIG, STORE_SCHEMA) as copy:
        store = LeagueStore(copy, create=False)
        try:
            games = sorted(store.games.games(with_record=True), key=lambda g: g.id)
        finally:
            store.close()
    for game in games:
        if game.record:
            for text in _game_positions(game_from_text, game.record, f"league {game.id}"):
                yield text, "league"


def arena_candidates(path: Path) -> Iterator[tuple[str, str]]:
    """Positions of the arena's stored games (every run, schedule order)."""
    from ..arena.store import CONFIG, STORE_SCHEMA, Store
    from ..core.record import game_from_text

    with snapshot(path, "arena", CONFIG, STORE_SCHEMA) as copy, Store(copy) as store:
        games = store.games()
    for game in games:
        if game.record:
            where = f"arena {game.run_id}/{game.idx}"
            for text in _game_positions(game_from_text, game.record, where):
                yield text, "arena"


def web_candidates(path: Path) -> Iterator[tuple[str, str]]:
    """Positions of the web's stored games (by id; damaged rows skipped)."""
    from ..core.record import game_from_dict
    from ..web.store import CONFIG, STORE_SCHEMA, GameStore

    with snapshot(path, "web", CONFIG, STORE_SCHEMA) as copy:
        store = GameStore(str(copy))
        try:
            games = sorted(store.all(limit=2**62), key=lambda g: g.id)
        finally:
            store.close()
    for game in games:
        if game.damaged is None and game.record:
            for text in _game_positions(game_from_dict, game.record, f"web {game.id}"):
                yield text, "web"


def data_candidates(path: Path, plies: tuple[int, int] = (0, 64)) -> Iterator[tuple[str, str]]:
    """Positions of a training positions job (8x8 self-play), shards in index order,
    each checked against its manifest's checksum; the source is ``data:SHARD``. Only rows
    with ``plies`` (lowest, highest) plies left are turned into positions: a million
    rows outside the rules' range would only be built to be dropped by the plan."""
    from ..core import Position, board
    from ..training.dataset import open_job

    job = open_job(path)
    geometry = board(8, 8)
    for index in sorted(job.done):
        arrays = job.read(index)
        source = f"data:{Path(job.done[index]['file']).stem}"
        for x, o, x_to_move, left in zip(
            arrays["x"], arrays["o"], arrays["x_to_move"], arrays["plies"], strict=True
        ):
            if not plies[0] <= int(left) <= plies[1]:
                continue
            position = Position(geometry, int(x), int(o), "x" if x_to_move else "o", int(left))
            yield position.fen(), source


READERS = {
    "league": league_candidates,
    "arena": arena_candidates,
    "web": web_candidates,
    "data": data_candidates,
}


def source_data(texts: list[str]) -> list[dict[str, Any]]:
    """What identifies each ``--from``'s data, for the build's record: the SHA-256 of a
    database file's bytes, or of a training positions directory's ``manifest.json``, which
    lists every shard with its own SHA-256 (checked on reading) and the job's settings (the
    command that made the data), so the hash pins every shard without hashing them all.
    The data is not shipped with the puzzles; its hash says whether a copy is the same."""
    import hashlib
    import json

    from ..training.dataset import MANIFEST, manifest_sha256

    found: list[dict[str, Any]] = []
    for text in texts:
        kind, path = parse_source(text)
        hashed = path / MANIFEST if kind == "data" else path
        item: dict[str, Any] = {
            "from": text,
            "hashed": hashed.name,
            "sha256": (
                manifest_sha256(path)
                if kind == "data"
                else hashlib.sha256(path.read_bytes()).hexdigest()
            ),
        }
        if kind == "data":
            manifest = json.loads(hashed.read_text(encoding="utf-8"))
            item["shards"] = len(manifest.get("shards", []))
            item["job_settings"] = manifest.get("settings", {})
        found.append(item)
    return found


def read_sources(texts: list[str], plies: tuple[int, int] = (0, 64)) -> list[Any]:
    """The candidates of every ``--from``, in the order given (each source checked
    before any is read); ``plies``: the training data's rows outside this range of plies
    left are skipped (the plan would drop them)."""
    from ..puzzles.build import Candidate

    parsed = [parse_source(text) for text in texts]
    candidates: list[Candidate] = []
    for kind, path in parsed:
        rows = data_candidates(path, plies) if kind == "data" else READERS[kind](path)
        candidates.extend(Candidate(text, source) for text, source in rows)
    return candidates


# ------------------------------------------------------------------------ handlers


def run_build(args: argparse.Namespace) -> int:
    """``adjacency puzzles build``."""
    import os
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..puzzles.build import BuildSettings, Figures, build
    from ..puzzles.prove import Rules

    rules = Rules(min_plies=args.min_plies, max_plies=args.max_plies)
    settings = BuildSettings(count=args.count, seed=args.seed, rules=rules)
    out = Path(args.out)
    if not out.parent.is_dir():
        raise InvalidSettingsError(f"--out {quote(args.out)}: no such folder")
    SKIPPED.clear()
    candidates = read_sources(args.sources, (args.min_plies, args.max_plies))
    if SKIPPED:
        print(
            f"skipped {len(SKIPPED)} stored game(s) whose record does not parse "
            f"({', '.join(SKIPPED[:3])}{', ...' if len(SKIPPED) > 3 else ''})",
            file=sys.stderr,
        )
    executor = executor_from_args(args)
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[detail]}"),
    )
    cpu_started = time.process_time()
    progress = Progress(*columns, console=console)
    task = progress.add_task("puzzles", total=args.count, detail="")

    def report(figures: Figures) -> None:
        # Started on the first batch: a refusal before any work is one line, no bar.
        if not progress.live.is_started:
            progress.start()
        progress.update(
            task,
            completed=min(figures.found, args.count),
            detail=f"{figures.examined:,} examined, {figures.rate:.1f}/s",
        )

    try:
        with executor:
            figures = build(candidates, settings, out, executor, args.resume, report)
    finally:
        if progress.live.is_started:
            progress.stop()
    load = os.getloadavg()
    record = write_provenance(args, out, figures)
    print(
        f"{figures.kept} puzzles written to {out} (provenance: {record.name}): "
        f"{figures.planned:,} candidates planned, "
        f"{figures.examined:,} examined in this run ({figures.resumed_batches} batches "
        f"from the checkpoint), {figures.found} found, {figures.solves:,} solves, "
        f"worker CPU {figures.cpu:.1f} s (driver {time.process_time() - cpu_started:.1f} s), "
        f"wall {figures.wall:.1f} s, {figures.rate:.1f} positions/s, "
        f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    return 0


def write_provenance(args: argparse.Namespace, out: Path, figures: Any) -> Path:
    """Write the build's provenance record (:mod:`adjacency.system.provenance`: the code,
    libraries and machine, the settings and sources, the seed) and its figures beside
    ``out``; return the file's path."""
    import json

    from ..puzzles.model import provenance_path
    from ..system.provenance import provenance

    settings = {
        "count": args.count,
        "min_plies": args.min_plies,
        "max_plies": args.max_plies,
        "sources": list(args.sources),
        "source_data": source_data(args.sources),
        "out": out.name,
    }
    record = provenance(settings, seeds=args.seed)
    record["figures"] = {
        "kept": figures.kept,
        "planned": figures.planned,
        "examined": figures.examined,
        "found": figures.found,
        "solves": figures.solves,
        "resumed_batches": figures.resumed_batches,
    }
    path = provenance_path(out)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path


def run_show(args: argparse.Namespace) -> int:
    """``adjacency puzzles show ID``: the puzzle and the provenance of the build that
    made it (the shipped file's record, or the one beside ``--file``); ``--json``: both
    as one object."""
    import json

    from ..puzzles.model import (
        PuzzleFileError,
        file_provenance,
        load_puzzles,
        load_shipped_files,
        shipped_provenance,
    )
    from ..system.provenance import describe

    if args.file is None:
        held = {p.id: (p, name) for p, name in load_shipped_files()}
        records: dict[str, Any] = dict(shipped_provenance())
    else:
        held = {p.id: (p, args.file) for p in load_puzzles(args.file)}
        records = {args.file: file_provenance(args.file)}
    if args.id not in held:
        where = args.file or "the shipped set"
        raise PuzzleFileError(f"no puzzle {quote(args.id)} in {where}")
    puzzle, name = held[args.id]
    record = records[name]
    if args.json:
        shown = {"puzzle": puzzle.as_json(), "file": Path(name).name, "provenance": record}
        print(json.dumps(shown, indent=1))
        return 0
    start = puzzle.start
    print(f"puzzle {puzzle.id} ({puzzle.source}), rating {puzzle.rating:.0f}")
    print(start)
    print(f"position: {puzzle.position}")
    print(
        f"{start.turn} to move, {start.plies_left} plies left; themes: {', '.join(puzzle.themes)}"
    )
    print(f"solution: {' '.join(puzzle.solution)} (final margin {puzzle.value:+d})")
    for step, refutations in enumerate(puzzle.refutations, 1):
        print(f"step {step}, every other move:")
        for r in refutations:
            reply = r.reply or "(game over)"
            print(f"  {r.move:<4} {r.value:+d}  refuted by {reply}")
    print(f"provenance of its build ({Path(name).name}):")
    print("\n".join(f"  {line}" for line in describe(record)))
    reproved = (record or {}).get("reproved")
    if reproved:
        print(
            f"  proved again: {reproved['puzzles']} of its {reproved['of']} puzzles, "
            f"{len(reproved['failed'])} failed (seed {reproved['provenance']['seeds']}, "
            f"{reproved['provenance']['created']})"
        )
    return 0


def run_check(args: argparse.Namespace) -> int:
    """``adjacency puzzles check FILE``."""
    from ..puzzles import load_puzzles
    from ..puzzles.prove import verify

    puzzles = load_puzzles(args.file)
    if args.sample is not None and args.sample < len(puzzles):
        puzzles = random.Random(args.seed).sample(puzzles, args.sample)
    failed = 0
    for puzzle in puzzles:
        problem = verify(puzzle)
        if problem is not None:
            failed += 1
            print(f"{puzzle.id}: FAILED: {problem}")
    print(f"{len(puzzles) - failed} of {len(puzzles)} puzzles proved again")
    return 1 if failed else 0
