"""The generations of a genetic bot (``genetic``, ``gatree``, the reports' presets).

:func:`evolution_trace` runs the bot (seeded, no time limit) with its trace hook
(:data:`adjacency.bots.genetic.GenerationObserver`) and returns, per generation,
the best and mean fitness, the population's diversity and its best chromosome;
and the run's final chromosome (what the bot reports as its line: ``genetic``'s
and report A's best chromosome of the bot's own moves, ``gatree``'s principal
line of both sides), whose first move is the move played. The seed is part of
the trace, so the run can be replayed.

Diversity is the mean, over gene positions, of the share of distinct squares at
that position (1: every chromosome differs there; ``1 / population``: all
agree), with the share of distinct chromosomes beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..bots.gametree import GameTreeBot
from ..bots.gate import NetworkSpec
from ..bots.genetic import GeneticBot
from ..bots.sequence_genetic import SequenceGeneticBot
from ..core import Position
from .drawing import chart
from .limits import MAX_GENERATIONS, MAX_POPULATION, LabError, check_position
from .running import Cancel, build, play_traced

GENETIC_BOTS = (GeneticBot, GameTreeBot, SequenceGeneticBot)


@dataclass(frozen=True)
class Generation:
    """One generation's statistics (fitness as the bot defines it)."""

    generation: int
    best: int
    mean: float
    worst: int
    diversity: float
    distinct: float
    best_chromosome: tuple[str, ...]


@dataclass(frozen=True)
class EvolutionTrace:
    """A genetic bot's run on one position."""

    fen: str
    spec: str
    seed: int
    generations: tuple[Generation, ...]
    chromosome: tuple[str, ...]
    move: str
    complete: bool

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready)."""
        return {
            "fen": self.fen,
            "spec": self.spec,
            "seed": self.seed,
            "generations": [asdict(g) for g in self.generations],
            "chromosome": list(self.chromosome),
            "move": self.move,
            "complete": self.complete,
        }

    def _repr_svg_(self) -> str:
        return evolution_svg(self)


def diversity(chromosomes: Sequence[Sequence[int]]) -> tuple[float, float]:
    """(mean share of distinct genes per position, share of distinct chromosomes)."""
    count = len(chromosomes)
    if count == 0:
        return 0.0, 0.0
    length = max(len(c) for c in chromosomes)
    shares = [len({c[i] for c in chromosomes if i < len(c)}) / count for i in range(length)] or [
        1.0 / count
    ]
    return sum(shares) / len(shares), len({tuple(c) for c in chromosomes}) / count


def _check_size(bot: object) -> None:
    settings = getattr(bot, "settings", None)
    for name, cap in (("population", MAX_POPULATION), ("generations", MAX_GENERATIONS)):
        value = getattr(settings, name, 0)
        if value > cap:
            raise LabError(f"the lab runs at most {name}={cap}, got {name}={value}")


def evolution_trace(
    position: Position,
    spec: str | NetworkSpec = "genetic",
    seed: int = 1,
    cancel: Cancel | None = None,
) -> EvolutionTrace:
    """The trace of the genetic bot ``spec`` (seed ``seed``) choosing a move on ``position``.

    :class:`~adjacency.lab.limits.LabError` for another kind of bot, a population or
    generation count above the lab's bounds, or a position that is over.
    """
    check_position(position)
    bot = build(spec, seed, GENETIC_BOTS, "a genetic bot (genetic, gatree, report-a:genetic)")
    try:
        _check_size(bot)
    except LabError:
        bot.close()
        raise
    assert isinstance(bot, GENETIC_BOTS)
    name = position.board.name
    generations: list[Generation] = []

    def observe(number: int, scored: Sequence[tuple[Sequence[int], int]]) -> None:
        fitness = [value for _, value in scored]
        top = max(fitness)
        best = next(chromosome for chromosome, value in scored if value == top)
        spread, distinct = diversity([chromosome for chromosome, _ in scored])
        generations.append(
            Generation(
                number,
                top,
                sum(fitness) / len(fitness),
                min(fitness),
                spread,
                distinct,
                tuple(name(sq) for sq in best),
            )
        )

    bot.observer = observe
    move, complete = play_traced(bot, position, cancel)
    report = bot.report
    chromosome = report.pv if report is not None else (move,)
    return EvolutionTrace(
        position.fen(), bot.spec, seed, tuple(generations), tuple(chromosome), move, complete
    )


def evolution_svg(trace: EvolutionTrace) -> str:
    """Best and mean fitness per generation."""
    best = [(float(g.generation), float(g.best)) for g in trace.generations]
    mean = [(float(g.generation), g.mean) for g in trace.generations]
    return chart(
        f"{trace.spec} (seed {trace.seed}): fitness per generation; played {trace.move}",
        [("best", "#c62828", best), ("mean", "#1565c0", mean)],
        x_label="generation",
        y_label="fitness",
    )
