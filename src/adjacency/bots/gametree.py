"""Genetic algorithm, variant B: chromosomes are lines of play, valued by a game tree.

A chromosome is an interleaved sequence of ``depth`` moves, the bot's and the
opponent's alternately, starting with the bot's (a *line* of play; ``depth`` is
cut to the plies left; ``depth=0`` makes it the rounds left, the length report
B's implementation uses). Every sequence of distinct empty squares is legal, so
*repair* only replaces a repeated square by a random unused empty one.

Each generation (a genetic algorithm in the sense of Russell & Norvig, *AIMA*
3rd ed., 4.1.4, whose fitness comes from minimax, 5.2):

1. breed ``population`` offspring from random pairs of the survivors with
   single-point crossover, per-gene mutation at rate ``mutation``, and repair;
2. merge survivors and offspring into a prefix tree of lines: lines sharing
   their first ``k`` moves share their first ``k`` tree nodes;
3. value the tree by negamax from its leaves: a leaf (the end of a line) is
   worth the material objective for the side to move there, an inner node the
   best of its children's negated values, over the children present in the tree;
4. a chromosome's *fitness* is how far up the tree its leaf value survives:
   the number of consecutive ancestors, from its leaf upwards, whose value is
   the one coming up along its own line (``depth`` means it is the principal
   line); ties keep each line's (random) order;
5. keep the best ``population`` lines.

It repeats until ``generations`` are bred, the deadline or the node budget
(tree nodes built), then plays the child of the root that negamax prefers in
the last tree built (survivors and offspring of the last generation). The budget
is polled after every line added to a tree, since a tree of long lines takes a
while to build: a generation whose tree is not finished in time is dropped (the
first tree, of the random population, keeps the lines it has).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..core import Position, iter_squares
from .base import Bot, Search, Thinking
from .genetic import GenerationObserver, crossover, mutate
from .registry import Option, register

Line = tuple[int, ...]


@dataclass
class Node:
    """A prefix-tree node: the position after a prefix of some lines."""

    diff: int
    """Material for the side to move at this node."""
    me: int
    opp: int
    children: dict[int, Node] = field(default_factory=dict)
    value: int = 0


class Tree:
    """The prefix tree of a set of lines from one position, valued by negamax."""

    def __init__(self, position: Position) -> None:
        self.neighbours = position.board.neighbours
        self.root = Node(
            position.mover.bit_count() - position.opponent.bit_count(),
            position.mover,
            position.opponent,
        )
        self.nodes = 1

    def add(self, line: Line) -> None:
        """Add ``line`` (squares played in turn from the root position), creating the nodes it
        lacks."""
        node = self.root
        for square in line:
            child = node.children.get(square)
            if child is None:
                gained = self.neighbours[square] & node.opp
                flips = gained.bit_count()
                child = Node(
                    -(node.diff + 1 + 2 * flips),
                    node.opp ^ gained,
                    node.me | (1 << square) | gained,
                )
                node.children[square] = child
                self.nodes += 1
            node = child

    def evaluate(self, node: Node | None = None) -> int:
        """Negamax from the leaves; stores and returns each node's value."""
        node = self.root if node is None else node
        if not node.children:
            node.value = node.diff
        else:
            node.value = max(-self.evaluate(child) for child in node.children.values())
        return node.value

    def survival(self, line: Line) -> int:
        """How many ancestors of ``line``'s leaf take their value from this line."""
        path = [self.root]
        for square in line:
            path.append(path[-1].children[square])
        levels = 0
        for parent, child in zip(reversed(path[:-1]), reversed(path[1:]), strict=True):
            if parent.value != -child.value:
                break
            levels += 1
        return levels

    def principal_line(self) -> Line:
        """The line negamax prefers, from the root (lowest square on ties)."""
        line: list[int] = []
        node = self.root
        while node.children:
            square = min(sq for sq, c in node.children.items() if -c.value == node.value)
            line.append(square)
            node = node.children[square]
        return tuple(line)


def repair(line: Line, squares: list[int], rng: random.Random) -> Line:
    """Replace every repeated square of ``line`` by a random square it does not use."""
    seen: set[int] = set()
    fixed: list[int] = []
    for square in line:
        if square in seen:
            square = rng.choice([sq for sq in squares if sq not in seen])
        seen.add(square)
        fixed.append(square)
    return tuple(fixed)


@dataclass(frozen=True)
class GameTreeSettings:
    """The parameters of variant B (see the module docstring)."""

    population: int = 60
    generations: int = 40
    depth: int = 4
    mutation: float = 0.2


@dataclass
class Result:
    """The final tree of a run, its principal line and root value."""

    tree: Tree
    line: Line
    value: int
    generations: int
    nodes: int


def evolve_tree(
    position: Position,
    settings: GameTreeSettings,
    rng: random.Random,
    search: Search | None = None,
    observer: GenerationObserver | None = None,
) -> Result:
    """Run variant B on ``position`` (not over) and return the final valued tree; ``observer``
    (optional) sees every generation's kept lines with their fitness (survival levels)."""
    squares = iter_squares(position.empty)
    length = min(settings.depth or position.rounds_left, position.plies_left)
    population = [tuple(rng.sample(squares, length)) for _ in range(settings.population)]
    nodes = 0

    def exhausted(building: int = 0) -> bool:
        """Out of time or nodes (``building``: nodes of a tree under construction)."""
        if search is None:
            return False
        budget = search.limit.nodes
        return search.should_stop() or (budget is not None and nodes + building >= budget)

    def rank(lines: list[Line], complete: bool) -> tuple[Tree, list[Line]] | None:
        """The valued tree of ``lines`` and the lines by fitness, best first.

        Polls the budget after each line added (a tree of long lines takes a
        while): if it runs out, returns ``None`` when ``complete`` is asked,
        else the tree of the lines added so far (at least one).
        """
        tree = Tree(position)
        unique = list(dict.fromkeys(lines))
        added = 0
        for line in unique:
            tree.add(line)
            added += 1
            if exhausted(tree.nodes):
                if complete:
                    return None
                break
        unique = unique[:added]
        tree.evaluate()
        rng.shuffle(unique)
        unique.sort(key=lambda line: -tree.survival(line))
        return tree, unique

    first = rank(population, complete=False)
    assert first is not None
    tree, population = first
    nodes += tree.nodes
    if observer is not None:
        observer(0, [(line, tree.survival(line)) for line in population])
    bred = 0
    while bred < settings.generations and not exhausted():
        offspring: list[Line] = []
        while len(offspring) < settings.population and not exhausted():
            for child in crossover(rng.choice(population), rng.choice(population), rng):
                offspring.append(
                    repair(mutate(child, settings.mutation, squares, rng), squares, rng)
                )
        if len(offspring) < settings.population:
            break  # out of time mid-generation: keep the last complete tree
        ranked = rank(population + offspring, complete=True)
        if ranked is None:
            break  # out of time while building the tree: keep the last complete one
        tree, lines = ranked
        nodes += tree.nodes
        population = lines[: settings.population]
        bred += 1
        if observer is not None:
            observer(bred, [(line, tree.survival(line)) for line in population])
    line = tree.principal_line()
    return Result(tree, line, tree.root.value, bred, nodes)


@register(
    "gatree",
    "genetic algorithm over lines of play for both sides, fitness from a minimax prefix tree",
    "genetic",
    options=(
        Option("population", 60, "lines kept each generation", 2, 10_000, cap=1000),
        Option("generations", 40, "generations to breed (or until the time runs out)", 0, 100_000),
        Option(
            "depth",
            4,
            "plies per line, both sides (cut to the plies left; 0: the rounds left)",
            0,
            64,
        ),
        Option(
            "mutation", 0.2, "probability that a move of a line is replaced at random", 0.0, 1.0
        ),
    ),
)
class GameTreeBot(Bot):
    """Variant B of the genetic algorithm; plays the root child negamax prefers."""

    def __init__(
        self, rng: random.Random, population: int, generations: int, depth: int, mutation: float
    ) -> None:
        super().__init__()
        self.rng = rng
        self.settings = GameTreeSettings(population, generations, depth, mutation)
        self.observer: GenerationObserver | None = None
        """The search lab's trace hook (see :data:`adjacency.bots.genetic.GenerationObserver`)."""

    def _choose(self, position: Position, search: Search) -> str:
        result = evolve_tree(position, self.settings, self.rng, search, self.observer)
        search.publish(
            Thinking(
                depth=len(result.line),
                score=float(result.value),
                nodes=result.nodes,
                pv=tuple(position.board.name(sq) for sq in result.line),
                seconds=search.elapsed(),
                text=f"gatree: {result.generations} generation(s), "
                f"{len(result.tree.root.children)} root move(s) in the tree",
            )
        )
        return position.board.name(result.line[0])
