"""The live league: connected members, games in play, clocks and the scheduler.

Everything here runs in the server's event loop (one thread), so the live state
needs no locks; the store is written synchronously (a SQLite transaction per
game start and end, milliseconds) and house moves run in worker processes
(:mod:`.house`).

Rules the hall enforces (docs/league.md says them to players):

* A game's clock is the server's (:class:`adjacency.serving.clock.Clock`): the side to
  move's time runs from the moment the server asks for its move; a move that
  arrives after its time is up, or no move before it is up, loses on time,
  whether the bot is connected or not (a disconnected bot's clock keeps running;
  a bot that reconnects in time is sent the game again and plays on).
* An illegal answer from a bot (occupied, off the board, malformed square) loses
  the game by illegal move; a move in a game the member does not play in, or out
  of turn, is refused and changes nothing.
* A house bot that crashes loses by disconnection, with the error in the record.
* Games come in colour-swapped pairs from one opening (:meth:`Hall.pair`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots import BotFailure
from ..core import Color
from ..core.errors import AdjacencyError
from ..core.game import Game, Termination
from ..core.position import other
from ..core.record import game_to_text
from ..core.text import quote
from ..ratings.glicko import Glicko
from ..serving.clock import SAFETY, Clock, move_budget
from ..serving.errors import Forbidden, GameNotFound, NotNow
from .house import HouseMove, HousePlayers
from .settings import LeagueSettings
from .store import LeagueStore, Member

log = logging.getLogger(__name__)

OUTBOX = 64
"""Messages queued for one connection at most; a client that stops reading past this
is disconnected (its games go on; its clock runs)."""
HOUSE_OVERHEAD = 0.1
"""Seconds a house move keeps in reserve for the executor's dispatch (on top of the
clock's own reserve)."""
MOVE_CAP = 60.0
"""The most a bot is told to think about one move, whatever its clock."""
TICK = 0.25
"""Seconds between scheduler passes when nothing wakes it earlier."""
PAIR_REPEAT = 100.0
"""Rating points one more game between the same two members weighs in the pairing cost."""

PRESENCE = 10.0
"""Seconds a person counts as present after their page last asked ``/me`` (it asks every
few seconds while it is open): only a present person can be challenged by another."""


class InvalidMove(AdjacencyError):
    """A move message whose square is not text (malformed)."""


class Outbox:
    """A connection's side of the hall: messages go out in order through one writer task."""

    def __init__(
        self, member: Member, send: Callable[[dict[str, Any]], Any], token_hash: str = ""
    ) -> None:
        self.member = member
        self.token_hash = token_hash
        """The hash of the token this connection authenticated with ("" for none): a token
        revoked or replaced later (``adjacency league revoke|rotate``) closes it."""
        self._send = send
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX)
        self.closed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._write())

    def post(self, message: dict[str, Any]) -> None:
        """Queue a message; a full queue (the client stopped reading) closes the outbox."""
        if self.closed.is_set():
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Stop sending: messages already queued still go out, later ones are dropped
        (:meth:`post` ignores them). Idempotent."""
        if not self.closed.is_set():
            self.closed.set()
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def _write(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            try:
                await self._send(message)
            except Exception:  # the socket went away: the reader notices and detaches
                self.close()
                return


@dataclass
class LiveGame:
    """A game in play: the record so far, the clock and who plays which side."""

    id: int
    x: Member
    o: Member
    game: Game
    clock: Clock
    pair_id: int | None
    leg: int
    move_time: float | None
    used: dict[str, float] = field(default_factory=lambda: {"x": 0.0, "o": 0.0})
    timer: asyncio.TimerHandle | None = None
    asked: float = 0.0
    """When the side to move was asked (``time.monotonic``)."""
    version: int = 0

    def member(self, color: Color) -> Member:
        """The member playing ``color``."""
        return self.x if color == "x" else self.o

    def color_of(self, member_id: int) -> Color | None:
        """The colour the member ``member_id`` plays here, or ``None`` if it does not play."""
        if member_id == self.x.id:
            return "x"
        if member_id == self.o.id:
            return "o"
        return None

    def budget(self) -> float:
        """Seconds the side to move should think (what it is told in ``your_turn``)."""
        position = self.game.position
        left = self.clock.left(position.turn)
        if self.move_time is not None:
            return max(0.05, min(MOVE_CAP, left - SAFETY))
        return move_budget(left, self.clock.increment, position.plies_left, MOVE_CAP)


class Hall:
    """Connected members, live games and the scheduler of one league server."""

    def __init__(
        self,
        store: LeagueStore,
        house: HousePlayers,
        tick: float = TICK,
        house_games: bool = True,
        pause: float = 0.0,
    ) -> None:
        self.store = store
        self.house_games = house_games
        """Whether house bots play each other (off: they only play remote bots and people)."""
        self.pause = pause
        """Seconds a member rests after a game before the scheduler pairs it again (a load
        control: it bounds how many games cheap bots play a minute)."""
        self.resting: dict[int, float] = {}
        self.settings: LeagueSettings = store.settings()
        self.house = house
        self.tick = tick
        self.live: dict[int, LiveGame] = {}
        self.connections: dict[int, Outbox] = {}
        self.seen: dict[int, float] = {}
        """When each person's page last asked ``/me`` (monotonic): their presence."""
        self.busy: collections.Counter[int] = collections.Counter()
        self.round_trips: collections.deque[float] = collections.deque(maxlen=100_000)
        self.finished: collections.deque[float] = collections.deque(maxlen=100_000)
        self.changed = 0
        """Bumped whenever a game starts or ends (pages poll it to refresh)."""
        self._rating_cache: dict[int, Glicko] | None = None
        self._between_cache: collections.Counter[tuple[int, int]] | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._house_tasks: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------- lifetime

    async def start(self) -> None:
        """Abort games left in flight by a crash, start the house bots' worker (if the
        league has house bots) and the scheduler."""
        aborted = self.store.abort_in_flight()
        if aborted:
            log.warning("%d games in flight at the last stop were marked aborted", aborted)
        self._wake = asyncio.Event()
        loop = asyncio.get_running_loop()
        house = [m for m in self.store.members() if m.kind == "house" and not m.revoked]
        if house:  # before the first game, so its first house move is not the slow one
            await self.house.warm_up(house[0].spec or "random")
        self._task = loop.create_task(self._schedule_loop())

    async def stop(self) -> None:
        """Stop scheduling; games in play are aborted (unrated) and their players told."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for task in list(self._house_tasks):
            task.cancel()
        for live in list(self.live.values()):
            live.game.abandon("the server stopped")
            self.store.abort_game(live.id, "the server stopped")
            self._end(live)
        for outbox in list(self.connections.values()):
            outbox.close()

    def wake(self) -> None:
        """Run the scheduler's next pass now rather than at its next tick (a member became
        free or was added); does nothing before :meth:`start`."""
        if self._wake is not None:
            self._wake.set()

    # -------------------------------------------------------- connections

    def attach(self, outbox: Outbox) -> None:
        """A member connected: replace its previous connection, resend its games."""
        member = outbox.member
        old = self.connections.get(member.id)
        if old is not None:
            old.post({"type": "error", "detail": "replaced by a new connection"})
            old.close()
        self.connections[member.id] = outbox
        for live in self.live.values():
            if live.color_of(member.id) is not None:
                self._announce(live, member.id)
        self.wake()

    def detach(self, outbox: Outbox) -> None:
        """A connection ended (its games go on; their clocks run)."""
        outbox.close()
        if self.connections.get(outbox.member.id) is outbox:
            del self.connections[outbox.member.id]

    def see(self, person: Member) -> None:
        """Note that ``person``'s page is open now (it asked ``/me``)."""
        self.seen[person.id] = time.monotonic()

    def present(self) -> set[int]:
        """The people whose page asked within :data:`PRESENCE` seconds."""
        now = time.monotonic()
        return {pid for pid, at in self.seen.items() if now - at <= PRESENCE}

    def online(self) -> set[int]:
        """Members that can be challenged now: connected bots and present people."""
        return set(self.connections) | self.present()

    def is_free(self, member: Member) -> bool:
        """Whether ``member`` can start a game now: under its cap, not resting, and a house
        bot, a person (who is asking) or a connected bot."""
        if member.revoked or self.busy[member.id] >= member.concurrency:
            return False
        if self.resting.get(member.id, 0.0) > time.monotonic():
            return False
        return member.kind in ("house", "person") or member.id in self.connections

    # ---------------------------------------------------------- scheduler

    async def _schedule_loop(self) -> None:
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.tick)
            self._wake.clear()
            try:
                self.pair()
            except Exception:  # never let one bad pass stop the league
                log.exception("scheduler pass failed")

    def pair(self) -> list[LiveGame]:
        """Start every game that free members can play now; return them.

        Connections whose token was revoked or replaced meanwhile (``adjacency league
        revoke|rotate`` write the file directly) are closed first. The rule
        (docs/league.md): first the open
        colour-swapped pairs (the second game of a pair, or a game of a pair whose game
        was aborted), oldest first; then new pairs between free members, cheapest first by
        ``|rating difference| + PAIR_REPEAT * games already played between them``,
        each member in one new game per pass, never against itself; a new pair
        takes the league's next opening in turn.
        """
        members = {m.id: m for m in self.store.members() if m.kind != "person"}
        started: list[LiveGame] = []
        hashes = self.store.token_hashes()
        for member_id, outbox in list(self.connections.items()):
            revoked = member_id not in members or members[member_id].revoked
            if revoked or (outbox.token_hash and hashes.get(member_id) != outbox.token_hash):
                outbox.post({"type": "error", "detail": "this token was revoked or replaced"})
                outbox.close()  # revoked or rotated from the command line while connected

        def free(member_id: int) -> bool:
            member = members.get(member_id)
            return member is not None and self.is_free(member)

        for pair_id, a_id, b_id, opening, leg in self.store.open_pairs():
            if a_id != b_id and free(a_id) and free(b_id):
                x, o = (a_id, b_id) if leg == 0 else (b_id, a_id)
                started.append(
                    self.start_game(members[x], members[o], opening, pair_id=pair_id, leg=leg)
                )
        candidates = [m for m in members.values() if self.is_free(m)]
        if len(candidates) < 2:
            return started
        ratings = self._ratings()
        between = self._between()
        costs: list[tuple[float, int, int]] = []
        for i, a in enumerate(candidates):
            for b in candidates[i + 1 :]:
                if a.kind == "house" and b.kind == "house" and not self.house_games:
                    continue
                gap = abs(ratings[a.id].rating - ratings[b.id].rating)
                played = between.get((min(a.id, b.id), max(a.id, b.id)), 0)
                costs.append((gap + PAIR_REPEAT * played, a.id, b.id))
        costs.sort()
        taken: set[int] = set()
        for _, a_id, b_id in costs:
            if a_id in taken or b_id in taken or not (free(a_id) and free(b_id)):
                continue
            taken.update((a_id, b_id))
            opening = self.store.pair_count() % len(self.settings.openings)
            pair_id = self.store.new_pair(a_id, b_id, opening)
            started.append(
                self.start_game(members[a_id], members[b_id], opening, pair_id=pair_id, leg=0)
            )
        return started

    def _ratings(self) -> dict[int, Glicko]:
        """Current ratings: read once, then kept up to date as games end."""
        if self._rating_cache is None:
            self._rating_cache = self.store.ratings()
        return collections.defaultdict(Glicko, self._rating_cache)

    def _between(self) -> collections.Counter[tuple[int, int]]:
        """Games (finished or in play) per pair of member ids, smaller id first."""
        if self._between_cache is None:
            self._between_cache = collections.Counter(self.store.games_between())
        return self._between_cache

    # -------------------------------------------------------------- games

    def start_game(
        self,
        x: Member,
        o: Member,
        opening: int,
        pair_id: int | None = None,
        leg: int = 0,
    ) -> LiveGame:
        """Start a game now (both members must be free); the first side is asked at once."""
        if x.id == o.id:
            raise NotNow("a member cannot play itself")
        start = self.settings.opening(opening)
        game_id = self.store.start_game(x.id, o.id, start.fen(), pair_id, leg)
        settings = self.settings
        game = Game(start, x.name, o.name, event=f"Adjacency league game {game_id}")
        game.tags["TimeControl"] = settings.time_control
        game.tags["Opening"] = str(opening + 1)
        if settings.move_time is not None:
            clock = Clock(settings.move_time, 0.0)
        else:
            clock = Clock(settings.base, settings.increment)
        live = LiveGame(game_id, x, o, game, clock, pair_id, leg, settings.move_time)
        self.live[game_id] = live
        self._between()[(min(x.id, o.id), max(x.id, o.id))] += 1
        self.busy[x.id] += 1
        self.busy[o.id] += 1
        self.changed += 1
        for member in (x, o):
            self._announce(live, member.id, turn=False)
        self._ask(live)
        return live

    def _announce(self, live: LiveGame, member_id: int, turn: bool = True) -> None:
        """Tell a connected member about a game it plays (and ask for its move if due)."""
        outbox = self.connections.get(member_id)
        color = live.color_of(member_id)
        if outbox is None or color is None:
            return
        opponent = live.member(other(color))
        outbox.post(
            {
                "type": "game_start",
                "game": live.id,
                "color": color,
                "opponent": opponent.name,
                "start": live.game.start.fen(),
                "moves": [m.square for m in live.game.moves],
                "time_control": self.settings.time_control,
            }
        )
        if turn and live.game.position.turn == color and not live.game.is_over:
            outbox.post(self._your_turn(live))

    def _your_turn(self, live: LiveGame) -> dict[str, Any]:
        return {
            "type": "your_turn",
            "game": live.id,
            "fen": live.game.position.fen(),
            "ply": len(live.game.moves),
            "clock": {"x": round(live.clock.left("x"), 3), "o": round(live.clock.left("o"), 3)},
            "increment": live.clock.increment,
            "budget": round(live.budget(), 3),
        }

    def _ask(self, live: LiveGame) -> None:
        """Start the side to move's clock and ask it for its move."""
        color = live.game.position.turn
        live.clock.start(color)
        live.asked = time.monotonic()
        live.version += 1
        loop = asyncio.get_running_loop()
        live.timer = loop.call_later(
            max(0.0, live.clock.left(color)), self._flag, live.id, live.version
        )
        mover = live.member(color)
        if mover.kind == "house":
            task = loop.create_task(self._house_move(live, live.version))
            self._house_tasks.add(task)
            task.add_done_callback(self._house_tasks.discard)
            return
        outbox = self.connections.get(mover.id)
        if outbox is not None:
            outbox.post(self._your_turn(live))

    async def _house_move(self, live: LiveGame, version: int) -> None:
        mover = live.member(live.game.position.turn)
        item = HouseMove(
            mover.spec or "random",
            live.id * 1000 + len(live.game.moves),
            live.game.position.fen(),
            max(0.05, live.budget() - HOUSE_OVERHEAD),
        )
        try:
            move = await self.house.choose(item)
        except asyncio.CancelledError:
            raise
        except BotFailure as failure:
            if self._current(live, version):
                self._forfeit(live, failure.termination, failure.detail)
            return
        except Exception as exc:
            if self._current(live, version):
                self._forfeit(
                    live,
                    Termination.DISCONNECTION,
                    f"house bot {mover.name} ({mover.spec}) crashed: {type(exc).__name__}: "
                    f"{quote(str(exc))}",
                )
            return
        if self._current(live, version):
            self._play(live, move)

    def _current(self, live: LiveGame, version: int) -> bool:
        return self.live.get(live.id) is live and live.version == version

    def _flag(self, game_id: int, version: int) -> None:
        """The side to move's time is up (timer callback)."""
        live = self.live.get(game_id)
        if live is None or live.version != version or live.game.is_over:
            return
        color = live.game.position.turn
        left = live.clock.left(color)
        if left > 0:  # the timer fired a little early: look again when it is really up
            live.timer = asyncio.get_running_loop().call_later(left, self._flag, game_id, version)
            return
        mover = live.member(color)
        where = ""
        if mover.kind != "house":
            connected = mover.id in self.connections
            where = " (connected)" if connected else " (not connected)"
        self._forfeit(
            live,
            Termination.TIME_FORFEIT,
            f"{mover.name} did not move within its clock{where}",
        )

    def move(self, member: Member, game_id: int, square: object) -> LiveGame:
        """A member's move in a game. Raises :class:`GameNotFound` (no such game in play),
        :class:`Forbidden` (not the member's game), :class:`NotNow` (not its turn). A
        bot's illegal answer loses the game; a person's is refused with
        :class:`IllegalMoveError` (the page offers legal squares only)."""
        live = self.live.get(game_id)
        if live is None:
            raise GameNotFound(f"game {game_id} is not in play")
        color = live.color_of(member.id)
        if color is None:
            raise Forbidden(f"game {game_id} is not yours: {member.name} does not play in it")
        if live.game.position.turn != color:
            raise NotNow(f"game {game_id}: it is not {member.name}'s turn")
        if not isinstance(square, str) or len(square) > 8:
            raise InvalidMove(f"a move is a square name like 'c3', got {quote(square)}")
        self.round_trips.append(time.monotonic() - live.asked)
        if member.kind == "person":
            live.game.position.play(square)  # IllegalMoveError (400): nothing changes
        self._play(live, square)
        return live

    def _play(self, live: LiveGame, square: str) -> None:
        color = live.game.position.turn
        mover = live.member(color)
        now = time.monotonic()
        spent = now - live.clock.since
        if live.timer is not None:
            live.timer.cancel()
        in_time = live.clock.moved(color, now)
        live.used[color] += spent
        if not in_time:
            self._forfeit(
                live, Termination.TIME_FORFEIT, f"{mover.name} moved after its time was up"
            )
            return
        try:
            live.game.play(square, spent)
        except AdjacencyError as exc:  # occupied, off the board, not a square name
            self._forfeit(live, Termination.ILLEGAL_MOVE, f"{mover.name} answered: {exc}")
            return
        if live.move_time is not None:
            live.clock.remaining[color] = live.move_time
        if live.game.is_over:
            self._finish(live)
        else:
            self._ask(live)

    def _forfeit(self, live: LiveGame, termination: Termination, detail: str) -> None:
        live.game.forfeit(live.game.position.turn, termination, detail)
        self._finish(live)

    def _finish(self, live: LiveGame) -> None:
        """Store the ended game and its ratings (one transaction), tell both sides."""
        game = live.game
        live.clock.stop()
        try:
            new_x, new_o = self.store.finish_game(
                live.id,
                game.result,
                game.termination.value,
                game.termination_detail,
                game_to_text(game),
                game.position.score,
                len(game.moves),
                (round(live.used["x"], 3), round(live.used["o"], 3)),
            )
            if self._rating_cache is not None:
                self._rating_cache[live.x.id] = new_x
                self._rating_cache[live.o.id] = new_o
        except Exception:
            log.exception("could not store game %d", live.id)
            self._rating_cache = None
        self.finished.append(time.time())
        self._end(live)

    def _end(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
        live.version += 1
        self.live.pop(live.id, None)
        for member in (live.x, live.o):
            if self.pause > 0:
                self.resting[member.id] = time.monotonic() + self.pause
            self.busy[member.id] -= 1
            if self.busy[member.id] <= 0:
                del self.busy[member.id]
            outbox = self.connections.get(member.id)
            if outbox is not None:
                outbox.post(
                    {
                        "type": "game_end",
                        "game": live.id,
                        "result": live.game.result,
                        "termination": live.game.termination.value,
                        "detail": live.game.termination_detail,
                    }
                )
        self.changed += 1
        self.wake()

    # ---------------------------------------------------------------- views

    def state(self, live: LiveGame) -> dict[str, Any]:
        """What a page shows of a live game (cells in a1, b1, ... order)."""
        position = live.game.position
        return {
            "id": live.id,
            "status": "playing",
            "x": live.x.name,
            "o": live.o.name,
            "rows": position.rows,
            "cols": position.cols,
            "start": live.game.start.fen(),
            "fen": position.fen(),
            "turn": position.turn,
            "moves": [m.square for m in live.game.moves],
            "score": list(position.score),
            "clock": {"x": round(live.clock.left("x"), 2), "o": round(live.clock.left("o"), 2)},
            "result": None,
            "termination": None,
            "detail": "",
        }
