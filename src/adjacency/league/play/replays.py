"""Replays held back: when a pair whose game the machine starved may play it again
(:class:`Replays`).

A hosted move the machine's other work starved (measured outside its sandbox:
:mod:`adjacency.hosting.move_clock`) abandons its game without a result, and the pair's
leg is still to play. Started again at once, it would meet the same load, and each try
starts its programs again (two JVMs and two displays for driven programs), adding to the
load that starved it: one pair was started 16 times in 14 minutes so. So:

- **back off**: a pair whose game was starved is not paired again for
  :data:`BACKOFF` seconds, doubled at each further starved game of the pair up to
  :data:`LONGEST_BACKOFF` (the scheduler pairs the others first; an event's board
  waits), and not while the machine is still loaded past its cores (its load average
  over the last minute, the load that starved it);
- **never decided by the load**: however often a leg is starved, it is replayed; no
  result, draw included, comes from the machine's load. A leg is one game of a pair
  (its colours). The count survives a restart: the server starts with the starved games
  the store keeps of the legs still to play (``GamesRepo.starved_legs``), so the
  back-off after a restart is as long as it would have been; a back-off's time does not
  (a restart's own start is a pause).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

BACKOFF = 60.0
"""Seconds a pair waits after its first starved game (doubled at each further one)."""

LONGEST_BACKOFF = 960.0
"""The most seconds a pair waits after a starved game: a machine that starves games for
hours delays a leg by at most this past its load's end, and tries it no more often."""


@dataclass
class _Starved:
    count: int
    until: float


def machine_loaded() -> bool:
    """Whether the machine is still loaded past its cores: its load average over the
    last minute above its cores (what starved the game)."""
    try:
        return os.getloadavg()[0] > (os.cpu_count() or 1)
    except OSError:
        return False


class Replays:
    """The starved games of the pairs' legs (``legs``: those stored before this server
    started, ``(pair, leg) -> count``), and when each pair may be paired again; in the
    server's loop."""

    def __init__(
        self,
        loaded: Callable[[], bool] = machine_loaded,
        clock: Callable[[], float] = time.monotonic,
        legs: Mapping[tuple[int, int], int] | None = None,
    ) -> None:
        self.loaded = loaded
        self.clock = clock
        self._legs: dict[tuple[int, int], int] = dict(legs or {})
        self._pairs: dict[int, _Starved] = {}

    def starved(self, pair: int | None, leg: int) -> int:
        """A game of ``pair``'s ``leg`` was starved: back the pair off (longer with each
        starved game of the pair, those of its legs before a restart included); how many
        of the leg's games were starved so far. A game of no pair (a challenge) is only
        abandoned (0)."""
        if pair is None:
            return 0
        moment = self.clock()
        count = self._legs.get((pair, leg), 0) + 1
        self._legs[(pair, leg)] = count
        before = self._pairs.get(pair)
        times = max(before.count if before is not None else 0, count - 1) + 1
        wait = min(LONGEST_BACKOFF, BACKOFF * 2 ** (times - 1))
        self._pairs[pair] = _Starved(times, moment + wait)
        return count

    def waiting(self, pair: int) -> bool:
        """Whether ``pair`` is backed off now: its time not yet passed, or the machine
        still loaded past its cores."""
        starved = self._pairs.get(pair)
        if starved is None:
            return False
        return self.clock() < starved.until or self.loaded()

    def legs_starved(self, pair: int, leg: int) -> int:
        """How many games of ``pair``'s ``leg`` were starved so far."""
        return self._legs.get((pair, leg), 0)
