"""The games a server ended lately (:class:`RecentlyEnded`), so that a message about
one that was sent before its sender heard of the end (a bot's move racing the server's
abort) is recognised and dropped, rather than answered as an error about a game that
does not exist.

A bounded record: it keeps the latest :data:`KEPT` games and forgets the oldest, so a
server that runs for months holds a fixed amount of it. An id forgotten is simply a game
not in play (an error to a late message, as for any unknown game).
"""

from __future__ import annotations

import collections

KEPT = 1024
"""Games a :class:`RecentlyEnded` remembers by default (the latest)."""


class RecentlyEnded:
    """The latest games ended, at most ``kept`` of them, oldest forgotten first."""

    def __init__(self, kept: int = KEPT) -> None:
        if kept < 1:
            raise ValueError(f"a record of ended games keeps at least one, not {kept}")
        self.kept = kept
        self._ids: collections.OrderedDict[int, None] = collections.OrderedDict()

    def add(self, game_id: int) -> None:
        """Note that ``game_id`` ended now (the latest; the oldest beyond ``kept`` goes)."""
        self._ids[game_id] = None
        self._ids.move_to_end(game_id)
        while len(self._ids) > self.kept:
            self._ids.popitem(last=False)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._ids

    def __len__(self) -> int:
        return len(self._ids)
