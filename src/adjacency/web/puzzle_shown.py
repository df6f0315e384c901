"""Which browsers were shown each puzzle's solution lately (in memory): a give-up or a
hint in one browser does not rate a solve of the same puzzle in another, wherever.

Why: the store notes the solutions shown per address (:data:`.puzzle_records.REVEALS`),
but a throwaway browser on another address (a phone's network, a second connection)
could give up to see the line and the main browser then solve it, rated. No request
links two browsers on two addresses, so the rule is the puzzle's: a player's first
attempt is not rated (``shown_elsewhere``) while another browser was shown the
puzzle's line or a hint of it within the last :attr:`RecentReveals.window` seconds.
An honest player meets this only when someone else gave up on the same puzzle in the
last hour; the attempt is then recorded unrated, never counted against them.

Contract of :class:`RecentReveals` (thread-safe): :meth:`RecentReveals.note` records that ``client``
was shown ``puzzle``'s line now; :meth:`RecentReveals.shown_to_other` answers whether a browser
other than ``client`` was within the window. Memory is bounded: puzzles are the
served set's (an unknown id is refused before), each keeps at most :data:`KEPT`
recent browsers, and older entries are dropped as they are read. A restart forgets
them (at most one window's worth of reveals, the address rule still holds).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

KEPT = 64
"""Recent reveals kept per puzzle (the newest; older ones drop first)."""


class RecentReveals:
    """The browsers shown each puzzle's line within ``window`` seconds."""

    def __init__(self, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self._clock = clock
        self._shown: dict[str, deque[tuple[float, str]]] = {}
        self._lock = threading.Lock()

    def note(self, puzzle: str, client: str) -> None:
        """``client`` (a browser's key) was shown ``puzzle``'s line or a hint now."""
        with self._lock:
            self._shown.setdefault(puzzle, deque(maxlen=KEPT)).append((self._clock(), client))

    def shown_to_other(self, puzzle: str, client: str) -> bool:
        """Whether a browser other than ``client`` was shown ``puzzle``'s line within
        the window."""
        with self._lock:
            shown = self._shown.get(puzzle)
            if shown is None:
                return False
            since = self._clock() - self.window
            while shown and shown[0][0] < since:
                shown.popleft()
            if not shown:
                del self._shown[puzzle]
                return False
            return any(other != client for _, other in shown)
