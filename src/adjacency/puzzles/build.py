"""The build job: candidate positions from played games proved into a puzzle file.

**Candidates.** The caller (the ``adjacency puzzles build`` command, which opens the
league, arena and web stores and the training data) hands in :class:`Candidate`
positions with their source, in source order. :func:`plan` keeps those the rules admit
(:func:`adjacency.puzzles.prove.admissible`), the first of each position, shuffles them
with ``random.Random(seed)`` and cuts them into batches of :data:`BATCH` candidates.

**Proof.** Each batch is one task on the executor (:func:`prove_batch`: a fresh
engine per candidate). The puzzles are those of the batches in order, up to the first
``count``: the job stops submitting once the batches done from the first on hold
``count`` puzzles, so the result does not depend on which worker finished first.

**Checkpoint and resume.** Next to the output, ``OUT.partial`` gets a header line (the
settings and the SHA-256 of the candidate list) and then one line per finished batch
(its puzzles and counts), each flushed and synced before the next is written. With
``resume``, a build reads the batches already there (a torn last line is dropped, a
header for another seed, other rules or other candidates is refused; the count may
differ) and proves only the others; the
final file, sorted by id and written atomically (gzip with a zero timestamp when its
name ends in ``.gz``), is byte for byte the file an uninterrupted build writes. The
checkpoint is deleted once the file is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..core import Position
from ..core.errors import AdjacencyError
from ..core.text import quote
from ..workers.executor import Executor
from .model import Puzzle, encode_file
from .prove import Rules, admissible, prove

BATCH = 32
"""Candidates per task: enough to pay for a task's start, few enough that a resumed
build repeats little."""
CHECKPOINT_FORMAT = "adjacency-puzzle-build"


class BuildError(AdjacencyError):
    """A build that cannot run: a checkpoint of other settings, a checkpoint where
    ``resume`` was not asked, too few candidates, an output that cannot be written."""


@dataclass(frozen=True)
class Candidate:
    """A position from a played game and where it was played (``league``, ``arena``,
    ``web`` or ``data:SHARD``)."""

    position: str
    source: str


@dataclass(frozen=True)
class BuildSettings:
    """Everything a build's result depends on besides its candidates."""

    count: int
    seed: int
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True)
class Batch:
    """One task: batch ``index`` of the plan, its candidates and the rules."""

    index: int
    candidates: tuple[Candidate, ...]
    rules: Rules


@dataclass(frozen=True)
class BatchResult:
    """What a batch found: its puzzles (in candidate order), how many candidates it
    examined, the solves and the worker's CPU seconds."""

    index: int
    puzzles: tuple[Puzzle, ...]
    examined: int
    solves: int
    cpu: float

    def line(self) -> str:
        """The batch's line in the checkpoint (sorted keys, no newline)."""
        return json.dumps(
            {
                "batch": self.index,
                "examined": self.examined,
                "solves": self.solves,
                "cpu": round(self.cpu, 4),
                "puzzles": [p.as_json() for p in self.puzzles],
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    @classmethod
    def from_line(cls, text: str) -> BatchResult:
        """The batch of one checkpoint line; ``ValueError``/``KeyError`` if it is not one."""
        content = json.loads(text)
        return cls(
            int(content["batch"]),
            tuple(Puzzle.from_json(p) for p in content["puzzles"]),
            int(content["examined"]),
            int(content["solves"]),
            float(content["cpu"]),
        )


@dataclass
class Figures:
    """The build's figures: candidates planned and examined, puzzles found and kept,
    solves, the workers' CPU seconds, wall seconds, batches taken from a checkpoint."""

    planned: int = 0
    examined: int = 0
    found: int = 0
    kept: int = 0
    solves: int = 0
    cpu: float = 0.0
    wall: float = 0.0
    resumed_batches: int = 0

    @property
    def rate(self) -> float:
        """Candidates examined per wall second (this run's, not the checkpoint's)."""
        return self.examined / self.wall if self.wall > 0 else 0.0


def plan(candidates: Iterable[Candidate], settings: BuildSettings) -> list[Candidate]:
    """The admissible candidates, the first of each position, shuffled by the seed."""
    seen: set[str] = set()
    kept: list[Candidate] = []
    for candidate in candidates:
        if candidate.position in seen:
            continue
        seen.add(candidate.position)
        if admissible(Position.from_fen(candidate.position), settings.rules):
            kept.append(candidate)
    random.Random(settings.seed).shuffle(kept)
    return kept


def fingerprint(planned: list[Candidate]) -> str:
    """The SHA-256 of the planned candidates, in order."""
    digest = hashlib.sha256()
    for candidate in planned:
        digest.update(f"{candidate.position}\t{candidate.source}\n".encode())
    return digest.hexdigest()


def prove_batch(batch: Batch) -> BatchResult:
    """Prove every candidate of ``batch`` (in a worker; a fresh engine each)."""
    started = time.process_time()
    solves = [0]

    def count(n: int) -> None:
        solves[0] += n

    found = []
    for candidate in batch.candidates:
        puzzle = prove(Position.from_fen(candidate.position), candidate.source, batch.rules, count)
        if puzzle is not None:
            found.append(puzzle)
    return BatchResult(
        batch.index, tuple(found), len(batch.candidates), solves[0], time.process_time() - started
    )


def checkpoint_path(out: Path) -> Path:
    """Where the build of ``out`` keeps its checkpoint."""
    return out.with_name(out.name + ".partial")


def _header(settings: BuildSettings, print_: str) -> str:
    """The checkpoint's first line: what the batches depend on (the seed, the rules, the
    candidates), not ``count``, which only says where to stop: a build resumed with a
    larger count goes on from the batches already proved."""
    return json.dumps(
        {
            "format": CHECKPOINT_FORMAT,
            "version": 1,
            "seed": settings.seed,
            "rules": asdict(settings.rules),
            "candidates": print_,
        },
        sort_keys=True,
        separators=(",", ":"),
    )


def read_checkpoint(path: Path, header: str) -> dict[int, BatchResult]:
    """The batches of the checkpoint at ``path`` (written with ``header``); a torn last
    line is dropped; another header is a :class:`BuildError`."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if not lines or lines[0] != header:
        raise BuildError(
            f"the checkpoint {quote(str(path))} is of a build with other settings or "
            "candidates; delete it to start again"
        )
    done: dict[int, BatchResult] = {}
    for text in lines[1:]:
        if not text:
            continue
        try:
            result = BatchResult.from_line(text)
        except (ValueError, KeyError, TypeError):
            break  # a line torn by a kill: that batch runs again
        done[result.index] = result
    return done


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def build(
    candidates: Iterable[Candidate],
    settings: BuildSettings,
    out: Path,
    executor: Executor,
    resume: bool = False,
    progress: Callable[[Figures], None] | None = None,
    stop_after: int | None = None,
) -> Figures:
    """Prove ``candidates`` into the puzzle file ``out`` (module docstring).

    ``progress(figures)`` is called after every batch. ``stop_after`` (tests: a kill at
    a known point) raises ``KeyboardInterrupt`` once that many batches were checkpointed
    by this run. Raises :class:`BuildError`.
    """
    started = time.monotonic()
    planned = plan(candidates, settings)
    figures = Figures(planned=len(planned))
    if not planned:
        raise BuildError(
            "no candidate position: the sources hold no game with a position "
            "the rules admit (plies left, legal moves)"
        )
    batches = [
        Batch(i, tuple(planned[start : start + BATCH]), settings.rules)
        for i, start in enumerate(range(0, len(planned), BATCH))
    ]
    header = _header(settings, fingerprint(planned))
    partial = checkpoint_path(out)
    done: dict[int, BatchResult] = {}
    if partial.exists():
        if not resume:
            raise BuildError(
                f"{quote(str(partial))} holds an interrupted build: add --resume to go on, "
                "or delete it to start again"
            )
        done = read_checkpoint(partial, header)
        figures.resumed_batches = len(done)
    try:
        _rewrite(partial, header, done)
    except OSError as exc:
        raise BuildError(f"cannot write {quote(str(partial))}: {exc.strerror}") from None

    def enough() -> bool:
        total = 0
        for i in range(len(batches)):
            if i not in done:
                return False
            total += len(done[i].puzzles)
            if total >= settings.count:
                return True
        return False

    def todo() -> Iterator[Batch]:
        for batch in batches:
            if enough():
                return
            if batch.index not in done:
                yield batch

    written = 0
    if not enough():
        with open(partial, "a", encoding="utf-8") as handle:
            for _, result in executor.map_unordered(prove_batch, todo()):
                done[result.index] = result
                handle.write(result.line() + "\n")
                handle.flush()
                os.fsync(handle.fileno())
                written += 1
                figures.examined += result.examined
                figures.found += len(result.puzzles)
                figures.solves += result.solves
                figures.cpu += result.cpu
                figures.wall = time.monotonic() - started
                if progress is not None:
                    progress(figures)
                if stop_after is not None and written >= stop_after:
                    raise KeyboardInterrupt
                if enough():
                    break
    puzzles: list[Puzzle] = []
    for i in range(len(batches)):
        if i not in done or len(puzzles) >= settings.count:
            break
        puzzles.extend(done[i].puzzles)
    if len(puzzles) < settings.count:
        raise BuildError(
            f"only {len(puzzles)} puzzles in {len(planned)} candidates, {settings.count} "
            "asked: give more sources or ask for fewer"
        )
    kept = sorted(puzzles[: settings.count], key=lambda p: p.id)
    _write_atomic(out, encode_file(kept, gzipped=out.name.endswith(".gz")))
    partial.unlink()
    figures.kept = len(kept)
    figures.wall = time.monotonic() - started
    return figures


def _rewrite(partial: Path, header: str, done: dict[int, BatchResult]) -> None:
    """The checkpoint with ``header`` and the batches kept (a torn line dropped)."""
    lines = [header] + [done[i].line() for i in sorted(done)]
    _write_atomic(partial, ("\n".join(lines) + "\n").encode("utf-8"))
