"""Solved values against the independent brute force (conftest.negamax), entry by entry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjacency.core import Position
from adjacency.solving.solved_starts import Entry, EntryResult, derive, solve_entry

# Every entry whose brute force takes at most a few seconds in Python.
ENTRIES = sorted(
    {
        *(Entry(4, 4, n) for n in range(1, 5)),
        *(Entry(rows, cols, 1) for rows in range(4, 9) for cols in range(4, 9)),
        *(Entry(rows, cols, 2) for rows, cols in ((4, 5), (5, 4), (5, 5), (4, 6), (6, 4))),
    }
)
SLOW_ENTRIES = [Entry(4, 5, 3)]


def check(result: EntryResult, brute_moves: Callable[[Position], dict[str, int]]) -> None:
    position = result.entry.position()
    expected = brute_moves(position)
    assert result.status in ("solved", "derived")
    assert result.move_values == expected
    assert result.value == max(expected.values())
    assert set(result.optimal) == {m for m, v in expected.items() if v == result.value}
    # The principal variation is a whole game that ends with the proven margin.
    current = position
    for move in result.pv:
        current = current.play(move)
    assert current.is_over
    assert current.margin(position.turn) == result.value


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
@pytest.mark.parametrize("symmetry", [True, False], ids=["symmetric", "plain"])
def test_solved_entry_equals_brute_force(
    entry: Entry, symmetry: bool, brute_moves: Callable[[Position], dict[str, int]]
) -> None:
    check(solve_entry(entry, symmetry=symmetry, tt_mb=4), brute_moves)


@pytest.mark.slow
@pytest.mark.parametrize("entry", SLOW_ENTRIES, ids=str)
def test_longer_entries_equal_brute_force(
    entry: Entry, brute_moves: Callable[[Position], dict[str, int]]
) -> None:
    check(solve_entry(entry, tt_mb=4), brute_moves)


@pytest.mark.parametrize(
    ("source", "target"),
    [
        (Entry(4, 4, 3), Entry(4, 4, 3, "o")),
        (Entry(4, 5, 2), Entry(5, 4, 2)),
        (Entry(4, 5, 2), Entry(5, 4, 2, "o")),
        (Entry(4, 6, 1), Entry(4, 6, 1, "o")),
        (Entry(7, 8, 1), Entry(8, 7, 1, "o")),
    ],
    ids=str,
)
def test_derived_entries_equal_brute_force(
    source: Entry, target: Entry, brute_moves: Callable[[Position], dict[str, int]]
) -> None:
    derived = derive(solve_entry(source, tt_mb=4), target)
    assert derived.entry == target
    assert derived.source.startswith(str(source))
    check(derived, brute_moves)
    for line in derived.book:
        assert Position.from_fen(line.fen).board == target.position().board


def test_the_book_lines_of_an_entry_are_proven(
    brute: Callable[[Position], int], brute_moves: Callable[[Position], dict[str, int]]
) -> None:
    result = solve_entry(Entry(4, 4, 3), tt_mb=4)
    assert len(result.book) >= len(result.move_values)
    for line in result.book:
        position = Position.from_fen(line.fen)
        assert brute(position) == line.value
        values = brute_moves(position)
        best = max(values.values())
        assert all(values[m] == best for m in line.moves)
        if line.complete:
            assert set(line.moves) == {m for m, v in values.items() if v == best}
