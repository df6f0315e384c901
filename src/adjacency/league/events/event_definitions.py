"""An event's definition in the league file (:class:`EventDefinitions`, a part of
:class:`~.event_store.EventsRepo`): create, edit and delete a scheduled event, and read
events back (:meth:`~EventDefinitions.event`, :meth:`~EventDefinitions.named`,
:meth:`~EventDefinitions.events`).

Contract: :meth:`~EventDefinitions.create` checks everything first and writes in one
transaction, so bad input creates nothing; :meth:`~EventDefinitions.edit` and
:meth:`~EventDefinitions.delete` change a scheduled event only (the status checked in
their transaction), never one that started. The other parts of the repository find
their event through the lookups here, which is why they build on this class.
"""

from __future__ import annotations

import time
from typing import Literal

from ...core.errors import InvalidSettingsError
from ...core.text import quote
from ..settings import MAX_PACE, parse_clock
from ..store.database import LeagueDb
from ..store.members import MembersRepo
from ..store.records import LeagueError, check_name
from .event_pairing import FORMATS, planned_rounds
from .event_rows import Event

EVENT_COLUMNS = (
    "id, name, format, rounds, start, rated, all_connected, status, created, started, finished, "
    "EXISTS (SELECT 1 FROM meta WHERE key = 'event-paused:' || events.id), base, increment, "
    "pace, people, EXISTS (SELECT 1 FROM meta WHERE key = 'event-ladder:' || events.id)"
)
"""The columns of ``events`` an :class:`~.event_rows.Event` is read from, in its fields'
order (whether it is paused, and whether its teams play the ladder meanwhile, are
``meta`` marks')."""


def _started(event: Event, done: str) -> str:
    """Why ``event`` cannot be ``done`` (edited, deleted): it has started."""
    return (
        f"event {quote(event.name)} has started ({event.status}): only a scheduled event is {done}"
    )


def _checked_timing(
    clock: tuple[float, float] | None, pace: float | None
) -> tuple[float, float] | None:
    """An event's own ``clock`` checked as the league's clock is, and its ``pace``
    (0 to :data:`.settings.MAX_PACE` seconds); the clock, or :class:`LeagueError`."""
    if clock is not None:
        try:
            clock = parse_clock(f"{clock[0]!r}+{clock[1]!r}")
        except InvalidSettingsError as exc:
            raise LeagueError(str(exc)) from None
    if pace is not None and not 0.0 <= pace <= MAX_PACE:  # also refuses NaN
        raise LeagueError(f"an event's pace is 0 to {MAX_PACE:g} seconds a move, got {pace!r}")
    return clock


class EventDefinitions:
    """The events' definitions: their settings and members as the teacher names them."""

    db: LeagueDb
    """The league file (its ``events`` and ``event_members`` tables)."""
    members_repo: MembersRepo
    """The league's members, who name an event's members."""

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
        ``people``, people may join it until it starts
        (:meth:`~.event_entries.EventEntries.join`)."""
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
                "DELETE FROM meta WHERE key IN (?, ?, ?) OR key LIKE ?",
                (f"event-waiting:{event.id}", f"event-paused:{event.id}",
                 f"event-ladder:{event.id}", f"event-withdrawn:{event.id}:%"),
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
        clock = _checked_timing(clock, pace)
        now = time.time() if now is None else now
        if start is not None and start <= now:
            raise LeagueError("the event's start time is in the past")
        if members is None:
            planned = rounds or 0
            if format not in FORMATS:
                planned_rounds(format, 2, rounds)
            if format == "swiss" and (rounds is None or rounds < 1):
                raise LeagueError("a Swiss needs --rounds N (1 or more)")
            return [], planned, clock
        ids = self._named_bots(members)
        return ids, planned_rounds(format, len(ids), rounds), clock

    def _named_bots(self, members: list[str]) -> list[int]:
        """The ids of the bots named ``members`` (two or more, each once, none a person
        or revoked), as :meth:`create` checks them; else :class:`LeagueError`."""
        if len(members) < 2:
            raise LeagueError(f"an event needs two members or more, got {len(members)}")
        ids: list[int] = []
        seen: set[str] = set()
        kept_out = self.members_repo.kept_out()
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
            if member.id in kept_out:
                raise LeagueError(
                    f"{quote(member_name)} is kept out of the ladder and the events "
                    "(a template or sparring account)"
                )
            ids.append(member.id)
        return ids

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
            bool(row[16]),
        )

    def event(self, event_id: int) -> Event:
        """The event with this id; :class:`LeagueError` if there is none."""
        return self._event_where("id", event_id, f"no event with id {event_id}")

    def named(self, name: str) -> Event:
        """The event called ``name``; :class:`LeagueError` if there is none."""
        return self._event_where("name", name, f"no event named {quote(name)}")

    def _event_where(self, column: Literal["id", "name"], value: object, missing: str) -> Event:
        """The one event whose ``column`` (unique) is ``value``; else ``missing``."""
        return self._event(
            self.db.row(f"SELECT {EVENT_COLUMNS} FROM events WHERE {column} = ?", (value,), missing)
        )

    def events(self) -> list[Event]:
        """Every event, newest first."""
        rows = self.db.query(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY id DESC")
        return [self._event(r) for r in rows]

    def _people_names(self, event_id: int) -> list[str]:
        """The names of the people who are members of the event."""
        rows = self.db.query(
            "SELECT p.name FROM event_members m JOIN members p ON p.id = m.member_id "
            "WHERE m.event_id = ? AND p.kind = 'person' ORDER BY m.seed",
            (event_id,),
        )
        return [str(r[0]) for r in rows]
