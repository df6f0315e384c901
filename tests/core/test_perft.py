"""Perft-style regression data: counts of move sequences, distinct positions and flips.

``tests/data/perft.txt`` holds one case a line: ``FEN ; depth ; sequences ;
distinct ; flips``, where *sequences* is the number of move sequences of that
many plies, *distinct* the number of different positions they reach (moves
transpose), and *flips* the total number of pieces converted along all of
them. The numbers were produced by the naive 2D-list implementation in
``tests/naive_rules.py`` (``python tests/core/test_perft.py`` regenerates them)
and must be matched by the bitboard core.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from adjacency import Position

DATA = Path(__file__).parent.parent / "data" / "perft.txt"


def perft(position: Position, depth: int) -> tuple[int, int, int]:
    """(sequences, distinct positions, total flips) of all ``depth``-ply continuations."""
    frontier: dict[Position, int] = {position: 1}
    flips = 0
    for _ in range(depth):
        nxt: dict[Position, int] = {}
        for pos, ways in frontier.items():
            for square in pos.legal_squares():
                flips += ways * pos.flip_bitboard(square).bit_count()
                child = pos.play(square)
                nxt[child] = nxt.get(child, 0) + ways
        frontier = nxt
    return sum(frontier.values()), len(frontier), flips


def load_cases() -> list[tuple[str, int, int, int, int]]:
    cases = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            fen, depth, sequences, distinct, flips = (part.strip() for part in line.split(";"))
            cases.append((fen, int(depth), int(sequences), int(distinct), int(flips)))
    return cases


@pytest.mark.parametrize("fen,depth,sequences,distinct,flips", load_cases())
def test_perft(fen: str, depth: int, sequences: int, distinct: int, flips: int) -> None:
    assert perft(Position.from_fen(fen), depth) == (sequences, distinct, flips)


def _naive_perft(fen: str, depth: int) -> tuple[int, int, int]:
    """The same counts from the naive implementation (used to write the data file)."""
    sys.path.insert(0, str(Path(__file__).parent.parent))
    import copy

    from naive_rules import NaiveGame

    pos = Position.from_fen(fen)
    game = NaiveGame(pos.rows, pos.cols, 1, pos.turn)
    for rank in range(pos.rows):
        for file in range(pos.cols):
            game.grid[pos.rows - 1 - rank][file] = pos.piece_at(rank * pos.cols + file) or "."
    game.plies_left = pos.plies_left
    frontier = {game.fen(): (1, game)}
    flips = 0
    for _ in range(depth):
        nxt: dict[str, tuple[int, NaiveGame]] = {}
        for ways, state in frontier.values():
            if state.plies_left == 0:
                continue
            for move in state.empties():
                child = copy.deepcopy(state)
                flips += ways * len(child.play(move))
                key = child.fen()
                nxt[key] = (nxt.get(key, (0, child))[0] + ways, child)
        frontier = nxt
    return sum(w for w, _ in frontier.values()), len(frontier), flips


if __name__ == "__main__":
    CASES = [
        ("2oo/2oo/xx2/xx2 x 8", 4),
        ("3oo/3oo/5/xx3/xx3 o 8", 3),
        ("4oo/4oo/6/6/xx4/xx4 x 20", 3),
        ("6oo/6oo/8/8/8/8/xx6/xx6 x 56", 2),
        ("6oo/6oo/8/8/8/8/xx6/xx6 o 56", 3),
        ("5oo/5oo/7/7/7/xx5/xx5 x 6", 3),
        ("8/1oxo4/2x5/1xoxo3/2o5/8/xx6/xx6 o 9", 3),
        ("xoxo/oxox/x3/3o x 3", 3),
    ]
    lines = [__doc__.split("\n\n")[1].replace("\n", " ").strip()]
    for fen, depth in CASES:
        counts = _naive_perft(fen, depth)
        lines.append(f"{fen} ; {depth} ; {counts[0]} ; {counts[1]} ; {counts[2]}")
        print(lines[-1])
    import textwrap

    header = textwrap.fill(lines[0], 78, initial_indent="# ", subsequent_indent="# ")
    DATA.write_text(header + "\n" + "\n".join(lines[1:]) + "\n")
