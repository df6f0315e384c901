"""Report A's genetic algorithm: the bot's own next moves, replied to by local search.

Course report A (``000_1017c440989dc4b0.txt``, section 4, with the objective of
section 1c) defines a genetic algorithm whose operators differ from our
``genetic`` bot in ways that change its play, so it is implemented here as the
report lists its steps:

1. a random population of ``population`` chromosomes, each a sequence of
   ``horizon`` of the bot's own moves, every gene drawn (with repetition) from
   the empty squares of the position;
2. fitness plays a chromosome from the position, each own move answered by the
   report's local search for the opponent (the move converting the most,
   random among equals: report A section 3), and is the bot's margin at the end.
   A chromosome that turns illegal (a gene names a square the opponent's reply
   took or that an earlier gene filled) is worth 0, as the report's fitness
   returns 0 for such "illegal offspring" instead of repairing them;
3. roulette-wheel selection of a whole new population, each chromosome weighted
   by its fitness plus an offset that keeps every weight positive (report A adds
   65: one more than the squares of its 8x8 board; here ``squares + 1``);
4. single-point crossover at the middle of the chromosome, applied in place to
   the pairs (0, 1), (1, 2), ... of the first half of the selected population,
   as the report's loop does;
5. mutation: with probability ``mutation`` a chromosome gets one random gene
   replaced by a random empty square;
6. steps 3-5 repeat ``generations`` times (the report's stopping criterion is
   its time limit, which the deadline also enforces here);
7. the chromosome of highest fitness in the last population (the first one on
   ties) gives the move: its first gene.

There is no elitism and no repair, as in the report. Fitness is random (the
replies break ties at random), so a chromosome is re-evaluated each time.
``nodes`` counts simulated plies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core import Position, iter_squares
from . import genetic
from .base import Bot, Search
from .genetic import GenerationObserver

Chromosome = list[int]

ILLEGAL_FITNESS = 0
"""The fitness of a chromosome that cannot be played as written (report A, section 4)."""


@dataclass(frozen=True)
class ReportGeneticSettings:
    """Report A's genetic parameters; the values the report leaves open are ours."""

    population: int = 20
    horizon: int = 3
    mutation: float = 0.1
    generations: int = 100


class Simulator(genetic.Simulator):
    """Plays chromosomes from one position against report A's local-search replies: the
    genetic bot's playout (:meth:`adjacency.bots.genetic.Simulator.play`) with report A's
    rules, no repair and random replies among the best."""

    def fix_gene(self, genes: list[int], i: int, empty: int) -> bool:
        """A gene on a taken square makes the chromosome illegal (no repair)."""
        return False

    def reply(self, empty: int, me: int) -> int:
        """A move converting the most, random among equals (report A section 3)."""
        best, _ = self.geometry.best_squares(empty, me)
        return self.rng.choice(iter_squares(best))

    def reply_refused(self, genes: list[int], i: int, reply: int) -> bool:
        """A reply on a square a later gene names makes the chromosome illegal at once."""
        return reply in genes[i + 1 :]

    def fitness(self, genes: Chromosome) -> int:
        """The bot's margin after playing ``genes`` with replies; 0 if they turn illegal."""
        margin = self.play(genes)
        return ILLEGAL_FITNESS if margin is None else margin


@dataclass
class Outcome:
    """The chosen chromosome, its fitness, and how much the run did."""

    best: Chromosome
    fitness: int
    generations: int
    nodes: int


def crossover_in_place(population: list[Chromosome], point: int) -> None:
    """Swap the tails from ``point`` of the pairs (j, j + 1), j < len // 2, in turn."""
    for j in range(len(population) // 2):
        first, second = population[j], population[j + 1]
        population[j] = first[:point] + second[point:]
        population[j + 1] = second[:point] + first[point:]


def evolve(
    position: Position,
    settings: ReportGeneticSettings,
    rng: random.Random,
    search: Search | None = None,
    observer: GenerationObserver | None = None,
) -> Outcome:
    """Run report A's genetic algorithm on ``position`` (not over); ``observer`` (optional)
    sees every generation."""
    simulator = Simulator(position, rng)
    squares = iter_squares(position.empty)
    length = min(settings.horizon, position.rounds_left)
    offset = position.rows * position.cols + 1
    population = [[rng.choice(squares) for _ in range(length)] for _ in range(settings.population)]
    scores = [simulator.fitness(c) for c in population]
    if observer is not None:
        observer(0, list(zip(population, scores, strict=True)))

    def exhausted() -> bool:
        if search is None:
            return False
        budget = search.limit.nodes
        return search.should_stop() or (budget is not None and simulator.nodes >= budget)

    bred = 0
    while bred < settings.generations and not exhausted():
        weights = [score + offset for score in scores]
        offspring = [list(c) for c in rng.choices(population, weights=weights, k=len(population))]
        crossover_in_place(offspring, length // 2)
        for chromosome in offspring:
            if rng.random() < settings.mutation:
                chromosome[rng.randrange(length)] = rng.choice(squares)
        new_scores = []
        for chromosome in offspring:
            if exhausted():
                break
            new_scores.append(simulator.fitness(chromosome))
        if len(new_scores) < len(offspring):
            break  # out of time mid-generation: keep the last complete one
        population, scores = offspring, new_scores
        bred += 1
        if observer is not None:
            observer(bred, list(zip(population, scores, strict=True)))
    top = max(scores)
    best = population[scores.index(top)]
    return Outcome(best, top, bred, simulator.nodes)


class SequenceGeneticBot(Bot):
    """Report A's genetic algorithm (see the module docstring)."""

    name = "report-a genetic"

    def __init__(self, rng: random.Random, settings: ReportGeneticSettings) -> None:
        super().__init__()
        self.rng = rng
        self.settings = settings
        self.observer: GenerationObserver | None = None
        """The search lab's trace hook (see :data:`adjacency.bots.genetic.GenerationObserver`)."""

    def _choose(self, position: Position, search: Search) -> str:
        run = evolve(position, self.settings, self.rng, search, self.observer)
        done = f"report-a genetic: {run.generations}"
        return genetic.answer(position, search, run.best, run.fitness, run.nodes, done)
