"""Local search over the candidate moves: hill climbing and simulated annealing.

A move is chosen by local search over the *successors* of the position to move
in, one per empty square (the course reports' formulation: the board is the
state, every position one legal move away a successor). A successor's value is
an objective of :mod:`adjacency.bots.objective`, from the mover's view:

- ``score=reply`` (default): the margin after the move and the opponent's best
  immediate (greedy) reply: a move that opens a big conversion for the
  opponent is valued by what it leaves, not by what it grabs;
- ``score=gain``: the margin after the move alone (report B's objective);
- ``score=own``: the mover's piece count after the move (report A's local
  objective); the same order of moves as ``gain``.

The *current value* is the same objective for the position itself (its margin,
or its mover's piece count for ``own``).

Two neighbourhoods (``neighbourhood``):

- ``all`` (default): every successor is a neighbour of the position, so one
  step of the climb sees every legal move. ``hill`` takes that one step, as the
  reports' bots do each turn (Russell & Norvig, *AIMA* 3rd ed., 4.1.1):

  - ``variant=steepest``: a successor of maximal value;
  - ``variant=sideways``: a best successor among those at least as good as the
    current value (report A's "hill climbing with sideways moves");
  - ``variant=stochastic``: a random successor among the uphill ones (better
    than the current value);

  ties between equally good successors are broken at random. A game forces a
  move even at a local maximum, so when no successor qualifies the bot plays a
  best successor. Random restarts have nothing to add when one step sees every
  move: ``variant=restart`` needs ``neighbourhood=area``. ``anneal`` runs
  simulated annealing over the successors, each successor a neighbour of every
  other one, and plays the best it visited.
- ``area``: the textbook variant of local search over squares: the state is a
  candidate move, its neighbours the empty squares within ``radius`` king steps
  of it (Chebyshev distance; default 2; a radius of 7 covers every board). The
  climb starts from a random candidate and moves while a neighbour improves:

  - ``hill:variant=steepest``: steepest-ascent hill climbing (AIMA figure 4.2):
    move to the best neighbour while it is strictly better; stop at a local maximum.
  - ``hill:variant=sideways``: as steepest, but also moves to an equal neighbour
    (a plateau), at most ``sideways`` times in a row.
  - ``hill:variant=stochastic``: moves to an uphill neighbour chosen at random.
  - ``hill:variant=restart``: random-restart hill climbing, steepest ascent from
    ``restarts`` random starts, keeping the best local maximum.

``anneal`` is simulated annealing (AIMA figure 4.5) with the exponential schedule
``T(k) = t0 * cooling**k``; a random neighbour is always taken when it is
better and with probability ``exp(delta / T)`` when it is worse; stops once
``T < tmin``. It plays the best state it visited (AIMA returns the current
state; keeping the best costs nothing and is never worse).

Every start and random choice comes from the bot's ``random.Random``. The
search polls the deadline; ``nodes`` counts evaluated successors.

A bot's ``observer`` (default ``None``) is the search lab's trace hook: it is
given a :class:`LocalStep` for every step of the search (the candidates looked
at with their values, the one chosen, sideways steps, restarts, the annealing
temperature). It only watches: it draws no random numbers and evaluates
nothing, so a traced search makes the same moves as an untraced one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..core import Position, iter_squares
from .base import Bot, BotError, Search, Thinking
from .objective import margin_after, margin_after_reply, material, pieces_after
from .registry import Option, register

VARIANTS = ("steepest", "sideways", "stochastic", "restart")
SCORES = ("reply", "gain", "own")
NEIGHBOURHOODS = ("all", "area")

OBJECTIVES: dict[str, tuple[Callable[[Position, int], int], Callable[[Position], int]]] = {
    "reply": (margin_after_reply, material),
    "gain": (margin_after, material),
    "own": (pieces_after, lambda position: position.mover.bit_count()),
}
"""score -> (value of the successor after a move, value of the position itself)."""


@dataclass(frozen=True)
class LocalStep:
    """One step of a local search, as the search lab shows it (squares are indices).

    ``kind``: ``choose`` (neighbourhood ``all``: one step over every successor),
    ``start`` (a climb starts at ``chosen``; a second start is a random restart),
    ``uphill``, ``sideways`` (a move to an equal neighbour), ``stop`` (a local
    maximum or the end of a plateau: ``chosen`` is where the climb ends), or for
    annealing ``accept`` / ``reject`` (a random neighbour, taken or not).
    ``current`` is the state before the step (``None``: the position itself, whose
    objective is ``current_value``); ``candidates`` the neighbours valued for the
    step; ``temperature`` the annealing temperature of the step.
    """

    kind: str
    current: int | None
    current_value: int
    candidates: tuple[tuple[int, int], ...]
    chosen: int
    temperature: float | None = None


StepObserver = Callable[[LocalStep], None]


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
    """The candidate moves of one position, their values (cached) and neighbourhoods.

    ``radius=None`` makes every candidate a neighbour of every other one
    (``neighbourhood=all``); an integer limits neighbours to that many king steps.
    """

    def __init__(
        self,
        position: Position,
        score: str,
        radius: int | None,
        search: Search,
        observer: StepObserver | None = None,
    ) -> None:
        self.position = position
        self.observer = observer
        """The search lab's hook (see the module docstring); ``None``: not traced."""
        self.search = search
        self.evaluate, value_of = OBJECTIVES[score]
        self.current = value_of(position)
        """The objective of the position itself: the value a climb step compares with."""
        self.areas = None if radius is None else _areas(position.rows, position.cols, radius)
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
        """The empty squares that neighbour ``square``: every other one without a radius, else
        those within the radius."""
        if self.areas is None:
            return iter_squares(self.empty & ~(1 << square))
        return iter_squares(self.areas[square] & self.empty)

    def note(
        self,
        kind: str,
        current: int | None,
        candidates: list[int],
        chosen: int,
        temperature: float | None = None,
    ) -> None:
        """Tell the observer (if any) about a step; ``candidates`` must be valued already."""
        if self.observer is not None:
            here = self.current if current is None else self.values[current]
            valued = tuple((sq, self.values[sq]) for sq in candidates if sq in self.values)
            self.observer(LocalStep(kind, current, here, valued, chosen, temperature))

    def exhausted(self) -> bool:
        """True when the deadline passed, a stop was asked or the node budget is spent."""
        nodes = self.search.limit.nodes
        return self.search.should_stop() or (nodes is not None and self.nodes >= nodes)


def successor_step(land: Landscape, rng: random.Random, variant: str) -> tuple[int, str]:
    """One hill-climbing step from the position to one of its successors (``neighbourhood=all``).

    Evaluates the successors in random order until all are done (or the budget
    ends, after at least one), then picks by ``variant`` (see the module
    docstring). Returns the square and a description of the step.
    """
    order = list(land.candidates)
    rng.shuffle(order)
    for square in order:
        land.value(square)
        if land.exhausted():
            break
    seen = land.values
    if variant == "stochastic":
        pool = [sq for sq, v in seen.items() if v > land.current]
        rule = "uphill"
    elif variant == "sideways":
        pool = [sq for sq, v in seen.items() if v >= land.current]
        rule = "not below the current value"
    else:
        pool, rule = [], "best"
    forced = not pool and variant != "steepest"
    if variant == "stochastic" and pool:
        chosen = rng.choice(pool)
    else:
        pool = pool or list(seen)
        top = max(seen[sq] for sq in pool)
        chosen = rng.choice([sq for sq in pool if seen[sq] == top])
    land.note("choose", None, list(seen), chosen)
    note = f"; none {rule}, played a best one" if forced else f" ({rule})"
    return chosen, (
        f"{len(seen)} of {len(land.candidates)} successor(s), current value "
        f"{land.current}, chose {seen[chosen]}{note}"
    )


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
    land.note("start", None, [], start)
    while not land.exhausted():
        here = land.value(current)
        around = land.neighbours(current)
        if variant == "stochastic":
            uphill = [sq for sq in around if land.value(sq) > here]
            if not uphill:
                land.note("stop", current, around, current)
                break
            following = rng.choice(uphill)
            land.note("uphill", current, around, following)
            current = following
        else:
            if not around:
                land.note("stop", current, around, current)
                break
            top = max(land.value(sq) for sq in around)
            best = rng.choice([sq for sq in around if land.value(sq) == top])
            gain = top - here
            if gain < 0 or (gain == 0 and (variant != "sideways" or sideways >= max_sideways)):
                land.note("stop", current, around, current)
                break
            sideways = sideways + 1 if gain == 0 else 0
            land.note("sideways" if gain == 0 else "uphill", current, around, best)
            current = best
        steps += 1
    return current, steps


class LocalSearchBot(Bot):
    """Shared set-up of the local-search bots: scoring, radius, rng and reporting."""

    name = "local"

    def __init__(self, rng: random.Random, score: str, neighbourhood: str, radius: int) -> None:
        super().__init__()
        self.rng = rng
        self.score = score
        self.neighbourhood = neighbourhood
        self.radius = radius
        self.observer: StepObserver | None = None
        """The search lab's trace hook, given every :class:`LocalStep`; ``None``: not traced."""

    def _choose(self, position: Position, search: Search) -> str:
        radius = None if self.neighbourhood == "all" else self.radius
        land = Landscape(position, self.score, radius, search, self.observer)
        square, detail = self._search(land)
        search.publish(
            Thinking(
                depth=2 if self.score == "reply" else 1,
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
        "reply",
        "value of a move: margin after the opponent's best immediate reply (reply), "
        "margin after the move (gain), or own pieces after it (own)",
        choices=SCORES,
    ),
    Option(
        "neighbourhood",
        "all",
        "all: every successor of the position is a neighbour (the reports' local search); "
        "area: squares within radius of a candidate square (textbook variant)",
        choices=NEIGHBOURHOODS,
    ),
    Option("radius", 2, "area: neighbours lie within this many king steps (7: whole board)", 1, 7),
)


@register(
    "hill",
    "hill climbing over the successors (steepest, sideways, stochastic; area: random restart)",
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
        neighbourhood: str,
        radius: int,
        sideways: int,
        restarts: int,
    ) -> None:
        if variant == "restart" and neighbourhood == "all":
            raise BotError(
                "bot 'hill': variant=restart needs neighbourhood=area (with every successor "
                "a neighbour, one step already sees every move)"
            )
        super().__init__(rng, score, neighbourhood, radius)
        self.variant = variant
        self.sideways = sideways
        self.restarts = restarts
        self.name = f"hill {variant}"

    def _search(self, land: Landscape) -> tuple[int, str]:
        if self.neighbourhood == "all":
            return successor_step(land, self.rng, self.variant)
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
    "simulated annealing over the successors, exponential cooling schedule",
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
        neighbourhood: str,
        radius: int,
    ) -> None:
        super().__init__(rng, score, neighbourhood, radius)
        self.t0 = t0
        self.cooling = cooling
        self.tmin = tmin

    def _search(self, land: Landscape) -> tuple[int, str]:
        current = best = self.rng.choice(land.candidates)
        land.value(current)
        land.note("start", None, [current], current, self.t0)
        temperature, steps, accepted = self.t0, 0, 0
        while temperature >= self.tmin and not land.exhausted():
            around = land.neighbours(current)
            if not around:
                break
            following = self.rng.choice(around)
            delta = land.value(following) - land.value(current)
            if delta > 0 or self.rng.random() < math.exp(delta / temperature):
                land.note("accept", current, [following], following, temperature)
                current = following
                accepted += 1
                if land.value(current) > land.value(best):
                    best = current
            else:
                land.note("reject", current, [following], current, temperature)
            steps += 1
            temperature = self.t0 * self.cooling**steps
        return best, f"{steps} step(s), {accepted} accepted, final T={temperature:.3g}"
