"""Whether the league's store takes writes, and what waits for it while it does not
(:class:`WriteHealth`): the league's *degraded* state.

Contract: no player is told a result that was not stored. When the store refuses a
write (a full disk), the game that ended is reported aborted instead and kept here
(:attr:`WriteHealth.unstored`); the league is degraded (:attr:`WriteHealth.failure`,
said once in the log, without a traceback, and on ``/api/league/health``) and the
scheduler pairs nobody until :meth:`WriteHealth.retry` succeeds, which stores those
games as aborted, with their moves, first.
"""

from __future__ import annotations

import logging
import time

from ...core.details import Detail
from ...serving.logs import say
from ..league_file import LeagueStore

log = logging.getLogger(__name__)


class WriteHealth:
    """The store's health as the games in play saw it: failing or not, since when, and
    the games that ended meanwhile."""

    def __init__(self, store: LeagueStore) -> None:
        self.store = store
        self.failure: str | None = None
        """Why the store refuses writes (a full disk), while it does: the league is
        degraded and pairs nobody; ``None`` when writes work."""
        self.since: float | None = None
        """When writes began to fail (epoch seconds), while they do."""
        self.unstored: dict[int, tuple[Detail, str, int]] = {}
        """Games that ended while writes failed, reported aborted and to be stored so
        when writes work again: ``id: (detail, record, plies)``."""

    def failed(self, what: str, exc: BaseException) -> None:
        """The store refused a write (``what`` was being written): the league is degraded
        from now until :meth:`retry` succeeds. Logged once per failure spell, with
        its reason and without a traceback (a full disk fails every write, several a
        second: a log of tracebacks would only fill it sooner)."""
        if self.failure is None:
            self.failure = f"could not store {what}: {exc}"
            self.since = time.time()
            say(log, logging.ERROR, "league-degraded", failure=self.failure)
        else:
            log.debug("could not store %s: %s", what, exc)

    def retry(self) -> bool:
        """Try writing again (the degraded league's probe): store the games that ended
        meanwhile as aborted, then a write the size of a game's record. On success the
        league is healthy again (logged) and ``True`` is returned."""
        try:
            for game_id, (detail, record, plies) in list(self.unstored.items()):
                self.store.games.abort_game(game_id, detail, record, plies)
                del self.unstored[game_id]
            self.store.meta.probe_write()
        except Exception as exc:  # still failing: said once already
            log.debug("writes still fail: %s", exc)
            return False
        if self.failure is not None:
            say(log, logging.WARNING, "writes-work-again")
        self.failure = self.since = None
        return True
