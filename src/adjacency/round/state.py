"""One game in play as an immutable value, the happenings of its transitions, and the
snapshot both servers fill their models from.

A :class:`Round` is what a server knows of a game while it is played, apart from who
plays it and how it talks to them: the start, the moves so far (with the seconds each
mover thought), the clocks (:class:`~.clock.Clocks`, or ``None`` for a game without
clock), and the end once there is one (result, termination, detail). It never changes:
the transitions (:mod:`.moves`, :mod:`.finish`, :mod:`.takeback`, :mod:`.rematch`) return
a new one with the happenings (:data:`Happening`) a server announces, stores or acts on.

Invariant: ``positions[i + 1] == positions[i].play(moves[i].square)`` (the core's rules
decide every position), and a round with an end takes no move.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core import Color, Position
from ..core.details import Detail
from ..core.game import Game, Move, Termination
from ..core.position import Outcome
from .clock import Clocks


@dataclass(frozen=True)
class Round:
    """A game in play; see the module docstring."""

    positions: tuple[Position, ...]
    """The start, then the position after each move (never empty)."""
    moves: tuple[Move, ...] = ()
    clocks: Clocks | None = None
    result: Outcome | None = None
    termination: Termination = Termination.UNTERMINATED
    detail: Detail = field(default_factory=Detail)

    @classmethod
    def begin(cls, start: Position, clocks: Clocks | None = None) -> Round:
        """A round from ``start`` (ended at once if the start is a finished position)."""
        if start.is_over:
            return cls((start,), (), clocks, start.outcome(), Termination.NORMAL)
        return cls((start,), (), clocks)

    @classmethod
    def of(cls, game: Game, clocks: Clocks | None = None) -> Round:
        """The round of a server's core record ``game`` (its moves, its end) on ``clocks``."""
        return cls(
            tuple(game.positions),
            tuple(game.moves),
            clocks,
            game.result,
            game.termination,
            game.detail,
        )

    @property
    def start(self) -> Position:
        """The position the game began from."""
        return self.positions[0]

    @property
    def position(self) -> Position:
        """The current position."""
        return self.positions[-1]

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self.position.turn

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (by the rules, a forfeit or an abandonment)."""
        return self.termination != Termination.UNTERMINATED

    def has_moved(self, color: Color) -> bool:
        """Whether ``color`` has played a move in this game."""
        return any(p.turn == color for p in self.positions[: len(self.moves)])

    def ended(self, result: Outcome | None, termination: Termination, detail: Detail) -> Round:
        """This round with its end (the clocks stop where the transition left them)."""
        return replace(self, result=result, termination=termination, detail=detail)

    def write(self, game: Game) -> None:
        """Make the core record ``game`` (a server's, with its names and tags) hold this
        round's moves and end: the record is what servers store, so a round written
        into the game it was read from (:meth:`of`) stores as before."""
        if game.start != self.start:
            raise ValueError("a round is written only into a record of its own start")
        keep = 0
        while keep < min(len(game.moves), len(self.moves)) and game.moves[keep] == self.moves[keep]:
            keep += 1
        while len(game.moves) > keep:
            game.undo()
        for move in self.moves[keep:]:
            game.play(move.square, move.seconds)
        game.result, game.termination = self.result, self.termination
        game.set_detail(self.detail)


@dataclass(frozen=True)
class Moved:
    """``color`` played ``square``, thinking ``seconds``."""

    color: Color
    square: str
    seconds: float


@dataclass(frozen=True)
class Ended:
    """The game ended: ``result`` (``None``: abandoned), ``termination`` and ``detail``."""

    result: Outcome | None
    termination: Termination
    detail: Detail


@dataclass(frozen=True)
class TookBack:
    """Moves were taken back: ``plies`` of them."""

    plies: int


Happening = Moved | Ended | TookBack
"""What a transition did, for the server to announce, store or act on."""

Step = tuple[Round, tuple[Happening, ...]]
"""A transition's answer: the new round and what happened (empty: nothing changed)."""


@dataclass(frozen=True)
class Snapshot:
    """A game in play as pages and clients see it at one moment: what both servers'
    state models are filled from."""

    start: str
    fen: str
    turn: Color
    moves: tuple[str, ...]
    score: tuple[int, int]
    clock: dict[str, float] | None
    """Each side's seconds left (never below 0), or ``None`` for a game without clock."""
    running: Color | None
    result: Outcome | None
    termination: Termination
    detail: Detail


def snapshot(state: Round, now: float) -> Snapshot:
    """``state`` at the moment ``now``."""
    clocks = state.clocks
    left = None
    if clocks is not None:
        left = {c: max(0.0, clocks.left(c, now)) for c in ("x", "o")}  # type: ignore[arg-type]
    position = state.position
    return Snapshot(
        state.start.fen(),
        position.fen(),
        position.turn,
        tuple(m.square for m in state.moves),
        position.score,
        left,
        None if clocks is None else clocks.running,
        state.result,
        state.termination,
        state.detail,
    )
