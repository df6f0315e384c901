#!/usr/bin/env python3
"""A minimal engine for the adjacency engine protocol (docs/protocol.md), standard library only.

It plays greedily: the empty square that wins the most squares now (the piece
placed plus the opponent's orthogonal neighbours it converts), ties broken by
the first in a1, b1, ..., a2, ... order. Copy it and replace ``choose``.
Try it: ``adjacency move 'cmd:python3 examples/engines/minimal_engine.py'``.
"""

import sys

FILES = "abcdefgh"


def parse_fen(fields):
    """Board text, side to move, plies left -> (grid rows from rank 1 up, side, plies)."""
    grid = []
    for rank in reversed(fields[0].split("/")):
        row = []
        for char in rank:
            row.extend("." * int(char) if char.isdigit() else char)
        grid.append(row)
    return grid, fields[1], int(fields[2])


def start_position(rows=8, cols=8, rounds=None, first="x"):
    grid = [["."] * cols for _ in range(rows)]
    for r, c in ((0, 0), (0, 1), (1, 0), (1, 1)):
        grid[r][c] = "x"
        grid[rows - 1 - r][cols - 1 - c] = "o"
    return grid, first, 2 * (rounds if rounds else (rows * cols - 8) // 2)


def neighbours(grid, r, c):
    for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
        if 0 <= nr < len(grid) and 0 <= nc < len(grid[0]):
            yield nr, nc


def play(grid, side, square):
    c, r = FILES.index(square[0]), int(square[1:]) - 1
    grid[r][c] = side
    for nr, nc in neighbours(grid, r, c):
        if grid[nr][nc] not in (".", side):
            grid[nr][nc] = side
    return "o" if side == "x" else "x"


def choose(grid, side):
    best, move = -1, None
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell == ".":
                gain = 1 + sum(grid[nr][nc] not in (".", side) for nr, nc in neighbours(grid, r, c))
                if gain > best:
                    best, move = gain, f"{FILES[c]}{r + 1}"
    return move, best


def main():
    grid, side, _ = start_position()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "aep":
            print("id name minimal greedy (Python)\nid author the adjacency project\naepok")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "position":
            moves = words[words.index("moves") + 1 :] if "moves" in words else []
            head = words[1 : words.index("moves")] if "moves" in words else words[1:]
            if head[0] == "fen":
                grid, side, _ = parse_fen(head[1:4])
            else:
                settings = dict(zip(head[1::2], head[2::2], strict=False))
                grid, side, _ = start_position(
                    int(settings.get("rows", 8)),
                    int(settings.get("cols", 8)),
                    int(settings["rounds"]) if "rounds" in settings else None,
                    settings.get("first", "x"),
                )
            for move in moves:
                side = play(grid, side, move)
        elif words[0] == "go":
            move, gain = choose(grid, side)
            print(f"info depth 1 score {gain * 100}\nbestmove {move}")
        elif words[0] == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
