"""Who plays whom: the scheduler's pairing rule as pure functions (docs/league.md,
"The pairing rule").

No hall, no store, no clock: a pass is decided from the pairable members (bots and
house bots; people only play the games they ask for), how many games each may start
now, the open colour-swapped pairs and the games played so far. The hall
(:meth:`adjacency.league.hall.Hall.pair`) gathers those, starts the games this
module names, and records the new pairs (a new pair takes the league's next opening
when the hall records it, so the opening is not decided here).

The rule, which :func:`plan` implements:

1. **Open pairs first**, oldest first (in the order given): the next game of a pair
   starts when both its members may still start a game, X and O by the leg (leg 0:
   ``a`` plays X; leg 1: colours swapped). A pair of a member with itself never plays.
2. **Then new pairs**, cheapest first, between the members that may still start a
   game: the cost of A and B is ``|rating A - rating B| + PAIR_REPEAT * games A and
   B have played`` (the open-pair games of this pass included), ties broken by the
   members' ids; each member is in at most one new pair per pass; two house bots are
   paired only when ``house_games`` allows it. The member listed first plays X.

Contract: the result is a function of the arguments alone (the same inputs give the
same pairings), a member is in no more games than its ``slots``, and the arguments
are not changed.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PAIR_REPEAT = 100.0
"""Rating points one more game between the same two members weighs in the pairing cost."""


@dataclass(frozen=True)
class Entrant:
    """A member the scheduler may pair (a bot or a house bot)."""

    id: int
    slots: int
    """Games it may start now: its concurrency cap minus its games in play, or 0 when
    it is not free (revoked, resting, or a bot that is not connected)."""
    rating: float
    """Its current Glicko-2 rating."""
    house: bool = False
    """Whether it is a house bot (two house bots play only when the league allows it)."""


@dataclass(frozen=True)
class OpenPair:
    """A colour-swapped pair with a game still to play (``store.open_pairs()``)."""

    pair: int
    a: int
    b: int
    opening: int
    leg: int
    """The game to play next: 0 (``a`` plays X) or 1 (``b`` plays X)."""


@dataclass(frozen=True)
class Pairing:
    """A game to start now: member ``x`` against member ``o``."""

    x: int
    o: int
    pair: int | None
    """The open pair this game belongs to, or ``None`` for a new pair (leg 0)."""
    opening: int | None
    """The open pair's opening; ``None`` for a new pair (the hall assigns it)."""
    leg: int = 0


def key(a: int, b: int) -> tuple[int, int]:
    """The unordered pair of member ids ``a`` and ``b``: smaller id first."""
    return (a, b) if a <= b else (b, a)


def cost(a: Entrant, b: Entrant, played: Mapping[tuple[int, int], int]) -> float:
    """The cost of a new pair of ``a`` and ``b``: their rating gap plus
    :data:`PAIR_REPEAT` per game they have played (``played`` by :func:`key`)."""
    return abs(a.rating - b.rating) + PAIR_REPEAT * played.get(key(a.id, b.id), 0)


def plan(
    entrants: Sequence[Entrant],
    open_pairs: Sequence[OpenPair],
    played: Mapping[tuple[int, int], int],
    house_games: bool = True,
) -> list[Pairing]:
    """The games one scheduler pass starts, in the order to start them: the open pairs'
    games, then the new pairs (see the module's rule). ``played`` counts the games
    (finished or in play) per :func:`key` of two member ids. An open pair naming a
    member not among ``entrants`` (a person, a removed member) is not played."""
    slots = {e.id: e.slots for e in entrants}
    games = collections.Counter(played)
    pairings: list[Pairing] = []
    for open_pair in open_pairs:
        a, b = open_pair.a, open_pair.b
        if a == b or slots.get(a, 0) < 1 or slots.get(b, 0) < 1:
            continue
        x, o = (a, b) if open_pair.leg == 0 else (b, a)
        pairings.append(Pairing(x, o, open_pair.pair, open_pair.opening, open_pair.leg))
        slots[a] -= 1
        slots[b] -= 1
        games[key(a, b)] += 1
    free = [e for e in entrants if slots[e.id] > 0]
    return pairings + new_pairs(free, games, house_games)


def new_pairs(
    free: Sequence[Entrant], played: Mapping[tuple[int, int], int], house_games: bool = True
) -> list[Pairing]:
    """New pairs among ``free`` members, cheapest first, each member in one at most;
    the member listed earlier in ``free`` plays X."""
    costs: list[tuple[float, int, int]] = []
    for i, a in enumerate(free):
        for b in free[i + 1 :]:
            if a.id == b.id or (a.house and b.house and not house_games):
                continue
            costs.append((cost(a, b, played), a.id, b.id))
    costs.sort()
    taken: set[int] = set()
    pairings: list[Pairing] = []
    for _, a_id, b_id in costs:
        if a_id in taken or b_id in taken:
            continue
        taken.update((a_id, b_id))
        pairings.append(Pairing(a_id, b_id, None, None))
    return pairings
