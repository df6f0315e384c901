"""A position of the Adjacency Strategy Game (docs/rules.md), standard library only.

``board.grid[r][c]`` is ``"x"``, ``"o"`` or ``"."``; row ``r = 0`` is rank 1 (the bottom)
and column ``c = 0`` is file a, so ``grid[0][0]`` is a1 and ``grid[3][2]`` is c4. Boards
have 4 to 8 rows and columns. A move puts a piece of the side to move on any empty square;
every orthogonally adjacent opponent piece becomes the mover's. :meth:`Board.play` returns a
new board and leaves this one as it is.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

FILES = "abcdefgh"


def parse_number(text: str, what: str) -> int:
    """A whole number in ASCII digits, at most 18 of them (as the protocol says)."""
    if not re.fullmatch(r"[0-9]{1,18}", text):
        raise ValueError(f"{what} must be a whole number, not {text!r}")
    return int(text)


def opponent(side: str) -> str:
    return "o" if side == "x" else "x"


def square(r: int, c: int) -> str:
    """The name of the square in row r (0 = rank 1), column c (0 = file a): ``"d4"``."""
    return f"{FILES[c]}{r + 1}"


def most_rounds(rows: int, cols: int) -> int:
    """The most rounds a board of this size allows (28 on 8x8)."""
    return (rows * cols - 8) // 2


class Board:
    def __init__(self, grid: list[list[str]], turn: str, plies_left: int) -> None:
        self.rows = len(grid)
        self.cols = len(grid[0])
        self.grid = grid
        self.turn = turn
        self.plies_left = plies_left

    @classmethod
    def start(
        cls, rows: int = 8, cols: int = 8, rounds: int | None = None, first: str = "x"
    ) -> Board:
        """The start position: X's 2x2 block at a1, O's in the top-right corner."""
        if not (4 <= rows <= 8 and 4 <= cols <= 8):
            raise ValueError(f"the board must have 4 to 8 rows and columns, not {rows}x{cols}")
        most = most_rounds(rows, cols)
        rounds = most if rounds is None else rounds
        if not 1 <= rounds <= most:
            raise ValueError(f"rounds must be 1 to {most} on {rows}x{cols}, not {rounds}")
        if first not in ("x", "o"):
            raise ValueError(f"first must be x or o, not {first!r}")
        grid = [["."] * cols for _ in range(rows)]
        for r in range(2):
            for c in range(2):
                grid[r][c] = "x"
                grid[rows - 1 - r][cols - 1 - c] = "o"
        return cls(grid, first, 2 * rounds)

    @classmethod
    def from_fen(cls, board: str, side: str, plies: str) -> Board:
        """A position from position text: ``from_fen("6oo/6oo/8/8/8/8/xx6/xx6", "x", "56")``."""
        ranks = board.split("/")
        if not 4 <= len(ranks) <= 8:
            raise ValueError(f"position text {board!r} must have 4 to 8 ranks")
        grid: list[list[str]] = []
        empty = 0
        for rank in ranks:
            row: list[str] = []
            for char in rank:
                if char in "12345678":
                    row.extend("." * int(char))
                    empty += int(char)
                elif char in ("x", "o"):
                    row.append(char)
                else:
                    raise ValueError(f"unexpected {char!r} in rank {rank!r}")
            if not 4 <= len(row) <= 8 or (grid and len(row) != len(grid[0])):
                raise ValueError(f"rank {rank!r} has {len(row)} squares")
            grid.insert(0, row)  # the text starts with the top rank
        if side not in ("x", "o"):
            raise ValueError(f"the side to move must be x or o, not {side!r}")
        left = parse_number(plies, "plies left")
        if left > empty:
            raise ValueError(f"{left} plies left but only {empty} empty squares")
        return cls(grid, side, left)

    def parse_square(self, name: str) -> tuple[int, int]:
        """(row, col) of a square name on this board (``"C3"`` is ``"c3"``); raises if none."""
        text = name.lower()
        if not re.fullmatch(r"[a-h][1-9][0-9]?", text):
            raise ValueError(f"malformed square {name!r}")
        r, c = int(text[1:]) - 1, FILES.index(text[0])
        if r >= self.rows or c >= self.cols:
            raise ValueError(f"square {name!r} is off the {self.rows}x{self.cols} board")
        return r, c

    def is_over(self) -> bool:
        return self.plies_left == 0

    def legal_moves(self) -> list[str]:
        """Every empty square in the order a1, b1, ..., a2, b2, ...; none when the game is over."""
        if self.is_over():
            return []
        return [
            square(r, c)
            for r in range(self.rows)
            for c in range(self.cols)
            if self.grid[r][c] == "."
        ]

    def neighbours(self, r: int, c: int) -> list[tuple[int, int]]:
        around = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return [(a, b) for a, b in around if 0 <= a < self.rows and 0 <= b < self.cols]

    def gain(self, r: int, c: int) -> int:
        """Squares the side to move would win by playing at (r, c): the piece, its conversions."""
        them = opponent(self.turn)
        return 1 + sum(self.grid[a][b] == them for a, b in self.neighbours(r, c))

    def play(self, name: str) -> Board:
        """The position after the side to move plays ``name`` (``"c3"``); raises if illegal."""
        if self.is_over():
            raise ValueError(f"illegal move {name!r}: the game is over")
        r, c = self.parse_square(name)
        if self.grid[r][c] != ".":
            raise ValueError(f"illegal move {name!r}: the square is occupied")
        return self.play_at(r, c)

    def play_at(self, r: int, c: int) -> Board:
        """The position after the side to move plays on the empty square (r, c)."""
        grid = [row[:] for row in self.grid]
        me, them = self.turn, opponent(self.turn)
        grid[r][c] = me
        for a, b in self.neighbours(r, c):
            if grid[a][b] == them:
                grid[a][b] = me
        return Board(grid, them, self.plies_left - 1)

    def score(self) -> tuple[int, int]:
        """(X's squares, O's squares)."""
        cells = [cell for row in self.grid for cell in row]
        return cells.count("x"), cells.count("o")

    def fen(self) -> str:
        """The position text, e.g. ``"6oo/6oo/8/8/8/2x5/xx6/xx6 o 55"``."""
        ranks = []
        for row in reversed(self.grid):
            text = re.sub(r"\.+", lambda run: str(len(run.group())), "".join(row))
            ranks.append(text)
        return f"{'/'.join(ranks)} {self.turn} {self.plies_left}"


def parse_position(args: list[str]) -> Board:
    """The arguments of a protocol ``position`` command (``startpos ...`` or ``fen ...``)."""
    at = args.index("moves") if "moves" in args else len(args)
    head, moves = args[:at], args[at + 1 :]
    if head[:1] == ["fen"]:
        if len(head) < 4:
            raise ValueError("position fen needs the board, the side and the plies left")
        board = Board.from_fen(head[1], head[2], head[3])
    elif head[:1] == ["startpos"]:
        settings = dict(zip(head[1::2], head[2::2], strict=False))
        rounds = settings.get("rounds")
        board = Board.start(
            parse_number(settings.get("rows", "8"), "rows"),
            parse_number(settings.get("cols", "8"), "cols"),
            None if rounds is None else parse_number(rounds, "rounds"),
            settings.get("first", "x"),
        )
    else:
        raise ValueError("expected startpos or fen")
    for move in moves:
        board = board.play(move)
    return board


class Deadline:
    """The time budget of one move, and the way a bot reports its best move so far.

    :meth:`passed` turns true when the budget is spent or the search was stopped;
    ``max_depth`` is the depth limit of ``go depth N`` (``None`` when none was given).
    """

    def __init__(
        self,
        budget: float | None,
        max_depth: int | None = None,
        report: Callable[[str], None] = lambda text: None,
    ) -> None:
        self.start = time.monotonic()
        self.budget = budget  # seconds; None: no time limit
        self.max_depth = max_depth
        self.stopped = threading.Event()
        self.best: str | None = None
        self._report = report

    def passed(self) -> bool:
        if self.stopped.is_set():
            return True
        return self.budget is not None and time.monotonic() - self.start >= self.budget

    def offer(self, move: str, depth: int | None = None, score: int | None = None) -> None:
        """The best move so far; with the depth searched and its score in pieces for the mover."""
        self.best = move
        if depth is not None:
            elapsed = round((time.monotonic() - self.start) * 1000)
            self._report(f"info depth {depth} score {(score or 0) * 100} time {elapsed} pv {move}")
