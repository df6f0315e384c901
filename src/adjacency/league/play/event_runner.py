"""Running events in the league: what the hall's scheduler plays for them each pass.

:meth:`EventRunner.plan` is called at the start of every scheduler pass
(:meth:`adjacency.league.play.scheduler.Scheduler.pair`); it

1. starts the scheduled events whose start time has come (an ``all_connected`` event
   takes the bots connected then and the house bots, in the order they joined the
   league; while it cannot start, too few of them, it logs the reason once per change
   and notes it for ``event show``: :meth:`.events.event_progress.EventProgress.set_waiting`);
2. for each running event, when its current round is complete (every board's pair
   has played both games; byes and boards of withdrawn members count as complete),
   stores the next round's boards (:mod:`.events.event_pairing`: the round robin's next round,
   or a Swiss round from the scores so far), or, after the last round, finishes the
   event (exactly once: :meth:`.events.event_progress.EventProgress.finish`);
3. returns the games to start now: the next leg of every pair of the current round
   with no game in play, whether its members are connected or not (the hall ends the
   game of a team whose bot is not there, or of a person whose play page is not open, at
   once as its loss, both sides' as a loss for both), and the members and pairs the
   ladder must leave alone (:func:`off_the_ladder`).

Events come first. While an event has a round to play, its teams, withdrawn ones too,
play no ladder game (the scheduler stops those in play: a ladder game must not hold a
team, nor the machine's slot its event's board needs) until the event is over; the
teacher may let an event's teams play the ladder meanwhile
(:attr:`.events.event_rows.Event.ladder`): then a team whose games of the round are
over, and a withdrawn team, play it, and a team with a game of the round still to play
does not.

A team whose bot missed its last :data:`.events.event_standings.ABSENT_PAUSE` games of the
event and is still not connected is paused: a Swiss round pairs it with nobody (no game,
no bye, no points) until its bot is back; a round robin's schedule is fixed, so its
games there go on being forfeits at once. :meth:`EventRunner.paused_members` names them.

A paused event (:meth:`.events.event_progress.EventProgress.pause`) is skipped in steps 2 and 3: no
round is paired, finished or started for it until it is resumed, and then it goes on
from the round it was in. Its members stay out of the ladder meanwhile, ready for it.

Crash safety comes from the league's store: a game in flight at a ``kill -9`` is
aborted when the server starts again (:meth:`.store.game_rows.GamesRepo.abort_in_flight`), its
pair's finished count did not move, so the same leg is planned again here.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...serving.logs import say
from ..events.event_pairing import Board, round_robin, swiss_players, swiss_round
from ..events.event_standings import BYE_POINTS
from ..events.event_store import Event, StoredBoard
from ..league_file import LeagueError, LeagueStore

log = logging.getLogger(__name__)

PairState = dict[int, tuple[int, bool, int]]
"""Per league pair of an event: ``(finished games, a game in play, opening)``
(:meth:`.events.event_boards.EventBoards.pair_state`)."""


@dataclass(frozen=True)
class EventStart:
    """A game of an event to start: leg ``leg`` of pair ``pair`` (``x`` against ``o``)."""

    event: int
    x: int
    o: int
    opening: int
    pair: int
    leg: int
    clock: tuple[float, float] | None = None
    """The event's own clock, ``(base, increment)``, or ``None``: the league's."""
    pace: float | None = None
    """The event's own pace (seconds a bot's move), or ``None``: the server's."""


@dataclass
class EventPass:
    """What one pass gives the hall."""

    starts: list[EventStart] = field(default_factory=list)
    members: set[int] = field(default_factory=set)
    """Members of running events the ladder leaves alone (:func:`off_the_ladder`): it
    pairs them with nobody, and their games outside the event are stopped."""
    pairs: set[int] = field(default_factory=set)
    """Every pair that belongs to an event: the ladder never plays it."""
    unrated: set[int] = field(default_factory=set)
    """The pairs of unrated events: their games change no rating."""
    finished: list[str] = field(default_factory=list)
    """Events this pass finished."""


def off_the_ladder(
    ladder: bool, members: Iterable[int], withdrawn: set[int], to_play: set[int]
) -> set[int]:
    """The members of a running event the ladder leaves alone: every one of its
    ``members``, ``withdrawn`` ones too, unless the teacher let its teams play the
    ladder meanwhile (``ladder``: :attr:`.events.event_rows.Event.ladder`); then only
    those with a game of the current round still ``to_play`` (not withdrawn)."""
    if not ladder:
        return set(members)
    return to_play - withdrawn


def _board_over(board: StoredBoard, state: PairState, withdrawn: set[int]) -> bool:
    """Whether a board of the current round has nothing left to play: a bye, both its
    games played, or a withdrawn member (its games are forfeits); a game in play is not
    over."""
    if board.pair_id is None:
        return True
    finished, playing, _ = state[board.pair_id]
    if playing:
        return False
    return finished >= 2 or board.a in withdrawn or (board.b is not None and board.b in withdrawn)


class EventRunner:
    """Plays the events of one league (see the module's rules)."""

    def __init__(self, store: LeagueStore) -> None:
        self.store = store
        self.events = store.events
        self.openings = len(store.meta.settings().openings)
        self.waiting: dict[int, str] = {}
        """Why each event waits to start, as last logged (logged again only on a change)."""
        self.paused: set[int] = set()
        """The running events last seen paused (a pause or resume is logged once)."""

    def plan(
        self, connected: set[int], now: float | None = None, people: set[int] | None = None
    ) -> EventPass:
        """This pass's event games and the members and pairs the ladder leaves alone;
        ``connected``: the bots connected now; ``people``: the people whose play page is
        open now (there for the absence rules, as a connected bot is; never taken into
        an event of every connected bot)."""
        now = time.time() if now is None else now
        result = EventPass(pairs=self.events.event_pairs())
        for event in self.events.events():
            if event.status == "scheduled" and event.start is not None and event.start <= now:
                everyone = connected | set(self.events.house_bots())
                kept_out = self.store.members.kept_out()  # taken into no event
                bots = sorted(everyone - kept_out) if event.all_connected else []
                try:
                    event = self.events.start(event.name, bots, now)
                except LeagueError as exc:
                    self._wait(event, str(exc))
                    continue
                self.waiting.pop(event.id, None)
                say(log, logging.INFO, "event-started-on-time", event=event.name)
            if event.status == "running" and event.paused != (event.id in self.paused):
                self.paused ^= {event.id}
                code = "event-paused" if event.paused else "event-resumed"
                say(log, logging.INFO, code, event=event.name)
            if event.status != "running" or event.paused:
                continue
            self._advance(event, result, connected | (people or set()))
        result.pairs = self.events.event_pairs()
        for event in self.events.events():
            if event.status == "running":
                result.members |= self._off_the_ladder(event)
        result.unrated = self.events.unrated_pairs()
        return result

    def _wait(self, event: Event, reason: str) -> None:
        """Log and note why ``event`` cannot start, only when the reason changed."""
        if self.waiting.get(event.id) == reason:
            return
        self.waiting[event.id] = reason
        say(log, logging.WARNING, "event-waits", event=event.name, reason=reason)
        self.events.set_waiting(event.id, reason)

    def paused_members(self, event: Event, connected: set[int]) -> set[int]:
        """The members of ``event`` paused for their absence now (see the module): they
        missed their last games and are not ``connected``."""
        return self.events.absentees(event.id) - connected

    def _off_the_ladder(self, event: Event) -> set[int]:
        """The running ``event``'s members the ladder leaves alone now
        (:func:`off_the_ladder`)."""
        members = self.events.members(event.id)
        if not event.ladder:
            return off_the_ladder(False, members, set(), set())
        withdrawn = self.events.withdrawn(event.id)
        boards = self.events.boards(event.id)
        state = self.events.pair_state(event.id)
        current = max((b.round for b in boards), default=-1)
        to_play = {
            m
            for b in boards
            if b.round == current and not _board_over(b, state, withdrawn)
            for m in (b.a, b.b)
            if m is not None
        }
        return off_the_ladder(True, members, withdrawn, to_play)

    def _advance(self, event: Event, result: EventPass, connected: set[int]) -> None:
        boards = self.events.boards(event.id)
        withdrawn = self.events.withdrawn(event.id)
        state = self.events.pair_state(event.id)
        current = max((b.round for b in boards), default=-1)
        this_round = [b for b in boards if b.round == current]
        if all(_board_over(b, state, withdrawn) for b in this_round):
            if current + 1 >= event.rounds:
                if self.events.finish(event.id):
                    result.finished.append(event.name)
                    say(log, logging.INFO, "event-finished", event=event.name)
                return
            away = self.paused_members(event, connected) if event.swiss else set()
            paired = self._next(event, boards, withdrawn, away)
            if not self.events.add_round(event.id, current + 1, paired, self.openings, withdrawn):
                return  # a withdrawal changed meanwhile: paired again on the next pass
            say(log, logging.INFO, "event-round-paired", event=event.name, round=current + 2,
                rounds=event.rounds, boards=self._boards_text(paired))  # fmt: skip
            boards = self.events.boards(event.id)
            state = self.events.pair_state(event.id)
            current += 1
            this_round = [b for b in boards if b.round == current]
        for board in this_round:
            if board.pair_id is None or board.b is None:
                continue
            if board.a in withdrawn or board.b in withdrawn:
                continue
            finished, playing, opening = state[board.pair_id]
            if playing or finished >= 2:
                continue
            x, o = (board.a, board.b) if finished == 0 else (board.b, board.a)
            result.starts.append(
                EventStart(
                    event.id, x, o, opening, board.pair_id, finished, event.clock, event.pace
                )
            )

    def _boards_text(self, boards: list[Board]) -> str:
        """A round's boards for the log: ``red-blue, gold-green, bye: pink``."""
        names = self.store.members.names({m for b in boards for m in (b.a, b.b) if m is not None})
        pairs = [f"{names.get(b.a, b.a)}-{names.get(b.b, b.b)}" for b in boards if b.b is not None]
        byes = [f"bye: {names.get(b.a, b.a)}" for b in boards if b.b is None]
        return ", ".join(pairs + byes) or "no boards"

    def _next(
        self, event: Event, boards: list[StoredBoard], withdrawn: set[int], away: set[int]
    ) -> list[Board]:
        """The boards of the round after ``boards``: withdrawn members are left out, and
        in a Swiss the members paused for their absence (``away``)."""
        members = self.events.members(event.id)
        round_no = max((b.round for b in boards), default=-1) + 1
        if not event.swiss:
            cycles = 2 if event.format == "double-round-robin" else 1
            schedule = round_robin(members, cycles)[round_no]
            return [b for b in schedule if b.a not in withdrawn and b.b not in withdrawn]
        active = [m for m in members if m not in withdrawn and m not in away]
        rounds: list[list[Board]] = [[] for _ in range(round_no)]
        for board in boards:
            rounds[board.round].append(board.board)
        points: dict[tuple[int, int], float] = defaultdict(float)
        for game in self.events.games(event.id):
            for member in (game.a, game.b):
                points[(game.round, member)] += game.points(member)
        return swiss_round(swiss_players(active, rounds, points, BYE_POINTS))
