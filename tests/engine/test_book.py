"""The book: its file format, verification, lookups through symmetry, and the engine's use."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from adjacency.bots import make_bot
from adjacency.bots.base import Limit, Thinking
from adjacency.bots.engine_bot import EngineBot
from adjacency.core import Position
from adjacency.engine.book import (
    BOOK_DIR,
    BookError,
    BookLine,
    book_for,
    format_book,
    load_book,
    lookup,
    parse_book,
    write_books,
)
from adjacency.engine.symmetry import transforms
from adjacency.solving.solved_starts import Entry, derive, solve_entry
from oracles import move_values


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Books of 4x4 and 4x5 written from freshly solved entries (X first; the O-first
    and 5x4 entries derived by symmetry)."""
    lines: list[BookLine] = []
    for rounds in range(1, 4):
        result = solve_entry(Entry(4, 4, rounds), tt_mb=4)
        lines += result.book
        lines += derive(result, Entry(4, 4, rounds, "o")).book
    result = solve_entry(Entry(4, 5, 2), tt_mb=4)
    lines += result.book + derive(result, Entry(5, 4, 2)).book
    directory = tmp_path_factory.mktemp("books")
    write_books(lines, directory)
    return directory


def test_books_round_trip_and_answer_mirror_images(books: Path) -> None:
    assert sorted(p.name for p in books.iterdir()) == ["4x4.book", "4x5.book", "5x4.book"]
    book = load_book(books / "4x4.book")
    assert book.board.dimensions == "4x4" and len(book) > 10
    start = Position.start(4, 4, 3)
    for transform in transforms(start.board):
        for swap in (False, True):
            image = transform.position(start, swap)
            hit = lookup(image, books)
            assert hit is not None and hit.complete
            values = move_values(image)
            best = max(values.values())
            assert hit.value == best
            assert set(hit.moves) == {m for m, v in values.items() if v == best}
    assert lookup(Position.start(4, 4, 4), books) is None  # not solved into this book
    assert lookup(Position.start(6, 6, 1), books) is None  # no book for the size


def test_writing_merges_one_position_and_refuses_contradictions() -> None:
    fen = Position.start(4, 4, 1).fen()
    one = solve_entry(Entry(4, 4, 1), tt_mb=4).book
    text = format_book(Position.start(4, 4, 1).board, [*one, *one])
    assert parse_book(text).board.dimensions == "4x4"
    line = next(b for b in one if b.fen == fen)
    with pytest.raises(BookError, match="two values for one position"):
        format_book(Position.start(4, 4, 1).board, [line, line._replace(value=line.value + 2)])


def corrupt(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda t: t.replace("ADJACENCY-BOOK", "SOMETHING-ELSE", 1), "is not an adjacency book"),
        (lambda t: t.replace("version 1", "version 7", 1), "format version '7'"),
        (lambda t: t.replace("\n---\n", "\n", 1), "does not end with"),
        (lambda t: t[:-3] + ("1\n" if t[-2] == "0" else "0\n"), "checksum does not match"),
        (lambda t: t.replace("board 4x4", "board 4x9", 1), "bad board size"),
        (lambda t: "\n".join(x for x in t.split("\n") if not x.startswith("sha256")), "sha256"),
    ],
)
def test_a_damaged_book_is_refused_with_a_clear_error(
    books: Path, tmp_path: Path, damage: Callable[[str], str], message: str
) -> None:
    path = tmp_path / "4x4.book"
    path.write_text(damage((books / "4x4.book").read_text()))
    with pytest.raises(BookError, match=message):
        load_book(path)


def test_a_book_of_another_board_is_refused(books: Path, tmp_path: Path) -> None:
    (tmp_path / "4x5.book").write_text((books / "4x4.book").read_text())
    with pytest.raises(BookError, match="is for 4x4 boards, not 4x5"):
        book_for(Position.start(4, 5, 1).board, tmp_path)
    assert lookup(Position.start(4, 5, 2), tmp_path) is None


def test_a_book_line_that_does_not_fit_is_refused(books: Path) -> None:
    text = (books / "4x4.book").read_text()
    head, _, body = text.partition("---\n")
    bad = "1ffff 0 2 0 a1 1\n" + body.split("\n", 1)[1]
    fixed = format_like(head, bad)
    with pytest.raises(BookError, match="line 1: its pieces do not fit"):
        parse_book(fixed)


def format_like(head: str, body: str) -> str:
    """A header with a correct checksum and count for ``body`` (a well-formed but wrong
    file, as a buggy writer would make)."""
    import hashlib

    lines = []
    for line in head.splitlines():
        if line.startswith("sha256 "):
            line = "sha256 " + hashlib.sha256(body.encode()).hexdigest()
        if line.startswith("positions "):
            line = f"positions {len(body.splitlines())}"
        lines.append(line)
    return "\n".join(lines) + "\n---\n" + body


def test_the_engine_plays_an_optimal_move_from_the_book(books: Path) -> None:
    bot = EngineBot(random.Random(0), book=str(books))
    thoughts: list[Thinking] = []
    for position in (
        Position.start(4, 4, 3),
        Position.start(4, 4, 3, "o"),
        Position.start(5, 4, 2),
    ):
        hit = lookup(position, books)
        assert hit is not None
        move = bot.choose_move(position, Limit(time=5), listener=thoughts.append)
        assert move in hit.moves
        values = move_values(position)
        assert values[move] == max(values.values()) == hit.value  # the value is kept
    assert thoughts and thoughts[-1].text == "book" and thoughts[-1].exact


def test_a_corrupted_book_is_reported_and_the_engine_still_plays(
    books: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "4x4.book"
    path.write_text((books / "4x4.book").read_text().replace("version 1", "version 2"))
    bot = make_bot(f"engine:book={tmp_path}")
    position = Position.start(4, 4, 3)
    with caplog.at_level(logging.WARNING, logger="adjacency.engine.book"):
        move = bot.choose_move(position, Limit(time=2))
    assert move in position.legal_moves()
    assert "book not used" in caplog.text and "format version '2'" in caplog.text


def test_the_shipped_books_verify_and_hold_proven_values() -> None:
    files = sorted(BOOK_DIR.glob("*.book"))
    assert any(f.name == "8x8.book" for f in files)
    for path in files:
        load_book(path)  # header, checksum and every line
    # Spot checks against the brute force where it is quick.
    for rounds in range(1, 5):
        for first in ("x", "o"):
            position = Position.start(4, 4, rounds, first)  # type: ignore[arg-type]
            hit = lookup(position)
            assert hit is not None and hit.complete
            values = move_values(position)
            assert hit.value == max(values.values())
            assert set(hit.moves) == {m for m, v in values.items() if v == hit.value}


def test_a_missing_book_directory_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="adjacency.engine.book"):
        assert lookup(Position.start(4, 4, 2), tmp_path / "nowhere") is None
    assert "does not exist" in caplog.text
    with pytest.raises(BookError, match="does not exist"):
        book_for(Position.start(4, 4, 2).board, tmp_path / "nowhere")


def test_the_book_can_be_switched_off() -> None:
    position = Position.start(4, 4, 2)
    assert lookup(position) is not None
    bot = make_bot("engine:book=off")
    thoughts: list[Thinking] = []
    bot.choose_move(position, Limit(time=1), listener=thoughts.append)
    assert all(t.text != "book" for t in thoughts)
