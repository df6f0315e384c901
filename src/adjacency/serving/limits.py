"""Per-client rate limits: token buckets keyed by (client, kind of request).

Both apps keep one :class:`RateLimiter` on ``app.state.rates``; what a client may do
per minute is each app's own setting (:class:`adjacency.web.limits.Limits`,
:class:`adjacency.league.limits.LeagueLimits`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass
class RateLimiter:
    """Token buckets per (client, kind): ``rate`` per minute, up to ``burst`` at once."""

    burst: int
    _buckets: dict[tuple[str, str], tuple[float, float, float]] = field(default_factory=dict)
    """``(client, kind)``: tokens left, when last counted, the bucket's size."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def allow(self, client: str, kind: str, per_minute: float, burst: int | None = None) -> bool:
        """Take one token for ``client``'s ``kind`` of request; ``False`` if none is left.
        ``burst``: how many at once for this kind (default: the limiter's :attr:`burst`),
        for kinds whose clients come in crowds (a class behind one address)."""
        now = time.monotonic()
        key = (client, kind)
        size = float(self.burst if burst is None else burst)
        with self._lock:
            tokens, last, _ = self._buckets.get(key, (size, now, size))
            tokens = min(size, tokens + (now - last) * per_minute / 60.0)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now, size)
                return False
            self._buckets[key] = (tokens - 1.0, now, size)
            if len(self._buckets) > 10_000:  # forget idle clients (nearly full buckets)
                for k, (t, _, full) in list(self._buckets.items()):
                    if t >= full - 1:
                        del self._buckets[k]
            return True
