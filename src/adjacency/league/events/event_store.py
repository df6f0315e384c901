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
  joined (:meth:`~.event_entries.EventEntries.join`; a round robin's rounds are counted
  again at its start, with them).
* ``event_boards``: each round's boards; a played board names the league pair
  (``pairs``) whose two games are its colour-swapped game pair; a bye has no pair.

Why a scheduled event of every connected bot has not started yet (too few members
connected) is the server's note in ``meta`` (key ``event-waiting:ID``, written only when
the reason changes, removed at the start), so that ``adjacency league event show`` in
another process says it. A running event the teacher paused (``adjacency league event
pause``) is marked in ``meta`` too (key ``event-paused:ID``, removed by ``resume``): the
server starts none of its games and pairs no new round while the mark is there
(:mod:`..play.event_runner`); the mark needs no column, so a league file of any version pauses.

The repository is composed of one part per job, each in its module with its contract:

* :mod:`.event_rows`: the values (:class:`~.event_rows.Event`,
  :class:`~.event_rows.StoredBoard`, :class:`~.event_rows.EntryRefused`, the constants);
* :mod:`.event_definitions`: an event's definition (create, edit, delete, the lookups);
* :mod:`.event_entries`: who is in it (members, people joining and leaving, withdrawals);
* :mod:`.event_progress`: its start, pause, resume, rounds and end;
* :mod:`.event_boards`: the queries of its boards and games.

Callers hold one :class:`EventsRepo` (``store.events``) and import these names from here.

Contract: :meth:`~.event_definitions.EventDefinitions.create` checks everything first
and writes in one transaction, so bad input creates nothing;
:meth:`~.event_definitions.EventDefinitions.edit` and
:meth:`~.event_definitions.EventDefinitions.delete` change a scheduled event only (the
status checked in their transaction), never one that started;
:meth:`~.event_progress.EventProgress.finish` returns ``True`` exactly once per event; an
event's games are league games (``games``), so they survive a crash as the league's do
(finished kept, in-flight ones aborted and their leg replayed).
"""

from __future__ import annotations

from ..store.database import LeagueDb
from ..store.members import MembersRepo
from .event_boards import EventBoards
from .event_definitions import EVENT_COLUMNS
from .event_entries import EventEntries
from .event_progress import EventProgress
from .event_rows import (
    ABSENCES,
    BOTH_ABSENT,
    DECIDED,
    MAX_PEOPLE,
    TABLES,
    EntryRefused,
    Event,
    StoredBoard,
    clock_text,
    waiting_reason,
)

__all__ = [
    "ABSENCES",
    "BOTH_ABSENT",
    "DECIDED",
    "EVENT_COLUMNS",
    "MAX_PEOPLE",
    "TABLES",
    "EntryRefused",
    "Event",
    "EventsRepo",
    "StoredBoard",
    "clock_text",
    "waiting_reason",
]


class EventsRepo(EventEntries, EventProgress, EventBoards):
    """The events of one league, on its database (thread-safe as it is): its parts'
    methods on one object, ``store.events``."""

    def __init__(self, db: LeagueDb, members: MembersRepo) -> None:
        """Use the league file ``db`` (its tables are there: opening a league creates
        them); ``members`` names an event's members."""
        self.db = db
        self.members_repo = members
