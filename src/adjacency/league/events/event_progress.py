"""An event's progress (:class:`EventProgress`, a part of
:class:`~.event_store.EventsRepo`): its start (now, or when the server next sees two
members), its pause and resume, whether its teams play the ladder meanwhile, its rounds
stored as they are paired, its end, and the server's note of why it waits to start.

Contract: each change of status is one transaction that checks the status it changes
(``scheduled`` -> ``running`` -> ``finished``), so :meth:`~EventProgress.finish` returns
``True`` exactly once per event and a round is stored once, with its league pairs; the
notes (waiting, paused, the ladder) live in ``meta`` and need no column, so a league
file of any version has them.
"""

from __future__ import annotations

import time

from ...core.text import quote
from ..store.records import LeagueError
from .event_definitions import EventDefinitions
from .event_pairing import Board, planned_rounds
from .event_rows import Event, waiting_reason


class EventProgress(EventDefinitions):
    """The events' progress through their status (on the lookups of
    :class:`~.event_definitions.EventDefinitions`)."""

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

    def set_ladder(self, name: str, allowed: bool) -> Event:
        """Whether the event's teams play ladder games while it runs
        (:attr:`~.event_rows.Event.ladder`; off when an event is made: the event comes
        first). Any event that has not finished; one that has is :class:`LeagueError`."""
        event = self.named(name)
        if event.status == "finished":
            raise LeagueError(f"event {quote(event.name)} is finished: its teams are free")
        key = f"event-ladder:{event.id}"
        with self.db.transaction() as db:
            if allowed:
                db.execute("INSERT OR REPLACE INTO meta VALUES (?, '1')", (key,))
            else:
                db.execute("DELETE FROM meta WHERE key = ?", (key,))
        return self.event(event.id)

    def finish(self, event_id: int, now: float | None = None) -> bool:
        """Mark a running event finished; ``True`` only for the call that did."""
        with self.db.transaction() as db:
            cursor = db.execute(
                "UPDATE events SET status = 'finished', finished = ? "
                "WHERE id = ? AND status = 'running'",
                (time.time() if now is None else now, event_id),
            )
            return cursor.rowcount == 1

    def add_round(
        self,
        event_id: int,
        round_no: int,
        boards: list[Board],
        openings: int,
        withdrawn: set[int] | None = None,
    ) -> bool:
        """Store round ``round_no``'s boards, each played board with a new league pair on
        the event's next opening (of ``openings``: the event's played boards so far, in
        order, whatever the ladder played meanwhile, so that an event played again plays
        the same positions), in one transaction; a round stored
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
            played = db.execute(
                "SELECT COUNT(*) FROM event_boards WHERE event_id = ? AND pair_id IS NOT NULL",
                (event_id,),
            )
            count = int(played.fetchone()[0])
            for board in boards:
                pair_id = None
                if board.b is not None:
                    cursor = db.execute(
                        "INSERT INTO pairs (a_id, b_id, opening, created) VALUES (?, ?, ?, ?)",
                        (board.a, board.b, count % openings, time.time()),
                    )
                    count += 1
                    pair_id = int(cursor.lastrowid or 0)
                db.execute(
                    "INSERT INTO event_boards (event_id, round, a_id, b_id, pair_id) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (event_id, round_no, board.a, board.b, pair_id),
                )
        return True
