"""Who is there on a league server: the connected bots' connections, the people whose
play page is open and the members the server plays itself.

Contract, in the server's event loop (one thread, no locks):

* a member holds at most one connection: a new one replaces the old, which is told so
  and closed (:meth:`Presence.attach`); a connection that ends takes nothing with it
  (its games go on and their clocks run: :meth:`Presence.detach`);
* a person is present for :data:`PRESENCE` seconds after their page last asked
  ``/me`` (:meth:`Presence.see`); only a present person can be challenged by another;
* each game aborted at this start (in flight at a crash) is told to its players when
  they connect (:attr:`Presence.unheard`), so their clients drop its engine;
* a team with an accepted version is there without a connection (:mod:`.hosted`:
  :attr:`Presence.hosted_now`, refreshed by each pass of the scheduler);
* a connection whose token was revoked or replaced is closed at the next pass
  (:meth:`Presence.sweep_revoked`).
* a bot's connection the league itself refused (its rates, its connection caps, its
  reserved places) is remembered (:meth:`Presence.refuse`), so that its event games wait
  for it instead of being lost by its absence (:meth:`Presence.held`).
* the waits that decide an absence (a person's :data:`PRESENCE`, a refusal's wait) count
  only the time the machine could run things (:attr:`Presence.machine`,
  :mod:`.machine_time`): a loaded machine that delays a page's asking or a client's
  next try never makes its member absent.

It knows no games: the hall resends a member that connects its games in play
(:meth:`.hall.Hall.attach`), and the games post to the connections held here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping

from ...core.details import Detail
from ...serving.details import ended
from ..league_file import Member
from .live import game_aborted
from .machine_time import MachineClock
from .outbox import Outbox

PRESENCE = 10.0
"""Seconds a person counts as present after their page last asked ``/me`` (it asks every
few seconds while it is open): only a present person can be challenged by another, and
an absent one loses their event game at once. Counted in the time the machine could run
things (:mod:`.machine_time`: the page's asking and the server's answer wait for a CPU
on a loaded machine), within :data:`~.machine_time.WAIT_CAP` of wall time."""


class Presence:
    """The members there now: connections by member id, people's pages, hosted teams."""

    def __init__(self, machine: MachineClock | None = None) -> None:
        """``machine``: the clock of the waits by absence (:mod:`.machine_time`; the
        machine's own by default)."""
        self.machine = MachineClock() if machine is None else machine
        """The time of every stamp here, and the clock its waits are judged by: only
        the time the machine could run things counts (:mod:`.machine_time`)."""
        self.connections: dict[int, Outbox] = {}
        """The connected bots' outboxes, by member id."""
        self.seen: dict[int, float] = {}
        """When each person's page last asked ``/me`` (:attr:`machine`'s time): their
        presence."""
        self.unheard: dict[int, list[int]] = {}
        """Games aborted at this start (in flight at a crash), by player: each is told
        (``game_end``, ``aborted``) when it connects, so its client drops the engine."""
        self.hosted_now: frozenset[int] = frozenset()
        """The members the server plays itself (an accepted version), at the scheduler's
        last pass: present and pairable without a connection."""
        self.refused: dict[int, float] = {}
        """When the league last refused each bot's connection by its own limits
        (:attr:`machine`'s time; :meth:`refuse`)."""
        self.anyone_refused = -math.inf
        """When the league last refused a connection whose bot it could not tell."""
        self.refused_elsewhere: Callable[[], float | None] = lambda: None
        """When the server's connection guard last refused a connection (monotonic; set
        by the app to read its guard's: refused before a request was read, so whose it
        was is unknown), ``None`` if never."""

    def refuse(self, member_id: int | None) -> None:
        """The league refused a connection of bot ``member_id`` (``None``: a bot it could
        not tell) by its own limits, now."""
        if member_id is None:
            self.anyone_refused = self.machine.now()
        else:
            self.refused[member_id] = self.machine.now()

    def held(self, members: Collection[int], within: float) -> bool:
        """Whether any of ``members`` may have been kept away by the league itself in the
        last ``within`` seconds (of the time the machine could run things, within
        :data:`~.machine_time.WAIT_CAP` of wall time: :meth:`.machine_time.MachineClock.over`):
        a connection of one of them was refused, or one whose bot the league could not
        tell (which may have been theirs). Each refusal starts the wait again."""
        guard = self.refused_elsewhere()
        last = max(
            self.anyone_refused,
            -math.inf if guard is None else guard,
            *(self.refused.get(m, -math.inf) for m in members),
        )
        return not self.machine.over(last, within)

    def attach(self, outbox: Outbox) -> None:
        """A member connected: its previous connection (if any) is told it was replaced
        and closed, this one is kept, and the games aborted at this start are told."""
        member = outbox.member
        old = self.connections.get(member.id)
        if old is not None:
            old.post({"type": "error", "detail": "replaced by a new connection"})
            old.close()
        self.connections[member.id] = outbox
        for game_id in self.unheard.pop(member.id, []):
            outbox.post(game_aborted(game_id, ended("server-stopped-during")))

    def detach(self, outbox: Outbox) -> None:
        """A connection ended (its games go on; their clocks run)."""
        outbox.close()
        if self.connections.get(outbox.member.id) is outbox:
            del self.connections[outbox.member.id]

    def see(self, person: Member) -> None:
        """Note that ``person``'s page is open now (it asked ``/me``)."""
        self.seen[person.id] = self.machine.now()

    def present(self) -> set[int]:
        """The people whose page asked within :data:`PRESENCE` seconds (of the time the
        machine could run things: :meth:`.machine_time.MachineClock.over`)."""
        now = self.machine.read()
        return {pid for pid, at in self.seen.items() if not self.machine.over(at, PRESENCE, now)}

    def online(self) -> set[int]:
        """Members that can be challenged now: connected and hosted bots and present
        people."""
        return set(self.connections) | self.present() | self.hosted_now

    def time_loss(self, mover: Member) -> Detail:
        """The detail of ``mover``'s loss on time, saying where it was: a bot connected or
        not; a person whose play page was open (they did not click in time) or closed (a
        person never holds a connection: their page asks over HTTP)."""
        if mover.kind == "house":
            return ended("clock", player=mover.name)
        if mover.kind == "person":
            page = "open" if mover.id in self.present() else "closed"
            return ended(f"clock-page-{page}", player=mover.name)
        connected = "connected" if mover.id in self.connections else "not-connected"
        return ended(f"clock-{connected}", player=mover.name)

    def bots_there(self) -> set[int]:
        """The bots there without a page: connected, or played by the server (hosted)."""
        return set(self.connections) | self.hosted_now

    def sweep_revoked(
        self, members: Mapping[int, Member], hashes: Mapping[int, str | None]
    ) -> None:
        """Close the connections whose member is gone or revoked, or whose token was
        replaced (``adjacency league revoke|rotate`` write the file directly, so the
        server learns it here); ``members`` are the league's bots and house bots (the
        connected ones at least), ``hashes`` their token hashes."""
        for member_id, outbox in list(self.connections.items()):
            revoked = member_id not in members or members[member_id].revoked
            if revoked or (outbox.token_hash and hashes.get(member_id) != outbox.token_hash):
                outbox.post({"type": "error", "detail": "this token was revoked or replaced"})
                outbox.close()
