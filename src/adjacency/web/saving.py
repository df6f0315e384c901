"""What a browser game stores, and a stored game back as a session: the core record
(:mod:`adjacency.core.record`, the same JSON every front end reads) and, next to it, the
web layer's data (players, time per move, evaluations, playback, seats, the clock with
when the running side's turn began, the offer, the rematch). The row's shape is stored
data: a field added here is read back with a default, so older rows still open.
"""

from __future__ import annotations

from typing import Any

from ..core.record import game_from_dict, game_to_dict
from ..round.clock import Clock
from .limits import BotSlots
from .models import Offer
from .players import Player
from .seats import Seats
from .session import GameSession, Saver


def meta(session: GameSession) -> dict[str, Any]:
    """The web layer's data stored next to the core record."""
    return {
        "players": {c: p.to_dict() for c, p in session.players.items()},
        "time": session.time,
        "evals": [list(e) for e in session.evals],
        "paused": session.paused,
        "delay": session.delay,
        "version": session.version,
        "seats": session.seats.to_dict(),
        "clock": None if session.clock is None else session.clock.to_dict(),
        "offer": None if session.offer is None else session.offer.model_dump(),
        "rematch": session.rematch,
    }


def record(session: GameSession) -> dict[str, Any]:
    """The core record of the game, JSON-ready (stored next to :func:`meta`)."""
    return game_to_dict(session.game)


def restore(
    game_id: str,
    created: float,
    record: dict[str, Any],
    meta: dict[str, Any],
    saver: Saver,
    grace: float,
    slots: BotSlots | None = None,
) -> GameSession:
    """Rebuild a stored session (raises ``InvalidRecordError`` if the row is damaged)."""
    game = game_from_dict(record)
    players = {c: Player.from_dict(meta["players"][c]) for c in ("x", "o")}
    evals = [(e[0], e[1]) for e in meta.get("evals", [])]
    if len(evals) != len(game.moves):
        evals = []
    rematch = meta.get("rematch")
    return GameSession(
        game_id,
        game,
        players,  # type: ignore[arg-type]
        float(meta.get("time", 5.0)),
        saver,
        grace,
        created,
        evals,
        bool(meta.get("paused", False)),
        float(meta.get("delay", 0.5)),
        Seats.from_dict(meta.get("seats")),
        Clock.from_dict(meta.get("clock")),
        slots,
        # Versions keep increasing across restarts, so pages never mistake new for old.
        version=int(meta.get("version", 0)) + 1,
        offer=Offer.model_validate(meta["offer"]) if meta.get("offer") else None,
        rematch=rematch if isinstance(rematch, str) else None,
    )
