"""An event's pairings and standings as pure functions (adjacency.league.events.event_pairing,
adjacency.league.events.event_standings): round robins by the circle method, Swiss rounds
without repeats, byes, and the tie-breaks on a worked example computed by hand."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.league.events.event_pairing import (
    Board,
    SwissPlayer,
    max_swiss_rounds,
    round_robin,
    rr_rounds,
    swiss_players,
    swiss_round,
)
from adjacency.league.events.event_standings import BYE_POINTS, EventGame, crosstable, standings


def members_of(boards: Sequence[Board]) -> list[int]:
    return [m for b in boards for m in (b.a, b.b) if m is not None]


ROUND_OF = {(1, 2): 0, (3, 4): 0, (1, 3): 1, (2, 4): 1, (1, 4): 2, (2, 3): 2}
"""The rounds of a round robin of four: each member plays once a round."""


@given(st.integers(2, 14), st.integers(1, 2))
def test_a_round_robin_meets_every_pair_once_per_cycle(n: int, cycles: int) -> None:
    members = [10 + 3 * i for i in range(n)]
    rounds = round_robin(members, cycles)
    assert len(rounds) == rr_rounds(n, cycles)
    per_cycle = len(rounds) // cycles
    for c in range(cycles):
        met = Counter(
            frozenset((b.a, b.b))
            for boards in rounds[c * per_cycle : (c + 1) * per_cycle]
            for b in boards
            if b.b is not None
        )
        assert set(met.values()) == {1}
        assert len(met) == n * (n - 1) // 2
    for boards in rounds:  # every member exactly once a round
        assert sorted(members_of(boards)) == sorted(members)
        assert sum(b.bye for b in boards) == n % 2
    byes = [b.a for boards in rounds for b in boards if b.bye]
    assert Counter(byes) == Counter(members * cycles if n % 2 else [])
    if cycles == 2:  # the second cycle swaps who moves first in each meeting
        firsts = Counter((b.a, b.b) for boards in rounds for b in boards if b.b is not None)
        assert set(firsts.values()) == {1}


def test_round_robin_refuses_repeated_members() -> None:
    with pytest.raises(ValueError, match="distinct"):
        round_robin([1, 2, 2])


def play_swiss(n: int, rounds: int, seed: int) -> tuple[list[list[Board]], list[list[SwissPlayer]]]:
    """A Swiss of ``n`` members over ``rounds`` rounds with random pair results."""
    rng = random.Random(seed)
    members = list(range(1, n + 1))
    played: list[list[Board]] = []
    points: dict[tuple[int, int], float] = {}
    states: list[list[SwissPlayer]] = []
    for r in range(rounds):
        players = swiss_players(members, played, points, BYE_POINTS)
        states.append(players)
        boards = swiss_round(players)
        for board in boards:
            if board.b is not None:
                got = rng.choice([0.0, 0.5, 1.0, 1.5, 2.0])
                points[(r, board.a)] = got
                points[(r, board.b)] = 2.0 - got
        played.append(boards)
    return played, states


@given(st.integers(2, 11), st.data())
def test_a_swiss_never_repeats_while_it_can_and_balances_who_moves_first(
    n: int, data: st.DataObject
) -> None:
    rounds = data.draw(st.integers(1, max_swiss_rounds(n)))
    seed = data.draw(st.integers(0, 10**6))
    played, states = play_swiss(n, rounds, seed)
    met: set[frozenset[int]] = set()
    for boards, before in zip(played, states, strict=True):
        assert sorted(members_of(boards)) == list(range(1, n + 1))
        pairs = {frozenset((b.a, b.b)) for b in boards if b.b is not None}
        if pairs & met:  # a repeat only where no pairing without repeats exists
            assert not has_pairing_without_repeats(before)
        met |= pairs
        by_id = {p.id: p for p in before}
        for board in boards:
            if board.b is None:
                # the bye goes to a member with the fewest byes so far, unless only
                # another bye avoids a repeat
                fewest = min(p.byes for p in before)
                if by_id[board.a].byes != fewest:
                    fresh = [p for p in before if p.byes == fewest]
                    assert not has_pairing_without_repeats(before, fresh)
            else:  # the member that moved first less often moves first
                assert by_id[board.a].first <= by_id[board.b].first
    final = swiss_players(list(range(1, n + 1)), played, {}, BYE_POINTS)
    assert all(abs(p.first) <= 2 for p in final)


def has_pairing_without_repeats(
    players: Sequence[SwissPlayer], byes: Sequence[SwissPlayer] | None = None
) -> bool:
    """Brute force: can a bye (one of ``byes``, default anyone) and a matching of the
    rest avoid every repeat?"""

    def match(left: list[SwissPlayer]) -> bool:
        if not left:
            return True
        top, rest = left[0], left[1:]
        return any(
            q.id not in top.opponents and match(rest[:i] + rest[i + 1 :])
            for i, q in enumerate(rest)
        )

    if len(players) % 2 == 0:
        return match(list(players))
    return any(match([p for p in players if p is not bye]) for bye in byes or players)


def test_swiss_first_round_pairs_top_half_against_bottom_half() -> None:
    players = [SwissPlayer(i, 0.0) for i in range(1, 9)]
    boards = swiss_round(players)
    assert {(b.a, b.b) for b in boards} == {(1, 5), (2, 6), (3, 7), (4, 8)}


def test_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    players = [
        SwissPlayer(1, 2.0, byes=0),
        SwissPlayer(2, 1.0, byes=0),
        SwissPlayer(3, 0.0, byes=1),
    ]
    boards = swiss_round(players)
    assert Board(2, None) in boards


def test_tie_breaks_on_a_worked_example() -> None:
    """A single round robin of A=1, B=2, C=3, D=4, one pair per meeting. Pair results
    (points of the first named, of 2): A-B 2, A-C 1, A-D 0, B-C 2, B-D 1.5, C-D 1.
    Scores: A 2+1+0 = 3; B 0+2+1.5 = 3.5; C 1+0+1 = 2; D 2+0.5+1 = 3.5.
    Sonneborn-Berger (points against each opponent times its score):
      A: 2*3.5 + 1*2 + 0*3.5 = 9
      B: 0*3 + 2*2 + 1.5*3.5 = 9.25
      C: 1*3 + 0*3.5 + 1*3.5 = 6.5
      D: 2*3 + 0.5*3.5 + 1*2 = 9.75
    So D (3.5, SB 9.75) before B (3.5, 9.25), then A, then C.
    Buchholz (opponents' scores): A 3.5+2+3.5 = 9; B 3+2+3.5 = 8.5; C 3+3.5+3.5 = 10;
    D 3+3.5+2 = 8.5. Median Buchholz drops the highest and lowest: A 3.5, B 3, C 3.5, D 3.
    """
    results = {(1, 2): 2.0, (1, 3): 1.0, (1, 4): 0.0, (2, 3): 2.0, (2, 4): 1.5, (3, 4): 1.0}
    games: list[EventGame] = []
    for (a, b), got in results.items():
        r = ROUND_OF[a, b]
        split = {2.0: (1.0, 1.0), 1.5: (1.0, 0.5), 1.0: (1.0, 0.0), 0.0: (0.0, 0.0)}[got]
        games.append(EventGame(r, a, b, 0, split[0], margin=4))
        games.append(EventGame(r, a, b, 1, 1.0 - split[1], margin=-2))
    rows = standings([1, 2, 3, 4], games, [], swiss=False)
    assert [r.member for r in rows] == [4, 2, 1, 3]
    by = {r.member: r for r in rows}
    assert [by[m].points for m in (1, 2, 3, 4)] == [3.0, 3.5, 2.0, 3.5]
    assert [by[m].sonneborn_berger for m in (1, 2, 3, 4)] == [9.0, 9.25, 6.5, 9.75]
    assert [by[m].buchholz for m in (1, 2, 3, 4)] == [9.0, 8.5, 10.0, 8.5]
    assert [by[m].median_buchholz for m in (1, 2, 3, 4)] == [3.5, 3.0, 3.5, 3.0]
    assert [by[m].rank for m in (4, 2, 1, 3)] == [1, 2, 3, 4]
    # A's pairs: 2 (B), 1 (C), 0 (D) points of 2 -> pentanomial [1, 0, 1, 0, 1]
    assert by[1].pentanomial == [1, 0, 1, 0, 1]
    # A played X in leg 0 of each pair (margin +4) and O in leg 1 (X's margin -2: +2 for A)
    assert by[1].margin == 3.0 and by[4].margin == -3.0
    assert by[2].elo is not None and by[2].elo_low is not None and by[2].elo_low < by[2].elo
    swiss = standings([1, 2, 3, 4], games, [], swiss=True)
    assert [r.member for r in swiss] == [2, 4, 1, 3] or [r.member for r in swiss] == [4, 2, 1, 3]
    assert crosstable(games)[(2, 4)] == (1.5, 2)
    assert crosstable(games)[(4, 2)] == (0.5, 2)


def test_swiss_order_uses_buchholz_then_median_buchholz() -> None:
    """B and D tie on 3.5 points and on Buchholz (8.5) and median Buchholz (3): the tie
    stays (shared rank 1), seeding breaks the listing order only."""
    results = {(1, 2): 2.0, (1, 3): 1.0, (1, 4): 0.0, (2, 3): 2.0, (2, 4): 1.5, (3, 4): 1.0}
    games = []
    for (a, b), got in results.items():
        r = ROUND_OF[a, b]
        split = {2.0: (1.0, 1.0), 1.5: (1.0, 0.5), 1.0: (1.0, 0.0), 0.0: (0.0, 0.0)}[got]
        games += [EventGame(r, a, b, 0, split[0]), EventGame(r, a, b, 1, 1.0 - split[1])]
    rows = standings([1, 2, 3, 4], games, [], swiss=True)
    assert [(r.member, r.rank) for r in rows] == [(2, 1), (4, 1), (1, 3), (3, 4)]


def test_a_bye_scores_a_won_pair_and_adds_no_buchholz() -> None:
    games = [EventGame(0, 1, 2, 0, 1.0), EventGame(0, 1, 2, 1, 0.0)]
    rows = {r.member: r for r in standings([1, 2, 3], games, [(3, 0)], swiss=True)}
    assert rows[3].points == BYE_POINTS and rows[3].buchholz == 0 and rows[3].games == 0
    assert rows[1].points == 2.0 and rows[1].buchholz == 0.0
