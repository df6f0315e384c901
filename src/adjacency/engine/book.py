"""The book: positions whose exact value is proven, with their optimal moves.

``adjacency solutions book`` writes it from the solved-game table (the start
positions, every first move, the principal variations); the ``engine`` bot plays
from it before searching, so it plays perfectly wherever the book reaches, and
:func:`lookup` answers front ends (the analysis board) with the exact value.

File format (UTF-8 text, one file per board size, ``RxC.book``)::

    ADJACENCY-BOOK
    version 1
    board 8x8
    positions 1234
    sha256 <64 hex digits: the SHA-256 of every byte after the '---' line>
    ---
    <mover> <opponent> <plies> <value> <moves> <complete>
    ...

One line per position, in the *canonical frame* of
:func:`adjacency.engine.symmetry.canonical` (the smallest image under the board's
reflections and rotations, colours relative to the side to move, so every mirror
image and colour swap of a position shares one line): ``mover`` and
``opponent`` are the two sides' bitboards in hexadecimal (the core's bit layout),
``plies`` the plies left, ``value`` the exact final margin for the side to move,
``moves`` the optimal moves in that frame joined by commas, and ``complete`` 1
if they are all the optimal moves (else at least one). A file whose header,
checksum or lines do not hold is refused with :class:`BookError`, saying what
is wrong; the bot then plays without it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from ..core import Board, Position, board
from ..core.errors import AdjacencyError
from ..core.text import read_text
from .symmetry import canonical

MAGIC = "ADJACENCY-BOOK"
VERSION = 1
"""The book format version this code reads and writes."""
SEPARATOR = "---"
BOOK_DIR = Path(__file__).parent / "books"
"""The book files shipped in the package."""

log = logging.getLogger(__name__)

Key = tuple[int, int, int]


class BookError(AdjacencyError):
    """A book file that is missing, corrupted, of another format version or board size."""


class BookLine(NamedTuple):
    """A proven position as the solver reports it: position text, exact value (side to
    move's view), optimal moves (``complete``: all of them; else at least one)."""

    fen: str
    value: int
    moves: tuple[str, ...]
    complete: bool


@dataclass(frozen=True)
class BookHit:
    """A position found in the book: its exact value for the side to move and optimal
    moves named on the position's own board (``complete``: all of them)."""

    value: int
    moves: tuple[str, ...]
    complete: bool


@dataclass(frozen=True)
class _Entry:
    value: int
    moves: tuple[int, ...]
    complete: bool


class Book:
    """The positions of one board size, looked up by canonical key."""

    def __init__(self, geometry: Board, entries: dict[Key, _Entry], version: int = VERSION):
        self.board = geometry
        self.version = version
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    def lookup(self, position: Position) -> BookHit | None:
        """The exact value and optimal moves of ``position`` (or of a mirror image or
        colour swap of it), or ``None`` if the book does not have it."""
        if position.board != self.board or position.is_over:
            return None
        key, transform = canonical(position)
        entry = self._entries.get(key)
        if entry is None:
            return None
        back = transform.inverse()
        names = tuple(position.board.name(back.square(square)) for square in entry.moves)
        return BookHit(entry.value, names, entry.complete)


# ------------------------------------------------------------------------ reading


def parse_book(text: str, source: str = "book") -> Book:
    """Parse and verify a book file's text; raises :class:`BookError` naming ``source``."""
    head, sep, body = text.partition(SEPARATOR + "\n")
    header = head.splitlines()
    if not header or header[0] != MAGIC:
        raise BookError(f"{source} is not an adjacency book (its first line is not {MAGIC})")
    if not sep:
        raise BookError(f"{source}: the header does not end with a {SEPARATOR!r} line")
    fields: dict[str, str] = {}
    for line in header[1:]:
        name, _, value = line.partition(" ")
        fields[name] = value.strip()
    for name in ("version", "board", "positions", "sha256"):
        if name not in fields:
            raise BookError(f"{source}: the header has no {name!r} line")
    if fields["version"] != str(VERSION):
        raise BookError(
            f"{source} has book format version {fields['version'][:20]!r}; "
            f"this adjacency reads version {VERSION}"
        )
    rows, _, cols = fields["board"].partition("x")
    try:
        geometry = board(int(rows), int(cols))
    except (ValueError, AdjacencyError):
        raise BookError(f"{source}: bad board size {fields['board'][:20]!r}") from None
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    if digest != fields["sha256"]:
        raise BookError(
            f"{source} is corrupted: its checksum does not match its contents "
            f"(sha256 {digest[:16]}..., header says {fields['sha256'][:16]}...)"
        )
    entries: dict[Key, _Entry] = {}
    for number, line in enumerate(body.splitlines(), start=1):
        key, entry = _parse_line(line, geometry, f"{source} position line {number}")
        if key in entries:
            raise BookError(f"{source} position line {number}: position listed twice")
        entries[key] = entry
    if str(len(entries)) != fields["positions"]:
        raise BookError(
            f"{source}: the header says {fields['positions'][:20]!r} positions, "
            f"the file has {len(entries)}"
        )
    return Book(geometry, entries)


def _parse_line(line: str, geometry: Board, where: str) -> tuple[Key, _Entry]:
    parts = line.split()
    if len(parts) != 6:
        raise BookError(f"{where}: expected 6 fields, got {len(parts)}")
    try:
        mover, opponent, plies, value = (
            int(parts[0], 16),
            int(parts[1], 16),
            int(parts[2]),
            int(parts[3]),
        )
        moves = tuple(geometry.square(name) for name in parts[4].split(","))
    except (ValueError, AdjacencyError) as exc:
        raise BookError(f"{where}: {exc}") from None
    occupied = mover | opponent
    empties = geometry.size - occupied.bit_count()
    problem = None
    if mover < 0 or opponent < 0 or occupied & ~geometry.full or mover & opponent:
        problem = f"its pieces do not fit a {geometry.dimensions} board"
    elif not 1 <= plies <= empties:
        problem = f"plies left {plies} with {empties} empty squares"
    elif abs(value) > geometry.size or (value - occupied.bit_count() - plies) % 2:
        problem = f"value {value} is impossible there"
    elif any(occupied >> square & 1 for square in moves):
        problem = "a move is on an occupied square"
    elif parts[5] not in ("0", "1"):
        problem = f"complete must be 0 or 1, got {parts[5][:10]!r}"
    if problem:
        raise BookError(f"{where}: {problem}")
    return (mover, opponent, plies), _Entry(value, moves, parts[5] == "1")


def load_book(path: str | Path) -> Book:
    """Read and verify one book file; raises :class:`BookError`."""
    path = Path(path)
    try:
        text = read_text(path, f"book {str(path)!r}", BookError)
    except AdjacencyError as exc:  # also a file over the input limit
        raise BookError(f"cannot read book {str(path)!r}: {exc}") from None
    return parse_book(text, f"book {str(path)!r}")


def book_path(directory: Path, geometry: Board) -> Path:
    """The book file of ``geometry``'s board size in ``directory``, named after its dimensions
    (``8x8.book``)."""
    return directory / f"{geometry.dimensions}.book"


SHIPPED = "shipped"
"""The directory name that means :data:`BOOK_DIR` (the ``engine`` bot's ``book`` option)."""


@cache
def _book_in(directory: Path, geometry: Board) -> Book | BookError | None:
    """The book of ``geometry`` in ``directory``, the reason it was refused, or ``None``;
    cached, so a file is read (and a refusal reported) once per process."""
    path = book_path(directory, geometry)
    if not directory.is_dir() and directory != BOOK_DIR:
        error = BookError(f"book directory {str(directory)!r} does not exist")
        log.warning("book not used: %s", error)
        return error
    if not path.exists():
        return None
    try:
        book = load_book(path)
    except BookError as exc:
        log.warning("book not used: %s", exc)
        return exc
    if book.board != geometry:
        error = BookError(
            f"book {str(path)!r} is for {book.board.dimensions} boards, not {geometry.dimensions}"
        )
        log.warning("book not used: %s", error)
        return error
    return book


def _directory(directory: str | Path | None) -> Path:
    return BOOK_DIR if directory is None or directory == SHIPPED else Path(directory)


def book_for(geometry: Board, directory: str | Path | None = None) -> Book | None:
    """The book of a board size from ``directory`` (default or ``"shipped"``: the books
    in the package), or ``None`` if there is none; raises :class:`BookError` if the
    file is refused."""
    found = _book_in(_directory(directory), geometry)
    if isinstance(found, BookError):
        raise found
    return found


def lookup(position: Position, directory: str | Path | None = None) -> BookHit | None:
    """The book's exact value and optimal moves for ``position``, or ``None``: no book
    for the board, position not in it, or a refused book file (logged once, not raised:
    callers such as the ``engine`` bot then go on without the book)."""
    found = _book_in(_directory(directory), position.board)
    if found is None or isinstance(found, BookError):
        return None
    return found.lookup(position)


# ------------------------------------------------------------------------ writing


def format_book(geometry: Board, lines: Iterable[BookLine]) -> str:
    """The text of a book file holding ``lines`` (positions of ``geometry``), merged by
    canonical key; raises :class:`BookError` if two lines give one position different
    values."""
    entries: dict[Key, _Entry] = {}
    for line in lines:
        position = Position.from_fen(line.fen)
        if position.board != geometry:
            raise BookError(f"{line.fen!r} is not a {geometry.dimensions} position")
        key, transform = canonical(position)
        moves = {transform.square(position.board.square(m)) for m in line.moves}
        known = entries.get(key)
        if known is not None:
            if known.value != line.value:
                raise BookError(
                    f"two values for one position ({line.fen!r}): {known.value} and {line.value}"
                )
            if known.complete and not line.complete:
                continue
            if not line.complete:
                moves |= set(known.moves)
        entries[key] = _Entry(line.value, tuple(sorted(moves)), line.complete)
    body = "".join(
        f"{m:x} {o:x} {plies} {r.value} "
        f"{','.join(geometry.name(s) for s in r.moves)} {int(r.complete)}\n"
        for (m, o, plies), r in sorted(entries.items())
    )
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    header = (
        f"{MAGIC}\nversion {VERSION}\nboard {geometry.dimensions}\n"
        f"positions {len(entries)}\nsha256 {digest}\n{SEPARATOR}\n"
    )
    return header + body


def write_books(lines: Iterable[BookLine], directory: str | Path) -> list[Path]:
    """Write one book file per board size found in ``lines``; returns the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    by_board: dict[Board, list[BookLine]] = {}
    for line in lines:
        by_board.setdefault(Position.from_fen(line.fen).board, []).append(line)
    paths = []
    for geometry, group in sorted(by_board.items(), key=lambda item: item[0].dimensions):
        path = book_path(directory, geometry)
        path.write_text(format_book(geometry, group), encoding="utf-8")
        paths.append(path)
    _book_in.cache_clear()
    return paths
