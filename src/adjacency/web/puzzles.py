"""The puzzle page's rules: the set served, checking a played line, and hints (the
ratings are :mod:`.puzzle_records`). A player's first attempt of a puzzle is rated:
solved without a wrong move or a hint is a win for the player; a wrong move, a hint
or giving up a loss.

A line is checked against the stored solution only: the solution never leaves the
server before the puzzle is solved or given up, except for what a hint shows.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..core import Position
from ..puzzles import Puzzle, load_shipped
from ..serving.errors import WebError
from ..serving.errors import quote as quoted

FILES = "abcdefgh"
MAX_ID = 32
"""Characters a puzzle id may have in a request (a shipped id has 13)."""


class PuzzleNotFound(WebError):
    """No puzzle with that id in the served set."""

    status = 404
    code = "puzzle_not_found"


PuzzleSource = Callable[[], Sequence[Puzzle]]
"""What gives the puzzles a server serves (called once, on first use)."""


class PuzzleSet:
    """The puzzles served, by id; the shipped set is loaded on first use (``loader``)."""

    def __init__(self, loader: PuzzleSource = load_shipped) -> None:
        self._loader = loader
        self._lock = threading.Lock()
        self._puzzles: dict[str, Puzzle] | None = None

    def all(self) -> dict[str, Puzzle]:
        """Every puzzle by id (loaded now if it was not)."""
        with self._lock:
            if self._puzzles is None:
                self._puzzles = {p.id: p for p in self._loader()}
            return self._puzzles

    def get(self, puzzle_id: str) -> Puzzle:
        """The puzzle ``puzzle_id``; :class:`PuzzleNotFound` (404) if there is none."""
        found = self.all().get(puzzle_id) if len(puzzle_id) <= MAX_ID else None
        if found is None:
            raise PuzzleNotFound(
                f"no puzzle with id {quoted(puzzle_id[:MAX_ID])}",
                code="puzzle_not_found",
                params={"puzzle": puzzle_id[:MAX_ID]},
            )
        return found


Outcome = Literal["correct", "solved", "wrong"]


@dataclass(frozen=True)
class Verdict:
    """What the last move of a played line was: ``correct`` (the line goes on with the
    opponent's ``reply``), ``solved`` (the line's last move), or ``wrong`` (``reply`` is
    the opponent's refutation, ``None`` when the move ends the game; ``value`` the move's
    exact margin for the solver, beside the puzzle's own)."""

    outcome: Outcome
    reply: str | None = None
    value: int | None = None


def check_line(puzzle: Puzzle, moves: Sequence[str]) -> Verdict:
    """Judge ``moves``, the line played from the puzzle's position: the solver's moves
    and the replies the server gave, ending with a solver move. Every move before the
    last must be the solution's (400 ``puzzle_line`` otherwise); the last one is judged.
    An illegal move is the core's ``IllegalMoveError`` (400)."""
    solution = puzzle.solution
    if not moves or len(moves) % 2 == 0 or len(moves) > len(solution):
        raise WebError(
            f"a line ends with a move of the solver: 1, 3, ... at most {len(solution)} moves, "
            f"not {len(moves)}",
            code="puzzle_line",
            params={"most": len(solution)},
        )
    position = Position.from_fen(puzzle.position)
    for number, move in enumerate(moves[:-1]):
        position = position.play(move)
        if move != solution[number]:
            raise WebError(
                f"move {number + 1} ({quoted(move)}) is not the puzzle's line: "
                "a line goes on only after a correct move",
                code="puzzle_line",
                params={"most": len(solution)},
            )
    last = moves[-1]
    position.play(last)  # an illegal move: the core's 400 naming it
    step = len(moves) - 1
    if last == solution[step]:
        if step + 1 == len(solution):
            return Verdict("solved")
        return Verdict("correct", solution[step + 1])
    for refutation in puzzle.refutations[step // 2]:
        if refutation.move == last:
            return Verdict("wrong", refutation.reply, refutation.value)
    return Verdict("wrong")


def hint_region(puzzle: Puzzle, move: str) -> list[str]:
    """The quarter of the board (halves of its rows and columns, the middle row or
    column of an odd side in the lower half) that holds ``move``: the gentler hint."""
    position = Position.from_fen(puzzle.position)
    rows, cols = position.rows, position.cols
    half_rank, half_file = (rows + 1) // 2, (cols + 1) // 2
    upper = int(move[1:]) - 1 >= half_rank
    right = FILES.index(move[0]) >= half_file
    return [
        f"{FILES[f]}{r + 1}"
        for r in range(rows)
        for f in range(cols)
        if (r >= half_rank) == upper and (f >= half_file) == right
    ]
