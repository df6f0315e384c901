"""Minimax and alpha-beta: depth-limited game-tree search with iterative deepening.

The search is the negamax form of minimax (Russell & Norvig, *AIMA* 3rd ed.,
section 5.2): the value of a position for the side to move is the maximum over
its moves of minus the value of the resulting position for the opponent, with
the objective "mover's pieces minus opponent's pieces" at the horizon or at the
end of the game (:mod:`adjacency.bots.objective`). One code path serves both
bots; ``prune=True`` adds alpha-beta pruning (AIMA 5.3), which returns exactly
the same value while skipping subtrees that cannot change it, and ``order=True``
tries moves with more conversions first and the best move of an earlier search
of the same position first, which is what makes the pruning effective. With
``table=True`` a transposition table (AIMA 5.3.1) keeps the
bounds proven for each position at each depth: far-apart moves commute, so the
same position is reached by many move orders. Entries are only reused at the
same remaining depth, so the value stays exactly the fixed-depth minimax value.

Iterative deepening (AIMA 3.4.5, and 5.4 for games) searches depth 1, 2, 3, ...
and keeps the deepest completed result, so the bot always has an answer when
the time runs out: :func:`deepen` is a generator yielding one result per depth,
and the search raises a private ``_Stop`` exception at the deadline (the
structure of sunfish's ``search``). The depth never exceeds the plies left, so
the search never runs past the end of the game; a search that reaches the end
is exact.

``nodes`` counts positions visited: the root, every interior position and every
horizon position evaluated. At depth 1 above the horizon the bots find the best
child with bit-parallel neighbour counts instead of one call per child (the
*bulk leaves* shortcut: every child is counted as visited, none is cut off); the
value is the same. ``bulk=False`` turns the shortcut off, so that the search and
its count are textbook minimax / alpha-beta, cut-offs one ply above the horizon
included: the search lab counts that way, so that a student's own implementation
gets its numbers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from ..core import Position
from .base import Bot, BotError, Search, Thinking
from .objective import geometry_of, material, reading_order
from .registry import Option, register

INFINITY = 1 << 20
TABLE_ENTRIES = 1 << 20
"""Most transposition-table entries kept (about 250 MB at the limit)."""
CHECK_EVERY = 1024
"""Nodes between two polls of the clock and the stop flag."""


class _Stop(Exception):
    """Raised inside the search when the deadline passes, a stop is asked or nodes run out."""


SearchStopped = _Stop
"""The public name of the exception a :class:`Negamax` search raises at its deadline, stop
or node budget, for callers that drive :func:`deepen` themselves (the search lab)."""


class SearchObserver(Protocol):
    """An optional trace hook on :class:`Negamax` (``Negamax.observer``): the search lab's view.

    Called at every position the search visits, in visiting order, with raw
    negamax quantities (values and windows for the side to move there). The
    hook only watches: with no observer (the default) the search runs exactly
    as without this interface, and with one it visits the same positions, counts
    the same nodes and returns the same values and moves. An observer may raise
    to end the search early (the lab's node cap); the exception passes through.
    """

    def enter(self, me: int, opp: int, empty: int, depth: int, alpha: int, beta: int) -> None:
        """The search starts on a position (the root first) with ``depth`` plies to go and the
        window ``(alpha, beta)``; the move that led here is the one bit of the parent's empty
        squares that ``empty`` lacks."""

    def leave(self, value: int, how: str) -> None:
        """The position entered last and not yet left is done with ``value``. ``how``:
        ``horizon`` (depth 0), ``end`` (game over), ``bulk`` (depth 1: every child valued at
        once by its conversions, all counted as visited), ``table`` (a transposition-table
        bound), ``searched`` (its children were searched)."""

    def cut(self, pruned: list[int]) -> None:
        """The position entered last failed high: its unsearched moves ``pruned`` (squares, in
        search order) are cut off; ``leave`` follows."""


class Negamax:
    """Depth-limited negamax over raw bitboards, with optional alpha-beta pruning.

    ``search`` (optional) supplies the deadline and stop flag; ``max_nodes``
    bounds the nodes visited. Either raises ``_Stop`` out of :meth:`value`.
    """

    def __init__(
        self,
        position: Position,
        prune: bool,
        order: bool = True,
        search: Search | None = None,
        max_nodes: int | None = None,
        table: bool = False,
        ties: str = "order",
        bulk: bool = True,
    ) -> None:
        self.geometry = geometry_of(position)
        self.neighbours = position.board.neighbours
        self.prune = prune
        self.order = order and prune
        self.search = search
        self.max_nodes = max_nodes
        self.nodes = 0
        self.next_check = CHECK_EVERY
        self.best: dict[tuple[int, int], int] = {}
        """Best move found for a (mover, opponent) position: move ordering and the PV."""
        self.use_table = table
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        """Transposition table: (mover, opponent) -> (depth, lower bound, upper bound)."""
        self.root_order = reading_order(position.rows, position.cols) if ties == "scan" else None
        """With ``ties="scan"`` the root's moves are tried in reading order, so that of
        equally good moves the first in that order is kept (the course reports' rule)."""
        self.observer: SearchObserver | None = None
        """The search lab's trace hook (see :class:`SearchObserver`); ``None``: not traced."""
        self.bulk = bulk
        """Value the children of a node one ply above the horizon at once (the bots' speed
        shortcut, no cut-offs there); ``False``: one by one, as textbook alpha-beta does."""

    def _poll(self) -> None:
        self.next_check = self.nodes + CHECK_EVERY
        if self.search is not None and self.search.should_stop():
            raise _Stop
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Stop

    def moves(self, me: int, opp: int, empty: int) -> Iterator[tuple[int, int]]:
        """``(square, flips)`` for every move, in search order, generated lazily.

        With ordering, the best move of an earlier search of this position comes
        first; then moves converting 4, 3, 2, 1 and 0 pieces, each group by
        square index. Lazy generation matters: after a cutoff the rest of the
        moves are never produced.
        """
        skip = 0
        if self.order:
            first = self.best.get((me, opp))
            if first is not None and (empty >> first) & 1:
                yield first, (self.neighbours[first] & opp).bit_count()
                skip = 1 << first
        counts = self.geometry.neighbour_counts(opp)
        higher = 0
        for flips in (4, 3, 2, 1, 0):
            group = empty & ~higher if flips == 0 else counts[flips - 1] & empty & ~higher
            higher |= group
            group &= ~skip
            while group:
                low = group & -group
                yield low.bit_length() - 1, flips
                group ^= low

    def value(
        self,
        me: int,
        opp: int,
        empty: int,
        plies: int,
        depth: int,
        alpha: int,
        beta: int,
        diff: int,
    ) -> int:
        """Negamax value of a position for the mover (``diff`` = its current material).

        With pruning the result is exact inside ``(alpha, beta)`` and a bound
        outside it (fail-soft); without pruning the window is ignored.
        """
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._poll()
        observer = self.observer
        if observer is not None:
            observer.enter(me, opp, empty, depth, alpha, beta)
        if depth == 0 or plies == 0:
            if observer is not None:
                observer.leave(diff, "horizon" if plies else "end")
            return diff
        if depth == 1 and self.bulk:
            # Every child is a horizon position: the best one converts the most.
            self.nodes += empty.bit_count()
            found = diff + 1 + 2 * self.geometry.best_flips(empty, opp)
            if observer is not None:
                observer.leave(found, "bulk")
            return found
        key = (me, opp)
        if self.use_table:
            # A position reached again by another move order (AIMA 5.3's transpositions):
            # reuse what the same-depth search proved about it.
            entry = self.table.get(key)
            if entry is not None and entry[0] == depth:
                lower, upper = entry[1], entry[2]
                if lower >= beta or lower == upper:
                    if observer is not None:
                        observer.leave(lower, "table")
                    return lower
                if upper <= alpha:
                    if observer is not None:
                        observer.leave(upper, "table")
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
        window = alpha, beta
        neighbours = self.neighbours
        best = -INFINITY
        best_square = -1
        moves = self.moves(me, opp, empty)
        for sq, flips in moves:
            bit = 1 << sq
            gained = neighbours[sq] & opp
            score = -self.value(
                opp ^ gained,
                me | bit | gained,
                empty ^ bit,
                plies - 1,
                depth - 1,
                -beta,
                -alpha,
                -(diff + 1 + 2 * flips),
            )
            if score > best:
                best, best_square = score, sq
                if self.prune and score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if observer is not None:
                            observer.cut([square for square, _ in moves])
                        break
        self.best[key] = best_square
        if self.use_table and len(self.table) < TABLE_ENTRIES:
            if not self.prune or window[0] < best < window[1]:
                self.table[key] = (depth, best, best)
            elif best <= window[0]:
                self.table[key] = (depth, -INFINITY, best)
            else:
                self.table[key] = (depth, best, INFINITY)
        if observer is not None:
            observer.leave(best, "searched")
        return best

    def root_moves(self, me: int, opp: int, empty: int) -> Iterator[tuple[int, int]]:
        """The root's moves: in search order, or in reading order with ``ties="scan"``."""
        if self.root_order is None:
            yield from self.moves(me, opp, empty)
            return
        for sq in self.root_order:
            if (empty >> sq) & 1:
                yield sq, (self.neighbours[sq] & opp).bit_count()

    def root(self, position: Position, depth: int) -> tuple[int, int]:
        """Search every root move to ``depth`` plies; return ``(value, best square)``.

        The best square is the first root move (in :meth:`root_moves` order) of
        maximal value: a later move of equal value fails low against ``alpha``.
        """
        me, opp, empty = position.mover, position.opponent, position.empty
        diff = me.bit_count() - opp.bit_count()
        self.nodes += 1
        alpha, beta = -INFINITY, INFINITY
        if self.observer is not None:
            self.observer.enter(me, opp, empty, depth, alpha, beta)
        best, best_square = -INFINITY, -1
        for sq, flips in self.root_moves(me, opp, empty):
            bit = 1 << sq
            gained = self.neighbours[sq] & opp
            score = -self.value(
                opp ^ gained,
                me | bit | gained,
                empty ^ bit,
                position.plies_left - 1,
                depth - 1,
                -beta,
                -alpha,
                -(diff + 1 + 2 * flips),
            )
            if score > best:
                best, best_square = score, sq
                if self.prune:
                    alpha = max(alpha, score)
        self.best[(me, opp)] = best_square
        if self.observer is not None:
            self.observer.leave(best, "searched")
        return best, best_square

    def principal_variation(self, position: Position, depth: int) -> tuple[str, ...]:
        """The expected line from ``position``, read from the best-move table."""
        line: list[str] = []
        while len(line) < depth and not position.is_over:
            sq = self.best.get((position.mover, position.opponent))
            if len(line) == depth - 1 and self.bulk:  # the last ply: by conversions alone
                sq = self.geometry.squares_by_flips(position.empty, position.opponent)[0][0]
            if sq is None or not (position.empty >> sq) & 1:
                break
            line.append(position.board.name(sq))
            position = position.play(sq)
        return tuple(line)


def minimax_value(
    position: Position, depth: int, prune: bool = False, order: bool = True
) -> tuple[int, int]:
    """The minimax value of ``position`` searched ``depth`` plies, and the nodes visited.

    The value is the material objective (mover's pieces minus opponent's) at
    the horizon or the end of the game, from the side to move's view; ``depth``
    beyond the plies left is cut to them. ``prune`` switches alpha-beta on
    (the value is identical; fewer nodes). Nodes count the root, interior and
    horizon positions. This is the reference the compiled engine is tested against.
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise BotError(f"depth must be a whole number >= 0, got {depth!r}")
    searcher = Negamax(position, prune=prune, order=order)
    value = searcher.value(
        position.mover,
        position.opponent,
        position.empty,
        position.plies_left,
        min(depth, position.plies_left),
        -INFINITY,
        INFINITY,
        material(position),
    )
    return value, searcher.nodes


@dataclass(frozen=True)
class Iteration:
    """The result of one completed iteration of :func:`deepen`."""

    depth: int
    score: int
    square: int
    nodes: int
    pv: tuple[str, ...]
    exact: bool


def deepen(searcher: Negamax, position: Position, max_depth: int) -> Iterator[Iteration]:
    """Iterative deepening: yield a completed search for depth 1, 2, ... up to ``max_depth``.

    Stops at the plies left (an exact result). The searcher may raise ``_Stop``
    from inside any iteration; the caller keeps the last result it received.
    """
    for depth in range(1, min(max_depth, position.plies_left) + 1):
        score, square = searcher.root(position, depth)
        yield Iteration(
            depth,
            score,
            square,
            searcher.nodes,
            searcher.principal_variation(position, depth),
            exact=depth == position.plies_left,
        )


DEPTH = Option("depth", 0, "maximum search depth in plies (0: as deep as time allows)", 0, 64)
TIES = Option(
    "ties",
    "order",
    "of equal moves play the first in search order, or in reading order (scan: a8, b8, ..., "
    "h1, as the course reports' bots do)",
    choices=("order", "scan"),
)


class MinimaxBot(Bot):
    """Iterative-deepening negamax; alpha-beta when ``prune``. Deterministic (ties: order)."""

    safety = 0.05
    """Seconds kept in hand for unwinding the search and returning."""

    def __init__(
        self,
        rng: random.Random,
        depth: int,
        prune: bool,
        order: bool,
        table: bool,
        ties: str = "order",
    ) -> None:
        super().__init__()
        self.rng = rng
        self.depth = depth
        self.prune = prune
        self.order = order
        self.table = table
        self.ties = ties
        self._spent: Negamax | None = None
        """The last move's searcher, kept so its large tables are freed after the answer."""

    def _choose(self, position: Position, search: Search) -> str:
        limits = [d for d in (self.depth or None, search.limit.depth) if d]
        max_depth = min(limits) if limits else position.plies_left
        self._spent = None  # free the previous move's tables now, inside this move's budget
        searcher = Negamax(
            position, self.prune, self.order, search, search.limit.nodes, self.table, self.ties
        )
        self._spent = searcher  # freeing a big table takes tens of ms: not on the way out
        result: Iteration | None = None
        name = "alphabeta" if self.prune else "minimax"
        try:
            for result in deepen(searcher, position, max_depth):
                search.publish(self._thinking(result, result.nodes, search, f"{name} depth"))
        except _Stop:
            if result is not None:  # the final report counts the unfinished iteration's nodes
                text = f"{name} depth {result.depth + 1} unfinished; depth"
                search.publish(self._thinking(result, searcher.nodes, search, text))
        if result is None:
            # Not even depth 1 finished: fall back to the move converting the most.
            moves = searcher.geometry.squares_by_flips(position.empty, position.opponent)
            square = moves[0][0]
            return position.board.name(square)
        return position.board.name(result.square)

    def new_game(self) -> None:
        self._spent = None

    def close(self) -> None:
        self._spent = None

    @staticmethod
    def _thinking(result: Iteration, nodes: int, search: Search, text: str) -> Thinking:
        return Thinking(
            depth=result.depth,
            score=float(result.score),
            nodes=nodes,
            pv=result.pv,
            seconds=search.elapsed(),
            text=f"{text} {result.depth}",
            exact=result.exact,
        )


@register(
    "minimax",
    "plain negamax minimax with iterative deepening (no pruning), material objective",
    "search",
    options=(DEPTH, TIES),
)
def make_minimax(rng: random.Random, depth: int, ties: str) -> MinimaxBot:
    """The ``minimax`` bot: a :class:`MinimaxBot` without pruning, move ordering or table."""
    return MinimaxBot(rng, depth, prune=False, order=False, table=False, ties=ties)


@register(
    "alphabeta",
    "negamax with alpha-beta pruning, move ordering, transpositions, iterative deepening",
    "search",
    options=(
        DEPTH,
        Option("order", True, "try moves converting most / previous best first"),
        Option("table", True, "transposition table: reuse results of positions seen before"),
        TIES,
    ),
)
def make_alphabeta(
    rng: random.Random, depth: int, order: bool, table: bool, ties: str
) -> MinimaxBot:
    """The ``alphabeta`` bot: a :class:`MinimaxBot` with pruning, and move ordering and the table
    as asked."""
    return MinimaxBot(rng, depth, prune=True, order=order, table=table, ties=ties)
