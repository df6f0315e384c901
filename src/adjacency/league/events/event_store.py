"""A league's events in its database (:class:`EventsRepo`, on a
:class:`~.store.database.LeagueDb`): tables ``events``, ``event_members`` and ``event_boards``
beside the league's own, on the same connection.

* ``events``: name (unique, any case), format (:data:`.event_pairing.FORMATS`),
  rounds, start time (or none: started by ``adjacency league event start``), its own
  clock (``base`` + ``increment`` seconds, or none: the league's clock), its own pace
  (the least seconds a bot's move takes, or none: the server's), rated,
  status ``scheduled`` -> ``running`` -> ``finished``, whether the members are
  every bot connected at the start (``all_connected``), and whether people may join it
  before it starts (``people``).
* ``event_members``: the members in seeding order, each possibly withdrawn; the people
  who joined an event open to people are seeded after its bots, in the order they
  joined (:meth:`EventsRepo.join`; a round robin's rounds are counted again at its
  start, with them).
* ``event_boards``: each round's boards; a played board names the league pair
  (``pairs``) whose two games are its colour-swapped game pair; a bye has no pair.

Why a scheduled event of every connected bot has not started yet (too few members
connected) is the server's note in ``meta`` (key ``event-waiting:ID``, written only when
the reason changes, removed at the start), so that ``adjacency league event show`` in
another process says it. A running event the teacher paused (``adjacency league event
pause``) is marked in ``meta`` too (key ``event-paused:ID``, removed by ``resume``): the
server starts none of its games and pairs no new round while the mark is there
(:mod:`.event_runner`); the mark needs no column, so a league file of any version pauses.

Contract: :meth:`EventsRepo.create` checks everything first and writes in one
transaction, so bad input creates nothing; :meth:`EventsRepo.edit` and
:meth:`EventsRepo.delete` change a scheduled event only (the status checked in their
transaction), never one that started; :meth:`EventsRepo.finish` returns
``True`` exactly once per event; an event's games are league games (``games``), so
they survive a crash as the league's do (finished kept, in-flight ones aborted and
their leg replayed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ...core.details import DetailCode
from ...core.errors import InvalidSettingsError
from ...core.stand_ins import record_counts
from ...core.text import quote
from ...serving.errors import NotNow
from ..settings import MAX_PACE, parse_clock
from ..store.database import LeagueDb
from ..store.members import MembersRepo
from ..store.records import LeagueError, Member, check_name
from .event_pairing import FORMATS, Board, planned_rounds
from .event_standings import EventGame, absentees

BOTH_ABSENT = str(DetailCode.ABSENT_BOTH)
"""The detail code of a game neither team was there for: stored aborted (no result, no
rating, nothing in the league's totals), its pair's leg done, a loss for both in the
event (:attr:`.event_standings.EventGame.both_lost`)."""
ABSENCES = (BOTH_ABSENT, str(DetailCode.ABSENT), str(DetailCode.ABSENT_PAGE_CLOSED))
"""The details of the games an absence decided: both teams', a bot's, a person's."""

DECIDED = f"(g.status = 'finished' OR (g.status = 'aborted' AND g.detail_code = '{BOTH_ABSENT}'))"
"""SQL: a game of ``g`` that counts in its event: finished, or lost by both teams'
absence."""

TABLES = frozenset({"events", "event_members", "event_boards"})
"""The events' tables in a league's file (defined in :data:`.store.schema.EVENT_SCHEMA`)."""


def clock_text(clock: tuple[float, float]) -> str:
    """A clock ``(base, increment)`` as the league writes one: ``"30+0.5"``."""
    return f"{clock[0]:g}+{clock[1]:g}"


def waiting_reason(connected: int) -> str:
    """Why an event of every connected bot cannot start with ``connected`` members."""
    return f"{connected} member{'' if connected == 1 else 's'} connected, at least 2 needed"


@dataclass(frozen=True)
class Event:
    """One stored event."""

    id: int
    name: str
    format: str
    rounds: int
    start: float | None
    rated: bool
    all_connected: bool
    status: str
    created: float
    started: float | None
    finished: float | None
    paused: bool = False
    """Whether the teacher paused it (it stays ``running``: no new game starts)."""
    clock: tuple[float, float] | None = None
    """Its own clock, ``(base, increment)`` seconds, or ``None``: the league's clock."""
    pace: float | None = None
    """Its own pace: the least seconds each bot's move takes in its games, house or
    connected (people are never held); ``None``: the server's ``--pace``, which holds
    games between two house bots only."""
    people: bool = False
    """Whether people may join it before it starts (:meth:`EventsRepo.join`)."""

    def time_control(self, league: str) -> str:
        """Its games' clock as the league writes one (``"30+0.5"``): its own, or
        ``league``, the league's."""
        return league if self.clock is None else clock_text(self.clock)

    @property
    def swiss(self) -> bool:
        """Whether it is a Swiss."""
        return self.format == "swiss"


@dataclass(frozen=True)
class StoredBoard:
    """A board of an event's round as stored."""

    id: int
    round: int
    a: int
    b: int | None
    pair_id: int | None

    @property
    def board(self) -> Board:
        """As :mod:`.event_pairing` sees it."""
        return Board(self.a, self.b)


EVENT_COLUMNS = (
    "id, name, format, rounds, start, rated, all_connected, status, created, started, finished, "
    "EXISTS (SELECT 1 FROM meta WHERE key = 'event-paused:' || events.id), base, increment, "
    "pace, people"
)

MAX_PEOPLE = 40
"""The most people one event takes (a class and its teachers): a round robin of them all
is already longer than a lesson."""


class EntryRefused(NotNow, LeagueError):
    """A person may not join or leave an event now (409 over HTTP); ``code`` says why
    for pages and clients: ``event_closed`` (not open to people), ``event_started`` (it
    started), ``event_full`` (:data:`MAX_PEOPLE` joined), ``event_not_joined`` (leaving
    an event one is not in)."""


def _started(event: Event, done: str) -> str:
    """Why ``event`` cannot be ``done`` (edited, deleted): it has started."""
    return (
        f"event {quote(event.name)} has started ({event.status}): only a scheduled event is {done}"
    )


def _withdrawn_key(event_id: int, member_id: int) -> str:
    """The ``meta`` key noting how many rounds were paired when a member was withdrawn."""
    return f"event-withdrawn:{event_id}:{member_id}"


class EventsRepo:
    """The events of one league, on its database (thread-safe as it is)."""

    def __init__(self, db: LeagueDb, members: MembersRepo) -> None:
        """Use the league file ``db`` (its tables are there: opening a league creates
        them); ``members`` names an event's members."""
        self.db = db
        self.members_repo = members

    # ------------------------------------------------------------------ events

    def create(
        self,
        name: str,
        format: str,
        rounds: int | None,
        members: list[str] | None,
        start: float | None = None,
        rated: bool = True,
        now: float | None = None,
        clock: tuple[float, float] | None = None,
        pace: float | None = None,
        people: bool = False,
    ) -> Event:
        """Create an event of the named ``members`` in seeding order, or with ``members``
        ``None`` of every bot connected when it starts, its games on ``clock``
        (``(base, increment)`` seconds, checked as the league's clock is:
        :func:`.settings.parse_clock`) or, ``None``, on the league's, and at ``pace``
        (0 to :data:`.settings.MAX_PACE` seconds a bot's move) or, ``None``, at the
        server's. Refused with :class:`LeagueError`, creating nothing: a bad or taken
        name, a bad clock or pace, an unknown format, fewer than two members, an
        unknown, repeated or revoked member, a person (people join an event open to
        people themselves), too many Swiss rounds, a start time in the past. With
        ``people``, people may join it until it starts (:meth:`join`)."""
        ids, planned, clock = self._checked(name, format, rounds, members, start, now, clock, pace)
        now = time.time() if now is None else now
        with self.db.transaction() as db:
            if db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
                raise LeagueError(f"an event named {quote(name)} exists already")
            cursor = db.execute(
                "INSERT INTO events (name, format, rounds, start, rated, all_connected, created, "
                "base, increment, pace, people) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    name,
                    format,
                    planned,
                    start,
                    int(rated),
                    int(members is None),
                    now,
                    *(clock or (None, None)),
                    pace,
                    int(people),
                ),
            )
            event_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO event_members (event_id, member_id, seed) VALUES (?, ?, ?)",
                [(event_id, member_id, seed) for seed, member_id in enumerate(ids)],
            )
        return self.event(event_id)

    def edit(
        self,
        name: str,
        new_name: str,
        format: str,
        rounds: int | None,
        members: list[str],
        start: float | None = None,
        rated: bool = True,
        now: float | None = None,
        clock: tuple[float, float] | None = None,
        pace: float | None = None,
        people: bool | None = None,
    ) -> Event:
        """Change a scheduled event: its name, format, rounds, named members (in seeding
        order), start time, rated, clock and pace become these, checked as
        :meth:`create` checks them; ``people`` opens or closes it to people (``None``:
        as it was; closed, the people who joined are taken out, open, they stay, seeded
        after the bots). Refused with :class:`LeagueError`, nothing changed:
        an event that has started (its games are under way or played), or any setting
        :meth:`create` refuses, a name another event has. A person who joined may be
        among ``members`` (the teacher's page lists them): they stay as joined, after
        the bots."""
        event = self.named(name)
        joined = {n.lower() for n in self._people_names(event.id)}
        members = [m for m in members if m.lower() not in joined]
        ids, planned, clock = self._checked(
            new_name, format, rounds, members, start, now, clock, pace
        )
        with self.db.transaction() as db:
            if db.execute(
                "SELECT 1 FROM events WHERE name = ? AND id != ?", (new_name, event.id)
            ).fetchone():
                raise LeagueError(f"an event named {quote(new_name)} exists already")
            cursor = db.execute(
                "UPDATE events SET name = ?, format = ?, rounds = ?, start = ?, rated = ?, "
                "all_connected = 0, base = ?, increment = ?, pace = ?, people = ? "
                "WHERE id = ? AND status = 'scheduled'",
                (new_name, format, planned, start, int(rated), *(clock or (None, None)), pace,
                 int(event.people if people is None else people), event.id),
            )  # fmt: skip
            if cursor.rowcount == 0:  # started meanwhile: the check is in the transaction
                raise LeagueError(_started(self.event(event.id), "edited"))
            keep = event.people if people is None else people
            db.execute(
                "DELETE FROM event_members WHERE event_id = ? AND (? = 0 OR member_id NOT IN "
                "(SELECT id FROM members WHERE kind = 'person'))",
                (event.id, int(keep)),
            )  # the bots are named anew; the people who joined stay while it is open
            db.execute(
                "UPDATE event_members SET seed = seed + ? WHERE event_id = ?", (len(ids), event.id)
            )
            db.executemany(
                "INSERT INTO event_members (event_id, member_id, seed) VALUES (?, ?, ?)",
                [(event.id, member_id, seed) for seed, member_id in enumerate(ids)],
            )
            db.execute(
                "DELETE FROM meta WHERE key LIKE ?", (f"event-withdrawn:{event.id}:%",)
            )  # the members are named anew: none withdrawn
        return self.event(event.id)

    def delete(self, name: str) -> None:
        """Delete a scheduled event (its members and notes with it). An event that has
        started is :class:`LeagueError` (its games are the league's history)."""
        event = self.named(name)
        with self.db.transaction() as db:  # a refusal rolls the members' rows back
            db.execute("DELETE FROM event_members WHERE event_id = ?", (event.id,))
            cursor = db.execute(
                "DELETE FROM events WHERE id = ? AND status = 'scheduled'", (event.id,)
            )
            if cursor.rowcount == 0:
                raise LeagueError(_started(self.event(event.id), "deleted"))
            db.execute(
                "DELETE FROM meta WHERE key = ? OR key = ? OR key LIKE ?",
                (f"event-waiting:{event.id}", f"event-paused:{event.id}",
                 f"event-withdrawn:{event.id}:%"),
            )  # fmt: skip

    def _checked(
        self,
        name: str,
        format: str,
        rounds: int | None,
        members: list[str] | None,
        start: float | None,
        now: float | None,
        clock: tuple[float, float] | None,
        pace: float | None,
    ) -> tuple[list[int], int, tuple[float, float] | None]:
        """An event's settings checked as :meth:`create` checks them: its members' ids,
        its planned rounds and its clock; else :class:`LeagueError` saying why."""
        check_name(name)
        if clock is not None:
            try:
                clock = parse_clock(f"{clock[0]!r}+{clock[1]!r}")
            except InvalidSettingsError as exc:
                raise LeagueError(str(exc)) from None
        if pace is not None and not 0.0 <= pace <= MAX_PACE:  # also refuses NaN
            raise LeagueError(f"an event's pace is 0 to {MAX_PACE:g} seconds a move, got {pace!r}")
        now = time.time() if now is None else now
        if start is not None and start <= now:
            raise LeagueError("the event's start time is in the past")
        ids: list[int] = []
        if members is not None:
            if len(members) < 2:
                raise LeagueError(f"an event needs two members or more, got {len(members)}")
            seen: set[str] = set()
            for member_name in members:
                if member_name.lower() in seen:
                    raise LeagueError(f"member {quote(member_name)} is named twice")
                seen.add(member_name.lower())
                member = self.members_repo.member_named(member_name)
                if member.kind == "person":
                    raise LeagueError(
                        f"{quote(member_name)} is a person: the teacher names bots; people "
                        "join an event open to people themselves"
                    )
                if member.revoked:
                    raise LeagueError(f"{quote(member_name)} is revoked")
                ids.append(member.id)
            planned = planned_rounds(format, len(ids), rounds)
        else:
            planned = rounds or 0
            if format not in FORMATS:
                planned_rounds(format, 2, rounds)
            if format == "swiss" and (rounds is None or rounds < 1):
                raise LeagueError("a Swiss needs --rounds N (1 or more)")
        return ids, planned, clock

    def _event(self, row: tuple[object, ...]) -> Event:
        return Event(
            int(row[0]),  # type: ignore[call-overload]
            str(row[1]),
            str(row[2]),
            int(row[3]),  # type: ignore[call-overload]
            None if row[4] is None else float(row[4]),  # type: ignore[arg-type]
            bool(row[5]),
            bool(row[6]),
            str(row[7]),
            float(row[8]),  # type: ignore[arg-type]
            None if row[9] is None else float(row[9]),  # type: ignore[arg-type]
            None if row[10] is None else float(row[10]),  # type: ignore[arg-type]
            bool(row[11]),
            None if row[12] is None else (float(row[12]), float(row[13] or 0.0)),  # type: ignore[arg-type]
            None if row[14] is None else float(row[14]),  # type: ignore[arg-type]
            bool(row[15]),
        )

    def event(self, event_id: int) -> Event:
        """The event with this id; :class:`LeagueError` if there is none."""
        rows = self.db.query(f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?", (event_id,))
        if not rows:
            raise LeagueError(f"no event with id {event_id}")
        return self._event(rows[0])

    def named(self, name: str) -> Event:
        """The event called ``name``; :class:`LeagueError` if there is none."""
        rows = self.db.query(f"SELECT {EVENT_COLUMNS} FROM events WHERE name = ?", (name,))
        if not rows:
            raise LeagueError(f"no event named {quote(name)}")
        return self._event(rows[0])

    def events(self) -> list[Event]:
        """Every event, newest first."""
        rows = self.db.query(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY id DESC")
        return [self._event(r) for r in rows]

    def members(self, event_id: int, withdrawn: bool = True) -> list[int]:
        """The event's member ids in seeding order (``withdrawn`` ones too, unless
        ``withdrawn`` is false)."""
        rows = self.db.query(
            "SELECT member_id FROM event_members WHERE event_id = ? "
            + ("" if withdrawn else "AND withdrawn = 0 ")
            + "ORDER BY seed",
            (event_id,),
        )
        return [int(r[0]) for r in rows]

    def start(self, name: str, members: list[int] | None = None, now: float | None = None) -> Event:
        """Mark a scheduled event running (the server plays it from its next pass). With
        ``members`` (the connected bots, for an ``all_connected`` event) they become its
        members, before the people who joined; fewer than two in all is
        :class:`LeagueError`. A round robin's rounds are counted with the people who
        joined. Starting an event that is not
        scheduled is :class:`LeagueError`."""
        event = self.named(name)
        if event.status != "scheduled":
            raise LeagueError(f"event {quote(event.name)} is {event.status} already")
        now = time.time() if now is None else now
        with self.db.transaction() as db:
            people = [
                int(r[0])
                for r in db.execute(
                    "SELECT m.member_id FROM event_members m JOIN members p ON p.id = m.member_id "
                    "WHERE m.event_id = ? AND p.kind = 'person' ORDER BY m.seed",
                    (event.id,),
                )
            ]
            if event.all_connected:
                ids = [m for m in members or [] if m not in people]
                if len(ids) + len(people) < 2:
                    raise LeagueError(waiting_reason(len(ids) + len(people)))
                db.executemany(
                    "INSERT INTO event_members (event_id, member_id, seed) VALUES (?, ?, ?)",
                    [(event.id, m, seed) for seed, m in enumerate(ids)],
                )
                db.executemany(
                    "UPDATE event_members SET seed = ? WHERE event_id = ? AND member_id = ?",
                    [(len(ids) + n, event.id, m) for n, m in enumerate(people)],
                )
            if event.all_connected or people:
                count = int(
                    db.execute(
                        "SELECT COUNT(*) FROM event_members WHERE event_id = ?", (event.id,)
                    ).fetchone()[0]
                )  # the people who joined count in a round robin's rounds
                swiss_rounds = event.rounds or None if event.swiss else None
                rounds = planned_rounds(event.format, count, swiss_rounds)
                db.execute("UPDATE events SET rounds = ? WHERE id = ?", (rounds, event.id))
            db.execute(
                "UPDATE events SET status = 'running', started = ? "
                "WHERE id = ? AND status = 'scheduled'",
                (now, event.id),
            )
            db.execute("DELETE FROM meta WHERE key = ?", (f"event-waiting:{event.id}",))
        return self.event(event.id)

    def start_when_served(self, name: str, now: float | None = None) -> Event:
        """Set a scheduled event of every connected bot to start now: the server starts it
        on its next pass with the bots connected then and the house bots (or, with fewer
        than two, as soon as there are two: :meth:`waiting` says why it waits). Another
        event, or one that is not scheduled, is :class:`LeagueError`."""
        event = self.named(name)
        if event.status != "scheduled":
            raise LeagueError(f"event {quote(event.name)} is {event.status} already")
        if not event.all_connected:
            raise LeagueError(f"event {quote(event.name)} names its members: start it")
        with self.db.transaction() as db:
            db.execute(
                "UPDATE events SET start = ? WHERE id = ? AND status = 'scheduled'",
                (time.time() if now is None else now, event.id),
            )
        return self.event(event.id)

    def join(self, name: str, person: Member) -> Event:
        """``person`` joins the scheduled event ``name`` open to people, seeded after the
        members there (joining twice changes nothing). Refused with
        :class:`EntryRefused`, nothing changed: an event not open to people, one that
        started (the check is in the transaction), one with :data:`MAX_PEOPLE` people."""
        event = self.named(name)
        with self.db.transaction() as db:
            row = db.execute(
                "SELECT status, people FROM events WHERE id = ?", (event.id,)
            ).fetchone()
            if not row[1]:
                raise EntryRefused(
                    f"event {quote(event.name)} is not open to people", code="event_closed"
                )
            if row[0] != "scheduled":
                raise EntryRefused(
                    f"event {quote(event.name)} has started: people join before it starts",
                    code="event_started",
                )
            if db.execute(
                "SELECT 1 FROM event_members WHERE event_id = ? AND member_id = ?",
                (event.id, person.id),
            ).fetchone():
                return event
            joined = int(
                db.execute(
                    "SELECT COUNT(*) FROM event_members m JOIN members p ON p.id = m.member_id "
                    "WHERE m.event_id = ? AND p.kind = 'person'",
                    (event.id,),
                ).fetchone()[0]
            )
            if joined >= MAX_PEOPLE:
                raise EntryRefused(
                    f"event {quote(event.name)} is full: {MAX_PEOPLE} people joined",
                    code="event_full",
                )
            db.execute(
                "INSERT INTO event_members (event_id, member_id, seed) VALUES (?, ?, "
                "(SELECT COALESCE(MAX(seed), -1) + 1 FROM event_members WHERE event_id = ?))",
                (event.id, person.id, event.id),
            )
        return event

    def leave(self, name: str, person: Member) -> Event:
        """``person`` leaves the scheduled event ``name`` they joined. Refused with
        :class:`EntryRefused`, nothing changed: an event that started, or one they are
        not in."""
        event = self.named(name)
        with self.db.transaction() as db:
            row = db.execute("SELECT status FROM events WHERE id = ?", (event.id,)).fetchone()
            if row[0] != "scheduled":
                raise EntryRefused(
                    f"event {quote(event.name)} has started: nobody leaves it now",
                    code="event_started",
                )
            cursor = db.execute(
                "DELETE FROM event_members WHERE event_id = ? AND member_id = ?",
                (event.id, person.id),
            )
            if cursor.rowcount == 0:
                raise EntryRefused(
                    f"{quote(person.name)} is not in event {quote(event.name)}",
                    code="event_not_joined",
                )
        return event

    def joined(self, event_id: int, member_id: int) -> bool:
        """Whether ``member_id`` is a member of the event (withdrawn or not)."""
        return bool(
            self.db.query(
                "SELECT 1 FROM event_members WHERE event_id = ? AND member_id = ?",
                (event_id, member_id),
            )
        )

    def _people_names(self, event_id: int) -> list[str]:
        """The names of the people who are members of the event."""
        rows = self.db.query(
            "SELECT p.name FROM event_members m JOIN members p ON p.id = m.member_id "
            "WHERE m.event_id = ? AND p.kind = 'person' ORDER BY m.seed",
            (event_id,),
        )
        return [str(r[0]) for r in rows]

    def people_in(self, event_id: int) -> int:
        """How many people are members of the event."""
        rows = self.db.query(
            "SELECT COUNT(*) FROM event_members m JOIN members p ON p.id = m.member_id "
            "WHERE m.event_id = ? AND p.kind = 'person'",
            (event_id,),
        )
        return int(rows[0][0])

    def house_bots(self) -> list[int]:
        """The league's house bots that are not revoked, in the order they joined."""
        rows = self.db.query(
            "SELECT id FROM members WHERE kind = 'house' AND revoked = 0 ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    def set_waiting(self, event_id: int, reason: str | None) -> None:
        """Note why the event waits to start (``None``: it no longer waits)."""
        key = f"event-waiting:{event_id}"
        with self.db.transaction() as db:
            if reason is None:
                db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, reason))

    def waiting(self, event_id: int) -> str | None:
        """Why the event waits to start, as the server last noted it (or ``None``)."""
        rows = self.db.query("SELECT value FROM meta WHERE key = ?", (f"event-waiting:{event_id}",))
        return str(rows[0][0]) if rows else None

    def withdraw(self, name: str, member_name: str) -> None:
        """Withdraw a member from an event: it is paired in no later round (its games in
        play end as usual; boards of its not yet started games are not played). The
        rounds paired so far are noted (``meta`` key ``event-withdrawn:EVENT:MEMBER``)
        so that :meth:`reinstate` can undo it until the next round is paired; a member
        withdrawn already keeps its first note. A finished event is :class:`LeagueError`."""
        event = self.named(name)
        member = self.members_repo.member_named(member_name)
        if event.status == "finished":
            raise LeagueError(f"event {quote(event.name)} is finished: nobody is withdrawn now")
        with self.db.transaction() as db:
            cursor = db.execute(
                "UPDATE event_members SET withdrawn = 1 WHERE event_id = ? AND member_id = ?",
                (event.id, member.id),
            )
            if cursor.rowcount == 0:
                raise LeagueError(f"{quote(member.name)} is not in event {quote(event.name)}")
            db.execute(
                "INSERT OR IGNORE INTO meta VALUES (?, (SELECT COUNT(DISTINCT round) "
                "FROM event_boards WHERE event_id = ?))",
                (_withdrawn_key(event.id, member.id), event.id),
            )

    def reinstate_refusal(self, event: Event, member_id: int) -> str | None:
        """Why ``member_id``'s withdrawal from ``event`` cannot be undone now, or
        ``None`` when it can: it is not withdrawn, the event finished, or a round was
        paired since (its boards were made without the member), or the withdrawal is
        older than the notes of :meth:`withdraw`."""
        rows = self.db.query(
            "SELECT m.withdrawn, (SELECT value FROM meta WHERE key = ?), "
            "(SELECT COUNT(DISTINCT round) FROM event_boards WHERE event_id = ?) "
            "FROM event_members m WHERE m.event_id = ? AND m.member_id = ?",
            (_withdrawn_key(event.id, member_id), event.id, event.id, member_id),
        )
        if not rows:
            return f"it is not in event {quote(event.name)}"
        withdrawn, paired_then, paired_now = rows[0]
        if not withdrawn:
            return f"it is not withdrawn from event {quote(event.name)}"
        if event.status == "finished":
            return f"event {quote(event.name)} is finished"
        if paired_then is None:
            return "it was withdrawn before withdrawals could be undone"
        if int(paired_now) != int(paired_then):
            return (
                f"round {int(paired_now)} of event {quote(event.name)} was paired without it "
                "(a withdrawal is undone only until the next round starts)"
            )
        return None

    def reinstate(self, name: str, member_name: str) -> Event:
        """Undo a member's withdrawal from an event before its next round is paired: it
        plays its boards not yet started and is paired in later rounds again. Refused
        with :class:`LeagueError` saying why (:meth:`reinstate_refusal`); nothing
        changes then."""
        event = self.named(name)
        member = self.members_repo.member_named(member_name)
        with self.db.transaction() as db:  # the check and the change in one transaction
            why = self.reinstate_refusal(event, member.id)
            if why is not None:
                raise LeagueError(f"{quote(member.name)} cannot be reinstated: {why}")
            db.execute(
                "UPDATE event_members SET withdrawn = 0 WHERE event_id = ? AND member_id = ?",
                (event.id, member.id),
            )
            db.execute("DELETE FROM meta WHERE key = ?", (_withdrawn_key(event.id, member.id),))
        return self.event(event.id)

    def pause(self, name: str) -> Event:
        """Pause a running event: the server starts none of its games (those in play end
        as usual) and pairs no new round until :meth:`resume`. An event that is not
        running, or is paused already, is :class:`LeagueError` (nothing changes)."""
        event = self.named(name)
        if event.status != "running":
            raise LeagueError(f"event {quote(event.name)} is {event.status}: only a running "
                              "event pauses")  # fmt: skip
        if event.paused:
            raise LeagueError(f"event {quote(event.name)} is paused already")
        with self.db.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, '1')", (f"event-paused:{event.id}",))
        return self.event(event.id)

    def resume(self, name: str) -> Event:
        """Resume a paused event: the server goes on pairing it where it stopped, from
        its next pass. An event that is not paused is :class:`LeagueError`."""
        event = self.named(name)
        if not event.paused:
            raise LeagueError(f"event {quote(event.name)} is not paused")
        with self.db.transaction() as db:
            db.execute("DELETE FROM meta WHERE key = ?", (f"event-paused:{event.id}",))
        return self.event(event.id)

    def withdrawn(self, event_id: int) -> set[int]:
        """The event's withdrawn members."""
        rows = self.db.query(
            "SELECT member_id FROM event_members WHERE event_id = ? AND withdrawn = 1",
            (event_id,),
        )
        return {int(r[0]) for r in rows}

    def finish(self, event_id: int, now: float | None = None) -> bool:
        """Mark a running event finished; ``True`` only for the call that did."""
        with self.db.transaction() as db:
            cursor = db.execute(
                "UPDATE events SET status = 'finished', finished = ? "
                "WHERE id = ? AND status = 'running'",
                (time.time() if now is None else now, event_id),
            )
            return cursor.rowcount == 1

    # ------------------------------------------------------------------ boards

    def add_round(
        self,
        event_id: int,
        round_no: int,
        boards: list[Board],
        openings: int,
        withdrawn: set[int] | None = None,
    ) -> bool:
        """Store round ``round_no``'s boards, each played board with a new league pair on
        the league's next opening (of ``openings``), in one transaction; a round stored
        already is left as it is. With ``withdrawn``, the withdrawn members the boards
        were paired without: if they are not the event's withdrawn members now (one was
        withdrawn or reinstated meanwhile), nothing is stored and ``False`` is returned,
        so that a member reinstated before the round is paired is paired in it."""
        with self.db.transaction() as db:
            if withdrawn is not None:
                now = {
                    int(r[0])
                    for r in db.execute(
                        "SELECT member_id FROM event_members WHERE event_id = ? AND withdrawn = 1",
                        (event_id,),
                    )
                }
                if now != withdrawn:
                    return False
            if db.execute(
                "SELECT 1 FROM event_boards WHERE event_id = ? AND round = ?", (event_id, round_no)
            ).fetchone():
                return True
            for board in boards:
                pair_id = None
                if board.b is not None:
                    count = int(db.execute("SELECT COALESCE(MAX(id), 0) FROM pairs").fetchone()[0])
                    cursor = db.execute(
                        "INSERT INTO pairs (a_id, b_id, opening, created) VALUES (?, ?, ?, ?)",
                        (board.a, board.b, count % openings, time.time()),
                    )
                    pair_id = int(cursor.lastrowid or 0)
                db.execute(
                    "INSERT INTO event_boards (event_id, round, a_id, b_id, pair_id) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (event_id, round_no, board.a, board.b, pair_id),
                )
        return True

    def boards(self, event_id: int) -> list[StoredBoard]:
        """Every stored board of the event, by round."""
        rows = self.db.query(
            "SELECT id, round, a_id, b_id, pair_id FROM event_boards WHERE event_id = ? "
            "ORDER BY round, id",
            (event_id,),
        )
        return [
            StoredBoard(int(r[0]), int(r[1]), int(r[2]), None if r[3] is None else int(r[3]),
                        None if r[4] is None else int(r[4]))
            for r in rows
        ]  # fmt: skip

    def event_pairs(self) -> set[int]:
        """The league pairs that belong to events (the ladder does not play them)."""
        rows = self.db.query("SELECT pair_id FROM event_boards WHERE pair_id IS NOT NULL")
        return {int(r[0]) for r in rows}

    def unrated_pairs(self) -> set[int]:
        """The league pairs of unrated events."""
        rows = self.db.query(
            "SELECT b.pair_id FROM event_boards b JOIN events e ON e.id = b.event_id "
            "WHERE e.rated = 0 AND b.pair_id IS NOT NULL"
        )
        return {int(r[0]) for r in rows}

    def running_members(self) -> set[int]:
        """Members of running events that are not withdrawn (the ladder pauses for them)."""
        rows = self.db.query(
            "SELECT m.member_id FROM event_members m JOIN events e ON e.id = m.event_id "
            "WHERE e.status = 'running' AND m.withdrawn = 0"
        )
        return {int(r[0]) for r in rows}

    def pair_state(self, event_id: int) -> dict[int, tuple[int, bool, int]]:
        """Per pair of the event: ``(finished games, a game in play, opening)``."""
        rows = self.db.query(
            "SELECT p.id, p.finished, p.opening, EXISTS (SELECT 1 FROM games g "
            "WHERE g.pair_id = p.id AND g.status = 'playing') "
            "FROM pairs p JOIN event_boards b ON b.pair_id = p.id "
            "WHERE b.event_id = ?",
            (event_id,),
        )
        return {int(r[0]): (int(r[1]), bool(r[3]), int(r[2])) for r in rows}

    def games(self, event_id: int) -> list[EventGame]:
        """The event's finished games, as :mod:`.event_standings` sees them, and the games
        both teams lost by their absence (stored aborted, detail :data:`BOTH_ABSENT`:
        no result for the league, a loss for both in the event)."""
        rows = self.db.query(
            "SELECT b.round, b.a_id, b.b_id, g.leg, g.result, g.x_score, g.o_score, "
            "g.detail_code FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            f"WHERE b.event_id = ? AND {DECIDED} ORDER BY g.id",
            (event_id,),
        )
        out = []
        for rnd, a, b, leg, result, xs, os_, code in rows:
            both = code == BOTH_ABSENT
            x_points = 0.0 if both else {"x": 1.0, "o": 0.0}.get(result or "", 0.5)
            margin = 0 if xs is None or os_ is None else int(xs) - int(os_)
            absent = code in ABSENCES
            out.append(
                EventGame(int(rnd), int(a), int(b), int(leg), x_points, margin, absent, both)
            )
        return out

    def stand_ins(self, event_id: int) -> dict[int, int]:
        """Each member's stand-in moves in the event's finished games (moves its client
        said were not its bot's own: the records' ``StandIns`` tags); only the records
        that have the tag are read."""
        rows = self.db.query(
            "SELECT g.x_id, g.o_id, g.record FROM games g "
            "JOIN event_boards b ON b.pair_id = g.pair_id "
            "WHERE b.event_id = ? AND g.status = 'finished' AND instr(g.record, '[StandIns ') > 0",
            (event_id,),
        )
        total: dict[int, int] = {}
        for x, o, record in rows:
            for member, count in zip((int(x), int(o)), record_counts(str(record)), strict=True):
                total[member] = total.get(member, 0) + count
        return total

    def absentees(self, event_id: int) -> set[int]:
        """The event's members who missed its last games they were to play
        (:func:`.event_standings.absentees`): paused while their bot is away."""
        return absentees(self.games(event_id))

    def stamp(self, event_id: int) -> tuple[int, int]:
        """What changes when the event's results do: ``(finished games, withdrawn
        members)``, from its own boards' pairs and members (a cache's key; never the
        league's other games)."""
        row = self.db.query(
            "SELECT (SELECT COALESCE(SUM(p.finished), 0) FROM pairs p "
            "JOIN event_boards b ON b.pair_id = p.id WHERE b.event_id = ?1), "
            "(SELECT COUNT(*) FROM event_members WHERE event_id = ?1 AND withdrawn = 1)",
            (event_id,),
        )
        return int(row[0][0]), int(row[0][1])

    def game_rounds(self, event_id: int) -> list[tuple[int, int]]:
        """``(game id, round index from 0)`` of each finished game of the event, oldest
        first."""
        rows = self.db.query(
            "SELECT g.id, b.round FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            f"WHERE b.event_id = ? AND {DECIDED} ORDER BY g.id",
            (event_id,),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    def game_ids(self, event_id: int, status: str = "finished") -> list[int]:
        """The ids of the event's league games of ``status``, oldest first."""
        rows = self.db.query(
            "SELECT g.id FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            "WHERE b.event_id = ? AND g.status = ? ORDER BY g.id",
            (event_id, status),
        )
        return [int(r[0]) for r in rows]

    def finished_legs(self, event_id: int) -> list[tuple[int, int, str | None, int, int, int]]:
        """``(pair, leg, result, game id, board's a, board's b)`` of each finished game of
        the event, by leg; a game both teams lost by their absence has result ``none``."""
        rows = self.db.query(
            "SELECT g.pair_id, g.leg, g.result, g.id, b.a_id, b.b_id, g.detail_code "
            "FROM games g JOIN event_boards b ON b.pair_id = g.pair_id "
            f"WHERE b.event_id = ? AND {DECIDED} ORDER BY g.leg",
            (event_id,),
        )
        return [
            (int(p), int(leg), "none" if c == BOTH_ABSENT else None if r is None else str(r),
             int(g), int(a), int(b))
            for p, leg, r, g, a, b, c in rows
        ]  # fmt: skip
