"""The schedule of a run: pairings, openings and colour-swapped game pairs.

A run plays ``games`` games per pairing and per rounds setting. Games come in
pairs (fishtest's game pairs, cutechess-cli's ``-repeat``): both games of a pair
start from the same opening, with the colours swapped, so that an opening that
favours one side cancels out. Every game is a :class:`GameTask`, a plain value
that names everything a worker needs (specs, settings, opening, seed), so a
schedule can be stored, resumed and sent to any executor.

The order interleaves pairings and rounds settings pair by pair, so a run that
is stopped early (SPRT, Ctrl-C, SIGKILL) has a balanced sample.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ..bots import Limit
from ..bots.referee import DEFAULT_MARGIN
from ..core import Position, board
from ..core.errors import InvalidPositionError, InvalidSettingsError
from ..core.openings import retime

MODES = ("match", "round-robin", "gauntlet", "pairs")
"""``pairs``: explicit pairings, the player list read two by two (A1 B1 A2 B2 ...)."""

SPRT_STATS = ("elo", "margin")
"""What a match's sequential test measures (:mod:`adjacency.arena.sequential`)."""


@dataclass(frozen=True)
class RunSettings:
    """Everything that is the same for every game of a run.

    ``games`` counts games per pairing *and* per rounds setting; it must be
    even because games are played in colour-swapped pairs. ``openings`` are
    position texts; each is re-timed to every rounds setting (see
    :func:`retime`). Otherwise, ``random_plies`` uniformly random plies are
    played from the start position, drawn from ``seed``.
    """

    rows: int = 8
    cols: int = 8
    rounds: tuple[int, ...] = (28,)
    games: int = 2
    time: float | None = 5.0
    depth: int | None = None
    nodes: int | None = None
    margin: float = DEFAULT_MARGIN
    seed: int = 0
    random_plies: int = 0
    openings: tuple[str, ...] = field(default=())
    sprt: tuple[float, float, float, float] | None = None
    """``(h0, h1, alpha, beta)`` of a match's sequential test, kept so that ``--resume``
    continues the same test: ``(elo0, elo1, ...)`` of :class:`~adjacency.ratings.stats.Sprt`
    or ``(m0, m1, ...)`` of :class:`~adjacency.ratings.margin.MarginSprt`, as ``sprt_stat``
    says (:func:`adjacency.arena.sequential.from_settings`)."""
    sprt_stat: str = "elo"
    """The statistic of the sequential test, one of :data:`SPRT_STATS` (runs stored before
    the margin test existed read as ``elo``)."""

    def __post_init__(self) -> None:
        geometry = board(self.rows, self.cols)
        if not self.rounds:
            raise InvalidSettingsError("at least one rounds setting is needed, e.g. --rounds 28")
        for rounds in self.rounds:
            if isinstance(rounds, bool) or not isinstance(rounds, int):
                raise InvalidSettingsError(f"rounds must be whole numbers, got {rounds!r}")
            if not 1 <= rounds <= geometry.max_rounds():
                raise InvalidSettingsError(
                    f"rounds {rounds} is not playable on {self.rows}x{self.cols}: "
                    f"accepted 1 to {geometry.max_rounds()}"
                )
        if len(set(self.rounds)) != len(self.rounds):
            raise InvalidSettingsError(f"rounds settings repeat: {list(self.rounds)}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 2:
            raise InvalidSettingsError(f"games per pairing must be 2 or more, got {self.games!r}")
        if self.games % 2:
            raise InvalidSettingsError(
                f"games per pairing must be even (each opening is played twice with colours "
                f"swapped), got {self.games}"
            )
        if self.sprt_stat not in SPRT_STATS:
            raise InvalidSettingsError(
                f"SPRT statistic {self.sprt_stat!r} is not one of {', '.join(SPRT_STATS)}"
            )
        if self.margin < 0:
            raise InvalidSettingsError(f"time margin must be 0 or more seconds, got {self.margin}")
        if self.random_plies < 0:
            raise InvalidSettingsError(f"random plies must be 0 or more, got {self.random_plies}")
        if self.random_plies and self.openings:
            raise InvalidSettingsError("give either openings or random plies, not both")
        if self.random_plies >= 2 * min(self.rounds):
            raise InvalidSettingsError(
                f"{self.random_plies} random plies leave nothing to play in a "
                f"{min(self.rounds)}-round game; use fewer than {2 * min(self.rounds)}"
            )
        self.limit()  # validates time, depth and nodes
        for number, text in enumerate(self.openings, 1):
            for rounds in self.rounds:
                retime(parse_opening(text, number), rounds, self.rows, self.cols)

    def limit(self) -> Limit:
        """The per-move budget given to both bots."""
        return Limit(time=self.time, depth=self.depth, nodes=self.nodes)

    @property
    def pairs(self) -> int:
        """Game pairs per pairing and rounds setting."""
        return self.games // 2

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (tuples as lists): how a run stores its settings."""
        data = asdict(self)
        data["rounds"] = list(self.rounds)
        data["openings"] = list(self.openings)
        data["sprt"] = None if self.sprt is None else list(self.sprt)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunSettings:
        """The settings that :meth:`to_dict` stored (lists back to tuples), checked again by the
        constructor: :class:`InvalidSettingsError` if they are not valid."""
        values = dict(data)
        values["rounds"] = tuple(values["rounds"])
        values["openings"] = tuple(values.get("openings", ()))
        if values.get("sprt") is not None:
            values["sprt"] = tuple(values["sprt"])
        return cls(**values)


@dataclass(frozen=True)
class GameTask:
    """One planned game: a plain, picklable value.

    ``a`` and ``b`` are the pairing's players (``a`` is the side whose score
    tables report); ``x`` and ``o`` say who has which colour in this game.
    ``pair`` numbers the colour-swapped pair within the run.
    """

    index: int
    pairing: int
    pair: int
    a: str
    b: str
    x: str
    o: str
    rows: int
    cols: int
    rounds: int
    opening: str
    seed: int
    time: float | None
    depth: int | None
    nodes: int | None
    margin: float
    a_is_x: bool = True

    def limit(self) -> Limit:
        """The per-move budget of both bots in this game."""
        return Limit(time=self.time, depth=self.depth, nodes=self.nodes)

    def start(self) -> Position:
        """The position the game starts from (``opening`` parsed)."""
        return Position.from_fen(self.opening)

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (how the plan is stored)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameTask:
        """The task that :meth:`to_dict` stored."""
        return cls(**data)


def pairings(players: list[str], mode: str) -> list[tuple[str, str]]:
    """The pairings of a run: a match, a round robin, a gauntlet (first vs the rest), or
    explicit pairs (the list read two by two)."""
    if mode not in MODES:
        raise InvalidSettingsError(f"mode {mode!r} is not one of {', '.join(MODES)}")
    if mode == "pairs":
        if not players or len(players) % 2:
            raise InvalidSettingsError(f"explicit pairs need an even list of specs, got {players}")
        return list(zip(players[::2], players[1::2], strict=True))
    if mode == "match":
        if len(players) != 2:
            raise InvalidSettingsError(f"a match needs exactly 2 bot specs, got {len(players)}")
        return [(players[0], players[1])]
    if len(players) < 2:
        raise InvalidSettingsError(f"a tournament needs at least 2 bot specs, got {len(players)}")
    if len(set(players)) != len(players):
        raise InvalidSettingsError(f"a tournament lists a bot spec twice: {players}")
    if mode == "gauntlet":
        return [(players[0], other) for other in players[1:]]
    return [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]


def parse_opening(text: str, number: int) -> Position:
    """Parse one line of an openings file (a position text)."""
    try:
        return Position.from_fen(text)
    except InvalidPositionError as exc:
        raise InvalidSettingsError(f"opening {number} {text!r}: {exc}") from None


def opening_for(settings: RunSettings, pair: int, rounds: int) -> Position:
    """The opening of the ``pair``-th game pair at ``rounds`` rounds (same for every pairing)."""
    if settings.openings:
        text = settings.openings[pair % len(settings.openings)]
        position = parse_opening(text, pair % len(settings.openings) + 1)
        return retime(position, rounds, settings.rows, settings.cols)
    position = Position.start(settings.rows, settings.cols, rounds)
    rng = random.Random(f"opening:{settings.seed}:{rounds}:{pair}")
    for _ in range(settings.random_plies):
        position = position.play(rng.choice(position.legal_squares()))
    return position


def plan(players: list[str], mode: str, settings: RunSettings) -> list[GameTask]:
    """Every game of a run, in playing order (pairs interleaved across pairings and rounds)."""
    matchups = pairings(players, mode)
    tasks: list[GameTask] = []
    pair_id = 0
    for number in range(settings.pairs):
        for rounds in settings.rounds:
            opening = opening_for(settings, number, rounds).fen()
            for k, (a, b) in enumerate(matchups):
                for a_is_x, (x, o) in ((True, (a, b)), (False, (b, a))):
                    index = len(tasks)
                    tasks.append(
                        GameTask(
                            index=index,
                            pairing=k,
                            pair=pair_id,
                            a=a,
                            b=b,
                            x=x,
                            o=o,
                            rows=settings.rows,
                            cols=settings.cols,
                            rounds=rounds,
                            opening=opening,
                            seed=settings.seed * 1_000_003 + index,
                            time=settings.time,
                            depth=settings.depth,
                            nodes=settings.nodes,
                            margin=settings.margin,
                            a_is_x=a_is_x,
                        )
                    )
                pair_id += 1
    return tasks
