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
    PATIENCE,
    SLACK,
    Entrant,
    OpenPair,
    Pairing,
    admissible,
    cost,
    fewest,
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
            draw(st.booleans()),
            float(draw(st.sampled_from([0, 1, 5, PATIENCE]))),
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
    least = fewest(entrants, games, house_games)

    def allowed(c: Entrant, d: Entrant) -> bool:
        n = games[key(c.id, d.id)]
        waits = [m for m in (c, d) if n > least.get(m.id, n) + SLACK and m.waiting < PATIENCE]
        return admissible(c, d, house_games) and not waits

    for game in (p for p in pairings if p.pair is None):
        assert game.opening is None and game.leg == 0
        a, b = available[game.x], available[game.o]
        assert order.index(a.id) < order.index(b.id)  # the member listed first plays X
        candidates = [
            (cost(c, d, games), c.id, d.id)
            for i, c in enumerate(available.values())
            for d in list(available.values())[i + 1 :]
            if allowed(c, d)
        ]
        assert (cost(a, b, games), a.id, b.id) == min(candidates)
        del available[a.id], available[b.id]
    rest = list(available.values())
    assert not any(allowed(c, d) for i, c in enumerate(rest) for d in rest[i + 1 :])


def test_new_opponents_then_the_longest_wait_then_close_ratings_go_first() -> None:
    a, b, c = Entrant(1, 1, 1500.0), Entrant(2, 1, 1510.0), Entrant(3, 1, 1700.0)
    assert plan([a, b, c], [], {}) == [Pairing(1, 2, None, None)]
    # one game already played outweighs any rating gap: 2 meets 3 (the closer), 1 waits
    far = Entrant(3, 1, 2500.0)
    assert plan([a, b, far], [], {key(1, 2): 1}) == [Pairing(2, 3, None, None)]
    # among pairs with as many games, the one with the longest-waiting member first
    patient = Entrant(3, 1, 1700.0, waiting=5.0)
    assert plan([a, b, patient], [], {}) == [Pairing(2, 3, None, None)]
    assert cost(a, b, {key(2, 1): 2}) == (2, -0.0, 10.0)


def test_a_free_member_waits_for_a_busy_opponent_it_has_met_least() -> None:
    # 1 and 2 have played 10 games; 3 (present, playing now) has met neither
    a, b, busy = Entrant(1, 1, 1500.0), Entrant(2, 1, 1500.0), Entrant(3, 0, 1500.0)
    assert plan([a, b, busy], [], {key(1, 2): 10}) == []
    # an opponent that is not present (not connected) is not waited for
    gone = Entrant(3, 0, 1500.0, present=False)
    assert plan([a, b, gone], [], {key(1, 2): 10}) == [Pairing(1, 2, None, None)]
    # within SLACK games of the least-played opponent, or after PATIENCE, they play
    assert plan([a, b, busy], [], {key(1, 2): SLACK}) == [Pairing(1, 2, None, None)]
    tired = [Entrant(1, 1, 1500.0, waiting=PATIENCE), Entrant(2, 1, 1500.0, waiting=PATIENCE)]
    assert plan([*tired, busy], [], {key(1, 2): 10}) == [Pairing(1, 2, None, None)]


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
    # the open-pair game counts as played: with three slots each, 1-2 (one game now)
    # comes after 1-3 (none yet)
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


def simulate(
    ratings: list[float], house: list[bool], house_games: bool, finishing: list[int]
) -> dict[tuple[int, int], int]:
    """A league of bots with one game at a time, as the hall runs it: each pass plans
    with :func:`plan` (open colour-swapped pairs, then new pairs), then one game in play
    ends (``finishing`` picks which, by index), freeing both its players together.
    Returns the games per pair."""
    played: Counter[tuple[int, int]] = Counter()
    pairs: dict[int, list[int]] = {}  # id -> [a, b, games finished]
    flight: list[tuple[int, int, int]] = []  # (x, o, pair) in play
    for pick in finishing:
        busy = {m for x, o, _ in flight for m in (x, o)}
        entrants = [
            Entrant(i, 0 if i in busy else 1, r, h)
            for i, (r, h) in enumerate(zip(ratings, house, strict=True))
        ]
        in_play = {p for _, _, p in flight}
        open_pairs = [
            OpenPair(n, a, b, 0, done)
            for n, (a, b, done) in sorted(pairs.items())
            if done < 2 and n not in in_play
        ]
        for game in plan(entrants, open_pairs, played, house_games):
            number = game.pair if game.pair is not None else len(pairs) + 1
            pairs.setdefault(number, [game.x, game.o, 0])
            flight.append((game.x, game.o, number))
            played[key(game.x, game.o)] += 1
        if not flight:
            break
        _, _, number = flight.pop(pick % len(flight))
        pairs[number][2] += 1
    return dict(played)


@given(
    st.lists(st.tuples(st.integers(1000, 2000), st.booleans()), min_size=3, max_size=6),
    st.booleans(),
    st.lists(st.integers(0, 10), min_size=60, max_size=150),
)
def test_no_pair_of_members_falls_behind_whatever_the_finishing_order(
    members: list[tuple[int, bool]], house_games: bool, finishing: list[int]
) -> None:
    ratings = [float(r) for r, _ in members]
    house = [h for _, h in members]
    played = simulate(ratings, house, house_games, finishing)
    entrants = [Entrant(i, 1, r, h) for i, (r, h) in enumerate(zip(ratings, house, strict=True))]
    counts = [
        played.get(key(a.id, b.id), 0)
        for i, a in enumerate(entrants)
        for b in entrants[i + 1 :]
        if admissible(a, b, house_games)
    ]
    if counts:  # games per pair differ by at most two colour-swapped pairs each way
        assert max(counts) - min(counts) <= 4 * SLACK, played
