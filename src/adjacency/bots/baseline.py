"""Baseline bots: uniformly random, and greedy (most squares won this move)."""

from __future__ import annotations

import random

from ..core import Position
from .base import Bot, Search, Thinking
from .registry import register


@register("random", "plays a uniformly random empty square", "baseline")
class RandomBot(Bot):
    """Plays a legal move drawn uniformly by ``rng``."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _choose(self, position: Position, search: Search) -> str:
        return self.rng.choice(position.legal_moves())


def immediate_gain(position: Position, square: int) -> int:
    """Squares the mover wins by playing ``square``: the placed piece plus its flips."""
    return 1 + (position.board.neighbours[square] & position.opponent).bit_count()


@register(
    "greedy",
    "maximises squares won this move (the placed piece plus flips), random tie-break",
    "baseline",
)
class GreedyBot(Bot):
    """Plays the move that wins the most squares now (the piece plus the squares it converts);
    ``rng`` breaks ties."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _choose(self, position: Position, search: Search) -> str:
        gains = {sq: immediate_gain(position, sq) for sq in position.legal_squares()}
        best = max(gains.values())
        choice = self.rng.choice([sq for sq, gain in gains.items() if gain == best])
        search.publish(
            Thinking(depth=1, score=float(best), nodes=len(gains), seconds=search.elapsed())
        )
        return position.board.name(choice)
