"""Figures of the shipped puzzle set and of its ratings on the puzzle page.

Printed: the count per phase (``Puzzle.phase``, from the plies left at the puzzle's
position; the endgame split at 8 plies left, the endgame build's least), per line length
(solver moves), the rating range per length, the share a greedy player solves (the move
that converts the most, the first in square order among equals: its first move, and the
whole line given the replies), and how much a puzzle's rating wanders after 30 first
attempts with the set's own starting deviation and with the page's (``START_RD``).

The simulation: for each puzzle, 30 new players (Glicko-2 start: 1500, RD 350) whose
true strengths are drawn from a normal law (mean 1500, deviation 300) each try it once;
a player solves it with the Glicko expectation of its true strength against the
puzzle's starting rating (taken as the puzzle's true difficulty); the puzzle's rating
is updated as the page updates it (``rate_game``). Reported: how far the rating ends
from where it started (median and 90th percentile over the puzzles), and the largest
single move of a first attempt.

    python benchmarks/puzzle_figures.py [--seed N]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter

from adjacency.core import Position
from adjacency.puzzles import PHASES, Puzzle, load_shipped
from adjacency.ratings.glicko import Glicko, rate_game
from adjacency.web.puzzle_records import START_RD, initial_rating

ATTEMPTS = 30
SHORT_ENDGAME = 8
"""The endgame's count is split at this many plies left (and fewer) and more."""
PHASE_NAMES = {"endgame": "endgame, 14 plies or fewer", "middlegame": "middle game, 15 to 28 plies",
               "opening": "opening, over 28 plies"}  # fmt: skip


def phase_counts(puzzles: list[Puzzle]) -> list[tuple[str, int]]:
    """Each phase's name and count (``Puzzle.phase``), the endgame's then split in two."""
    counts = Counter(p.phase for p in puzzles)
    short = sum(p.phase == "endgame" and p.plies_left <= SHORT_ENDGAME for p in puzzles)
    rows = []
    for phase in PHASES:
        rows.append((f"phase {PHASE_NAMES[phase]}", counts[phase]))
        if phase == "endgame":
            rows.append((f"  of which {SHORT_ENDGAME} plies or fewer", short))
            rows.append((f"  of which {SHORT_ENDGAME + 1} plies or more", counts[phase] - short))
    return rows


def greedy(position: Position) -> str:
    """The move that converts the most (the first in square order among equals)."""
    return max(position.legal_moves(), key=lambda m: (len(position.flips(m)), -legal_index(m)))


def legal_index(move: str) -> int:
    return int(move[1:]) * 16 + "abcdefghijklmnop".index(move[0])


def among_greediest(position: Position, move: str) -> bool:
    """Whether ``move`` converts as many as the move that converts the most."""
    most = max(len(position.flips(m)) for m in position.legal_moves())
    return len(position.flips(move)) == most


def greedy_solves(puzzle: Puzzle) -> tuple[bool, bool]:
    """Whether greedy play finds the first move, and every solver move of the line."""
    position = puzzle.start
    first = greedy(position) == puzzle.solution[0]
    whole = True
    for step, move in enumerate(puzzle.solution):
        if step % 2 == 0 and greedy(position) != move:
            whole = False
        position = position.play(move)
    return first, whole


def expected(strength: float, difficulty: float) -> float:
    return 1.0 / (1.0 + 10 ** ((difficulty - strength) / 400))


def drift(puzzles: list[Puzzle], start_rd: float | None, seed: int) -> tuple[float, float, float]:
    """Median and 90th percentile of |rating after 30 attempts - start|, largest one-try move."""
    rng = random.Random(seed)
    ends, largest = [], 0.0
    for puzzle in puzzles:
        rating = (
            initial_rating(puzzle)
            if start_rd is None
            else Glicko(puzzle.rating, start_rd, puzzle.volatility)
        )
        start = rating.rating
        for _ in range(ATTEMPTS):
            strength = rng.gauss(1500, 300)
            win = rng.random() < expected(strength, puzzle.rating)
            before = rating.rating
            _, rating = rate_game(Glicko(), rating, 1.0 if win else 0.0)
            largest = max(largest, abs(rating.rating - before))
        ends.append(abs(rating.rating - start))
    ends.sort()
    return statistics.median(ends), ends[int(0.9 * len(ends))], largest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    puzzles = list(load_shipped())
    print(f"{len(puzzles)} puzzles")
    for name, count in phase_counts(puzzles):
        print(f"  {name}: {count}")
    lengths = Counter((len(p.solution) + 1) // 2 for p in puzzles)
    for moves in sorted(lengths):
        ratings = sorted(p.rating for p in puzzles if (len(p.solution) + 1) // 2 == moves)
        print(f"  {moves} solver move(s): {lengths[moves]} puzzles, rated {ratings[0]:.0f} to "
              f"{ratings[-1]:.0f} (median {statistics.median(ratings):.0f})")  # fmt: skip
    firsts = wholes = ties = 0
    for puzzle in puzzles:
        first, whole = greedy_solves(puzzle)
        firsts += first
        wholes += whole
        ties += among_greediest(puzzle.start, puzzle.solution[0])
    print(f"greedy (converts the most): first move {firsts} ({100 * firsts / len(puzzles):.0f}%),"
          f" whole line {wholes} ({100 * wholes / len(puzzles):.0f}%); the first move is one "
          f"of those converting the most in {ties} ({100 * ties / len(puzzles):.0f}%)")  # fmt: skip
    shipped_rd = statistics.median(p.rd for p in puzzles)
    for label, rd in ((f"the set's own deviation ({shipped_rd:.0f})", shipped_rd),
                      (f"the page's START_RD ({START_RD:.0f})", None)):  # fmt: skip
        median, p90, largest = drift(puzzles, rd, args.seed)
        print(f"after {ATTEMPTS} first attempts, {label}: a rating ends {median:.0f} points from "
              f"its start (median; 90th percentile {p90:.0f}), one attempt moved it at most "
              f"{largest:.0f}")  # fmt: skip
    assert not math.isnan(shipped_rd)
    return 0


if __name__ == "__main__":
    from provenance_note import announce

    announce(__file__)
    raise SystemExit(main())
