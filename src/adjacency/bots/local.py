"""Local search over the candidate moves: hill climbing and simulated annealing.

The state space is the set of empty squares (the candidate moves) of the
position to move in. A state's *neighbours* are the empty squares within
``radius`` king steps of it (Chebyshev distance; default 2; a radius of 7
covers every board, which makes steepest ascent exactly greedy). A state's
value is the objective of :mod:`adjacency.bots.objective`, the mover's margin
after the move:

- ``score=gain``: after the move alone (a monotone function of its immediate gain);
- ``score=reply``: after the move and the opponent's best greedy reply.

The algorithms are those of Russell & Norvig, *AIMA* 3rd ed., section 4.1:

- ``hill:variant=steepest``: steepest-ascent hill climbing (figure 4.2): move to
  the best neighbour while it is strictly better; stop at a local maximum.
- ``hill:variant=sideways``: as steepest, but also moves to an equal neighbour
  (a plateau), at most ``sideways`` times in a row.
- ``hill:variant=stochastic``: moves to an uphill neighbour chosen at random.
- ``hill:variant=restart``: random-restart hill climbing, steepest ascent from
  ``restarts`` random starts, keeping the best local maximum.
- ``anneal``: simulated annealing (figure 4.5) with the exponential schedule
  ``T(k) = t0 * cooling**k``; a random neighbour is always taken when it is
  better and with probability ``exp(delta / T)`` when it is worse; stops once
  ``T < tmin``. It plays the best state it visited (AIMA returns the current
  state; keeping the best costs nothing and is never worse).

Every start and random choice comes from the bot's ``random.Random``. Each
climb polls the deadline; ``nodes`` counts evaluated states.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from functools import cache

from ..core import Position, iter_squares
from .base import Bot, Search, Thinking
from .objective import margin_after, margin_after_reply
from .registry import Option, register

VARIANTS = ("steepest", "sideways", "stochastic", "restart")
SCORES = ("gain", "reply")


@cache
def _areas(rows: int, cols: int, radius: int) -> tuple[int, ...]:
    """For each square, the bitboard of other squares within ``radius`` king steps."""
    masks = []
    for index in range(rows * cols):
        rank, file = divmod(index, cols)
        mask = 0
        for r in range(max(0, rank - radius), min(rows, rank + radius + 1)):
            for f in range(max(0, file - radius), min(cols, file + radius + 1)):
                mask |= 1 << (r * cols + f)
        masks.append(mask & ~(1 << index))
    return tuple(masks)


class Landscape:
    """The candidate moves of one position, their values (cached) and neighbourhoods."""

    def __init__(self, position: Position, score: str, radius: int, search: Search) -> None:
        self.position = position
        self.search = search
        self.evaluate: Callable[[Position, int], int] = (
            margin_after if score == "gain" else margin_after_reply
        )
        self.areas = _areas(position.rows, position.cols, radius)
        self.empty = position.empty
        self.candidates = iter_squares(self.empty)
        self.values: dict[int, int] = {}
        self.nodes = 0

    def value(self, square: int) -> int:
        """The objective of a candidate move (each square is evaluated once)."""
        found = self.values.get(square)
        if found is None:
            self.nodes += 1
            found = self.values[square] = self.evaluate(self.position, square)
        return found

    def neighbours(self, square: int) -> list[int]:
        return iter_squares(self.areas[square] & self.empty)

    def exhausted(self) -> bool:
        """True when the deadline passed, a stop was asked or the node budget is spent."""
        nodes = self.search.limit.nodes
        return self.search.should_stop() or (nodes is not None and self.nodes >= nodes)


def climb(
    land: Landscape, start: int, rng: random.Random, variant: str, max_sideways: int
) -> tuple[int, int]:
    """One hill climb from ``start``; returns ``(local maximum, steps taken)``.

    ``variant`` is ``steepest`` (also used by random restarts), ``sideways`` or
    ``stochastic``. Ties between equally good best neighbours are broken at
    random ("hill-climbing algorithms typically choose randomly among the set
    of best successors", AIMA 4.1.1), which also lets sideways moves wander
    across a plateau instead of shuttling along one edge of it.
    """
    current, steps, sideways = start, 0, 0
    while not land.exhausted():
        here = land.value(current)
        around = land.neighbours(current)
        if variant == "stochastic":
            uphill = [sq for sq in around if land.value(sq) > here]
            if not uphill:
                break
            current = rng.choice(uphill)
        else:
            if not around:
                break
            top = max(land.value(sq) for sq in around)
            best = rng.choice([sq for sq in around if land.value(sq) == top])
            gain = top - here
            if gain < 0 or (gain == 0 and (variant != "sideways" or sideways >= max_sideways)):
                break
            sideways = sideways + 1 if gain == 0 else 0
            current = best
        steps += 1
    return current, steps


class LocalSearchBot(Bot):
    """Shared set-up of the local-search bots: scoring, radius, rng and reporting."""

    name = "local"

    def __init__(self, rng: random.Random, score: str, radius: int) -> None:
        super().__init__()
        self.rng = rng
        self.score = score
        self.radius = radius

    def _choose(self, position: Position, search: Search) -> str:
        land = Landscape(position, self.score, self.radius, search)
        square, detail = self._search(land)
        search.publish(
            Thinking(
                depth=1 if self.score == "gain" else 2,
                score=float(land.value(square)),
                nodes=land.nodes,
                pv=(position.board.name(square),),
                seconds=search.elapsed(),
                text=f"{self.name}: {detail}",
            )
        )
        return position.board.name(square)

    def _search(self, land: Landscape) -> tuple[int, str]:
        """Explore ``land``; return the chosen square and a description of the search."""
        raise NotImplementedError


COMMON = (
    Option(
        "score",
        "gain",
        "value of a move: gain (after it) or reply (after greedy reply)",
        choices=SCORES,
    ),
    Option("radius", 2, "neighbours lie within this many king steps (7: whole board)", 1, 7),
)


@register(
    "hill",
    "hill climbing over candidate moves (steepest, sideways, stochastic, random restart)",
    "local search",
    options=(
        Option("variant", "steepest", "which hill-climbing algorithm", choices=VARIANTS),
        *COMMON,
        Option("sideways", 20, "sideways: most consecutive moves on a plateau", 0, 10_000),
        Option("restarts", 10, "restart: number of random starts", 1, 10_000),
    ),
)
class HillBot(LocalSearchBot):
    """Hill climbing (AIMA 4.1.1) from a random candidate; see the module docstring."""

    def __init__(
        self,
        rng: random.Random,
        variant: str,
        score: str,
        radius: int,
        sideways: int,
        restarts: int,
    ) -> None:
        super().__init__(rng, score, radius)
        self.variant = variant
        self.sideways = sideways
        self.restarts = restarts
        self.name = f"hill {variant}"

    def _search(self, land: Landscape) -> tuple[int, str]:
        starts = self.restarts if self.variant == "restart" else 1
        variant = "steepest" if self.variant == "restart" else self.variant
        best, total, climbs = -1, 0, 0
        while climbs < starts:
            climbs += 1
            start = self.rng.choice(land.candidates)
            top, steps = climb(land, start, self.rng, variant, self.sideways)
            total += steps
            if best < 0 or land.value(top) > land.value(best):
                best = top
            if land.exhausted():
                break
        return best, f"{climbs} climb(s), {total} step(s)"


@register(
    "anneal",
    "simulated annealing over candidate moves, exponential cooling schedule",
    "local search",
    options=(
        Option("t0", 2.0, "starting temperature (in pieces)", 0.001, 1000.0),
        Option("cooling", 0.95, "temperature factor per step: T(k) = t0 * cooling**k", 0.5, 0.9999),
        Option("tmin", 0.01, "stop once the temperature falls below this", 1e-6, 1000.0),
        *COMMON,
    ),
)
class AnnealBot(LocalSearchBot):
    """Simulated annealing (AIMA 4.1.2, figure 4.5); see the module docstring."""

    name = "anneal"

    def __init__(
        self,
        rng: random.Random,
        t0: float,
        cooling: float,
        tmin: float,
        score: str,
        radius: int,
    ) -> None:
        super().__init__(rng, score, radius)
        self.t0 = t0
        self.cooling = cooling
        self.tmin = tmin

    def _search(self, land: Landscape) -> tuple[int, str]:
        current = best = self.rng.choice(land.candidates)
        land.value(current)
        temperature, steps, accepted = self.t0, 0, 0
        while temperature >= self.tmin and not land.exhausted():
            around = land.neighbours(current)
            if not around:
                break
            following = self.rng.choice(around)
            delta = land.value(following) - land.value(current)
            if delta > 0 or self.rng.random() < math.exp(delta / temperature):
                current = following
                accepted += 1
                if land.value(current) > land.value(best):
                    best = current
            steps += 1
            temperature = self.t0 * self.cooling**steps
        return best, f"{steps} step(s), {accepted} accepted, final T={temperature:.3g}"
