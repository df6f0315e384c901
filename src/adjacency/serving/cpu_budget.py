"""The engine's CPU budget: search work charged to its visitor and queued fairly.

Why: slot counts bound how much search runs at once, not how much one visitor takes
over time. One browser running analyses back to back (or one address's scripts) kept
the cores busy, and the next visitor's bot move waited behind them first come, first
served. Here every piece of engine work is charged to the clients it counts for (its
browser and its address, see ``holders`` of the web app's limits) in CPU seconds over
a sliding window, and the cores go to the least-charged visitor first.

Contract of :class:`CpuBudget` (thread-safe):

* Work asks :meth:`CpuBudget.enter` for a :class:`Ticket` naming its clients (a tuple
  of ``"address A"``, ``"browser B"``; empty for a client the server does not limit,
  which is never charged). At most ``cores`` tickets run at once; the others wait.
  An address runs at most half of them at once, a browser a quarter (at least one
  each): whatever one visitor or one school queues, a second visitor's work finds a
  core free (searches are not preempted, so this is what keeps its wait short).
* A ticket is charged the *CPU seconds* its work used: the work runs inside
  :meth:`Ticket.measured`, which counts the CPU clock of the thread doing it and of
  the helper threads its search starts (:mod:`adjacency.system.cpu_meter`). A search
  that waits (a bot thinking until stopped, an analysis between updates) is charged
  what it ran, not the time it held its core; work a ticket's holder does outside
  the block, or in another process (an operator's local bot program), is not charged.
* A client's *usage* is what it was charged within the last ``window`` seconds plus
  what its running tickets used so far. An address has ``per_address`` CPU seconds
  a window, a browser ``per_browser`` (less: a school is one address, and one pupil
  must not take the school's budget), anything else ``per_address``.
* When a core frees (or a waiter looks again), it goes to the waiting ticket whose
  clients have used the smallest fraction of their budgets (ties: the earliest). A
  visitor flooding the queue therefore waits behind every other visitor, and a
  visitor over its budget (a fraction of 1 or more) behind every visitor within
  theirs: its bot still moves when no one else waits (the cores are not left idle),
  but never before another visitor's work.
* :meth:`CpuBudget.check` refuses (:class:`~.errors.TooMany`, HTTP 429) at once a
  request that can be refused (an analysis, a hint, a lab search, a new game with
  bots) for a client over its budget, saying how much it used of what; a bot's move
  in a game already made is not refused, it waits.
* :attr:`CpuBudget.granted` logs the order in which tickets got their core (the last
  :data:`LOG` grants, each as ``(label, clients)``): the fairness is observable.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager

from ..system.cpu_meter import CpuMeter
from .errors import TooMany

LOG = 200
"""Grants :attr:`CpuBudget.granted` remembers."""
SWEEP_EVERY = 256
"""Charges between two sweeps of the clients whose charges all left the window (a
visitor who never comes back is forgotten: the memory follows the window's visitors)."""


class Ticket:
    """One piece of engine work in the queue: wait for its core, then say when it is done."""

    def __init__(self, budget: CpuBudget, clients: tuple[str, ...], label: str, order: int) -> None:
        self.clients = clients
        self.label = label
        self.order = order
        self.meter = CpuMeter()
        """The CPU its work used so far (:meth:`measured`)."""
        self.started: float | None = None
        """When it got its core (the budget's clock), ``None`` while it waits."""
        self.finished = False
        self._budget = budget
        self._granted = threading.Event()

    @property
    def running(self) -> bool:
        """Whether it holds a core now."""
        return self.started is not None and not self.finished

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the core; ``True`` once granted. A waiter
        that times out looks at the queue again (a budget may have slid free), so a
        caller loops on this, checking between calls whether its work is still wanted."""
        if self._granted.is_set():
            return True
        self._budget.dispatch()
        return self._granted.wait(timeout)

    def measured(self) -> AbstractContextManager[CpuMeter]:
        """A block whose CPU (the calling thread's and its search's helper threads')
        is charged to this ticket: the work runs inside it, once granted."""
        return self.meter.measure()

    def done(self) -> None:
        """The work ended (or was abandoned while waiting): charge it, free its core."""
        self._budget.leave(self)

    def _grant(self, now: float) -> None:
        self.started = now
        self._granted.set()


class CpuBudget:
    """CPU seconds per client over a sliding window, and a fair queue for the cores."""

    def __init__(
        self,
        cores: int,
        window: float,
        per_browser: float,
        per_address: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cores = max(1, cores)
        self.window = window
        self.per_browser = per_browser
        self.per_address = per_address
        self._clock = clock
        self._lock = threading.Lock()
        self._charges: dict[str, deque[tuple[float, float]]] = {}
        self._waiting: list[Ticket] = []
        self._running: list[Ticket] = []
        self._order = itertools.count()
        self._since_sweep = 0
        self.granted: deque[tuple[str, tuple[str, ...]]] = deque(maxlen=LOG)

    def limit(self, client: str) -> float:
        """The CPU seconds ``client`` may use a window."""
        return self.per_browser if client.startswith("browser ") else self.per_address

    def usage(self, client: str) -> float:
        """CPU seconds ``client`` used within the window (its running work included)."""
        with self._lock:
            return self._usage(client, self._clock())

    def busy(self) -> int:
        """Tickets holding a core now."""
        with self._lock:
            return len(self._running)

    def queued(self) -> list[str]:
        """The labels of the waiting tickets, earliest first."""
        with self._lock:
            return [t.label for t in self._waiting]

    def check(self, clients: tuple[str, ...], what: str) -> None:
        """Refuse (429) new refusable work (``what``: "analyses", "hints", ...) for a
        client that used its budget."""
        with self._lock:
            now = self._clock()
            for client in clients:
                used, limit = self._usage(client, now), self.limit(client)
                if used >= limit:
                    kind = client.split(" ", 1)[0]
                    raise TooMany(
                        f"your {kind} used {used:.0f} CPU seconds of engine work in the last "
                        f"{self.window:.0f} seconds, its budget of {limit:.0f}; no more {what} "
                        "for it until that time has passed, while other visitors' work goes first",
                        code="cpu_budget",
                    )

    def enter(self, clients: tuple[str, ...], label: str) -> Ticket:
        """Queue a piece of work for ``clients`` (see the module's contract)."""
        ticket = Ticket(self, clients, label, next(self._order))
        with self._lock:
            self._waiting.append(ticket)
            self._dispatch(self._clock())
        return ticket

    def dispatch(self) -> None:
        """Hand free cores to the waiting tickets that may have them now."""
        with self._lock:
            self._dispatch(self._clock())

    def leave(self, ticket: Ticket) -> None:
        """See :meth:`Ticket.done` (idempotent)."""
        with self._lock:
            if ticket.finished:
                return
            ticket.finished = True
            now = self._clock()
            if ticket in self._waiting:
                self._waiting.remove(ticket)
            elif ticket in self._running:
                self._running.remove(ticket)
                spent = ticket.meter.seconds()
                for client in ticket.clients:
                    self._charges.setdefault(client, deque()).append((now, spent))
                self._since_sweep += 1
                if self._since_sweep >= SWEEP_EVERY:
                    self._sweep(now)
            self._dispatch(now)

    # ------------------------------------------------------------------ under the lock

    def _sweep(self, now: float) -> None:
        """Forget the clients whose latest charge left the window."""
        self._since_sweep = 0
        gone = [c for c, charges in self._charges.items() if charges[-1][0] <= now - self.window]
        for client in gone:
            del self._charges[client]

    def clients(self) -> int:
        """Clients with charges kept now (those within the window, and those not swept
        yet)."""
        with self._lock:
            return len(self._charges)

    def _usage(self, client: str, now: float) -> float:
        charges = self._charges.get(client)
        past = 0.0
        if charges is not None:
            while charges and charges[0][0] <= now - self.window:
                charges.popleft()
            if not charges:
                del self._charges[client]
            past = sum(seconds for _, seconds in charges)
        running = sum(t.meter.seconds() for t in self._running if client in t.clients)
        return past + running

    def _may_run(self, client: str) -> bool:
        """Whether ``client`` runs fewer tickets than its part of the cores."""
        part = self.cores // 4 if client.startswith("browser ") else self.cores // 2
        running = sum(client in t.clients for t in self._running)
        return running < max(1, part)

    def _share(self, ticket: Ticket, now: float) -> float:
        """The largest fraction of a budget ``ticket``'s clients used (1 or more: over)."""
        worst = 0.0
        for client in ticket.clients:
            fraction = self._usage(client, now) / max(self.limit(client), 1e-9)
            worst = max(worst, fraction)
        return worst

    def _dispatch(self, now: float) -> None:
        while len(self._running) < self.cores and self._waiting:
            ranked = []
            for ticket in self._waiting:
                if not all(self._may_run(client) for client in ticket.clients):
                    continue
                ranked.append((self._share(ticket, now), ticket.order, ticket))
            if not ranked:
                return
            ticket = min(ranked, key=lambda entry: (entry[0], entry[1]))[2]
            self._waiting.remove(ticket)
            self._running.append(ticket)
            ticket._grant(now)
            self.granted.append((ticket.label, ticket.clients))
