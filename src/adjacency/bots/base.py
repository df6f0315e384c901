"""The one Bot interface shared by every algorithm, the external-engine client and the UI.

A bot is asked for a move with :meth:`Bot.choose_move`, given a position and a
:class:`Limit`. The budget covers everything the bot does for that move. While
it thinks, a bot may publish :class:`Thinking` reports (depth, score, nodes,
principal variation) to a listener and keeps the last one in ``bot.report``;
:meth:`Bot.stop` asks it to answer now with its best move so far.

Bots that cannot produce a legal move on their own terms (an external program
that crashes, stalls or answers nonsense) raise a :class:`BotFailure` that names
the :class:`~adjacency.core.game.Termination` a referee should record.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core import Position
from ..core.errors import AdjacencyError, AdjacencyRuntimeError
from ..core.game import Termination
from ..system.closing import Closing

DEFAULT_MOVE_TIME = 5.0
"""Seconds per move: the original assignment's limit."""


class BotError(AdjacencyError):
    """Bad bot spec, bad option value, or a bot asked to move in a finished game."""


class BotStarved(BotError):
    """A bot's program could not start in time because the machine did not run it (its
    wait stretched by every second it was ready and not run, and still it had not had
    its time): the server's failure, never the program's; the caller holds its verdict
    (a game without a result, a check asked again later)."""


class BotFailure(AdjacencyRuntimeError):
    """A bot could not give a legal move; ``termination`` says how a referee scores it.

    A run-time failure (the bot crashed, stalled or answered illegally), not bad input.
    ``picture``: a PNG picture of the bot's own board at its failure, where its program
    draws one (a program played through its window); ``None`` otherwise.
    """

    def __init__(self, termination: Termination, detail: str) -> None:
        super().__init__(detail)
        self.termination = termination
        self.detail = detail
        self.picture: bytes | None = None


@dataclass(frozen=True)
class Limit:
    """How much a bot may think about one move; ``None`` means unlimited.

    Shared by every bot and front end, like python-chess's ``Limit``. ``time``
    is wall-clock seconds for the whole call, ``depth`` plies of search, and
    ``nodes`` positions visited (each bot documents what it counts).

    ``clock``, for a move on a clock whose owner judges it (a league server), is the
    seconds left on the mover's own clock: ``time`` is then the share the bot is told
    to use, not a deadline, and a bot cut short from outside (a ``cmd:`` program) is
    stopped only when ``clock`` runs out.
    """

    time: float | None = DEFAULT_MOVE_TIME
    depth: int | None = None
    nodes: int | None = None
    clock: float | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not (isinstance(self.time, (int, float)) and self.time > 0):
            raise BotError(f"time limit must be a positive number of seconds, got {self.time!r}")
        if self.clock is not None and not (isinstance(self.clock, (int, float)) and self.clock > 0):
            raise BotError(f"clock must be a positive number of seconds, got {self.clock!r}")
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise BotError(f"{name} limit must be a positive whole number, got {value!r}")


@dataclass(frozen=True)
class Thinking:
    """What a bot reports about its search. ``score`` is in pieces, mover's view."""

    depth: int | None = None
    score: float | None = None
    nodes: int | None = None
    pv: tuple[str, ...] = ()
    seconds: float = 0.0
    text: str = ""
    exact: bool = False
    """True when ``score`` is the proven final margin (the game was solved)."""
    tt_probes: int | None = None
    """Transposition-table look-ups counted in ``nodes`` (``None``: the bot does not count)."""
    tt_hits: int | None = None
    """The look-ups of ``tt_probes`` that found an entry (``tt_hits <= tt_probes``)."""
    solver_nodes: int | None = None
    """The nodes of ``nodes`` that an exact endgame solver visited (``None``: not counted)."""


Listener = Callable[[Thinking], None]


@dataclass
class Search:
    """The context of one ``choose_move`` call: the budget, the stop flag and reporting.

    Algorithms poll :meth:`should_stop` (cheap) and call :meth:`publish`.
    """

    limit: Limit
    stop_event: threading.Event
    listener: Listener | None = None
    started: float = field(default_factory=time.monotonic)
    safety: float = 0.0
    report: Thinking | None = None

    @property
    def deadline(self) -> float | None:
        """The monotonic time by which the move must be returned (or ``None``)."""
        if self.limit.time is None:
            return None
        return self.started + max(0.0, self.limit.time - self.safety)

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.monotonic() - self.started

    def remaining(self) -> float:
        """Seconds left before the deadline (``inf`` without a time limit)."""
        deadline = self.deadline
        return float("inf") if deadline is None else deadline - time.monotonic()

    def should_stop(self) -> bool:
        """True once the deadline passed or a stop was requested."""
        if self.stop_event.is_set():
            return True
        deadline = self.deadline
        return deadline is not None and time.monotonic() >= deadline

    def publish(self, thinking: Thinking) -> None:
        """Keep ``thinking`` as the latest :attr:`report` and pass it to the listener, if any."""
        self.report = thinking
        if self.listener is not None:
            self.listener(thinking)


class Bot(Closing, ABC):
    """A player. Subclasses implement :meth:`_choose`; callers use :meth:`choose_move`.

    Contract: ``choose_move`` returns the name of an empty square of a position
    that is not over, within ``limit.time`` seconds (all its work included),
    and is reproducible for a given seed. Bots are used from one thread at a
    time, except :meth:`stop`, which any thread may call.
    """

    spec: str = "bot"
    """The spec string this bot was made from (see :mod:`adjacency.bots.registry`)."""

    safety: float = 0.02
    """Seconds a bot keeps in hand for returning its move after its deadline check."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self.report: Thinking | None = None
        self.stand_in = False
        """Whether the move :meth:`choose_move` last returned was a stand-in, not the
        bot's own (an external engine said so: :data:`~adjacency.protocol.wire.STAND_IN`);
        referees and the league client count such moves apart."""

    def choose_move(
        self, position: Position, limit: Limit | None = None, listener: Listener | None = None
    ) -> str:
        """Return a legal move for the side to move in ``position``."""
        if position.is_over:
            raise BotError(
                f"{self.spec} was asked to move but the game is over: {position.fen()!r}"
            )
        self._stop.clear()
        self.stand_in = False
        search = Search(limit or Limit(), self._stop, listener, safety=self.safety)
        move = self._choose(position, search)
        self.report = search.report
        return move

    @abstractmethod
    def _choose(self, position: Position, search: Search) -> str:
        """Pick a move; poll ``search.should_stop()`` and respect ``search.limit``."""

    def stop(self) -> None:
        """Ask a running :meth:`choose_move` to return its best move now."""
        self._stop.set()

    def new_game(self) -> None:
        """Forget anything learnt about the previous game (tables, opponent model)."""

    def warm(self) -> None:
        """Do now the one-off work a first move would otherwise pay inside its time (a
        server calls it before it answers its handshake); leaves no trace in any move."""

    def close(self) -> None:
        """Release resources (threads, processes). The bot is unusable afterwards."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"
