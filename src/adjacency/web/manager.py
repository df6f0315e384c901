"""The games of one server: creating, finding (in memory or in the store), listing, deleting."""

from __future__ import annotations

import logging
import secrets
import threading

from ..core import Color, InvalidRecordError, Position
from ..core.game import Game
from ..core.record import game_from_json, game_from_text
from .errors import GameNotFound
from .hints import HintBots
from .models import GameSummary, Hint, NewGame
from .players import Player, player_from_setup
from .session import GameSession
from .store import GameStore

log = logging.getLogger(__name__)


class GameManager:
    """Owns every :class:`GameSession` and the pool of hint bots they share; thread-safe."""

    def __init__(
        self, store: GameStore, grace: float = 10.0, hints: HintBots | None = None
    ) -> None:
        self.store = store
        self.grace = grace
        self.hints = HintBots() if hints is None else hints
        self._sessions: dict[str, GameSession] = {}
        self._lock = threading.Lock()

    def _save(self, session: GameSession) -> None:
        self.store.save(session.id, session.created, session.record(), session.meta())

    def _add(
        self, game: Game, players: dict[Color, Player], time_per_move: float, delay: float = 0.5
    ) -> GameSession:
        game_id = secrets.token_hex(6)
        session = GameSession(
            game_id, game, players, time_per_move, self._save, self.grace, delay=delay
        )
        with self._lock:
            self._sessions[game_id] = session
        self._save(session)
        return session

    def create(self, settings: NewGame) -> GameSession:
        """Start a game; raise ``AdjacencyError`` (400) for settings out of range."""
        players: dict[Color, Player] = {
            "x": player_from_setup(settings.x, "x"),
            "o": player_from_setup(settings.o, "o"),
        }
        start = Position.start(settings.rows, settings.cols, settings.rounds, settings.first)
        game = Game(start, players["x"].name, players["o"].name, event="Casual game")
        session = self._add(game, players, settings.time)
        session.touch()
        return session

    def rematch(self, game_id: str) -> GameSession:
        """A new game with the same settings and the players' colours swapped."""
        old = self.get(game_id)
        with old.lock:
            players: dict[Color, Player] = {"x": old.players["o"], "o": old.players["x"]}
            start = old.game.start
            first, rounds = old.game.first, old.game.rounds
            time_per_move, delay = old.time, old.delay
        fresh = Position.start(start.rows, start.cols, rounds, first)
        game = Game(fresh, players["x"].name, players["o"].name, event="Casual game")
        session = self._add(game, players, time_per_move, delay)  # playing, at the old speed
        session.touch()
        return session

    def import_record(self, text: str) -> GameSession:
        """Load a record (text, or JSON if it starts with ``{``) for replay and play on."""
        stripped = text.strip()
        if not stripped:
            raise InvalidRecordError("the record is empty; expected a saved game's text")
        game = game_from_json(stripped) if stripped.startswith("{") else game_from_text(stripped)
        players: dict[Color, Player] = {
            "x": Player("human", game.x_name[:40] or "X"),
            "o": Player("human", game.o_name[:40] or "O"),
        }
        return self._add(game, players, 5.0)

    def get(self, game_id: str) -> GameSession:
        """The session of ``game_id``, loading it from the store after a restart."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                return session
            stored = self.store.load(game_id) if _plausible_id(game_id) else None
            if stored is None:
                raise GameNotFound(f"no game with id {game_id!r}; list games with GET /api/games")
            try:
                session = GameSession.restore(
                    stored.id, stored.created, stored.record, stored.meta, self._save, self.grace
                )
            except (InvalidRecordError, KeyError, TypeError, ValueError) as exc:
                log.error("stored game %s is damaged: %s", game_id, exc)
                raise GameNotFound(f"game {game_id!r} is stored but damaged: {exc}") from None
            self._sessions[game_id] = session
            return session

    def summaries(self) -> list[GameSummary]:
        """Every stored game, most recently changed first."""
        out = []
        for stored in self.store.all():
            record, meta = stored.record, stored.meta
            try:
                kinds = sum(meta["players"][c]["kind"] == "bot" for c in ("x", "o"))
                out.append(
                    GameSummary(
                        id=stored.id,
                        x=record["x"],
                        o=record["o"],
                        mode=("human-human", "human-bot", "bot-bot")[kinds],
                        rows=record["rows"],
                        cols=record["cols"],
                        rounds=record["rounds"],
                        plies=len(record["moves"]),
                        status="playing" if record["termination"] == "unterminated" else "over",
                        result=record["result"],
                        score=record["score"],
                        updated=stored.updated,
                    )
                )
            except (KeyError, TypeError, ValueError):
                log.error("skipping damaged stored game %s", stored.id)
        return out

    def hint(self, game_id: str) -> Hint:
        """A hint for the person to move in ``game_id``, from the shared hint bots."""
        return self.get(game_id).hint(self.hints)

    def delete(self, game_id: str) -> None:
        session = self.get(game_id)
        with self._lock:
            self._sessions.pop(game_id, None)
        session.close()
        self.store.delete(game_id)

    def close(self) -> None:
        """Stop every bot and close the hint bots (server shutdown); the games stay stored."""
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close()
        self.hints.close()


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 64 and game_id.isalnum()
