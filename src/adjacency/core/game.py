"""Game records: settings, players, moves with thinking times, and the result.

A :class:`Game` is the one mutable object of the core: it grows move by move
while every intermediate :class:`~adjacency.core.position.Position` stays an
immutable value. Saving and loading live in :mod:`adjacency.core.record`.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from .details import Detail, DetailCode
from .errors import AdjacencyError, IllegalMoveError, InvalidRecordError
from .fen import Color
from .position import Outcome, Position, other
from .text import quote


class Termination(StrEnum):
    """Why a game ended (or that it has not)."""

    NORMAL = "normal"
    """All plies were played; the score decides."""
    TIME_FORFEIT = "time forfeit"
    """A side did not answer within its time budget (plus the allowed margin)."""
    ILLEGAL_MOVE = "illegal move"
    """A side answered a move that is not legal (the detail quotes it)."""
    DISCONNECTION = "disconnection"
    """An external engine crashed or closed its output."""
    RESIGNATION = "resignation"
    """A person gave the game up (the other side wins)."""
    ABANDONED = "abandoned"
    """The game was stopped before its end; it has no result."""
    UNTERMINATED = "unterminated"
    """The game is still in progress."""


RESULT_TOKENS: dict[Outcome | None, str] = {"x": "1-0", "o": "0-1", "draw": "1/2-1/2", None: "*"}
"""Result tokens in the spirit of PGN: X is listed first, like White."""


@dataclass(frozen=True)
class Move:
    """One ply of a record: the square played and how long the mover thought."""

    square: str
    seconds: float | None = None


@dataclass
class Game:
    """A game record. Create with :meth:`Game.new` (from a start position) or
    ``Game(position)`` (from any position, as its ``start``).

    Invariant: ``positions[i + 1] == positions[i].play(moves[i].square)``;
    every method that changes the game keeps it and changes nothing on error.
    """

    start: Position
    x_name: str = "X"
    o_name: str = "O"
    event: str = "Casual game"
    date: str = field(default_factory=lambda: datetime.date.today().strftime("%Y.%m.%d"))
    moves: list[Move] = field(default_factory=list)
    result: Outcome | None = None
    termination: Termination = Termination.UNTERMINATED
    termination_detail: str = ""
    tags: dict[str, str] = field(default_factory=dict)
    detail_code: DetailCode | None = None
    """The code of the end a server wrote (:mod:`adjacency.core.details`); ``None`` for
    other words (an engine's own) and an end without detail."""
    detail_params: dict[str, str] = field(default_factory=dict)
    """The params of :attr:`detail_code` (empty without a code)."""
    positions: list[Position] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        moves, self.moves = list(self.moves), []
        self.positions = [self.start]
        if self.start.is_over and self.termination == Termination.UNTERMINATED:
            self.result, self.termination = self.start.outcome(), Termination.NORMAL
        self.replay(moves)

    @classmethod
    def new(
        cls,
        rows: int = 8,
        cols: int = 8,
        rounds: int = 28,
        first: Color = "x",
        x_name: str = "X",
        o_name: str = "O",
        event: str = "Casual game",
    ) -> Game:
        """A game from the start position with these settings."""
        return cls(Position.start(rows, cols, rounds, first), x_name, o_name, event)

    # --------------------------------------------------------------- state

    @property
    def position(self) -> Position:
        """The current position."""
        return self.positions[-1]

    @property
    def is_over(self) -> bool:
        """True when the game has ended, by the rules or by a forfeit or abandonment."""
        return self.termination != Termination.UNTERMINATED

    @property
    def rounds(self) -> int:
        """The game's length in rounds, counted from the standard start of its board.

        ``ceil((pieces placed before the start + plies left at the start) / 2)``: a
        game of R rounds says R whether it began at the standard start or after some
        opening plies (an arena game of 8 rounds after 2 random plies says 8, as the
        arena's tables and exports do; :func:`adjacency.core.openings.retime` is the
        inverse). A start with fewer pieces than the standard start (an edited
        position) counts from itself: ``ceil(plies left / 2)``.
        """
        start = self.start
        return (max(start.ply_count, 0) + start.plies_left + 1) // 2

    @property
    def first(self) -> Color:
        """The side that moved first."""
        return self.start.turn

    def is_standard_start(self) -> bool:
        """True when the game began at the start position of its settings."""
        s = self.start
        return (
            s.plies_left % 2 == 0
            and s.plies_left > 0
            and s.x == s.board.start_x()
            and s.o == s.board.start_o()
        )

    # ------------------------------------------------------------- changes

    def replay(self, moves: Iterable[Move], where: str = "") -> None:
        """Play a record's ``moves`` in order, each with its thinking time. The first that
        does not replay (illegal, or a bad time) raises :class:`InvalidRecordError` naming
        its number and square, after ``where`` (the record's place, when given); the
        moves before it stay played, as far as a record replays."""
        for number, move in enumerate(moves, 1):
            try:
                self.play(move.square, move.seconds)
            except AdjacencyError as exc:
                place = f"{where}: " if where else ""
                raise InvalidRecordError(
                    f"{place}move {number} ({quote(move.square)}) does not replay: {exc}"
                ) from None

    def play(self, square: str, seconds: float | None = None) -> Position:
        """Play ``square`` for the side to move; raise :class:`IllegalMoveError`.

        ``seconds`` (how long the mover thought) must be a finite number from 0,
        else :class:`InvalidRecordError` (a record must export as valid JSON).
        """
        if seconds is not None and not (
            isinstance(seconds, (int, float))
            and not isinstance(seconds, bool)
            and math.isfinite(seconds)
            and seconds >= 0
        ):
            raise InvalidRecordError(
                f"move time must be a finite number of seconds from 0, got {quote(seconds)}"
            )
        if self.is_over:
            raise IllegalMoveError(
                f"illegal move {quote(square)}: the game is over ({self.termination.value})"
            )
        nxt = self.position.play(square)
        name = nxt.board.name(nxt.board.square(square))
        self.moves.append(Move(name, None if seconds is None else round(float(seconds), 3)))
        self.positions.append(nxt)
        if nxt.is_over:
            self.result, self.termination = nxt.outcome(), Termination.NORMAL
        return nxt

    def undo(self) -> Move:
        """Take back the last move (reopening a finished game); raise if there is none."""
        if not self.moves:
            raise IllegalMoveError("there is no move to take back")
        self.positions.pop()
        self.result, self.termination = None, Termination.UNTERMINATED
        self.set_detail("")
        return self.moves.pop()

    @property
    def detail(self) -> Detail:
        """How the game ended: its detail text with its code and params."""
        return Detail(self.termination_detail, self.detail_code, self.detail_params)

    def set_detail(self, detail: str | Detail) -> None:
        """Say how the game ended: ``detail`` as text, or with its code (a detail read
        back from an old row's text, say); the result stays."""
        if isinstance(detail, str):
            detail = Detail(detail)
        self.termination_detail = detail.text
        self.detail_code, self.detail_params = detail.code, dict(detail.params)

    def forfeit(self, loser: Color, termination: Termination, detail: str | Detail = "") -> None:
        """End the game as a loss for ``loser`` (time, illegal move, disconnection,
        resignation); ``detail`` is text, or a :class:`~adjacency.core.details.Detail`
        with its code."""
        if termination in (Termination.NORMAL, Termination.UNTERMINATED, Termination.ABANDONED):
            raise ValueError(f"{termination.value!r} is not a forfeit")
        winner: Outcome = other(loser)
        self.result, self.termination = winner, termination
        self.set_detail(detail)

    def has_moved(self, color: Color) -> bool:
        """Whether ``color`` has played a move in this game (a side may abort only before
        its first move: the web app's and the league's abort both ask this)."""
        return any(p.turn == color for p in self.positions[: len(self.moves)])

    def abandon(self, detail: str | Detail = "") -> None:
        """Stop the game with no result (``detail`` as in :meth:`forfeit`)."""
        self.result, self.termination = None, Termination.ABANDONED
        self.set_detail(detail)

    def _repr_html_(self) -> str:
        """The current position (last move and conversions marked), the players, the
        result and the numbered move list: how Jupyter and IPython display a game."""
        from html import escape

        from .svg import position_svg  # svg imports position: imported here, not at the top

        last = self.moves[-1].square if self.moves else None
        converted = self.positions[-2].flips(last) if last is not None else []
        board = position_svg(self.position, last=last, converted=converted)
        plies = [
            f"{i // 2 + 1}. {m.square}" if i % 2 == 0 else m.square
            for i, m in enumerate(self.moves)
        ]
        x, o = self.position.score
        status = self.termination.value
        if self.termination_detail:
            status += f": {self.termination_detail}"
        return (
            f'<div class="adjacency-game"><div>{board}</div>'
            f"<p><b>{escape(self.x_name)}</b> (X) {x} - {o} <b>{escape(self.o_name)}</b> (O), "
            f"{self.result_token} ({escape(status)})</p>"
            f"<p>{escape(' '.join(plies)) or 'no moves yet'}</p></div>"
        )

    @property
    def result_token(self) -> str:
        """``1-0`` (X won), ``0-1`` (O won), ``1/2-1/2`` or ``*``."""
        return RESULT_TOKENS[self.result]
