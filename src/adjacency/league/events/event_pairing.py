"""An event's pairings as pure functions: round robin, Swiss, and the byes
(docs/league.md, "Running a class event").

No hall, no store, no clock. Members are ids (ints), given in seeding order (the
order the event lists them). Every pairing is a :class:`Board`: a colour-swapped game
pair of ``a`` and ``b`` from one opening, ``a`` playing X in the pair's first game
(leg 0) and O in its second; a board with ``b`` ``None`` is a bye.

* :func:`round_robin`: the circle method (Berger tables). With ``n`` members (one
  virtual member added when ``n`` is odd, whose opponent has the bye) a cycle has
  ``n - 1`` rounds (``n`` when odd) and every two members meet exactly once in it;
  a double round robin plays the cycle twice, each board with ``a`` and ``b``
  swapped, so each member also moves first in the other game of each meeting.
* :func:`swiss_round`: one Swiss round from the results so far, FIDE's Dutch system
  in spirit: members ranked by score (then seed); the bye (odd numbers) to the
  lowest-ranked member that has had none; then pairs within score groups, top half
  against bottom half, floating down when a group is odd, searched exhaustively so
  that **no two members meet twice while a pairing without repeats exists** (and,
  in the same way, no two members who both must move first, or both second, meet);
  of the two, the member who has moved first in fewer pairs moves first
  (:func:`first_mover`).

Contract: each result is a function of the arguments alone (the same inputs give the
same pairings), each member is on exactly one board per round, and the arguments are
not changed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...core.text import quote
from ..store.records import LeagueError

FORMATS = ("round-robin", "double-round-robin", "swiss")
"""An event's formats."""


@dataclass(frozen=True)
class Board:
    """One pairing of a round: ``a`` against ``b`` (``a`` moves first in leg 0), or a bye
    of ``a`` when ``b`` is ``None``."""

    a: int
    b: int | None

    @property
    def bye(self) -> bool:
        """Whether this board is a bye."""
        return self.b is None


def rr_rounds(members: int, cycles: int = 1) -> int:
    """How many rounds a round robin of ``members`` members has over ``cycles`` cycles."""
    per_cycle = members - 1 if members % 2 == 0 else members
    return max(0, per_cycle) * cycles


def max_swiss_rounds(members: int) -> int:
    """The most Swiss rounds ``members`` members can play without a repeat pairing:
    one cycle of a round robin."""
    return rr_rounds(members, 1)


def round_robin(members: Sequence[int], cycles: int = 1) -> list[list[Board]]:
    """Every round of a round robin by the circle method: member 0 stays, the others
    rotate one place a round; ``cycles`` 2 is a double round robin (the second cycle the
    first with ``a`` and ``b`` swapped). The first board's colours alternate by round so
    the fixed member moves first in every other round."""
    if len(set(members)) != len(members):
        raise ValueError("a round robin's members must be distinct")
    ring: list[int | None] = list(members)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    cycle: list[list[Board]] = []
    if n < 2:
        return []
    order = ring[:]
    for r in range(n - 1):
        boards: list[Board] = []
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            boards.append(_board(a, b))
        cycle.append(boards)
        order = [order[0], order[-1], *order[1:-1]]
    rounds: list[list[Board]] = []
    for c in range(cycles):
        for boards in cycle:
            rounds.append(boards if c % 2 == 0 else [_swap(board) for board in boards])
    return rounds


def _board(a: int | None, b: int | None) -> Board:
    if a is None:
        assert b is not None
        return Board(b, None)
    return Board(a, b)


def _swap(board: Board) -> Board:
    return board if board.b is None else Board(board.b, board.a)


@dataclass(frozen=True)
class SwissPlayer:
    """A member's state before a Swiss round."""

    id: int
    score: float
    """Its points so far (game points, byes included)."""
    opponents: frozenset[int] = frozenset()
    """The members it has met."""
    first: int = 0
    """Pairs it moved first in (leg 0's X) minus pairs it moved second in."""
    byes: int = 0
    """Byes it has had."""


def first_mover(p: SwissPlayer, q: SwissPlayer) -> tuple[int, int]:
    """``(a, b)`` for a board of ``p`` and ``q``: the one who moved first in fewer pairs
    (lower :attr:`SwissPlayer.first`) moves first; on a tie the higher-ranked (``p``,
    the caller passes the higher-ranked first)."""
    return (q.id, p.id) if q.first < p.first else (p.id, q.id)


def _clash(p: SwissPlayer, q: SwissPlayer) -> bool:
    """Both must move first (or both second) to stay balanced."""
    return (p.first >= 1 and q.first >= 1) or (p.first <= -1 and q.first <= -1)


def swiss_round(players: Sequence[SwissPlayer]) -> list[Board]:
    """One Swiss round (see the module's rule). ``players`` in seeding order; they are
    ranked by score, then seed. Passes, each taken only when the ones before find no
    pairing: no repeats, a bye to one of the members with the fewest byes, no colour
    clash; the same with clashes; no repeats with any bye; anything (only when every
    pairing repeats a meeting)."""
    if len({p.id for p in players}) != len(players):
        raise ValueError("a Swiss round's players must be distinct")
    ranked = sorted(range(len(players)), key=lambda i: (-players[i].score, i))
    order = [players[i] for i in ranked]

    def no_repeat(p: SwissPlayer, q: SwissPlayer) -> bool:
        return q.id not in p.opponents

    def balanced(p: SwissPlayer, q: SwissPlayer) -> bool:
        return no_repeat(p, q) and not _clash(p, q)

    def fresh(p: SwissPlayer | None) -> bool:
        return p is None or p.byes == min(q.byes for q in order)

    anything: Callable[[SwissPlayer, SwissPlayer], bool] = lambda p, q: True  # noqa: E731
    byes = _bye_candidates(order)
    passes = [
        (balanced, [b for b in byes if fresh(b)]),
        (no_repeat, [b for b in byes if fresh(b)]),
        (no_repeat, [b for b in byes if not fresh(b)]),
        (anything, byes),
    ]
    for allowed, candidates in passes:
        for bye in candidates:
            rest = [p for p in order if p is not bye]
            pairs = _match(rest, allowed)
            if pairs is not None:
                boards = [Board(*first_mover(p, q)) for p, q in pairs]
                return boards + ([] if bye is None else [Board(bye.id, None)])
    raise AssertionError("unreachable: the last pass allows every pairing")


def _bye_candidates(order: Sequence[SwissPlayer]) -> list[SwissPlayer | None]:
    """Who may have the bye, in preference order: lowest-ranked first among those with
    the fewest byes (``[None]`` when the number is even)."""
    if len(order) % 2 == 0:
        return [None]
    fewest = min(p.byes for p in order)
    first = [p for p in reversed(order) if p.byes == fewest]
    return [*first, *(p for p in reversed(order) if p.byes != fewest)]


def _match(
    order: Sequence[SwissPlayer], allowed: Callable[[SwissPlayer, SwissPlayer], bool]
) -> list[tuple[SwissPlayer, SwissPlayer]] | None:
    """A perfect matching of ``order`` (ranked) under ``allowed``, or ``None``: the
    highest-ranked unpaired member takes, in preference order (:func:`_preferences`),
    the first opponent with which the rest can still be paired (searched exhaustively,
    memoised on the set of members left)."""
    n = len(order)

    @functools.cache
    def solve(left: frozenset[int]) -> tuple[tuple[int, int], ...] | None:
        if not left:
            return ()
        rest = sorted(left)
        top = rest[0]
        for other in _preferences(order, rest):
            if allowed(order[top], order[other]):
                tail = solve(left - {top, other})
                if tail is not None:
                    return ((top, other), *tail)
        return None

    found = solve(frozenset(range(n)))
    if found is None:
        return None
    return [(order[i], order[j]) for i, j in found]


def _preferences(order: Sequence[SwissPlayer], rest: Sequence[int]) -> list[int]:
    """The opponents of ``rest[0]`` (the highest-ranked left) in preference order: its
    own score group first, top half against bottom half (the member half a group below
    it first, then on down, then up), then the groups below, nearest score first."""
    top = rest[0]
    score = order[top].score
    group = [i for i in rest if order[i].score == score]
    half = len(group) // 2
    own = group[half:] + group[1:half] if len(group) > 1 else []
    others = sorted((i for i in rest if order[i].score != score),
                    key=lambda i: (abs(order[i].score - score), i))  # fmt: skip
    return [i for i in own if i != top] + others


def swiss_players(
    members: Sequence[int],
    rounds: Sequence[Sequence[Board]],
    points: Mapping[tuple[int, int], float],
    bye_points: float,
) -> list[SwissPlayer]:
    """Each member's :class:`SwissPlayer` after ``rounds``, in ``members``' order.
    ``points[(round index, member)]`` is what the member scored on its board in that
    round (a missing entry counts 0); a bye scores ``bye_points``."""
    score = dict.fromkeys(members, 0.0)
    opponents: dict[int, set[int]] = {m: set() for m in members}
    first = dict.fromkeys(members, 0)
    byes = dict.fromkeys(members, 0)
    for r, boards in enumerate(rounds):
        for board in boards:
            if board.b is None:
                if board.a in score:
                    byes[board.a] += 1
                    score[board.a] += bye_points
                continue
            for me, other, sign in ((board.a, board.b, 1), (board.b, board.a, -1)):
                if me in score:
                    opponents[me].add(other)
                    first[me] += sign
                    score[me] += points.get((r, me), 0.0)
    return [SwissPlayer(m, score[m], frozenset(opponents[m]), first[m], byes[m]) for m in members]


def planned_rounds(format: str, members: int, rounds: int | None) -> int:
    """The rounds an event of ``format`` with ``members`` members plays: a round robin's
    are fixed by the number of members; a Swiss plays ``rounds`` (at most a round robin's
    cycle, so no pairing need repeat). Bad input is :class:`LeagueError`."""
    if format not in FORMATS:
        raise LeagueError(f"event format {quote(format)} is not one of {', '.join(FORMATS)}")
    if format != "swiss":
        need = rr_rounds(members, 2 if format == "double-round-robin" else 1)
        if rounds is not None and rounds != need:
            raise LeagueError(
                f"a {format} of {members} members has {need} rounds, not {rounds} "
                "(leave out --rounds)"
            )
        return need
    if rounds is None or rounds < 1:
        raise LeagueError("a Swiss needs --rounds N (1 or more)")
    most = max_swiss_rounds(members)
    if rounds > most:
        raise LeagueError(
            f"a Swiss of {members} members has at most {most} rounds without repeat "
            f"pairings, not {rounds}"
        )
    return rounds
