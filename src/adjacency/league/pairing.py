"""Who plays whom: the scheduler's pairing rule as pure functions (docs/league.md,
"The pairing rule").

No hall, no store, no clock: a pass is decided from the pairable members (bots and
house bots; people only play the games they ask for), how many games each may start
now, the open colour-swapped pairs and the games played so far. The hall's scheduler
(:meth:`adjacency.league.play.scheduler.Scheduler.pair`) gathers those, starts the games
this module names, and records the new pairs (a new pair takes the league's next
opening when the scheduler records it, so the opening is not decided here).

The rule, which :func:`plan` implements:

1. **Open pairs first**, oldest first (in the order given): the next game of a pair
   starts when both its members may still start a game, X and O by the leg (leg 0:
   ``a`` plays X; leg 1: colours swapped). A pair of a member with itself never plays.
2. **Then new pairs** between the members that may still start a game, in the order
   of :func:`cost`: the fewest games between the two first (the open-pair games of
   this pass included), then the pair whose member has waited longest, then the
   closest ratings, ties broken by the members' ids; each member is in at most one new
   pair per pass; two house bots are paired only when ``house_games`` allows it. The
   member listed first plays X.
3. **Nobody replays a much-played pair while a less-played opponent is coming.** A
   pair A-B is not started while A (or B) has an opponent C that is present (connected,
   possibly playing or resting now) with more than :data:`SLACK` fewer games against A
   than A-B have: A waits for C instead (at most :data:`PATIENCE` seconds). Without
   this, members that become free together are paired together again and again, and
   a pair of members that are never free at the same moment never meets (a probe
   once found 1,000 games of one pair, none of another). tests/league/test_pairing.py checks with
   simulated finishing orders that no pair falls behind.

Contract: the result is a function of the arguments alone (the same inputs give the
same pairings), a member is in no more games than its ``slots``, and the arguments
are not changed.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SLACK = 2
"""Games (one colour-swapped pair) a pair may have beyond the least-played present
opponent of either member before they wait for that opponent instead."""
PATIENCE = 120.0
"""Seconds a free member waits for a less-played opponent before it plays anyone."""


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
    present: bool = True
    """Whether it will be free again soon (a connected bot or a house bot, playing,
    resting or free): free members wait for a present opponent they have met least."""
    waiting: float = 0.0
    """Seconds it has been free (the longest-waiting member is paired first)."""


@dataclass(frozen=True)
class OpenPair:
    """A colour-swapped pair with a game still to play (``store.games.open_pairs()``)."""

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


def cost(a: Entrant, b: Entrant, played: Mapping[tuple[int, int], int]) -> tuple[int, float, float]:
    """The order of new pairs (lowest first): the games ``a`` and ``b`` have played
    (``played`` by :func:`key`), then minus the longer wait of the two, then their rating
    gap."""
    return (played.get(key(a.id, b.id), 0), -max(a.waiting, b.waiting), abs(a.rating - b.rating))


def admissible(a: Entrant, b: Entrant, house_games: bool) -> bool:
    """Whether ``a`` and ``b`` may ever play each other."""
    return a.id != b.id and (house_games or not (a.house and b.house))


def fewest(
    entrants: Sequence[Entrant], played: Mapping[tuple[int, int], int], house_games: bool
) -> dict[int, int]:
    """For each entrant, the fewest games it has played against a present opponent it
    may play (absent: no such opponent)."""
    least: dict[int, int] = {}
    for a in entrants:
        for b in entrants:
            if b.present and admissible(a, b, house_games):
                n = played.get(key(a.id, b.id), 0)
                least[a.id] = min(least.get(a.id, n), n)
    return least


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
    return pairings + new_pairs(free, games, house_games, entrants)


def new_pairs(
    free: Sequence[Entrant],
    played: Mapping[tuple[int, int], int],
    house_games: bool = True,
    everyone: Sequence[Entrant] = (),
) -> list[Pairing]:
    """New pairs among ``free`` members in :func:`cost` order, each member in one at
    most, none that rule 3 of the module defers (``everyone``: every entrant, busy ones
    included; the free ones count too); the member listed earlier in ``free`` plays X."""
    least = fewest([*everyone, *(e for e in free if e not in everyone)], played, house_games)
    costs: list[tuple[tuple[int, float, float], int, int]] = []
    for i, a in enumerate(free):
        for b in free[i + 1 :]:
            if not admissible(a, b, house_games):
                continue
            n = played.get(key(a.id, b.id), 0)
            deferred = any(n > least.get(m.id, n) + SLACK and m.waiting < PATIENCE for m in (a, b))
            if not deferred:
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
