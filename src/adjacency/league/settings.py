"""A league's settings, fixed when the league is created: board, rounds, time control, openings.

Every rated game of a league is played under the same settings, so that ratings
compare like with like. They are stored in the league's database at creation
(:meth:`~adjacency.league.store.league_meta.MetaRepo.create`) and never change, but for
the openings of a league that has played no game yet
(:meth:`~adjacency.league.store.league_meta.MetaRepo.set_openings`: a league made from
openings by mistake is switched to play teams' windows from the start).

Time control: either a **clock** (``base`` seconds per side plus ``increment``
seconds per move, Fischer, written ``60+1``) or **seconds per move**
(``move_time``: each move has its own budget, unused time is not kept).

Openings: games come in colour-swapped pairs from one opening. On 8x8 the
openings are the balanced 28-round book (``benchmarks/openings/balanced-28.txt``,
copied into the package as ``league/openings/balanced-28.txt``), each re-timed to
the league's rounds (:func:`adjacency.core.openings.retime`); books that do not fit
(other boards, or rounds too short for the book's plies) are generated
reproducibly: :data:`GENERATED_OPENINGS` positions of a few uniformly random plies
from the start, drawn from a fixed seed. The list is stored with the settings, so a
league's openings never change under it.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any

from ..core import Position, board
from ..core.errors import AdjacencyError, InvalidSettingsError
from ..core.openings import retime
from ..core.text import is_ascii_decimal, quote

BOOK = "balanced-28.txt"
"""The opening book shipped in the package (59 balanced 8x8 openings)."""
GENERATED_OPENINGS = 32
"""How many openings a league gets when the book does not fit its board."""
OPENING_SEED = 20260601
MAX_SECONDS = 3600.0
"""The longest clock base or move time a league accepts (an hour)."""
MAX_PACE = 60.0
"""The longest pace a league accepts (the least seconds a bot's move takes, so a game
can be watched): ``league serve --pace`` and an event's own pace."""


def parse_clock(text: str) -> tuple[float, float]:
    """``"60+1"`` -> ``(60.0, 1.0)``; ``"90"`` -> ``(90.0, 0.0)``; else
    :class:`InvalidSettingsError`."""
    base_text, plus, inc_text = text.strip().partition("+")
    if not is_ascii_decimal(base_text) or (plus and not is_ascii_decimal(inc_text)):
        raise InvalidSettingsError(
            f"clock {quote(text)}: expected BASE+INCREMENT seconds, e.g. 60+1"
        )
    base, inc = float(base_text), float(inc_text or 0)
    if not (0 < base <= MAX_SECONDS and 0 <= inc <= 60):
        raise InvalidSettingsError(
            f"clock {quote(text)}: base must be above 0 and at most {MAX_SECONDS:g} s, "
            "increment 0 to 60 s"
        )
    return base, inc


@dataclass(frozen=True)
class LeagueSettings:
    """What every game of a league shares. ``move_time`` set means seconds per move
    (then ``base``/``increment`` are unused); otherwise a ``base+increment`` clock."""

    rows: int = 8
    cols: int = 8
    rounds: int = 28
    base: float = 60.0
    increment: float = 1.0
    move_time: float | None = None
    openings: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        geometry = board(self.rows, self.cols)
        if isinstance(self.rounds, bool) or not 1 <= self.rounds <= geometry.max_rounds():
            raise InvalidSettingsError(
                f"rounds {self.rounds} is not playable on {self.rows}x{self.cols}: "
                f"accepted 1 to {geometry.max_rounds()}"
            )
        if self.move_time is not None and not 0 < self.move_time <= MAX_SECONDS:
            raise InvalidSettingsError(
                f"move time must be above 0 and at most {MAX_SECONDS:g} s, got {self.move_time}"
            )
        if not 0 < self.base <= MAX_SECONDS or not 0 <= self.increment <= 60:
            raise InvalidSettingsError(
                f"clock {self.base:g}+{self.increment:g}: base above 0 and at most "
                f"{MAX_SECONDS:g} s, increment 0 to 60 s"
            )
        if not self.openings:
            openings = default_openings(self.rows, self.cols, self.rounds)
            object.__setattr__(self, "openings", openings)
        for number, text in enumerate(self.openings, 1):
            try:
                position = Position.from_fen(text)
                retime(position, self.rounds, self.rows, self.cols)
            except AdjacencyError as exc:
                raise InvalidSettingsError(f"opening {number}: {exc}") from None

    @property
    def time_control(self) -> str:
        """``"60+1"`` or ``"5 s/move"``."""
        if self.move_time is not None:
            return f"{self.move_time:g} s/move"
        return f"{self.base:g}+{self.increment:g}"

    def opening(self, number: int) -> Position:
        """The ``number``-th opening (cycling), re-timed to the league's rounds."""
        text = self.openings[number % len(self.openings)]
        return retime(Position.from_fen(text), self.rounds, self.rows, self.cols)

    @property
    def from_start(self) -> bool:
        """Whether every game starts from the start position (its one opening is the
        start: ``league create --from-start``), as a program's window starts a game."""
        start = Position.start(self.rows, self.cols, self.rounds).fen()
        return all(self.opening(i).fen() == start for i in range(len(self.openings)))

    def to_dict(self) -> dict[str, Any]:
        """Every setting as JSON-ready values, the openings listed (how the store keeps them;
        :meth:`from_dict` reads it back)."""
        data = asdict(self)
        data["openings"] = list(self.openings)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LeagueSettings:
        """The settings :meth:`to_dict` wrote, checked again as on construction
        (:class:`~adjacency.core.errors.InvalidSettingsError` if they are not playable)."""
        return cls(
            rows=int(data["rows"]),
            cols=int(data["cols"]),
            rounds=int(data["rounds"]),
            base=float(data["base"]),
            increment=float(data["increment"]),
            move_time=None if data.get("move_time") is None else float(data["move_time"]),
            openings=tuple(str(t) for t in data["openings"]),
        )

    def public(self) -> dict[str, Any]:
        """The settings as the API shows them (the openings counted, not listed)."""
        return {
            "rows": self.rows,
            "cols": self.cols,
            "rounds": self.rounds,
            "time_control": self.time_control,
            "base": self.base,
            "increment": self.increment,
            "move_time": self.move_time,
            "openings": len(self.openings),
        }


def book_openings() -> list[str]:
    """The shipped balanced book's positions (8x8, 28 rounds)."""
    text = resources.files(__package__).joinpath("openings", BOOK).read_text(encoding="ascii")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def default_openings(rows: int, cols: int, rounds: int) -> tuple[str, ...]:
    """The book re-timed where it fits (8x8), else reproducibly generated short openings."""
    if (rows, cols) == (8, 8):
        fitting = []
        for text in book_openings():
            try:
                fitting.append(retime(Position.from_fen(text), rounds, rows, cols).fen())
            except InvalidSettingsError:
                continue
        if len(fitting) >= 8:
            return tuple(fitting)
    start = Position.start(rows, cols, rounds)
    plies = min(4, 2 * rounds - 2)
    rng = random.Random(f"league-openings:{OPENING_SEED}:{rows}x{cols}:{rounds}")
    found: list[str] = []
    for _ in range(GENERATED_OPENINGS * 4):
        position = start
        for _ in range(plies):
            position = position.play(rng.choice(position.legal_squares()))
        if position.fen() not in found:
            found.append(position.fen())
        if len(found) == GENERATED_OPENINGS:
            break
    return tuple(found)
