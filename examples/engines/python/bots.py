"""The example bots. A bot is a function ``move(board, deadline) -> "d4"`` (see board.py).

Stop thinking when ``deadline.passed()``; call ``deadline.offer(move, depth, score)`` with
your best move so far: the runner plays the last offer if the time runs out first.
"""

from __future__ import annotations

from board import Board, Deadline, square


def greedy(board: Board, deadline: Deadline) -> str:
    """The square that wins the most squares now; ties go to the first in a1, b1, ..., a2 order."""
    best, best_gain = "", -1
    for r in range(board.rows):
        for c in range(board.cols):
            if board.grid[r][c] == "." and board.gain(r, c) > best_gain:
                best, best_gain = square(r, c), board.gain(r, c)
    deadline.offer(best, 1, best_gain)
    return best


def ordered(board: Board) -> list[tuple[int, int]]:
    """The empty squares, those that win most now first (ties in a1, b1, ... order)."""
    moves = [
        (r, c) for r in range(board.rows) for c in range(board.cols) if board.grid[r][c] == "."
    ]
    return sorted(moves, key=lambda m: -board.gain(*m))  # a stable sort: ties keep their order


class TimeUp(Exception):
    pass


def alphabeta(board: Board, deadline: Deadline) -> str:
    """Minimax with alpha-beta pruning (negamax form) and iterative deepening.

    Depth 1, 2, 3, ... until the time is up, each depth searching the previous best move
    first. The objective is the piece difference (own squares minus the opponent's) for the
    side to move.
    """
    nodes = 0

    def negamax(b: Board, depth: int, alpha: float, beta: float) -> float:
        nonlocal nodes
        nodes += 1
        if nodes % 256 == 0 and deadline.passed():
            raise TimeUp
        if depth == 0 or b.is_over():
            x, o = b.score()
            return x - o if b.turn == "x" else o - x
        for r, c in ordered(b):
            value = -negamax(b.play_at(r, c), depth - 1, -beta, -alpha)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha

    moves = ordered(board)
    best = square(*moves[0])
    deadline.offer(best)
    most = min(board.plies_left, deadline.max_depth or board.plies_left)
    for depth in range(1, most + 1):
        try:
            alpha = -float("inf")
            best_move = moves[0]
            for m in moves:
                value = -negamax(board.play_at(*m), depth - 1, -float("inf"), -alpha)
                if value > alpha:
                    alpha, best_move = value, m
        except TimeUp:
            break
        moves.remove(best_move)
        moves.insert(0, best_move)  # the next depth searches it first
        best = square(*best_move)
        deadline.offer(best, depth, int(alpha))
    return best


BOTS = {"greedy": greedy, "alphabeta": alphabeta}
