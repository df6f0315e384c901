"""Genetic algorithm, variant A: chromosomes are the bot's own next moves.

A genetic algorithm (Russell & Norvig, *AIMA* 3rd ed., section 4.1.4, figure
4.8) keeps a population of candidate solutions, breeds fitter ones more often
and mutates the offspring. Here:

- a *chromosome* is a sequence of ``horizon`` squares: the bot's own next
  moves (cut to the moves it has left in the game);
- *fitness* simulates the sequence from the current position, the opponent
  answering each move with the greedy reply (the move of steepest-ascent hill
  climbing over the whole board: most conversions, lowest square on ties), and
  is the bot's margin (its pieces minus the opponent's) at the end;
- *repair*: a gene naming a square that is no longer empty when it is played
  (the bot's own earlier gene, or a square the opponent's reply took) is
  replaced by a random empty square and written back into the chromosome
  (Lamarckian repair), so offspring are repaired, never discarded, and every
  chromosome in the population plays legally as written;
- *selection*: roulette wheel on fitness shifted so the worst has weight 1;
  *crossover*: single point; *mutation*: each gene is replaced by a random empty
  square with probability ``mutation``; *elitism*: the ``elitism`` best
  chromosomes pass unchanged into the next generation.

It stops after ``generations`` generations, at the deadline, or when the node
budget (simulated plies) is spent, and plays the first gene of the best
chromosome. Fitness is deterministic once a chromosome is repaired, so with
elitism the best fitness never decreases from one generation to the next.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core import Position, iter_squares
from .base import Bot, Search, Thinking
from .objective import Geometry, geometry_of
from .registry import Option, register

Chromosome = tuple[int, ...]

GenerationObserver = Callable[[int, Sequence[tuple[Sequence[int], int]]], None]
"""The search lab's trace hook on the genetic bots (``bot.observer``, default ``None``):
called with each generation's number (0: the initial population) and its population as
``(chromosome, fitness)`` pairs, after the population is scored. It only watches: it
draws no random numbers, so a traced run makes the same moves as an untraced one."""


@dataclass
class Evolution:
    """The state and history of one run of the genetic algorithm."""

    best: Chromosome
    fitness: int
    history: list[int] = field(default_factory=list)
    """Best fitness of each generation, the initial population first."""
    nodes: int = 0


class Simulator:
    """Plays chromosomes against the greedy opponent from one position, repairing genes
    that name a taken square.

    :meth:`play` is the one playout of both genetic bots: report A's bot
    (:class:`adjacency.bots.sequence_genetic.Simulator`) subclasses this with its own
    reply (:meth:`reply`) and illegal-gene rules (:meth:`fix_gene`, :meth:`reply_refused`).
    """

    def __init__(self, position: Position, rng: random.Random) -> None:
        self.position = position
        self.geometry: Geometry = geometry_of(position)
        self.rng = rng
        self.nodes = 0
        self.cache: dict[Chromosome, int] = {}

    def length(self, horizon: int) -> int:
        """Genes per chromosome: ``horizon`` cut to the bot's moves left in the game."""
        return min(horizon, (self.position.plies_left + 1) // 2)

    def random_chromosome(self, length: int) -> Chromosome:
        """``length`` distinct empty squares of the position in random order (``ValueError`` if
        fewer are empty)."""
        return tuple(self.rng.sample(iter_squares(self.position.empty), length))

    def fix_gene(self, genes: list[int], i: int, empty: int) -> bool:
        """Gene ``i`` names a square that is not ``empty``: repair it in place with a random
        empty square (Lamarckian repair) and say it can be played (True)."""
        genes[i] = self.rng.choice(iter_squares(empty))
        return True

    def reply(self, empty: int, me: int) -> int:
        """The opponent's answer: the greedy reply (most conversions, lowest square)."""
        return self.geometry.greedy_square(empty, me)[0]

    def reply_refused(self, genes: list[int], i: int, reply: int) -> bool:
        """Whether the opponent's ``reply`` to gene ``i`` makes the chromosome unplayable
        (never here: a later gene on that square is repaired when its turn comes)."""
        return False

    def play(self, genes: list[int]) -> int | None:
        """Play ``genes`` from the position, each answered by :meth:`reply`, until they or
        the game run out; return the bot's margin, or ``None`` when a gene cannot be played
        (:meth:`fix_gene` or :meth:`reply_refused` says so). Counts simulated plies in
        ``nodes``."""
        position = self.position
        me, opp = position.mover, position.opponent
        empty, plies = position.empty, position.plies_left
        for i, square in enumerate(genes):
            if not (empty >> square) & 1:
                if not self.fix_gene(genes, i, empty):
                    return None
                square = genes[i]
            me, opp = self.geometry.place(me, opp, square)
            empty, plies = empty ^ (1 << square), plies - 1
            self.nodes += 1
            if plies == 0:
                break
            reply = self.reply(empty, me)
            if self.reply_refused(genes, i, reply):
                return None
            opp, me = self.geometry.place(opp, me, reply)
            empty, plies = empty ^ (1 << reply), plies - 1
            self.nodes += 1
            if plies == 0:
                break
        return me.bit_count() - opp.bit_count()

    def evaluate(self, chromosome: Chromosome) -> tuple[Chromosome, int]:
        """Repair ``chromosome`` if needed; return it with its fitness."""
        known = self.cache.get(chromosome)
        if known is not None:
            return chromosome, known
        genes = list(chromosome)
        fitness = self.play(genes)
        assert fitness is not None  # every gene is repaired, never refused
        repaired = tuple(genes)
        self.cache[repaired] = fitness
        return repaired, fitness


@dataclass(frozen=True)
class GeneticSettings:
    """The parameters of variant A (see the module docstring)."""

    population: int = 40
    generations: int = 60
    horizon: int = 4
    mutation: float = 0.1
    elitism: int = 2


def roulette(
    scored: list[tuple[Chromosome, int]], rng: random.Random, count: int
) -> list[Chromosome]:
    """Fitness-proportionate selection on fitness shifted so the worst weighs 1."""
    worst = min(fitness for _, fitness in scored)
    weights = [fitness - worst + 1 for _, fitness in scored]
    return [c for c, _ in rng.choices(scored, weights=weights, k=count)]


def crossover(a: Chromosome, b: Chromosome, rng: random.Random) -> tuple[Chromosome, Chromosome]:
    """Single-point crossover: cut both parents at one random point and swap tails."""
    if len(a) < 2:
        return a, b
    cut = rng.randint(1, len(a) - 1)
    return a[:cut] + b[cut:], b[:cut] + a[cut:]


def mutate(
    chromosome: Chromosome, rate: float, squares: list[int], rng: random.Random
) -> Chromosome:
    """Replace each gene by a random empty square of the root with probability ``rate``."""
    return tuple(rng.choice(squares) if rng.random() < rate else g for g in chromosome)


def evolve(
    position: Position,
    settings: GeneticSettings,
    rng: random.Random,
    search: Search | None = None,
    observer: GenerationObserver | None = None,
) -> Evolution:
    """Run the genetic algorithm on ``position`` (not over) and return the result; ``observer``
    (optional) sees every generation."""
    simulator = Simulator(position, rng)
    length = simulator.length(settings.horizon)
    squares = iter_squares(position.empty)
    scored = [
        simulator.evaluate(simulator.random_chromosome(length)) for _ in range(settings.population)
    ]
    scored.sort(key=lambda item: -item[1])
    run = Evolution(scored[0][0], scored[0][1], [scored[0][1]])
    if observer is not None:
        observer(0, scored)

    def exhausted() -> bool:
        if search is None:
            return False
        nodes = search.limit.nodes
        return search.should_stop() or (nodes is not None and simulator.nodes >= nodes)

    for _ in range(settings.generations):
        if exhausted():
            break
        offspring = [c for c, _ in scored[: settings.elitism]]
        while len(offspring) < settings.population and not exhausted():
            mother, father = roulette(scored, rng, 2)
            for child in crossover(mother, father, rng):
                if len(offspring) < settings.population:
                    offspring.append(mutate(child, settings.mutation, squares, rng))
        if len(offspring) < settings.population:
            break  # out of time mid-generation: keep the last complete one
        scored = [simulator.evaluate(child) for child in offspring]
        scored.sort(key=lambda item: -item[1])
        run.history.append(scored[0][1])
        if observer is not None:
            observer(len(run.history) - 1, scored)
        if scored[0][1] > run.fitness:  # the best ever seen (with elitism: the current best)
            run.best, run.fitness = scored[0]
    run.nodes = simulator.nodes
    return run


def answer(
    position: Position,
    search: Search,
    best: Sequence[int],
    fitness: float,
    nodes: int,
    generations: str,
) -> str:
    """A genetic search's answer: its best sequence's first square, published as the
    search's thinking (the sequence of its own moves as the line, ``generations``: the
    bot's name and how many generations it ran)."""
    search.publish(
        Thinking(
            depth=2 * len(best),
            score=float(fitness),
            nodes=nodes,
            pv=tuple(position.board.name(sq) for sq in best),
            seconds=search.elapsed(),
            text=f"{generations} generation(s), own moves shown",
        )
    )
    return position.board.name(best[0])


@register(
    "genetic",
    "genetic algorithm over the bot's next moves vs a greedy opponent (roulette, elitism)",
    "genetic",
    options=(
        Option("population", 40, "chromosomes per generation", 2, 10_000, cap=1000),
        Option("generations", 60, "generations to breed (or until the time runs out)", 0, 100_000),
        Option("horizon", 4, "own moves per chromosome (cut to the moves left)", 1, 32),
        Option("mutation", 0.1, "probability that a gene is replaced at random", 0.0, 1.0),
        Option(
            "elitism", 2, "best chromosomes copied unchanged into the next generation", 0, 10_000
        ),
    ),
)
class GeneticBot(Bot):
    """Variant A of the genetic algorithm; plays the first gene of the best chromosome."""

    def __init__(
        self,
        rng: random.Random,
        population: int,
        generations: int,
        horizon: int,
        mutation: float,
        elitism: int,
    ) -> None:
        super().__init__()
        self.rng = rng
        self.settings = GeneticSettings(
            population, generations, horizon, mutation, min(elitism, population)
        )
        self.last: Evolution | None = None
        self.observer: GenerationObserver | None = None
        """The search lab's trace hook (see :data:`GenerationObserver`)."""

    def _choose(self, position: Position, search: Search) -> str:
        run = evolve(position, self.settings, self.rng, search, self.observer)
        self.last = run
        done = f"genetic: {len(run.history) - 1}"
        return answer(position, search, run.best, run.fitness, run.nodes, done)
