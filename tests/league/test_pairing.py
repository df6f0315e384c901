"""The pairing rule as pure functions (adjacency.league.pairing), without a server:
who plays whom given the members, how many games each may start, the open pairs and
the games so far (docs/league.md, "The pairing rule")."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from adjacency.league.pairing import (
    PAIR_REPEAT,
    Entrant,
    OpenPair,
    Pairing,
    cost,
    key,
    new_pairs,
    plan,
)

IDS = st.integers(1, 9)


@st.composite
def passes(
    draw: st.DrawFn, max_slots: int = 2
) -> tuple[list[Entrant], list[OpenPair], dict[tuple[int, int], int], bool]:
    """A scheduler pass's inputs: entrants (unique ids), open pairs (some naming members
    that are not entrants, or one member twice), games played so far, house_games."""
    ids = draw(st.lists(IDS, unique=True, max_size=7))
    entrants = [
        Entrant(
            i,
            draw(st.integers(0, max_slots)),
            float(draw(st.integers(1200, 1800))),
            draw(st.booleans()),
        )
        for i in ids
    ]
    rows = draw(st.lists(st.tuples(IDS, IDS, st.integers(0, 3), st.integers(0, 1)), max_size=5))
    open_pairs = [
        OpenPair(n + 1, a, b, opening, leg) for n, (a, b, opening, leg) in enumerate(rows)
    ]
    games = draw(st.lists(st.tuples(IDS, IDS, st.integers(1, 3)), max_size=8))
    played = {key(a, b): n for a, b, n in games if a != b}
    return entrants, open_pairs, played, draw(st.booleans())


def appearances(pairings: Sequence[Pairing]) -> Counter[int]:
    return Counter(m for p in pairings for m in (p.x, p.o))


def admissible(a: Entrant, b: Entrant, house_games: bool) -> bool:
    return a.id != b.id and (house_games or not (a.house and b.house))


@given(passes())
def test_only_free_members_play_and_none_beyond_its_slots(
    inputs: tuple[list[Entrant], list[OpenPair], dict[tuple[int, int], int], bool],
) -> None:
    entrants, open_pairs, played, house_games = inputs
    slots = {e.id: e.slots for e in entrants}
    pairings = plan(entrants, open_pairs, played, house_games)
    for member, games in appearances(pairings).items():
        assert member in slots and 1 <= games <= slots[member]
    assert all(p.x != p.o for p in pairings)


@given(passes(max_slots=1))
def test_with_one_game_each_nobody_plays_twice_in_a_pass(
    inputs: tuple[list[Entrant], list[OpenPair], dict[tuple[int, int], int], bool],
) -> None:
    entrants, open_pairs, played, house_games = inputs
    pairings = plan(entrants, open_pairs, played, house_games)
    assert all(n == 1 for n in appearances(pairings).values())


@given(passes())
def test_each_member_is_in_at_most_one_new_pair(
    inputs: tuple[list[Entrant], list[OpenPair], dict[tuple[int, int], int], bool],
) -> None:
    entrants, open_pairs, played, house_games = inputs
    fresh = [p for p in plan(entrants, open_pairs, played, house_games) if p.pair is None]
    assert all(n == 1 for n in appearances(fresh).values())


@given(passes())
def test_the_same_inputs_give_the_same_pairings_and_are_not_changed(
    inputs: tuple[list[Entrant], list[OpenPair], dict[tuple[int, int], int], bool],
) -> None:
    entrants, open_pairs, played, house_games = inputs
    before = copy.deepcopy(inputs)
    first = plan(entrants, open_pairs, played, house_games)
    assert inputs == before
    assert plan(*copy.deepcopy(before)) == first


@given(passes())
def test_open_pairs_come_first_in_order_with_colours_by_leg(
    inputs: tuple[list[Entrant], list[OpenPair], dict[tuple[int, int], int], bool],
) -> None:
    entrants, open_pairs, played, house_games = inputs
    slots = {e.id: e.slots for e in entrants}
    pairings = plan(entrants, open_pairs, played, house_games)
    replayed = [p for p in pairings if p.pair is not None]
    assert pairings[: len(replayed)] == replayed  # before every new pair
    by_id = {p.pair: p for p in open_pairs}
    numbers = [p.pair for p in replayed if p.pair is not None]
    assert numbers == sorted(numbers)  # oldest first
    used: Counter[int] = Counter()
    for open_pair in open_pairs:
        a, b = open_pair.a, open_pair.b
        can = a != b and slots.get(a, 0) - used[a] >= 1 and slots.get(b, 0) - used[b] >= 1
        game = next((p for p in replayed if p.pair == open_pair.pair), None)
        assert (game is not None) == can  # played exactly when both may still start one
        if game is not None:
            assert (game.x, game.o) == ((a, b) if open_pair.leg == 0 else (b, a))
            assert game.opening == by_id[open_pair.pair].opening and game.leg == open_pair.leg
            used.update((a, b))


@given(passes())
def test_new_pairs_are_cheapest_first_and_leave_no_admissible_pair_unplayed(
    inputs: tuple[list[Entrant], list[OpenPair], dict[tuple[int, int], int], bool],
) -> None:
    entrants, open_pairs, played, house_games = inputs
    pairings = plan(entrants, open_pairs, played, house_games)
    replayed = [p for p in pairings if p.pair is not None]
    games: Counter[tuple[int, int]] = Counter(played)
    games.update(key(p.x, p.o) for p in replayed)  # this pass's open-pair games count
    left = Counter({e.id: e.slots for e in entrants})
    left.subtract(appearances(replayed))
    available = {e.id: e for e in entrants if left[e.id] > 0}
    order = list(available)
    for game in (p for p in pairings if p.pair is None):
        assert game.opening is None and game.leg == 0
        a, b = available[game.x], available[game.o]
        assert order.index(a.id) < order.index(b.id)  # the member listed first plays X
        candidates = [
            (cost(c, d, games), c.id, d.id)
            for i, c in enumerate(available.values())
            for d in list(available.values())[i + 1 :]
            if admissible(c, d, house_games)
        ]
        assert (cost(a, b, games), a.id, b.id) == min(candidates)
        del available[a.id], available[b.id]
    rest = list(available.values())
    assert not any(admissible(c, d, house_games) for i, c in enumerate(rest) for d in rest[i + 1 :])


def test_close_ratings_and_new_opponents_go_first() -> None:
    a, b, c = Entrant(1, 1, 1500.0), Entrant(2, 1, 1510.0), Entrant(3, 1, 1700.0)
    assert plan([a, b, c], [], {}) == [Pairing(1, 2, None, None)]
    # one game already played weighs PAIR_REPEAT rating points: a second 1-2 game costs
    # 10 + 100, so 1 meets 3 instead while their gap is below that, and 2 waits
    near = Entrant(3, 1, 1500.0 - (PAIR_REPEAT - 1))
    assert plan([a, b, near], [], {key(1, 2): 1}) == [Pairing(1, 3, None, None)]
    far = Entrant(3, 1, 1500.0 - (PAIR_REPEAT + 11))
    assert plan([a, b, far], [], {key(1, 2): 1}) == [Pairing(1, 2, None, None)]
    assert cost(a, b, {key(2, 1): 2}) == 10.0 + 2 * PAIR_REPEAT


def test_house_bots_meet_only_when_the_league_allows_it() -> None:
    house = [Entrant(1, 1, 1500.0, house=True), Entrant(2, 1, 1500.0, house=True)]
    assert plan(house, [], {}, house_games=False) == []
    assert plan(house, [], {}, house_games=True) == [Pairing(1, 2, None, None)]


def test_an_open_pair_waits_for_both_members_and_its_game_counts_in_this_pass() -> None:
    a, b, c = Entrant(1, 2, 1500.0), Entrant(2, 1, 1500.0), Entrant(3, 1, 1550.0)
    waiting = OpenPair(7, 1, 4, 2, 1)  # member 4 is not free: the pair waits
    second = OpenPair(8, 1, 2, 3, 1)  # leg 1: colours swapped
    pairings = plan([a, b, c], [waiting, second], {})
    assert pairings[0] == Pairing(2, 1, 8, 3, 1)
    # then member 1's second slot: 2 has none left, so the new pair is 1-3
    assert pairings[1:] == [Pairing(1, 3, None, None)]
    # the open-pair game counts as played: with three slots each, 1-2 (gap 0, one game
    # now) costs PAIR_REPEAT and 1-3 (gap 50) is cheaper
    roomy = [Entrant(1, 3, 1500.0), Entrant(2, 3, 1500.0), Entrant(3, 3, 1550.0)]
    assert plan(roomy, [second], {})[1:] == [Pairing(1, 3, None, None)]
    assert plan(roomy, [], {})[:1] == [Pairing(1, 2, None, None)]


def test_new_pairs_alone_match_greedily() -> None:
    free = [Entrant(i, 1, 1500.0 + 10 * i) for i in (1, 2, 3, 4, 5)]
    fresh = new_pairs(free, {})
    assert fresh == [Pairing(1, 2, None, None), Pairing(3, 4, None, None)]


def test_a_pass_reads_played_games_by_unordered_pair() -> None:
    a, b, c = Entrant(1, 1, 1500.0), Entrant(2, 1, 1500.0), Entrant(3, 1, 1500.0)
    assert plan([a, b, c], [], {key(2, 1): 1, key(1, 3): 1}) == [Pairing(2, 3, None, None)]
