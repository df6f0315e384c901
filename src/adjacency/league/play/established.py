"""What the hall knows of people's establishment (whether their games are rated yet),
read off the event loop and kept a few seconds (:class:`EstablishedCache`).

A person's play page asks ``/me`` every second, and the answer says whether their games
are rated (:meth:`~adjacency.league.store.members.MembersRepo.established`: a few rows, never
the games). Contract: an answer is at most :data:`ESTABLISHED_AGE` seconds old, and
never older than the person's last game end (:meth:`EstablishedCache.forget`, a
listener of the games' ends) or an approval made through this server; an approval by
``adjacency league approve`` beside a running server shows within that age.
"""

from __future__ import annotations

import asyncio
import collections
import time

from ..league_file import LeagueStore, Member
from ..rules import Progress
from .games import Games
from .live import LiveGame

ESTABLISHED_AGE = 10.0
"""Seconds the hall keeps what it read of a person's establishment (``/me`` asks every
second): forgotten sooner when one of the person's games ends or the admin approves
someone through this server; an approval by ``adjacency league approve`` beside a
running server shows within this time."""

KEPT = 100_000
"""People whose answers are kept at most (those who asked lately): past it, all are
forgotten at once."""


class EstablishedCache:
    """People's establishment as last read, by person."""

    def __init__(self, store: LeagueStore, games: Games) -> None:
        self.store = store
        self.games = games
        self._known: dict[int, tuple[float, int, tuple[bool, Progress]]] = {}
        self._generation: collections.Counter[int] = collections.Counter()

    async def of(self, person: Member, reader: LeagueStore) -> tuple[bool, Progress]:
        """Whether ``person``'s games are rated now, and the sentence saying so: what was
        read within :data:`ESTABLISHED_AGE` seconds, unless a game of the person ended
        or an approval was made since; else read from ``reader`` (the readers'
        connection) in a worker thread, under the rules the games are played by."""
        now = time.monotonic()
        approvals = self.store.members.approvals
        known = self._known.get(person.id)
        if known is not None and now - known[0] < ESTABLISHED_AGE and known[1] == approvals:
            return known[2]
        generation, rules = self._generation[person.id], self.games.rules
        answer = await asyncio.to_thread(reader.members.established, person.id, rules)
        if self._generation[person.id] == generation:  # no game ended meanwhile
            if len(self._known) > KEPT:  # bounded by the people who asked lately
                self._known.clear()
            self._known[person.id] = (now, approvals, answer)
        return answer

    def forget(self, live: LiveGame) -> None:
        """A game ended: its players' answers are read again (its end may establish a
        person), and a read in flight for them is not kept."""
        for member in (live.x, live.o):
            self._known.pop(member.id, None)
            self._generation[member.id] += 1
