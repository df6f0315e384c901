"""The proof that makes a position a puzzle, by the engine's exact solver.

**The rule (one step).** Let ``v(m)`` be the exact final margin, for the side to move,
after legal move ``m`` and perfect play by both sides, and ``V`` the largest. The
outcome class of a margin is its sign (win ``> 0``, draw ``0``, loss ``< 0``). A
position passes the step rule when exactly one move ``m*`` keeps the best outcome
class: ``sign(v(m*)) > sign(v(m))`` for every other legal move ``m``. So ``m*`` is the
only winning move of a won position (theme ``only-win``) or the only drawing move of a
drawn one (``only-draw``); it is then also strictly better in margin than every other
move. A lost position (``V < 0``) is never a puzzle: every move keeps its class.

**A puzzle** is a position that is not over, has at least :attr:`Rules.min_moves`
legal moves and :attr:`Rules.min_plies` to :attr:`Rules.max_plies` plies left, passes
the step rule, and is not *obvious*: its only move is not the greedy move that converts
at least :attr:`Rules.obvious_gap` pieces more than every other move. Its solution is
``m*``, then the opponent's best reply (the solver's, on a fresh engine), then the next
solver move while the position after the reply again passes the step rule (with at
least two legal moves), at most :attr:`Rules.max_steps` solver moves.

**Exactness.** Every value is the solver's exact value (:meth:`Engine.solve`, no time or
node budget: an incomplete solve is an error, never a value), and every candidate is
proved on a fresh engine, so a puzzle (its replies included) is a pure function of the
position and the rules, whatever ran before it in the same process. The win/draw/loss
filter comes first (:meth:`Engine.solve` with ``wld=True`` on every child, stopping at
the first second move that keeps the class), so most non-puzzles cost a few cheap
solves; the exact values of every move are solved only for positions that pass.

**Themes** (:func:`themes`), each a rule: ``only-win``/``only-draw`` as above;
``conversion`` when ``m*`` converts strictly more pieces than every other move;
``quiet`` when some other move converts more than ``m*``; ``corner`` when ``m*`` is a
corner square; ``parity`` when ``m*`` lies in a region of empty squares (orthogonally
connected) of odd size and some other region has even size; ``last-move`` when the
solution ends the game (its last move is the game's last ply).

**Rating** (:func:`initial_rating`): a Glicko-2 start from the difficulty: 1200, plus
50 per ply left over 8, plus 25 for every other move within 2 pieces of ``V`` (at most
12 counted), plus
120 per solver move after the first, plus 100 for ``quiet``, minus 100 for
``conversion``, clipped to 600..2400; ``rd`` 250 and ``volatility`` 0.06.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core import Position
from ..core.errors import AdjacencyRuntimeError, InvalidSettingsError
from ..core.text import quote
from ..engine import Engine
from .model import Puzzle, Refutation, puzzle_id

TT_MB = 4
"""The transposition table of each candidate's fresh engine (MB): the 8x8 solves of
up to 16 plies that puzzles use fit it, and a fresh one costs little."""


@dataclass(frozen=True)
class Rules:
    """What a puzzle must be (module docstring); every build records them."""

    min_plies: int = 8
    max_plies: int = 16
    min_moves: int = 4
    max_steps: int = 3
    obvious_gap: int = 2

    def __post_init__(self) -> None:
        if not 1 <= self.min_plies <= self.max_plies <= 64:
            raise InvalidSettingsError(
                f"plies left must satisfy 1 <= min <= max <= 64, got "
                f"{self.min_plies}..{self.max_plies}"
            )
        if not 1 <= self.max_steps <= 3:
            raise InvalidSettingsError(f"max_steps must be 1 to 3, got {self.max_steps}")
        if self.min_moves < 2:
            raise InvalidSettingsError(f"min_moves must be at least 2, got {self.min_moves}")


class ProofError(AdjacencyRuntimeError):
    """The solver did not finish a solve (it never should without a budget)."""


def sign(value: int) -> int:
    """The outcome class of a margin: 1 win, 0 draw, -1 loss."""
    return (value > 0) - (value < 0)


def converted(position: Position, move: str) -> int:
    """The opponent pieces that ``move`` converts."""
    return len(position.flips(move))


class Prover:
    """Exact values of moves on one engine (fresh per candidate: :func:`prove`)."""

    def __init__(self) -> None:
        self.engine = Engine(tt_mb=TT_MB, threads=1)
        self.solves = 0

    def _solve(self, position: Position, wld: bool) -> tuple[int, str]:
        result = self.engine.solve(position, wld=wld)
        self.solves += 1
        if not result.complete:
            raise ProofError(f"the solver did not finish {quote(position.fen())}")
        return result.value, result.best

    def value_and_reply(self, position: Position, move: str) -> tuple[int, str | None]:
        """The exact value of ``move`` for the side to move in ``position`` and the
        opponent's best reply (``None`` when the move ends the game)."""
        child = position.play(move)
        if child.is_over:
            return child.margin(position.turn), None
        value, best = self._solve(child, wld=False)
        return -value, best

    def class_of(self, position: Position, move: str) -> int:
        """The outcome class (sign) of ``move`` for the side to move."""
        child = position.play(move)
        if child.is_over:
            return sign(child.margin(position.turn))
        value, _ = self._solve(child, wld=True)
        return -value

    def only_move(self, position: Position) -> str | None:
        """The move that alone keeps the best outcome class, or ``None`` (step rule)."""
        moves = position.legal_moves()
        if len(moves) < 2:
            return None
        best: str | None = None
        best_class = -2
        tied = False
        for move in moves:
            cls = self.class_of(position, move)
            if cls > best_class:
                best, best_class, tied = move, cls, False
            elif cls == best_class:
                tied = True
                if best_class == 1:
                    return None  # two winning moves: no puzzle, whatever follows
        if tied or best_class < 0:
            return None
        return best

    def step(
        self, position: Position, move: str
    ) -> tuple[int, str | None, tuple[Refutation, ...], int]:
        """Exact values at one step: ``(value of move, the opponent's best reply,
        refutations of the other moves, how many of them are within 2 pieces of it)``."""
        value, best_reply = self.value_and_reply(position, move)
        refutations = []
        near = 0
        for other in position.legal_moves():
            if other == move:
                continue
            v, reply = self.value_and_reply(position, other)
            if v >= value:
                raise ProofError(f"{other} is as good as {move} in {quote(position.fen())}")
            near += v >= value - 2
            refutations.append(Refutation(other, v, reply))
        return value, best_reply, tuple(refutations), near


def obvious(position: Position, move: str, gap: int) -> bool:
    """Whether ``move`` is the greedy move converting ``gap`` or more pieces than every
    other move (the puzzle would be solved by counting)."""
    counts = {m: converted(position, m) for m in position.legal_moves()}
    mine = counts.pop(move)
    return all(mine >= c + gap for c in counts.values())


def empty_regions(position: Position) -> list[set[int]]:
    """The empty squares grouped into orthogonally connected regions."""
    geometry = position.board
    empty = set(position.legal_squares())
    regions: list[set[int]] = []
    while empty:
        seed = empty.pop()
        region, frontier = {seed}, [seed]
        while frontier:
            square = frontier.pop()
            r, c = divmod(square, geometry.cols)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < geometry.rows and 0 <= cc < geometry.cols:
                    n = rr * geometry.cols + cc
                    if n in empty:
                        empty.discard(n)
                        region.add(n)
                        frontier.append(n)
        regions.append(region)
    return regions


def themes(position: Position, solution: tuple[str, ...], value: int) -> tuple[str, ...]:
    """The rule-given themes of a puzzle (module docstring), in :data:`THEMES` order."""
    best = solution[0]
    names = ["only-win" if value > 0 else "only-draw"]
    counts = {m: converted(position, m) for m in position.legal_moves()}
    mine = counts.pop(best)
    if all(mine > c for c in counts.values()):
        names.append("conversion")
    if any(c > mine for c in counts.values()):
        names.append("quiet")
    geometry = position.board
    square = position.board.index(best)
    r, c = divmod(square, geometry.cols)
    if r in (0, geometry.rows - 1) and c in (0, geometry.cols - 1):
        names.append("corner")
    regions = empty_regions(position)
    own = next(region for region in regions if square in region)
    if len(own) % 2 == 1 and any(len(region) % 2 == 0 for region in regions):
        names.append("parity")
    if len(solution) == position.plies_left:
        names.append("last-move")
    return tuple(names)


def initial_rating(
    plies_left: int, near: int, steps: int, names: tuple[str, ...]
) -> tuple[float, float, float]:
    """``(rating, rd, volatility)``: the Glicko-2 start of a puzzle (module docstring)."""
    rating = 1200 + 50 * max(0, plies_left - 8) + 25 * min(near, 12) + 120 * (steps - 1)
    rating += 100 * ("quiet" in names) - 100 * ("conversion" in names)
    return float(min(2400, max(600, rating))), 250.0, 0.06


def prove(
    position: Position,
    source: str,
    rules: Rules = Rules(),
    count: Callable[[int], None] | None = None,
) -> Puzzle | None:
    """The puzzle at ``position`` under ``rules``, or ``None`` when it is not one.

    A fresh engine proves it (module docstring); ``count(solves)``, when given, is told
    how many solves the proof took.
    """
    prover = Prover()
    try:
        return _prove(prover, position, source, rules)
    finally:
        if count is not None:
            count(prover.solves)


def admissible(position: Position, rules: Rules) -> bool:
    """Whether ``position`` may be a puzzle before any solve: not over, plies left in
    range, enough legal moves."""
    return (
        not position.is_over
        and rules.min_plies <= position.plies_left <= rules.max_plies
        and len(position.legal_moves()) >= rules.min_moves
    )


def _prove(prover: Prover, position: Position, source: str, rules: Rules) -> Puzzle | None:
    if not admissible(position, rules):
        return None
    first = prover.only_move(position)
    if first is None or obvious(position, first, rules.obvious_gap):
        return None
    solution: list[str] = []
    steps: list[tuple[Refutation, ...]] = []
    near_first = 0
    value = 0
    here, move = position, first
    while True:
        v, reply, refutations, near = prover.step(here, move)
        if not steps:
            value, near_first = v, near
        solution.append(move)
        steps.append(refutations)
        after = here.play(move)
        if len(steps) == rules.max_steps or reply is None:
            break
        then = after.play(reply)
        if then.is_over:
            break
        following = prover.only_move(then)
        if following is None:
            break
        solution.append(reply)
        here, move = then, following
    line = tuple(solution)
    names = themes(position, line, value)
    rating, rd, volatility = initial_rating(position.plies_left, near_first, len(steps), names)
    text = position.fen()
    return Puzzle(
        id=puzzle_id(text),
        position=text,
        solution=line,
        value=value,
        refutations=tuple(steps),
        themes=names,
        source=source,
        rating=rating,
        rd=rd,
        volatility=volatility,
    )


def _value_after(prover: Prover, root: Position, position: Position) -> int:
    """The exact value of ``position`` (reached from ``root``) for ``root``'s side to move."""
    if position.is_over:
        return position.margin(root.turn)
    value, _ = prover._solve(position, wld=False)
    return value if position.turn == root.turn else -value


def verify(puzzle: Puzzle) -> str | None:
    """Re-prove ``puzzle`` on a fresh engine: ``None`` when it holds, else the first
    problem in one line. Checked: at every step the solver's move is the only one that
    keeps the best outcome class (the step rule), its value and every refutation's value
    are exact, every other legal move is refuted, and every reply (the solution's and the
    refutations') holds the value it answers."""
    prover = Prover()
    here = puzzle.start
    for step, refutations in enumerate(puzzle.refutations):
        move = puzzle.solution[2 * step]
        where = f"step {step + 1} ({here.fen()})"
        only = prover.only_move(here)
        if only != move:
            return f"{where}: the only move keeping the best outcome is {only}, not {move}"
        value, _ = prover.value_and_reply(here, move)
        if value != puzzle.value:
            return f"{where}: {move} is worth {value}, the puzzle says {puzzle.value}"
        others = sorted(m for m in here.legal_moves() if m != move)
        if sorted(r.move for r in refutations) != others:
            return f"{where}: the refutations do not list every other legal move"
        for refutation in refutations:
            actual, _ = prover.value_and_reply(here, refutation.move)
            if actual != refutation.value:
                return (
                    f"{where}: {refutation.move} is worth {actual}, "
                    f"the puzzle says {refutation.value}"
                )
            after = here.play(refutation.move)
            if (refutation.reply is None) != after.is_over:
                return f"{where}: the reply to {refutation.move} is wrong"
            if refutation.reply is not None:
                held = _value_after(prover, here, after.play(refutation.reply))
                if held != refutation.value:
                    return (
                        f"{where}: {refutation.reply} after {refutation.move} leaves "
                        f"{held}, not {refutation.value}"
                    )
        if 2 * step + 1 < len(puzzle.solution):
            after = here.play(move).play(puzzle.solution[2 * step + 1])
            if _value_after(prover, here, after) != value:
                return f"{where}: the reply {puzzle.solution[2 * step + 1]} is not a best reply"
            here = after
    return None
