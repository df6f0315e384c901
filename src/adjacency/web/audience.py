"""Who follows a browser game: the listeners of its event streams, and its attendance.

A game is *attended* while a page listens to its events or an API call touched it
within ``grace`` seconds; the session (:class:`~.session.GameSession`) stops an
unattended game's bot, and its clock with it. :class:`Audience` keeps the listeners and
the moment attendance lapses, and when the last listener leaves it asks the shared
scheduler (:mod:`.timers`) to call ``on_left`` once the grace has passed, so the session
looks then (a page that came back meanwhile keeps the game attended).

Contract (every method called with the session's lock held):

* :meth:`Audience.send` gives an event to every listener in the order they came; a
  listener must not block, and one that raises is logged and does not stop the others
  or the game.
* :meth:`Audience.remove` of the last listener extends attendance by ``grace`` seconds
  from now and schedules ``on_left`` just after; :meth:`Audience.touch` extends it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .timers import Schedules

log = logging.getLogger(__name__)

Listener = Callable[[str, str], None]
"""Receives ``(event name, JSON data)``; must not block (it is called under the lock)."""


class Audience:
    """The listeners of one game and when its attendance lapses."""

    def __init__(
        self,
        grace: float,
        on_left: Callable[[], None],
        scheduler: Schedules,
        now: Callable[[], float],
    ) -> None:
        self.grace = grace
        self._on_left = on_left
        self._scheduler = scheduler
        self._now = now
        self._listeners: list[Listener] = []
        self._attended_until = now() + grace

    def add(self, listener: Listener) -> None:
        """Send the game's events to ``listener`` from now on."""
        self._listeners.append(listener)

    def remove(self, listener: Listener) -> None:
        """Stop sending events to ``listener``. When no listener is left, ``on_left``
        runs after ``grace`` seconds unless the game is attended again."""
        if listener in self._listeners:
            self._listeners.remove(listener)
        if not self._listeners:
            self._attended_until = self._now() + self.grace
            self._scheduler.call_later(self.grace + 0.05, self._on_left)

    def touch(self) -> None:
        """Note that someone uses the game now (an API call)."""
        self._attended_until = max(self._attended_until, self._now() + self.grace)

    def attended(self) -> bool:
        """Whether a page listens or an API call touched the game within ``grace`` seconds."""
        return bool(self._listeners) or self._now() < self._attended_until

    def send(self, event: str, data: str) -> None:
        """Send an event to every listener."""
        for listener in list(self._listeners):
            try:
                listener(event, data)
            except Exception:  # a broken listener must not break the game
                log.exception("listener failed")
