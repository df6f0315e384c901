"""Who plays a side in a web game: a person, or a bot given by level or spec.

What a player's kind means for the game (whose clock runs when, who resigns, takes
back or is offered a rematch, whether an illegal answer forfeits) is the round room's
(:mod:`adjacency.round.player_kinds`): a person is its ``PERSON``, a bot, which the server
computes in its own threads, its ``HOUSE`` (:attr:`Player.seat`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..bots.gate import admit
from ..core import Color
from ..round.player_kinds import Kind
from .levels import default_level, level_by_number
from .models import PlayerInfo, PlayerSetup


@dataclass(frozen=True)
class Player:
    """One side's player. ``spec`` and the level fields are set for bots only."""

    kind: str
    name: str
    spec: str | None = None
    level: int | None = None
    level_name: str | None = None
    time_cap: float | None = None

    @property
    def seat(self) -> Kind:
        """The round room's kind of player (:class:`~adjacency.round.player_kinds.Kind`): a
        bot of the browser game is a house bot, the server computing its moves."""
        return Kind.HOUSE if self.kind == "bot" else Kind.PERSON

    @property
    def is_bot(self) -> bool:
        """Whether a bot plays this side (not a person)."""
        return not self.seat.is_person

    def info(self) -> PlayerInfo:
        """The player as the API shows it."""
        return PlayerInfo(**asdict(self))  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-ready (stored in the game's meta)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Player:
        """The player that :meth:`to_dict` stored."""
        return cls(**data)


def player_from_setup(setup: PlayerSetup, color: Color) -> Player:
    """Validate a side's setup; raise :class:`~adjacency.bots.BotError` for an unknown level,
    bot or option, and for a spec the network gate refuses (:func:`~adjacency.bots.gate.admit`)."""
    name = " ".join(setup.name.split())
    if setup.kind == "human":
        return Player("human", name or f"Player {color.upper()}")
    if setup.spec is not None:
        admitted = admit(setup.spec)
        return Player("bot", name or admitted.text, admitted.text)
    level = default_level() if setup.level is None else level_by_number(setup.level)
    return Player(
        "bot",
        name or f"{level.name} bot",
        level.spec,
        level.number,
        level.name,
        level.time_cap,
    )
