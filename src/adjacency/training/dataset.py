"""Training data at scale: labelled self-play positions as a resumable, sharded job.

A job (:class:`JobSettings`) is ``shards`` shards of ``shard_games`` 8x8 self-play
games each. Every game draws its two players from ``players`` (a v1/v3/v4 search at
a fixed depth each), opens with a random number (0 to ``opening_plies``) of uniformly
random moves, then plays its players' moves, each replaced by a random move with
probability ``epsilon`` (:func:`adjacency.training.fit.play_game`). Each position
is kept with probability ``sample`` and labelled by
:func:`adjacency.training.fit.label_positions`: a depth-``depth`` search of the
frozen v1 engine, or the exact solver with at most ``exact_plies`` left (default 16:
measured on one core, a 16-ply solve costs about 0.3 s, an 18-ply one 2.5 s and a
20-ply one 36 s, against 0.02 s for a depth-6 search label, so exact labels from 20
plies would make a 5-million-position job cost 33 times as much; docs/engine.md).

**Determinism.** Shard ``i`` is a pure function of the settings and ``i``: its
random stream is seeded by ``f"{seed}/shard/{i}"`` alone, its engines are fresh and
single-threaded, and its file is written byte for byte the same (a zip of ``.npy``
arrays with fixed timestamps, :func:`encode_shard`). So the shards do not depend on
the executor (serial, a local pool, a Ray cluster), on the order in which shards
finish, or on whether the job was killed and resumed: a resumed job's directory is
identical to an uninterrupted one's.

**Files.** A job directory holds ``manifest.json`` (:data:`MANIFEST`: the format,
the settings with the seed, the finished shards in index order with their file,
counts and SHA-256, and the totals) and one ``shard-NNNNN.npz`` per finished shard
(:data:`FIELDS`). The driver writes both, never a worker (a Ray worker may run on
another machine): a shard goes to a temporary file renamed into place, and then the
manifest is rewritten the same way, so a kill at any moment leaves every listed
shard complete and checked; a shard written but not yet listed is made again on
``resume``. No timing goes into the manifest, so it too is a pure function of the
settings once the job is complete.

**Reading.** :func:`open_job` checks a directory (manifest format and settings, every
shard's checksum) and :func:`phase_rows_from_shards` streams the shards one at a time,
keeping only one phase's rows, for :func:`adjacency.training.fit.fit_pattern_phases`,
labelled by the chosen target (:func:`target_labels`: the stored search labels, the exact
value reached later in the same game, or a TD(lambda) blend of the two).
Every problem with the input (missing directory, other settings, corrupt shard) is a
:class:`DatasetError`: one line, exit status 2 on the command line.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import zipfile
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from ..core import Position
from ..core.errors import AdjacencyError
from ..engine import Engine
from ..engine.weights_file import UNITS
from ..workers.executor import Executor
from .fit import bitboard_columns, label_positions, phase_rows, play_game

FORMAT = "adjacency-positions"
"""The ``format`` field of a job's manifest."""
VERSION = 1
"""The manifest's and shards' layout version."""
MANIFEST = "manifest.json"
"""The manifest's file name inside a job directory."""
FIELDS = ("x", "o", "x_to_move", "plies", "label", "exact", "game")
"""The arrays of a shard, one entry per labelled position: the two sides' bitboards
(``uint64``), whether x is to move (``bool``), plies left (``uint8``), the label (final
margin expected for the side to move, pieces, ``float64``), whether it is exact
(``bool``) and the game's number within the shard (``uint32``)."""
PLAYERS = (("v1", 1), ("v1", 2), ("v3", 2), ("v4", 3))
"""The default players of a job's games: (engine profile, search depth)."""


class DatasetError(AdjacencyError):
    """A job directory that cannot be used: missing, not a job, made with other settings,
    or holding a shard that does not match its manifest."""


@dataclass(frozen=True)
class JobSettings:
    """Everything a job's data depends on (recorded in, and checked against, its manifest)."""

    seed: int
    shards: int
    shard_games: int
    rounds: tuple[int, ...] = (28,)
    players: tuple[tuple[str, int], ...] = PLAYERS
    opening_plies: int = 4
    epsilon: float = 0.1
    sample: float = 0.5
    depth: int = 6
    exact_plies: int = 16

    def as_json(self) -> dict[str, Any]:
        """The settings as the manifest stores them (tuples as lists)."""
        return json.loads(json.dumps(asdict(self)))  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, content: dict[str, Any]) -> JobSettings:
        """The settings a manifest stores; ``ValueError`` if they are not such settings."""
        names = {f.name for f in fields(cls)}
        if set(content) != names:
            raise ValueError(f"its settings name {sorted(content)}, expected {sorted(names)}")
        return cls(
            **{
                **content,
                "rounds": tuple(content["rounds"]),
                "players": tuple((str(p), int(d)) for p, d in content["players"]),
            }
        )


@dataclass(frozen=True)
class ShardTask:
    """One shard of work: the job's settings and the shard's number (picklable)."""

    settings: JobSettings
    index: int


def shard_name(index: int) -> str:
    """The file name of shard ``index``."""
    return f"shard-{index:05d}.npz"


def make_shard(task: ShardTask) -> dict[str, np.ndarray]:
    """Play and label shard ``task.index``'s games (in the calling process, fresh engines)
    and return its arrays (:data:`FIELDS`). A pure function of ``task``."""
    settings = task.settings
    positions, games = shard_positions(task)
    samples = label_positions(positions, settings.depth, settings.exact_plies)
    return {
        "x": np.array([p.x for p in positions], dtype=np.uint64),
        "o": np.array([p.o for p in positions], dtype=np.uint64),
        "x_to_move": np.array([p.turn == "x" for p in positions], dtype=bool),
        "plies": np.array([p.plies_left for p in positions], dtype=np.uint8),
        "label": np.array([s.label for s in samples], dtype=np.float64),
        "exact": np.array([s.exact for s in samples], dtype=bool),
        "game": np.array(games, dtype=np.uint32),
    }


def shard_positions(task: ShardTask) -> tuple[list[Position], list[int]]:
    """The positions shard ``task.index`` keeps from its self-play games, unlabelled, and
    each one's game number within the shard (the first half of :func:`make_shard`; the
    data benchmark times the labelling of these positions)."""
    settings = task.settings
    rng = random.Random(f"{settings.seed}/shard/{task.index}")
    engines: dict[str, Engine] = {}
    positions: list[Position] = []
    games: list[int] = []
    for game in range(settings.shard_games):
        start = Position.start(8, 8, rng.choice(settings.rounds))
        sides = (rng.choice(settings.players), rng.choice(settings.players))
        for profile, _ in sides:
            if profile not in engines:
                engines[profile] = Engine(tt_mb=4, profile=profile, threads=1)
            engines[profile].clear()
        opening = rng.randint(0, settings.opening_plies)
        played = play_game(
            rng,
            start,
            (engines[sides[0][0]], engines[sides[1][0]]),
            (sides[0][1], sides[1][1]),
            settings.epsilon,
            opening,
        )
        kept = [p for p in played if rng.random() < settings.sample]
        positions += kept
        games += [game] * len(kept)
    return positions, games


def encode_shard(arrays: dict[str, np.ndarray]) -> bytes:
    """A shard's file content: an ``.npz`` (``numpy.load`` reads it) whose bytes depend on
    the arrays alone (fixed timestamps and order; ``numpy.savez_compressed`` stamps the
    current time, which would make the checksums differ between runs)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in FIELDS:
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w") as file:
                np.lib.format.write_array(file, arrays[name], allow_pickle=False)
    return buffer.getvalue()


def decode_shard(content: bytes, what: str) -> dict[str, np.ndarray]:
    """The arrays of a shard file's ``content``; :class:`DatasetError` naming ``what``
    if it is not a shard."""
    try:
        with np.load(io.BytesIO(content), allow_pickle=False) as loaded:
            arrays = {name: loaded[name] for name in FIELDS}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise DatasetError(f"{what} is not a readable shard: {exc}") from None
    if len({len(a) for a in arrays.values()}) != 1:
        raise DatasetError(f"{what} is not a shard: its arrays differ in length")
    return arrays


def _write_atomically(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` so that a reader (or a kill) never sees half of it."""
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("wb") as file:
        file.write(content)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def manifest_sha256(directory: Path) -> str:
    """The SHA-256 of the job's ``manifest.json`` in ``directory`` (its bytes): what
    identifies the job's data, since the manifest lists every shard with its own SHA-256
    (checked on reading) and the settings that made them, so it pins every shard without
    hashing them all."""
    return hashlib.sha256((directory / MANIFEST).read_bytes()).hexdigest()


@dataclass
class Job:
    """A job directory as its manifest describes it: the settings and the finished shards
    (index: the manifest's entry)."""

    directory: Path
    settings: JobSettings
    done: dict[int, dict[str, Any]]

    @property
    def complete(self) -> bool:
        """Whether every shard is finished."""
        return len(self.done) == self.settings.shards

    def manifest(self) -> dict[str, Any]:
        """The manifest's content."""
        entries = [self.done[i] for i in sorted(self.done)]
        return {
            "format": FORMAT,
            "version": VERSION,
            "settings": self.settings.as_json(),
            "shards": entries,
            "totals": {
                "shards": len(entries),
                "planned_shards": self.settings.shards,
                "positions": sum(e["positions"] for e in entries),
                "exact": sum(e["exact"] for e in entries),
                "games": sum(e["games"] for e in entries),
                "complete": self.complete,
            },
        }

    def save(self) -> None:
        """Rewrite the manifest (atomically)."""
        text = json.dumps(self.manifest(), indent=1) + "\n"
        _write_atomically(self.directory / MANIFEST, text.encode())

    def add(self, index: int, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
        """Write shard ``index``'s file, list it and rewrite the manifest; its entry."""
        content = encode_shard(arrays)
        _write_atomically(self.directory / shard_name(index), content)
        entry = {
            "index": index,
            "file": shard_name(index),
            "positions": len(arrays["label"]),
            "exact": int(arrays["exact"].sum()),
            "games": self.settings.shard_games,
            "sha256": hashlib.sha256(content).hexdigest(),
        }
        self.done[index] = entry
        self.save()
        return entry

    def read(self, index: int) -> dict[str, np.ndarray]:
        """Shard ``index``'s arrays, checked against the manifest's checksum and counts."""
        entry = self.done[index]
        path = self.directory / entry["file"]
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise DatasetError(f"cannot read shard {str(path)!r}: {exc.strerror}") from None
        if hashlib.sha256(content).hexdigest() != entry["sha256"]:
            raise DatasetError(
                f"shard {str(path)!r} does not match its checksum in {MANIFEST}: the file is "
                "corrupt; delete it and run again with --resume to make it again"
            )
        arrays = decode_shard(content, repr(str(path)))
        if len(arrays["label"]) != entry["positions"]:
            raise DatasetError(f"shard {str(path)!r} does not hold the positions its entry counts")
        return arrays


def open_job(directory: Path, settings: JobSettings | None = None) -> Job:
    """The job in ``directory``, checked: it exists, its manifest is one, made with
    ``settings`` when given. Shards are not read (:meth:`Job.read` checks each).
    :class:`DatasetError` otherwise."""
    if not directory.is_dir():
        raise DatasetError(f"no job directory {str(directory)!r}")
    path = directory / MANIFEST
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
        if content.get("format") != FORMAT or content.get("version") != VERSION:
            raise ValueError(f"its format is not {FORMAT!r} version {VERSION}")
        made = JobSettings.from_json(content["settings"])
        done = {int(e["index"]): dict(e) for e in content["shards"]}
        for index, entry in done.items():
            if entry["file"] != shard_name(index) or not 0 <= index < made.shards:
                raise ValueError(f"its shard entry {index} is not one of this job's")
    except FileNotFoundError:
        raise DatasetError(f"{str(directory)!r} holds no {MANIFEST}: it is not a job") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DatasetError(f"cannot read {str(path)!r}: {exc}") from None
    if settings is not None and made != settings:
        mine, theirs = settings.as_json(), made.as_json()
        differ = ", ".join(
            f"{k} {theirs[k]} (asked {mine[k]})" for k in mine if mine[k] != theirs[k]
        )
        raise DatasetError(f"{str(path)!r} was made with other settings: {differ}")
    return Job(directory, made, done)


def start_job(directory: Path, settings: JobSettings, resume: bool) -> Job:
    """A new job in ``directory`` (created; it must not hold a manifest yet), or with
    ``resume`` the job already there (made with ``settings``; every listed shard is
    checked against its checksum, and a listed shard whose file is missing is dropped
    from the list, to be made again). :class:`DatasetError` when that cannot be."""
    if resume:
        job = open_job(directory, settings)
        for index in sorted(job.done):
            if not (directory / shard_name(index)).exists():
                del job.done[index]
            else:
                job.read(index)
        return job
    if (directory / MANIFEST).exists():
        raise DatasetError(
            f"{str(directory)!r} already holds a job: pass --resume to continue it, or "
            "choose another directory"
        )
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"cannot create {str(directory)!r}: {exc.strerror}") from None
    job = Job(directory, settings, {})
    job.save()
    return job


ShardProgress = Callable[[Job, dict[str, Any]], None]
"""``progress(job, entry)``, called after each shard is written."""


def generate(
    job: Job, executor: Executor, progress: ShardProgress | None = None
) -> Generator[dict[str, Any], None, None]:
    """Make the job's missing shards on ``executor`` and yield each one's manifest entry
    as it is written (any order; the files do not depend on it); closing the generator
    early abandons the shards in flight. Temporary files a killed run left (a shard or
    manifest half written) are removed first."""
    for stray in job.directory.glob(".*.tmp"):
        stray.unlink()
    missing = [ShardTask(job.settings, i) for i in range(job.settings.shards) if i not in job.done]
    for task, arrays in executor.map_unordered(make_shard, missing):
        entry = job.add(task.index, arrays)
        if progress is not None:
            progress(job, entry)
        yield entry


def split(job: Job, holdout: int) -> tuple[list[int], list[int]]:
    """The finished shards to fit on and to hold out: every ``holdout``-th shard by index
    (indices ``holdout - 1``, ``2 * holdout - 1``, ...) is held out; 0: none."""
    held = [i for i in sorted(job.done) if holdout and i % holdout == holdout - 1]
    return [i for i in sorted(job.done) if i not in held], held


TARGETS = ("search", "outcome", "blend")
"""What a fit learns (:func:`target_labels`): the stored labels (``search``: a depth-6 v1
search, exact near the end), the exact value reached later in the same game
(``outcome``), or a TD(lambda) return between the two (``blend``)."""


def target_labels(arrays: dict[str, np.ndarray], target: str, td_lambda: float = 0.7) -> np.ndarray:
    """The labels (pieces, for the side to move) of a shard's rows under ``target``
    (:data:`TARGETS`).

    - ``search``: the stored labels, unchanged.
    - ``outcome``: a row's label is the exact value of the first exactly labelled row of
      its game at or after it (the same game number, fewest plies left above or equal to
      its own), negated when the other side is to move there: the final margin under
      perfect play from the point the game entered the solver's reach, as the game was
      actually played up to it. An exactly labelled row keeps its own label.
    - ``blend``: the TD(lambda) return over the game's rows from the row onward,
      ``G_i = (1 - td_lambda) * search_i + td_lambda * G_next`` (``G_next`` the next row of
      the game, sign-adjusted for its side to move), ending at the first exact row, whose
      ``G`` is its exact value: ``td_lambda`` 1 is ``outcome``, 0 is ``search``.

    A row with no exactly labelled row after it in its game keeps its search label (with
    the data job's 16 exact plies and half the positions kept, that is a game whose last
    15 positions were all dropped: about 1 in 30,000). The rows need not be in game order:
    they are ordered by game, then plies left, here. ``ValueError`` for an unknown target
    or a ``td_lambda`` outside 0..1."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}, got {target!r}")
    if not 0.0 <= td_lambda <= 1.0:
        raise ValueError(f"td_lambda must be 0-1, got {td_lambda}")
    search = arrays["label"].astype(np.float64)
    if target == "search":
        return search
    weight = 1.0 if target == "outcome" else td_lambda
    game = arrays["game"].tolist()
    exact, mover = arrays["exact"].tolist(), arrays["x_to_move"].tolist()
    labels = search.tolist()
    out = list(labels)
    later: tuple[int, float, bool] | None = None  # (game, G, x to move) of the next row
    for i in np.lexsort((arrays["plies"], arrays["game"])).tolist():  # each game from its end
        if later is not None and later[0] != game[i]:
            later = None  # a new game
        if exact[i]:
            later = (game[i], labels[i], mover[i])
        elif later is not None:  # an exact row lies ahead in this game
            ahead = later[1] if later[2] == mover[i] else -later[1]
            out[i] = (1.0 - weight) * labels[i] + weight * ahead
            later = (game[i], out[i], mover[i])
    return np.array(out, dtype=np.float64)


def phase_rows_from_shards(
    job: Job,
    indices: Sequence[int],
    target: str = "search",
    td_lambda: float = 0.7,
    labels: Mapping[int, np.ndarray] | None = None,
) -> Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """A :data:`~adjacency.training.fit.PhaseRows` over the shards ``indices`` (in that
    order), labelled by ``target`` (:func:`target_labels`), or by ``labels`` (shard: its
    rows' labels, pieces) when given: each call reads the shards one at a time and keeps
    only the phase's rows, so memory holds one phase (with window 2 about 1 in 7 of the
    rows), not the job."""

    def rows(phase: int, window: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        parts = [
            shard_rows(
                relabelled(job.read(i), target, td_lambda)
                if labels is None
                else {**job.read(i), "label": labels[i]},
                lambda plies: phase_rows(plies, phase, window),
            )
            for i in indices
        ]
        return tuple(np.concatenate([p[k] for p in parts]) for k in range(4))  # type: ignore[return-value]

    return rows


def relabelled(
    arrays: dict[str, np.ndarray], target: str, td_lambda: float = 0.7
) -> dict[str, np.ndarray]:
    """A shard's arrays with its ``label`` replaced by ``target``'s (:func:`target_labels`)."""
    if target == "search":
        return arrays
    return {**arrays, "label": target_labels(arrays, target, td_lambda)}


def shard_rows(
    arrays: dict[str, np.ndarray], keep: Callable[[np.ndarray], np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pattern columns, features, labels (1/UNITS piece) and plies left of a shard's
    rows (those ``keep(plies)`` selects, default all)."""
    plies = arrays["plies"].astype(np.int64)
    mask = np.ones(len(plies), dtype=bool) if keep is None else keep(plies)
    x, o, x_to_move = arrays["x"][mask], arrays["o"][mask], arrays["x_to_move"][mask]
    mover, opponent = np.where(x_to_move, x, o), np.where(x_to_move, o, x)
    columns, features = bitboard_columns(mover, opponent)
    return columns, features, arrays["label"][mask] * UNITS, plies[mask]


def positions(arrays: dict[str, np.ndarray]) -> list[Position]:
    """The positions of a shard's rows (8x8)."""
    board = Position.start(8, 8, 28).board
    return [
        Position(board, int(x), int(o), "x" if turn else "o", int(plies))
        for x, o, turn, plies in zip(
            arrays["x"], arrays["o"], arrays["x_to_move"], arrays["plies"], strict=True
        )
    ]
