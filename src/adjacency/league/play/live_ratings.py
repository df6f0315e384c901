"""The ratings and pair counts the games in play and the scheduler read many times a
second, read from the store once and kept up to date as games start and end
(:class:`LiveRatings`).

Contract: :meth:`LiveRatings.current` equals the store's current ratings as long as
every rated end goes through :meth:`LiveRatings.rated`; after an end the store could not
write, the ratings are read again (:meth:`LiveRatings.forget`).
"""

from __future__ import annotations

import collections

from ...ratings.glicko import Glicko
from ..league_file import LeagueStore


class LiveRatings:
    """Current ratings and games per pair of one league server, cached."""

    def __init__(self, store: LeagueStore) -> None:
        self.store = store
        self._ratings: dict[int, Glicko] | None = None
        self._between: collections.Counter[tuple[int, int]] | None = None

    def current(self) -> dict[int, Glicko]:
        """Current ratings: read once (the members that have one; the others have the
        start rating), then kept up to date as games end."""
        if self._ratings is None:
            self._ratings = self.store.ratings.current_ratings()
        return collections.defaultdict(Glicko, self._ratings)

    def between(self) -> collections.Counter[tuple[int, int]]:
        """Games (finished or in play) per pair of member ids, smaller id first; the
        games count a game in here as it starts."""
        if self._between is None:
            self._between = collections.Counter(self.store.games.games_between())
        return self._between

    def of(self, x_id: int, o_id: int) -> dict[str, float]:
        """Two members' ratings now (the start rating for one without games), rounded."""
        ratings = self.current()
        return {"x": round(ratings[x_id].rating, 1), "o": round(ratings[o_id].rating, 1)}

    def rated(self, x_id: int, o_id: int, new_x: Glicko, new_o: Glicko) -> None:
        """A game's end was stored with these new ratings."""
        if self._ratings is not None:
            self._ratings[x_id] = new_x
            self._ratings[o_id] = new_o

    def forget(self) -> None:
        """Read the ratings and the pair counts again next time (an end the store
        refused, a game the teacher voided)."""
        self._ratings = None
        self._between = None
