"""The games of one server: creating, finding (in memory or in the store), listing, deleting."""

from __future__ import annotations

import logging
import secrets
import threading

from ..core import COLORS, Color, InvalidRecordError, Position, other
from ..core.game import Game
from ..core.record import game_from_json, game_from_text
from ..round.clock import Clock
from ..round.player_kinds import people
from ..round.rematch import rematch
from ..serving.errors import Forbidden, GameNotFound, NotNow, TooMany, WebError, quote
from . import commands, saving
from .analysis import check_analysable
from .hints import HintBots
from .limits import BotSlots, Limits, cpu_budget
from .models import GameSummary, Hint, NewGame, OfferKind
from .players import Player, player_from_setup
from .seats import Caller, Seats, new_seats
from .session import GameSession
from .store import GameStore
from .table_budget import TableBudget, table_mb

log = logging.getLogger(__name__)

QUEUE_POLL = 0.5
"""Seconds between two looks of a waiting search at the engine's queue."""

SWAP: tuple[tuple[Color, Color], ...] = (("x", "o"), ("o", "x"))


class GameManager:
    """Owns every :class:`GameSession` and the pool of hint bots they share; thread-safe."""

    def __init__(
        self,
        store: GameStore,
        grace: float = 10.0,
        hints: HintBots | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.grace = grace
        self.limits = Limits() if limits is None else limits
        self.engine = cpu_budget(self.limits)
        """Every search's core, charged to its visitor and queued fairly (the bots' moves
        through :attr:`slots`, the rest through the routes and :meth:`hint`)."""
        self.slots = BotSlots(
            self.limits.bot_games, self.limits.bot_games_per_client, engine=self.engine
        )
        per_client = self.limits.bot_tables_mb_per_client
        self.tables = TableBudget(
            self.limits.bot_tables_mb,
            self.limits.bot_tables_mb // 2 if per_client is None else per_client,
            self._keeps_bots,
        )
        """The games' search tables, charged when a game with bots is made."""
        """Every game's bots run in one of these slots, however the game was (re)opened."""
        self._hinting: dict[str, int] = {}
        """Hints being computed now, per game id."""
        self.hints = HintBots(per_spec=self.limits.hints) if hints is None else hints
        """One bot per admitted hint (``limits.hints`` per spec), so no hint waits for a bot."""
        self._sessions: dict[str, GameSession] = {}
        self._lock = threading.Lock()

    def _keeps_bots(self, game_id: str) -> bool:
        """Whether ``game_id`` may still hold its bots' tables (read without its lock: a
        stale answer only keeps a charge until the next game is made)."""
        with self._lock:
            session = self._sessions.get(game_id)
        return session is not None and session.keeps_bots()

    def _charge_tables(self, players: dict[Color, Player], clients: tuple[str, ...]) -> str:
        """A new game's id, its bots' tables charged (:class:`TableBudget`; 429 beyond)."""
        game_id = secrets.token_hex(6)
        specs = [p.spec for p in players.values() if p.is_bot and p.spec is not None]
        self.tables.take(game_id, clients, sum(table_mb(spec) for spec in specs))
        return game_id

    def _save(self, session: GameSession) -> None:
        self.store.save(session.id, session.created, saving.record(session), saving.meta(session))

    def _add(
        self,
        game: Game,
        players: dict[Color, Player],
        time_per_move: float,
        seats: Seats,
        delay: float = 0.5,
        clock: Clock | None = None,
        clients: tuple[str, ...] = (),
        game_id: str | None = None,
    ) -> GameSession:
        game_id = secrets.token_hex(6) if game_id is None else game_id
        self.slots.assign(game_id, clients)  # its bots' slot counts for its creator
        session = GameSession(
            game_id,
            game,
            players,
            time_per_move,
            self._save,
            self.grace,
            delay=delay,
            seats=seats,
            clock=clock,
            slots=self.slots,
        )
        with self._lock:
            self._sessions[game_id] = session
        self._save(session)
        return session

    def create(
        self, settings: NewGame, caller: Caller, clients: tuple[str, ...] = ()
    ) -> GameSession:
        """Start a game owned by ``caller``, who holds its people's seats; raise
        ``AdjacencyError`` (400) for settings out of range. ``clients``: whom its bots'
        slot counts for (:func:`~.limits.holders`; 429 if one holds its share)."""
        if settings.invite:
            raise WebError("a game between devices is created with POST /api/invites")
        return self._create(settings, caller, clients=clients)[0]

    def invite(self, settings: NewGame, caller: Caller) -> tuple[GameSession, dict[Color, str]]:
        """A game between two people on different devices, and its seat tokens (the only
        time they are shown)."""
        if settings.x.kind != "human" or settings.o.kind != "human":
            raise WebError("an invitation is for two people: both players must be 'human'")
        return self._create(settings, caller, invite=True)

    def _create(
        self,
        settings: NewGame,
        caller: Caller,
        invite: bool = False,
        clients: tuple[str, ...] = (),
    ) -> tuple[GameSession, dict[Color, str]]:
        players: dict[Color, Player] = {
            "x": player_from_setup(settings.x, "x"),
            "o": player_from_setup(settings.o, "o"),
        }
        start = _start(settings)
        self._check_bot_capacity(players, clients)
        event = "Game between devices" if invite else "Casual game"
        game = Game(start, players["x"].name, players["o"].name, event=event)
        humans = people({c: p.seat for c, p in players.items()})
        seats, tokens = new_seats(caller, humans, invite)
        clock = None
        if settings.clock is not None:
            clock = Clock(settings.clock.base, settings.clock.increment)
        game_id = self._charge_tables(players, clients)
        try:
            session = self._add(
                game, players, settings.time, seats, clock=clock, clients=clients, game_id=game_id
            )
        except BaseException:
            self.tables.give(game_id)
            raise
        session.touch()
        return session, tokens

    def rematch(
        self,
        game_id: str,
        caller: Caller,
        *,
        agreed: bool = False,
        clients: tuple[str, ...] = (),
    ) -> GameSession:
        """A new game with the same settings and the players' colours swapped (and their
        seats: each player keeps playing from the same browser).

        Rules (409 otherwise): the game is over, and in a game between devices both
        players hold their seats (the friend has opened their link), so every seat
        of the new game has a player, and the other player agreed: between devices a
        rematch is an offer the other player accepts (:meth:`offer`, :meth:`answer`,
        which pass ``agreed``), never one player's request alone. A rematch made
        already is the answer to anyone asking again.
        """
        old = self.get(game_id)
        with old.lock:  # held throughout: one rematch per game, however many ask at once
            old.seats.require_member(caller, "ask for a rematch")
            if old.rematch is not None:
                try:
                    return self.get(old.rematch)  # asked again (or by both): the same game
                except GameNotFound:
                    pass  # it was deleted: make another
            if not old.game.is_over:
                raise NotNow("a rematch is for a finished game; this one is still being played")
            if old.seats.invite and not all(old.seats.holders.get(c) for c in COLORS):
                raise NotNow(
                    "both players must have joined before a rematch: the friend has not "
                    "opened their seat link yet"
                )
            if old.seats.invite and not agreed and len(old.seats.seats_of(caller)) < 2:
                raise NotNow(
                    "between devices a rematch is an offer the other player answers: "
                    'POST /offers with {"kind": "rematch"}',
                    code="no_direct_rematch",
                )
            seats = Seats(
                owner=caller.client,
                holders={swap: old.seats.holders[c] for c, swap in SWAP if c in old.seats.holders},
                invite=old.seats.invite,
            )
            if old.seats.open:
                humans = people(old.kinds)  # a rematch is offered to the people
                seats = new_seats(caller, [other(c) for c in humans])[0]
            players: dict[Color, Player] = {"x": old.players["o"], "o": old.players["x"]}
            again = rematch(old.round_now())  # the same settings from their start
            clocks = again.clocks
            clock = None if clocks is None else Clock(clocks.base, clocks.increment)
            fresh = again.start
            self._check_bot_capacity(players, clients)
            event = "Game between devices" if old.seats.invite else "Casual game"
            game = Game(fresh, players["x"].name, players["o"].name, event=event)
            game_id = self._charge_tables(players, clients)
            try:
                session = self._add(
                    game, players, old.time, seats, old.delay, clock, clients, game_id
                )
            except BaseException:
                self.tables.give(game_id)
                raise
            old.made_rematch(session.id)  # both players' pages switch to it
        session.touch()
        return session

    def offer(self, game_id: str, kind: OfferKind, caller: Caller) -> GameSession:
        """Offer the other player of a game between devices a rematch or a takeback
        (see :func:`.commands.make_offer`); when they had offered the same, it is
        accepted now. Returns the game the caller should show: the rematch once made,
        else this one."""
        session = self.get(game_id)
        pending, _ = commands.make_offer(session, kind, caller)
        if pending is None:
            return session
        return self.answer(game_id, True, caller)

    def answer(self, game_id: str, accept: bool, caller: Caller) -> GameSession:
        """Accept or decline the waiting offer (its maker may withdraw it). An accepted
        rematch is made here, for both players (each keeps their browser, colours
        swapped). Returns the game the caller should show next."""
        session = self.get(game_id)
        with session.lock:
            offer = commands.answer_offer(session, accept, caller)
            if accept and offer.kind == "rematch":
                return self.rematch(game_id, caller, agreed=True)
        return session

    def import_record(self, text: str, caller: Caller) -> GameSession:
        """Load a record (text, or JSON if it starts with ``{``) for replay and play on."""
        stripped = text.strip()
        if not stripped:
            raise InvalidRecordError("the record is empty; expected a saved game's text")
        try:
            game = (
                game_from_json(stripped) if stripped.startswith("{") else game_from_text(stripped)
            )
        except InvalidRecordError:
            raise
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            # The core's parsers should raise InvalidRecordError for every bad record;
            # anything else still means "this record cannot be read", never a 500.
            raise InvalidRecordError(
                f"cannot read the record ({type(exc).__name__}: {quote(str(exc))})"
            ) from None
        players: dict[Color, Player] = {
            "x": Player("human", game.x_name[:40] or "X"),
            "o": Player("human", game.o_name[:40] or "O"),
        }
        return self._add(game, players, 5.0, new_seats(caller, ["x", "o"])[0])

    def get(self, game_id: str) -> GameSession:
        """The session of ``game_id``, loading it from the store after a restart."""
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                return session
            stored = self.store.load(game_id) if _plausible_id(game_id) else None
            if stored is None:
                raise GameNotFound(
                    f"no game with id {quote(game_id)}; list games with GET /api/games",
                    code="game_not_found",
                    params={"game": game_id[:40]},
                )
            if stored.damaged is not None:
                log.error("stored game %s is damaged: %s", game_id, stored.damaged)
                raise GameNotFound(f"game {game_id!r} is stored but damaged: {stored.damaged}")
            try:
                session = saving.restore(
                    stored.id,
                    stored.created,
                    stored.record,
                    stored.meta,
                    self._save,
                    self.grace,
                    self.slots,
                )
            except (InvalidRecordError, KeyError, TypeError, ValueError, RecursionError) as exc:
                log.error("stored game %s is damaged: %s", game_id, exc)
                raise GameNotFound(
                    f"game {game_id!r} is stored but damaged: {quote(str(exc))}"
                ) from None
            self._sessions[game_id] = session
            return session

    def summaries(self, caller: Caller) -> list[GameSummary]:
        """The stored games ``caller`` created or holds a seat in (and games from before
        seats existed), most recently changed first; a damaged one says so, and is
        listed only to the browser that created it."""
        out = []
        for stored in self.store.all(mentioning=caller.client):
            record, meta = stored.record, stored.meta
            try:
                if stored.damaged is not None:
                    raise ValueError(stored.damaged)
                seats = Seats.from_dict(meta.get("seats"))
                if not seats.knows(Caller(caller.client)):
                    continue
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
                        players={c: Player.from_dict(meta["players"][c]).info() for c in COLORS},
                        seats=seats.seats_of(Caller(caller.client)),
                    )
                )
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                log.error("stored game %s is damaged: %s", stored.id, exc)
                if stored.owned_by(caller.client):  # only its creator sees (and deletes) it
                    out.append(_damaged_summary(stored.id, stored.updated))
        return out

    def hint(self, game_id: str, caller: Caller, clients: tuple[str, ...] = ()) -> Hint:
        """A hint for the person to move in ``game_id``, from the shared hint bots.

        At most ``limits.hints`` hints run at once, ``limits.hints_per_game`` per
        game; beyond that :class:`TooMany` (429), so no request queues for a thread.
        Its search is charged to ``clients`` (:attr:`engine`: 429 once they used their
        budget) and waits for its core in the fair queue.
        """
        session = self.get(game_id)
        self.engine.check(clients, "hints")
        with self._lock:
            if self._hinting.get(game_id, 0) >= self.limits.hints_per_game:
                raise TooMany(
                    "a hint for this game is being computed; wait for it", code="hint_busy"
                )
            if sum(self._hinting.values()) >= self.limits.hints:
                raise TooMany(
                    "the server is computing too many hints now; try again shortly",
                    code="server_busy",
                )
            self._hinting[game_id] = self._hinting.get(game_id, 0) + 1
        ticket = self.engine.enter(clients, "hint")
        try:
            while not ticket.wait(QUEUE_POLL):
                pass
            with ticket.measured():  # the CPU it used is charged
                return commands.hint(session, self.hints, caller)
        finally:
            ticket.done()
            with self._lock:
                self._hinting[game_id] -= 1
                if not self._hinting[game_id]:
                    del self._hinting[game_id]

    def _check_bot_capacity(self, players: dict[Color, Player], clients: tuple[str, ...]) -> None:
        """Refuse (429) a new game with a bot while its ``clients`` used their CPU
        budget (``cpu_budget``: their bots would only wait behind everyone else's work),
        every bot slot is taken, or they hold their share of the slots (``bot_slots``; a
        game reopened then waits for a slot instead; see :class:`BotSlots`). Their share
        of the search tables is checked as the game is made (:meth:`_charge_tables`)."""
        if not any(p.is_bot for p in players.values()):
            return
        self.engine.check(clients, "games with bots")
        problem = self.slots.room_for(clients)
        if problem is not None:
            raise TooMany(problem, code="bot_slots")

    def delete(self, game_id: str, caller: Caller) -> None:
        """Stop the game and remove it (its creator only: 403 otherwise); a damaged stored
        game is removed too, by its creator alone."""
        try:
            session = self.get(game_id)
            with session.lock:
                if not (session.seats.open or session.seats.owner == caller.client):
                    raise Forbidden("only the game's creator may delete it")
        except GameNotFound:
            stored = self.store.load(game_id) if _plausible_id(game_id) else None
            if stored is None:
                raise
            if not stored.owned_by(caller.client):
                raise Forbidden("only the game's creator may delete it") from None
            self.store.delete(game_id)
            return
        with self._lock:
            self._sessions.pop(game_id, None)
        session.close("This game was deleted.", code="game_deleted")
        self.slots.forget(game_id)
        self.tables.give(game_id)
        self.store.delete(game_id)

    def close(self) -> None:
        """Stop every bot and close the hint bots (server shutdown); the games stay stored."""
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close()
        self.hints.close()


def _start(settings: NewGame) -> Position:
    """The start of a new game: the standard start of its settings, or its ``start``
    position text (checked as the analysis board checks positions: a reachable position
    with plies left), whose size and plies left are the game's."""
    if settings.start is None:
        return Position.start(settings.rows, settings.cols, settings.rounds, settings.first)
    position = Position.from_fen(settings.start)
    check_analysable(position)
    return position


def _damaged_summary(game_id: str, updated: float) -> GameSummary:
    """The list entry of a stored game that cannot be read (it can still be deleted)."""
    return GameSummary(
        id=game_id,
        x="?",
        o="?",
        mode="unknown",
        rows=0,
        cols=0,
        rounds=0,
        plies=0,
        status="damaged",
        result=None,
        score=[0, 0],
        updated=updated,
    )


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 64 and game_id.isalnum()
