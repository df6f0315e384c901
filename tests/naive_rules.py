"""A deliberately naive second implementation of the rules, for differential tests.

2D lists of characters, explicit neighbour loops, no bit tricks, no shared code
with :mod:`adjacency.core`. Rows are stored top (rank R) first, as people read a
board, which is the opposite of the core's bit order: a layout bug cannot hide.
"""

from __future__ import annotations

LETTERS = "abcdefgh"


class NaiveGame:
    def __init__(self, rows: int, cols: int, rounds: int, first: str) -> None:
        self.rows, self.cols = rows, cols
        self.grid = [["." for _ in range(cols)] for _ in range(rows)]
        for r in (rows - 1, rows - 2):
            for c in (0, 1):
                self.grid[r][c] = "x"
        for r in (0, 1):
            for c in (cols - 1, cols - 2):
                self.grid[r][c] = "o"
        self.turn = first
        self.plies_left = 2 * rounds

    def cell(self, name: str) -> tuple[int, int]:
        col = LETTERS.index(name[0])
        rank = int(name[1:])
        return self.rows - rank, col

    def empties(self) -> list[str]:
        names = []
        for r in range(self.rows):
            for c in range(self.cols):
                if self.grid[r][c] == ".":
                    names.append(f"{LETTERS[c]}{self.rows - r}")
        return sorted(names, key=lambda n: (int(n[1:]), n[0]))

    def would_flip(self, name: str) -> list[str]:
        r, c = self.cell(name)
        enemy = "o" if self.turn == "x" else "x"
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols and self.grid[rr][cc] == enemy:
                out.append(f"{LETTERS[cc]}{self.rows - rr}")
        return sorted(out, key=lambda n: (int(n[1:]), n[0]))

    def play(self, name: str) -> list[str]:
        assert self.plies_left > 0, "game over"
        r, c = self.cell(name)
        assert self.grid[r][c] == ".", "occupied"
        flipped = self.would_flip(name)
        self.grid[r][c] = self.turn
        for f in flipped:
            rr, cc = self.cell(f)
            self.grid[rr][cc] = self.turn
        self.turn = "o" if self.turn == "x" else "x"
        self.plies_left -= 1
        return flipped

    def score(self) -> tuple[int, int]:
        flat = [ch for row in self.grid for ch in row]
        return flat.count("x"), flat.count("o")

    def fen(self) -> str:
        ranks = []
        for row in self.grid:
            text, run = "", 0
            for ch in row:
                if ch == ".":
                    run += 1
                else:
                    text += (str(run) if run else "") + ch
                    run = 0
            ranks.append(text + (str(run) if run else ""))
        return f"{'/'.join(ranks)} {self.turn} {self.plies_left}"
