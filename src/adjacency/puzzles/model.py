"""A puzzle: a position with one proven best move, its line, refutations and rating.

:class:`Puzzle` is a plain frozen record with no dependency on the engine, so the
browser page and the league can load and serve puzzles without the compiled solver.
Puzzle files are JSON Lines (one puzzle a line, :meth:`Puzzle.as_json`), optionally
gzip-compressed (``.jsonl.gz``); :func:`load_puzzles` reads one and
:func:`load_shipped` reads the set shipped in the package (the files of
:data:`SHIPPED` in ``adjacency/puzzles/data``, one per build). A puzzle's
:attr:`Puzzle.phase` (:func:`phase_of`) is the one definition of the game's phases.
The proof that makes a position a puzzle is in :mod:`adjacency.puzzles.prove`; the
rules are in docs/puzzles.md.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from ..core import Position
from ..core.errors import AdjacencyError
from ..core.text import quote

FORMAT = "adjacency-puzzle"
"""The ``format`` field of every puzzle line."""
VERSION = 1
"""The layout version of a puzzle line."""
SHIPPED = ("puzzles.jsonl.gz", "middle.jsonl.gz")
"""The shipped set's files in the package's ``data`` folder, one per build: the endgame
build (8 to 14 plies left) and the middle-game build (15 plies left or more)."""
THEMES = ("only-win", "only-draw", "conversion", "quiet", "corner", "parity", "last-move")
"""Every theme name a rule can give (docs/puzzles.md defines each)."""


Phase = Literal["endgame", "middlegame", "opening"]
"""The phase of the game at a puzzle's position, from its plies left (:func:`phase_of`)."""
PHASES: tuple[Phase, ...] = get_args(Phase)
"""Every phase, from the end of the game back to its start."""
ENDGAME_PLIES = 14
"""The most plies left in the endgame."""
MIDDLEGAME_PLIES = 28
"""The most plies left in the middle game; more is the opening."""


def phase_of(plies_left: int) -> Phase:
    """The phase of a position with ``plies_left`` plies left: ``endgame`` up to
    :data:`ENDGAME_PLIES`, ``middlegame`` up to :data:`MIDDLEGAME_PLIES`, else
    ``opening``. The endgame is what the solver proves in well under a second; the
    bounds are the puzzle set's, not the rules' (docs/puzzles.md)."""
    if plies_left <= ENDGAME_PLIES:
        return "endgame"
    return "middlegame" if plies_left <= MIDDLEGAME_PLIES else "opening"


class PuzzleFileError(AdjacencyError):
    """A puzzle file that cannot be read: missing, not gzip/JSON Lines, or holding a line
    that is not a puzzle. The message names the file and the line."""


def puzzle_id(position_text: str) -> str:
    """The stable id of the puzzle at ``position_text``: ``p`` and the first 12 hex digits
    of the SHA-256 of the text (the same position always has the same id)."""
    return "p" + hashlib.sha256(position_text.encode("ascii")).hexdigest()[:12]


@dataclass(frozen=True)
class Refutation:
    """A move other than the best at one step of the solution: its exact ``value`` (the
    final margin for the side that plays it, under perfect play afterwards) and the
    opponent's ``reply`` that holds it to that value (``None`` when the move ends the game)."""

    move: str
    value: int
    reply: str | None

    def as_json(self) -> list[Any]:
        """``[move, value, reply]``."""
        return [self.move, self.value, self.reply]


@dataclass(frozen=True)
class Puzzle:
    """One proven puzzle.

    ``position`` is the position text (:meth:`adjacency.core.Position.fen`: board,
    pieces, side to move and plies left). ``solution`` alternates the solver's moves and
    the opponent's replies, starting and ending with a solver move (1, 3 or 5 moves):
    every solver move in it is the position's only best move (docs/puzzles.md, "The
    proof"), every reply is a best reply. ``value`` is the exact final margin for the
    side to move at ``position`` under perfect play. ``refutations[i]`` lists, for the
    solver's ``i``-th step, every other legal move with its exact value and the reply
    that refutes it, in the board's square order. ``themes`` are the rule-given names of
    :data:`THEMES`. ``source`` says where the position was played: ``league``,
    ``arena``, ``web`` or ``data:SHARD``. ``rating``/``rd``/``volatility`` are the
    puzzle's initial Glicko-2 values, from its difficulty.
    """

    id: str
    position: str
    solution: tuple[str, ...]
    value: int
    refutations: tuple[tuple[Refutation, ...], ...]
    themes: tuple[str, ...]
    source: str
    rating: float
    rd: float
    volatility: float

    @property
    def start(self) -> Position:
        """The puzzle's position as a :class:`~adjacency.core.Position`."""
        return Position.from_fen(self.position)

    @property
    def rows(self) -> int:
        """The board's rows (from the position text)."""
        return self.start.rows

    @property
    def cols(self) -> int:
        """The board's columns (from the position text)."""
        return self.start.cols

    @property
    def plies_left(self) -> int:
        """Plies left in the game at the puzzle's position (from the position text)."""
        return self.start.plies_left

    @property
    def phase(self) -> Phase:
        """The phase of the game at the puzzle's position (:func:`phase_of`)."""
        return phase_of(self.plies_left)

    @property
    def turn(self) -> str:
        """The side to move (the solver): ``x`` or ``o``."""
        return self.start.turn

    @property
    def best(self) -> str:
        """The first move of the solution: the position's only best move."""
        return self.solution[0]

    def as_json(self) -> dict[str, Any]:
        """The puzzle as one JSON object (one line of a puzzle file)."""
        start = self.start
        return {
            "format": FORMAT,
            "version": VERSION,
            "id": self.id,
            "position": self.position,
            "rows": start.rows,
            "cols": start.cols,
            "plies_left": start.plies_left,
            "solution": list(self.solution),
            "value": self.value,
            "refutations": [[r.as_json() for r in step] for step in self.refutations],
            "themes": list(self.themes),
            "source": self.source,
            "rating": self.rating,
            "rd": self.rd,
            "volatility": self.volatility,
        }

    def line(self) -> str:
        """The puzzle's line in a puzzle file (sorted keys, no spaces, no newline)."""
        return json.dumps(self.as_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, content: object) -> Puzzle:
        """The puzzle of one parsed line; ``ValueError`` naming what is wrong."""
        if not isinstance(content, dict):
            raise ValueError("not a JSON object")
        if content.get("format") != FORMAT or content.get("version") != VERSION:
            raise ValueError(f"not an {FORMAT} version {VERSION} line")
        try:
            position = Position.from_fen(str(content["position"]))
            text = position.fen()
            refutations = tuple(
                tuple(
                    Refutation(str(move), _int(value), None if reply is None else str(reply))
                    for move, value, reply in step
                )
                for step in content["refutations"]
            )
            puzzle = cls(
                id=str(content["id"]),
                position=text,
                solution=tuple(str(m) for m in content["solution"]),
                value=_int(content["value"]),
                refutations=refutations,
                themes=tuple(str(t) for t in content["themes"]),
                source=str(content["source"]),
                rating=float(content["rating"]),
                rd=float(content["rd"]),
                volatility=float(content["volatility"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"missing or malformed field {exc}") from None
        carried = (position.rows, position.cols, position.plies_left)
        if (content.get("rows"), content.get("cols"), content.get("plies_left")) != carried:
            raise ValueError("rows, cols and plies_left are not those of its position")
        if puzzle.id != puzzle_id(text):
            raise ValueError(f"id {quote(puzzle.id)} is not the id of its position")
        if (
            len(puzzle.solution) % 2 != 1
            or len(puzzle.refutations) != (len(puzzle.solution) + 1) // 2
        ):
            raise ValueError("the solution and its refutations do not match in length")
        unknown = set(puzzle.themes) - set(THEMES)
        if unknown:
            raise ValueError(f"unknown themes {sorted(unknown)}")
        _check_line(position, puzzle.solution)
        return puzzle


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _check_line(position: Position, moves: Iterable[str]) -> None:
    """Every move of the line is legal in turn (raises the core's ``IllegalMoveError``)."""
    for move in moves:
        position = position.play(move)


def parse_lines(lines: Iterable[str], name: str) -> Iterator[Puzzle]:
    """The puzzles of a puzzle file's lines (blank lines skipped); ``PuzzleFileError``
    naming ``name`` and the line number at the first bad line."""
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            yield Puzzle.from_json(json.loads(text))
        except ValueError as exc:  # JSONDecodeError and the core's errors are ValueErrors
            raise PuzzleFileError(
                f"{name} line {number} is not a puzzle: {str(exc).splitlines()[0]}"
            ) from None


def read_text(path: Path) -> str:
    """The text of a puzzle file, gunzipped when it is gzip; ``PuzzleFileError`` if the
    file is missing or is not text."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PuzzleFileError(
            f"cannot read puzzle file {quote(str(path))}: {exc.strerror}"
        ) from None
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        return raw.decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError):
        raise PuzzleFileError(
            f"{quote(str(path))} is not a puzzle file (not gzip or UTF-8 JSON Lines)"
        ) from None


def load_puzzles(path: str | Path) -> list[Puzzle]:
    """Every puzzle in the file at ``path`` (``.jsonl`` or ``.jsonl.gz``), in file order."""
    path = Path(path)
    return list(parse_lines(read_text(path).splitlines(), quote(str(path))))


def load_shipped() -> list[Puzzle]:
    """The puzzle set shipped in the package: the puzzles of every file of
    :data:`SHIPPED` (``adjacency/puzzles/data``), merged and sorted by id.
    ``PuzzleFileError`` if a file is missing or bad, or if two files hold the same id
    (each build proves its own positions: one id twice means the files are wrong)."""
    return [puzzle for puzzle, _ in load_shipped_files()]


def load_shipped_files() -> list[tuple[Puzzle, str]]:
    """Each shipped puzzle with the name of the file of :data:`SHIPPED` holding it (its
    build, whose record :func:`shipped_provenance` gives), sorted by id, checked as
    :func:`load_shipped` says."""
    merged: dict[str, tuple[Puzzle, str]] = {}
    for name in SHIPPED:
        data = resources.files(__package__).joinpath("data", name)
        with resources.as_file(data) as path:
            for puzzle in load_puzzles(path):
                if puzzle.id in merged:
                    raise PuzzleFileError(
                        f"puzzle {quote(puzzle.id)} is in both shipped files "
                        f"{quote(merged[puzzle.id][1])} and {quote(name)}"
                    )
                merged[puzzle.id] = (puzzle, name)
    return [merged[key] for key in sorted(merged)]


def provenance_path(path: Path) -> Path:
    """Where the build of the puzzle file ``path`` records its provenance:
    ``FILE.provenance.json`` beside it (not inside: the puzzle file stays byte for byte
    what the same settings prove)."""
    return path.with_name(path.name + ".provenance.json")


def file_provenance(path: str | Path) -> dict[str, Any] | None:
    """The provenance record of the puzzle file at ``path`` (:func:`provenance_path`),
    ``None`` when it has none; ``PuzzleFileError`` naming the record if it is not a JSON
    object."""
    record = provenance_path(Path(path))
    try:
        text = record.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PuzzleFileError(f"cannot read {quote(str(record))}: {exc.strerror}") from None
    try:
        content = json.loads(text)
    except ValueError:
        content = None
    if not isinstance(content, dict):
        raise PuzzleFileError(f"{quote(str(record))} is not a provenance record (a JSON object)")
    return content


def shipped_provenance() -> dict[str, dict[str, Any]]:
    """The provenance record of each shipped file, by its name in :data:`SHIPPED`: the
    build's code, settings, seed and figures, reconstructed from the history where it
    was built before records were kept (the unknown fields ``"unknown"``), and a sample
    of its puzzles proved again (``reproved``). ``PuzzleFileError`` if one is missing."""
    records: dict[str, dict[str, Any]] = {}
    for name in SHIPPED:
        data = resources.files(__package__).joinpath("data", name)
        with resources.as_file(data) as path:
            record = file_provenance(path)
        if record is None:
            raise PuzzleFileError(f"the shipped puzzle file {quote(name)} has no provenance")
        records[name] = record
    return records


def dump_lines(puzzles: Iterable[Puzzle]) -> bytes:
    """The bytes of a ``.jsonl`` puzzle file holding ``puzzles`` in the order given."""
    return "".join(p.line() + "\n" for p in puzzles).encode("utf-8")


def encode_file(puzzles: Iterable[Puzzle], gzipped: bool) -> bytes:
    """A puzzle file's bytes; gzip with no name and a zero timestamp, so the same
    puzzles always give the same bytes."""
    raw = dump_lines(puzzles)
    return gzip.compress(raw, compresslevel=9, mtime=0) if gzipped else raw
