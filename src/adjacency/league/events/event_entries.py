"""Who is in an event (:class:`EventEntries`, a part of
:class:`~.event_store.EventsRepo`): its members in seeding order, the people who join an
event open to people and leave it before it starts, the members withdrawn and
reinstated, the league's house bots.

Contract: a person's entry is checked and written in one transaction (the event's status
read there), so nobody joins or leaves an event that started; a refused entry is
:class:`~.event_rows.EntryRefused` and changes nothing. A withdrawal notes the rounds
paired so far (``meta`` key ``event-withdrawn:EVENT:MEMBER``), so that it can be undone
until the next round is paired and never after.
"""

from __future__ import annotations

from ...core.text import quote
from ..store.records import LeagueError, Member
from .event_definitions import EventDefinitions
from .event_rows import MAX_PEOPLE, EntryRefused, Event


def _withdrawn_key(event_id: int, member_id: int) -> str:
    """The ``meta`` key noting how many rounds were paired when a member was withdrawn."""
    return f"event-withdrawn:{event_id}:{member_id}"


class EventEntries(EventDefinitions):
    """The entries of the events: members, people, withdrawals (on the lookups of
    :class:`~.event_definitions.EventDefinitions`)."""

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

    def withdrawn(self, event_id: int) -> set[int]:
        """The event's withdrawn members."""
        rows = self.db.query(
            "SELECT member_id FROM event_members WHERE event_id = ? AND withdrawn = 1",
            (event_id,),
        )
        return {int(r[0]) for r in rows}
