"""Per-client rate limits: token buckets keyed by (client, kind of request).

Both apps keep one :class:`RateLimiter` on ``app.state.rates``; what a client may do
per minute is each app's own setting (:class:`adjacency.web.limits.Limits`,
:class:`adjacency.league.http.limits.LeagueLimits`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

PRUNE_AT = 1024
"""Buckets kept before the first sweep for idle ones (then twice what a sweep keeps)."""


@dataclass
class RateLimiter:
    """Token buckets per (client, kind): ``rate`` per minute, up to ``burst`` at once.

    Memory and cost stay flat however many clients come: a bucket that has refilled
    (its client idle long enough) is what a new one would be, so sweeps drop
    it. A sweep runs only once the buckets doubled since the last one kept, so its cost
    is spread over as many calls as it examines buckets: each :meth:`allow` costs O(1)
    amortized, with thousands of drained buckets kept or not.
    """

    burst: int
    clock: Callable[[], float] = time.monotonic
    """The monotonic clock (tests pass their own)."""
    _buckets: dict[tuple[str, str], tuple[float, float, float, float]] = field(default_factory=dict)
    """``(client, kind)``: tokens left, when last counted, the bucket's size, its rate
    per second."""
    _prune_at: int = PRUNE_AT
    examined: int = 0
    """Buckets the sweeps have looked at so far (their whole cost; for tests and load
    runs)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def allow(self, client: str, kind: str, per_minute: float, burst: int | None = None) -> bool:
        """Take one token for ``client``'s ``kind`` of request; ``False`` if none is left.
        ``burst``: how many at once for this kind (default: the limiter's :attr:`burst`),
        for kinds whose clients come in crowds (a class behind one address)."""
        now = self.clock()
        key = (client, kind)
        size = float(self.burst if burst is None else burst)
        rate = per_minute / 60.0
        with self._lock:
            tokens, last, _, _ = self._buckets.get(key, (size, now, size, rate))
            tokens = min(size, tokens + (now - last) * rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now, size, rate)
                return False
            self._buckets[key] = (tokens - 1.0, now, size, rate)
            if len(self._buckets) >= self._prune_at:
                self._prune(now)
            return True

    def kept(self) -> int:
        """Buckets held now."""
        with self._lock:
            return len(self._buckets)

    def _prune(self, now: float) -> None:
        """Forget buckets that have refilled (as a new one would be; with the lock)."""
        self.examined += len(self._buckets)
        self._buckets = {
            k: b for k, b in self._buckets.items() if b[0] + (now - b[1]) * b[3] < b[2]
        }
        self._prune_at = max(PRUNE_AT, 2 * len(self._buckets))
