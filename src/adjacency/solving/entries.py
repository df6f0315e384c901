"""The solved-game table's values: entries, their results and kept first moves.

Plain data shared by the solver (:mod:`.solved_starts`), the run that schedules it (:mod:`.run`)
and the SQLite store (:mod:`.store`). They live in a module of their own so that the
store and the solver need not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..core import Color, Position
from ..engine.book import BookLine

Status = Literal["solved", "timeout", "derived"]


@dataclass(frozen=True, order=True)
class Entry:
    """One start position of the table."""

    rows: int
    cols: int
    rounds: int
    first: Color = "x"

    def position(self) -> Position:
        """The entry's start position."""
        return Position.start(self.rows, self.cols, self.rounds, self.first)

    @property
    def size(self) -> str:
        """The board size as ``ROWSxCOLS`` (``6x7``)."""
        return f"{self.rows}x{self.cols}"

    def __str__(self) -> str:
        return f"{self.size} {self.rounds} rounds, {self.first} first"


@dataclass(frozen=True)
class EntryResult:
    """The outcome of solving (or deriving) one entry. For a ``timeout`` only
    ``nodes``, ``seconds`` and ``solves`` mean something."""

    entry: Entry
    status: Status
    symmetry: bool
    budget: float
    value: int | None = None
    pv: tuple[str, ...] = ()
    optimal: tuple[str, ...] = ()
    move_values: dict[str, int] = field(default_factory=dict)
    """Every first move's value from the first mover's view."""
    nodes: int = 0
    seconds: float = 0.0
    solves: int = 0
    """Exact solves run (children of the start, then along the principal variation)."""
    root_moves: int = 0
    """First moves solved (one per orbit with symmetry on)."""
    source: str = ""
    """For a derived entry: the solved entry and the map that gives it."""
    book: tuple[BookLine, ...] = ()
    provenance: dict[str, Any] | None = field(default=None, compare=False)
    """The code, libraries and machine that stored the entry
    (:mod:`adjacency.system.provenance`); ``None`` for an entry stored before it was kept."""

    @property
    def reconstructed(self) -> bool:
        """Whether the row's provenance was reconstructed after the fact (a row stored
        before records were kept, its unknown fields marked) rather than recorded by the
        run that computed it."""
        return bool((self.provenance or {}).get("reconstructed"))


@dataclass(frozen=True)
class RootMove:
    """One first move's proven value, kept as soon as it is known so that an entry too
    long for one sitting resumes where it stopped (the ``known`` of
    :func:`~adjacency.solving.solved_starts.solve_entry`)."""

    move: str
    """The solved move of its orbit (the first of the orbit's squares)."""
    value: int
    """The child's exact value from the first mover's view."""
    best: str
    """The reply that proves it (the child's best move)."""
    nodes: int
    seconds: float
