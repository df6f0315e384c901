"""The games in play on a league server: starting them, asking for moves, the clocks,
ending them and storing their results.

:class:`Games` is one part the hall (:class:`~adjacency.league.play.hall.Hall`) holds: it
knows games, not who is connected (:mod:`.presence`, whose connections it posts
messages to), who may ask what of a game (:mod:`.player_actions` checks the members'
requests, then plays them here) or who plays whom (:mod:`.scheduler`,
:mod:`.challenge_desk`); it calls its :attr:`Games.ended` listeners when a game ends, so
the scheduler can pair its players again.

Contract, in the server's event loop (one thread, no locks):

* every change of a game in play (a move, an illegal answer, a flag, a forfeit, a
  resignation, an abort, the server's abandonment) is a transition of the round room
  (:mod:`adjacency.round`), taken into the game's record and clock (:meth:`Games._take`);
  the league words the ends in its own details;
* each side's kind of player (:attr:`.live.LiveGame.kinds`) decides what its seat
  means, by the round room's rules (:mod:`adjacency.round.player_kinds`): the server plays
  house bots and hosted sides (a team's accepted version) itself
  (:mod:`.server_sides`), and only the server moves for them (a client of the same team
  is refused); the others are asked and their clock runs from the moment they are
  (:meth:`Games._ask`), a hosted side's once its move may compute; a timer ends the game
  on time when the clock runs out, whoever is connected;
* every callback that arrives late (a timer, a house move) checks the game's
  ``version`` and changes nothing when the game moved on or ended;
* a game's end, its record and both new ratings are one store transaction
  (:meth:`Games._finish`); both players are told (``game_end``);
* the moves of games in play are written every :data:`PROGRESS_EVERY` seconds
  (:meth:`Games.save_progress`), so an aborted game keeps them, even after a crash;
* no player is told a result that was not stored: when the store refuses the write
  (a full disk), the game is reported aborted instead and the league is *degraded*
  (:mod:`..http.write_health`) until writes work again.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Literal

from ...core import COLORS, stand_ins
from ...core.details import Detail
from ...core.fen import Color
from ...core.game import Game, Termination
from ...core.position import other
from ...core.record import game_to_text
from ...hosting.move_clock import ceiling
from ...round import finish, moves
from ...round.clock import Clock
from ...round.player_kinds import Kind
from ...round.recent import RecentlyEnded
from ...round.state import Ended, Happening, Moved, Round, Step
from ...sandbox.accounting import server_delay
from ...serving.details import ended
from ...serving.errors import NotNow
from ...serving.logs import say
from ..events.event_store import ABSENCES, clock_text
from ..http.write_health import WriteHealth
from ..league_file import LeagueStore, Member
from ..pairing import key
from ..rules import LeagueRules
from ..settings import LeagueSettings
from .hosted import HostedPlayers
from .house import HousePlayers
from .live import (
    LiveGame,
    answer_details,
    end_line,
    game_end,
    game_start,
    seat_kind,
    start_line,
    state,
    unsaved,
    your_turn,
)
from .live_ratings import LiveRatings
from .presence import Presence
from .replays import Replays
from .server_sides import OVERRUN, ServerSides

log = logging.getLogger(__name__)

PROGRESS_EVERY = 1.0
"""Seconds between writes of the games in play's moves (a crash loses at most these)."""


def loop_waits() -> float:
    """The seconds the calling thread (the server's event loop) has waited for a CPU so
    far, as the kernel counts them (:func:`~adjacency.sandbox.accounting.server_delay`;
    0 where they cannot be read)."""
    return server_delay([threading.get_native_id()])


class Games:
    """The live games of one league server and their lifecycle."""

    def __init__(
        self,
        store: LeagueStore,
        house: HousePlayers,
        presence: Presence,
        pause: float = 0.0,
        pace: float = 0.0,
        hosted: HostedPlayers | None = None,
    ) -> None:
        self.store = store
        self.house = house
        self.presence = presence
        """Who is there (:mod:`.presence`): the games post to its connections."""
        self.hosted = HostedPlayers(None) if hosted is None else hosted
        """The hosted sides of the games in play (:mod:`.hosted`)."""
        self.replays = Replays(legs=store.games.starved_legs())
        """The pairs whose games the machine starved: backed off, a second starved game
        of a leg decided, counted from the store's at the start (:mod:`.replays`)."""
        self.sides = ServerSides(self, store, house, self.hosted)
        """Computes the moves of the house and hosted sides (:mod:`.server_sides`)."""
        self.stopping = False
        """Set when the server stops (:meth:`~adjacency.league.play.hall.Hall.stop`): no game
        starts any more, so none is left in play behind the abort of the games in flight,
        and no house move asks for a worker while the server shuts down."""
        self.settings: LeagueSettings = store.meta.settings()
        self.rules: LeagueRules = store.meta.rules()
        """Who is rated, and the shortest game of a bot (:mod:`.rules`), read at start."""
        self.pause = pause
        """Seconds a member rests after a game before the scheduler pairs it again (a load
        control: it bounds how many games cheap bots play a minute)."""
        self.pace = pace
        """The house games' pace: the least seconds a move of a game between two house
        bots takes (:meth:`start_game`); 0 plays them at full speed."""
        self.resting: dict[int, float] = {}
        self.live: dict[int, LiveGame] = {}
        self.busy: collections.Counter[int] = collections.Counter()
        self.unrated_pairs: set[int] = set()
        """Pairs whose games change no rating (those of unrated events; set by each pass
        of the scheduler)."""
        self.round_trips: collections.deque[float] = collections.deque(maxlen=100_000)
        self.finished: collections.deque[float] = collections.deque(maxlen=100_000)
        self.changed = 0
        """Bumped whenever a game starts or ends (pages poll it to refresh)."""
        self.loop_waits: Callable[[], float] = loop_waits
        """The server's loop's waits for a CPU so far (:func:`loop_waits`; a test gives
        its own), taken off the connected bots' clocks (:meth:`excuse_loop_waits`)."""
        self.ended: list[Callable[[LiveGame], None]] = []
        """Called with each game that ended, after its players were told (the hall's
        parts that care: the scheduler pairs its players again, the challenge desk
        cools the pair down, the establishment cache forgets them)."""
        self.ratings = LiveRatings(store)
        """Current ratings and games per pair, cached (:mod:`.live_ratings`)."""
        self.stopped = RecentlyEnded()
        """The latest games the server stopped (:meth:`stop_game`; :mod:`adjacency.round.recent`):
        a bot's move for one, sent before it heard of the stop, is dropped, not refused."""
        self.writes = WriteHealth(store)
        """Whether the store takes writes (:mod:`..http.write_health`): a game whose end it
        refused is reported aborted and kept there."""

    def abort_all(self, reason: Detail) -> None:
        """End every game in play as aborted (unrated, kept in the store), telling both
        sides, and cancel the house moves being computed."""
        self.sides.cancel()
        for live in list(self.live.values()):  # the moves so far are kept with the game
            self.stop_game(live, reason)

    async def save_progress(self) -> None:
        """Write the moves of the games in play (in a worker thread, one transaction), so
        a game aborted by a crash keeps them; called every :data:`PROGRESS_EVERY` s."""
        changed = unsaved(self.live.values())
        if changed:
            await asyncio.to_thread(self.store.games.save_progress, changed)

    def slots(self, member: Member) -> int:
        """Games ``member`` may start now: its concurrency cap minus its games in play;
        0 when it is revoked, resting, or a bot that is not connected or is leaving (house
        bots and hosted bots always are; people are free while they ask)."""
        if member.revoked or self.resting.get(member.id, 0.0) > time.monotonic():
            return 0
        outbox = self.presence.connections.get(member.id)
        kind = seat_kind(member, member.id in self.presence.hosted_now)
        if kind.needs_connection and (outbox is None or outbox.leaving):
            return 0
        return max(0, member.concurrency - self.busy[member.id])

    def is_free(self, member: Member) -> bool:
        """Whether ``member`` can start a game now (:meth:`slots` is not 0)."""
        return self.slots(member) > 0

    def resend(self, member_id: int) -> None:
        """Send a member that (re)connected each of its games in play (and ask for its
        move where it is due)."""
        for live in self.live.values():
            if live.color_of(member_id) is not None:
                self._announce(live, member_id)

    def start_game(
        self,
        x: Member,
        o: Member,
        opening: int,
        pair_id: int | None = None,
        leg: int = 0,
        own_clock: tuple[float, float] | None = None,
        pace: float | None = None,
        absent: Color | Literal["both"] | None = None,
        event: int | None = None,
    ) -> LiveGame:
        """Start a game now (both members must be free); the first side is asked at once.
        It is played on ``own_clock`` (``(base, increment)`` seconds: an event's own
        clock, in its record's ``TimeControl`` tag and the players' ``game_start``) or,
        ``None``, on the league's. ``pace``: the least seconds each bot's move takes,
        house or connected (people are never held); ``None``: the house games' pace
        (:attr:`pace`) when both are house bots, else none. ``absent``: the side whose
        bot is not there when the game is to start (an event's): the game ends at once
        as its loss (time forfeit, detail ``absent``; a person's, whose play page was not
        open: ``absent-page-closed``), nobody is asked for a move, and it is stored
        unrated (a forfeit: nobody's code or play made a move);
        ``"both"``: neither is there, the game ends at once as a loss for both
        (:meth:`.store.game_rows.GamesRepo.lose_both`, detail ``absent-both``).
        A team with an accepted version plays it here as a hosted side (:mod:`.hosted`;
        in ``event``'s game the version accepted before its deadline), recorded with the
        game. :class:`NotNow` once the server is stopping."""
        if self.stopping:
            raise NotNow("the server is stopping")
        if x.id == o.id:
            raise NotNow("a member cannot play itself")
        start = self.settings.opening(opening)
        game_id = self.store.games.start_game(x.id, o.id, start.fen(), pair_id, leg)
        settings = self.settings
        game = Game(start, x.name, o.name, event=f"Adjacency league game {game_id}")
        game.tags["TimeControl"] = settings.time_control
        game.tags["Opening"] = str(opening + 1)
        move_time = settings.move_time
        if own_clock is not None:
            game.tags["TimeControl"] = clock_text(own_clock)
            clock = Clock(*own_clock)
            move_time = None
        elif settings.move_time is not None:
            clock = Clock(settings.move_time, 0.0)
        else:
            clock = Clock(settings.base, settings.increment)
        live = LiveGame(game_id, x, o, game, clock, pair_id, leg, move_time)
        self.sides.seat(live, event)
        if pace is None:
            pace = self.pace if live.kind("x") is live.kind("o") is Kind.HOUSE else 0.0
        live.pace = {c: pace if live.kind(c).paced else 0.0 for c in COLORS}
        self.live[game_id] = live
        self.ratings.between()[key(x.id, o.id)] += 1
        self.busy[x.id] += 1
        self.busy[o.id] += 1
        self.changed += 1
        code, params = start_line(live)
        say(log, logging.INFO, code, **params)
        for member in (x, o):
            self._announce(live, member.id, turn=False)
        if absent == "both":
            live.game.abandon(ended("absent-both", x=x.name, o=o.name))
            self.store.games.lose_both(live.id, live.game.detail, game_to_text(live.game))
            self._end(live)
            return live
        if absent is not None:
            gone = live.member(absent)
            # A bot was not connected; a person's play page was not open.
            code = "absent-page-closed" if gone.kind == "person" else "absent"
            live.game.forfeit(absent, Termination.TIME_FORFEIT, ended(code, player=gone.name))
            self._finish(live)
            return live
        self._ask(live)
        return live

    def _announce(self, live: LiveGame, member_id: int, turn: bool = True) -> None:
        """Tell a connected member about a game it plays (and ask for its move if due);
        a hosted side's client is told nothing (the server plays it)."""
        outbox = self.presence.connections.get(member_id)
        color = live.color_of(member_id)
        if outbox is None or color is None or live.kind(color).server_plays:
            return
        opponent = live.member(other(color))
        outbox.post(game_start(live, color, opponent.name, live.game.tags["TimeControl"]))
        if turn and live.game.position.turn == color and not live.game.is_over:
            outbox.post(your_turn(live))

    def _ask(self, live: LiveGame) -> None:
        """Start the side to move's clock and ask it for its move: a side the server plays
        computes it (:mod:`.server_sides`; a hosted side's clock starts once its move may
        compute), a connected bot is sent ``your_turn``."""
        color = live.game.position.turn
        live.asked = time.monotonic()
        live.version += 1
        kind = live.kind(color)
        if kind is Kind.HOSTED:
            self.sides.play_hosted(live)
            return
        live.clock.start(color)
        if kind is Kind.CONNECTED:  # the base of the loop's waits its clock loses
            live.loop_waited = self.loop_waits()
        flag = max(0.0, live.clock.left(color))
        if kind.server_plays:
            # A house bot's move computes from now, its clock with it; it is charged its
            # worker's CPU once the move is in, so its flag here is only a backstop.
            self._flag_at(live, ceiling(flag) + OVERRUN)
            self.sides.play_house(live)
            return
        self._flag_at(live, flag)
        outbox = self.presence.connections.get(live.member(color).id)
        if outbox is not None:
            outbox.post(your_turn(live))

    def _flag_at(self, live: LiveGame, seconds: float) -> None:
        """Flag the side to move of ``live`` in ``seconds`` unless its move comes first."""
        live.timer = asyncio.get_running_loop().call_later(
            seconds, self._flag, live.id, live.version
        )

    def stop_game(self, live: LiveGame, reason: Detail) -> None:
        """End the game in play ``live`` as aborted (no result: the server's own failure,
        or an event starting for its players), kept in the store with its moves so far
        (a pair's leg is played again), telling both sides."""
        self.stopped.add(live.id)
        self._take(live, finish.abandon(self._round(live), reason, time.monotonic()))
        self._store_aborted(live)

    def arrive(self, live: LiveGame, square: object) -> None:
        """A bot's move is in: played now, or, sooner than its side's pace after it was
        asked, held until then. The clock stops as the move comes in (the bot is charged
        its thinking, not the wait) and the move is played at the pace, or not at all if
        the game ended meanwhile."""
        color = live.game.position.turn
        self.excuse_loop_waits(live)
        now = time.monotonic()
        wait = live.pace[color] - (now - live.asked)
        if wait <= 0:
            self._play(live, square)
            return
        if live.timer is not None:
            live.timer.cancel()
        thought = now - live.clock.since
        live.clock.stop(now)
        live.held = True
        version = live.version
        loop = asyncio.get_running_loop()
        loop.call_later(wait, self._release, live, version, square, thought)

    def excuse_loop_waits(self, live: LiveGame) -> None:
        """Take off the running clock of a connected bot the seconds the server's loop
        waited for a CPU since it was asked, or since they were last taken off: its move
        was read, and its flag is looked at, by that loop, so on a loaded machine the move
        that came in was read late by the server, not made late by the bot. A side the
        server plays (a house bot, a hosted program) has its own accounting, and a
        person's clock is the one the play server keeps too (the two servers' clocks of a
        person's game agree); theirs are left alone."""
        color = live.game.position.turn
        if live.clock.running != color or live.kind(color) is not Kind.CONNECTED:
            return
        waits = self.loop_waits()
        excused = max(0.0, waits - live.loop_waited)
        live.loop_waited = waits
        if excused > 0.0:
            now = time.monotonic()
            live.clock.charge(color, max(0.0, now - live.clock.since - excused), now)

    def _release(self, live: LiveGame, version: int, square: object, thought: float) -> None:
        """Play a move held for the pace (:meth:`arrive`), unless the game moved on."""
        if not self.current(live, version):
            return
        live.held = False
        self._play(live, square, thought)

    def current(self, live: LiveGame, version: int) -> bool:
        """Whether ``live`` is still in play and has not moved on since ``version`` (a
        late callback, a timer or a computed move, then changes nothing)."""
        return self.live.get(live.id) is live and live.version == version

    def _flag(self, game_id: int, version: int) -> None:
        """The side to move's time is up (timer callback)."""
        live = self.live.get(game_id)
        if live is None or live.version != version or live.game.is_over:
            return
        color = live.game.position.turn
        self.excuse_loop_waits(live)
        left = live.clock.left(color)
        if left > 0:  # the timer fired early, or the loop's waits were taken off: look again
            self._flag_at(live, left)
            return
        self.lose_on_time(live, time.monotonic(), self.presence.time_loss(live.member(color)))

    def lose_on_time(self, live: LiveGame, now: float, detail: Detail) -> None:
        """The side to move's time is up at ``now``: it loses on time with ``detail`` (the
        round decides: :func:`adjacency.round.moves.flag`) and the game is stored."""
        if _ends(self._take(live, moves.flag(self._round(live), now, detail))):
            self._finish(live)

    def end_by_resignation(self, live: LiveGame, color: Color, detail: Detail) -> None:
        """``color`` resigns ``live`` (its thinking so far charged): the opponent wins by
        resignation, stored and rated as any finished game."""
        self.spend_clock(live)
        self._take(live, finish.resign(self._round(live), color, detail, time.monotonic()))
        self._finish(live)

    def end_by_abort(self, live: LiveGame, color: Color, detail: Detail) -> None:
        """``color`` aborts ``live`` (its thinking so far charged): stored as aborted (no
        result, unrated, not counted anywhere), both sides told."""
        self.spend_clock(live)
        self._take(live, finish.abort(self._round(live), color, detail, time.monotonic()))
        self._store_aborted(live)

    def _store_aborted(self, live: LiveGame) -> None:
        """Store the aborted ``live`` (no result) with its moves so far and its detail,
        then end it, telling both sides (whether or not the store took it)."""
        game = live.game
        try:
            self.store.games.abort_game(live.id, game.detail, game_to_text(game), len(game.moves))
        except Exception:  # a failing store must not keep the players from hearing it
            log.exception("could not store aborted game %d", live.id)
        live.clock.stop()
        self._end(live)

    def spend_clock(self, live: LiveGame) -> None:
        """Charge the side to move for the time it has thought so far (a resign or an
        abort ends its turn)."""
        color = live.game.position.turn
        live.used[color] += time.monotonic() - live.clock.since

    def _play(self, live: LiveGame, square: object, thought: float | None = None) -> None:
        """Play the side to move's answer ``square``. ``thought``: the seconds it thought,
        for a move held for the pace (its clock was stopped as the move came in)."""
        color = live.game.position.turn
        mover = live.member(color)
        now = time.monotonic()
        spent = now - live.clock.since
        if thought is not None:
            spent = thought
            live.clock.start(color, now)  # charged already: the held time is not its
        if live.timer is not None:
            live.timer.cancel()
        late, not_a_square, refusal = answer_details(mover.name)
        step = moves.answer(self._round(live), square, now, spent, late, not_a_square, refusal)
        live.used[color] += spent
        happened = self._take(live, step)
        if live.stand_in and any(isinstance(h, Moved) for h in happened):
            stand_ins.mark(live.game, len(live.game.moves))  # its client said: not its bot's own
        live.stand_in = False
        if _ends(happened):  # lost on time, by an illegal answer, or the move ended it
            self._finish(live)
            return
        if live.move_time is not None:
            live.clock.remaining[color] = live.move_time
        self._ask(live)

    def forfeit(self, live: LiveGame, termination: Termination, detail: str | Detail) -> None:
        """The side to move loses with ``termination`` (a house bot's crash, a bot's own
        failure), then the game is stored."""
        words = Detail(detail) if isinstance(detail, str) else detail
        turn = live.game.position.turn
        self._take(
            live, finish.forfeit(self._round(live), turn, termination, words, time.monotonic())
        )
        self._finish(live)

    def _round(self, live: LiveGame) -> Round:
        """The game in play as the round room's value."""
        return Round.of(live.game, live.clock.value())

    def _take(self, live: LiveGame, step: Step) -> tuple[Happening, ...]:
        """A transition's new round: the record and the clock become it; what happened
        (:data:`~adjacency.round.state.Happening`) is returned for the caller to act on
        (a game an :class:`~adjacency.round.state.Ended` ended is stored)."""
        after, happened = step
        after.write(live.game)
        if after.clocks is not None:
            live.clock.set(after.clocks)
        return happened

    def _finish(self, live: LiveGame) -> None:
        """Store the ended game and its ratings (one transaction), tell both sides."""
        game = live.game
        live.clock.stop()
        try:
            new_x, new_o = self.store.games.finish_game(
                live.id,
                game.result,
                game.termination.value,
                game.detail,
                game_to_text(game),
                game.position.score,
                len(game.moves),
                (round(live.used["x"], 3), round(live.used["o"], 3)),
                self.rules,
                rated=live.pair_id not in self.unrated_pairs and not _absence(game),
            )
            self.ratings.rated(live.x.id, live.o.id, new_x, new_o)
        except Exception as exc:
            # Nobody is told a result that is not stored: the game is aborted instead
            # (stored as such once writes work again) and the league degraded.
            self.ratings.forget()
            detail = ended("not-stored")
            game.abandon(detail)
            self.writes.unstored[live.id] = (detail, game_to_text(game), len(game.moves))
            self.writes.failed(f"game {live.id}", exc)
        self.finished.append(time.time())
        self._end(live)

    def _end(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
        live.version += 1
        self.live.pop(live.id, None)
        self.hosted.close(live.id)  # its sandboxes end with it
        code, params = end_line(live)
        say(log, logging.INFO, code, **params)
        now = time.monotonic()
        for color in COLORS:
            member = live.member(color)
            # A bot rests for the pause, and at least until the league's shortest game
            # length has passed since this game started (people are never held back).
            until = now + self.pause
            if live.kind(color).paced:
                until = max(until, live.started + self.rules.min_game)
            if until > now:
                self.resting[member.id] = until
            self.busy[member.id] -= 1
            if self.busy[member.id] <= 0:
                del self.busy[member.id]
            outbox = self.presence.connections.get(member.id)
            if outbox is not None:
                outbox.post(game_end(live))
        self.changed += 1
        for listener in self.ended:
            listener(live)

    # ---------------------------------------------------------------- views

    def state(self, live: LiveGame) -> dict[str, Any]:
        """What a page shows of a live game (:func:`.live.state`) with the players' ratings."""
        return {**state(live), "ratings": self.ratings.of(live.x.id, live.o.id)}


def _absence(game: Game) -> bool:
    """Whether ``game`` ended because a side was not there when it was to start (an
    event's forfeit, :data:`~.events.event_store.ABSENCES`): no move was made."""
    return game.detail_code is not None and str(game.detail_code) in ABSENCES


def _ends(happened: tuple[Happening, ...]) -> bool:
    """Whether a transition that did ``happened`` ended its game."""
    return any(isinstance(h, Ended) for h in happened)
