"""Puzzles for the web's puzzle page tests, made by the suite's exact oracle (not by the
engine's solver that makes the shipped set), so the page is tested on lines whose
every value is known independently: small 5x5 positions four plies from the end."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
import sqlite3
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, overload

from fastapi.testclient import TestClient

from adjacency.core import Position
from adjacency.puzzles import Puzzle, Refutation, puzzle_id
from adjacency.web import cookies
from adjacency.web.seats import CLIENT_COOKIE
from oracles import exact_value, move_values


def _best(position: Position, memo: dict[Position, int]) -> tuple[str, dict[str, int]]:
    values = move_values(position, memo)
    best = max(values.values())
    return next(m for m, v in values.items() if v == best), values


def _refutations(
    position: Position, best: str, values: dict[str, int], memo: dict[Position, int]
) -> tuple[Refutation, ...]:
    found = []
    for move, value in values.items():
        if move == best:
            continue
        after = position.play(move)
        reply = None if after.is_over else _best(after, memo)[0]
        found.append(Refutation(move, value, reply))
    return tuple(found)


def _unique(values: dict[str, int]) -> bool:
    best = max(values.values())
    return sum(v == best for v in values.values()) == 1


def oracle_puzzle(
    position: Position, rating: float = 1500.0, memo: dict[Position, int] | None = None
) -> Puzzle | None:
    """A three-move puzzle at ``position``: the oracle's only best move, the opponent's
    best reply (the first in square order), the only best move after it; every other
    move of each step with its exact value and the opponent's best reply to it. ``None``
    when a step has two best moves. ``memo``: the exact values known already (a value
    is the position's own, whichever search found it), shared between the searches."""
    memo = {} if memo is None else memo
    first, first_values = _best(position, memo)
    after = position.play(first)
    reply, _ = _best(after, memo)
    second_at = after.play(reply)
    second, second_values = _best(second_at, memo)
    if not (_unique(first_values) and _unique(second_values)):
        return None
    return Puzzle(
        id=puzzle_id(position.fen()),
        position=position.fen(),
        solution=(first, reply, second),
        value=exact_value(position, memo),
        refutations=(
            _refutations(position, first, first_values, memo),
            _refutations(second_at, second, second_values, memo),
        ),
        themes=("only-win", "quiet"),
        source="web",
        rating=rating,
        rd=120.0,
        volatility=0.06,
    )


@cache
def oracle_puzzles(count: int = 3) -> tuple[Puzzle, ...]:
    """``count`` puzzles on 5x5 boards four plies from the end (seeded random openings;
    each step's best move the only one),
    rated 1400, 1500, ... so the next puzzle of a new player is the 1500 one's neighbour.
    One memo of exact values serves every search: the openings' trees overlap."""
    found: list[Puzzle] = []
    memo: dict[Position, int] = {}
    rng = random.Random(11)
    while len(found) < count:
        position = Position.start(5, 5, rounds=3)
        for _ in range(2):
            position = position.play(rng.choice(position.legal_moves()))
        made = oracle_puzzle(position, 1400.0 + 100 * len(found), memo)
        if made is not None and made.id not in {p.id for p in found}:
            found.append(made)
    return tuple(found)


THEMED = ("corner", "parity", "last-move")
"""The theme :func:`themed_puzzles` adds to each oracle puzzle, in order."""


def themed_puzzles() -> list[Puzzle]:
    """The oracle's puzzles, each with one theme of :data:`THEMED` besides its own, rated
    1400, 1500, 1600 with the shipped set's deviation of 250."""
    return [
        dataclasses.replace(p, themes=(*p.themes, theme), rd=250.0)
        for p, theme in zip(oracle_puzzles(), THEMED, strict=True)
    ]


class LazyPuzzles(Sequence[Puzzle]):
    """:func:`oracle_puzzles`, made at a test's first look rather than at import: the
    oracle needs seconds, and collecting the suite (``pytest --collect-only``) must not
    pay them."""

    @overload
    def __getitem__(self, index: int) -> Puzzle: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Puzzle]: ...

    def __getitem__(self, index: int | slice) -> Puzzle | Sequence[Puzzle]:
        return oracle_puzzles()[index]

    def __len__(self) -> int:
        return len(oracle_puzzles())


def key(db: Path) -> bytes:
    """The server's cookie key, as the store keeps it (made on the first request)."""
    with contextlib.closing(sqlite3.connect(db)) as raw:
        return bytes(raw.execute("SELECT value FROM secrets WHERE name = 'cookies'").fetchone()[0])


@contextlib.contextmanager
def browser(app: Any, address: tuple[str, int], age: float = 0.0) -> Iterator[TestClient]:
    """A browser at ``address`` on ``app`` (served meanwhile by a client of the test's),
    holding a cookie the server issued ``age`` seconds ago (its first page view gets
    it; an older one is what that browser would hold after ``age`` seconds, signed with
    the server's key)."""
    client = TestClient(app, client=address)
    assert client.get("/puzzles").status_code == 200
    if age:
        db = Path(app.state.manager.store.path)
        signed = cookies.read(key(db), client.cookies[CLIENT_COOKIE])
        assert signed is not None
        old = cookies.issue(key(db), signed.id, signed.issued - int(age))
        client.cookies.set(CLIENT_COOKIE, old)
    yield client


def square(tab: Any, name: str) -> Any:
    """The puzzle page's square ``name``."""
    return tab.locator(f"#board [data-square={name}]")


def filled(tab: Any, name: str) -> None:
    """Wait until a piece (not a preview's ghost) is drawn on the square ``name``."""
    from playwright.sync_api import expect

    expect(square(tab, name).locator("svg.piece:not(.ghost)")).to_have_count(1)


def playable(tab: Any) -> None:
    """Wait until the puzzle page's board takes a move."""
    from playwright.sync_api import expect

    expect(tab.locator("#board")).not_to_have_class("board locked")


def shown(tab: Any, other_than: str | None = None) -> Puzzle:
    """The oracle's puzzle the page shows (by its address), once it is not ``other_than``;
    the page's clock is the test's (``tab.clock`` installed), turned while the page loads."""
    from playwright.sync_api import expect

    pattern = rf"/puzzles/(?!{re.escape(other_than)}$)[^/]+$" if other_than else r"/puzzles/[^/]+$"
    for _ in range(100):
        if re.search(pattern, tab.url):
            break
        tab.clock.run_for(100)
        tab.wait_for_timeout(100)
    expect(tab).to_have_url(re.compile(pattern))
    found = tab.url.rsplit("/", 1)[1]
    return next(p for p in oracle_puzzles() if p.id == found)


def seconds_left(tab: Any) -> int:
    """The timed run's time left as its line says it (m:ss, "3:00 left" or "sisa 3:00"),
    in seconds."""
    found = re.search(r"(\d+):(\d\d)", tab.inner_text("#timed"))
    assert found, tab.inner_text("#timed")
    return int(found[1]) * 60 + int(found[2])
