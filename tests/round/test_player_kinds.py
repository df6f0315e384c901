"""The kinds of player in a seat (:mod:`adjacency.round.player_kinds`) and the rules they
imply, the takeback target they decide, and the record of games ended lately
(:mod:`adjacency.round.recent`): against their stated rules, and, for the takeback
target and the record, against a naive oracle over random games and ids."""

from __future__ import annotations

import hypothesis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import COLORS, Color, Position
from adjacency.core.game import Move
from adjacency.round.player_kinds import Kind, Kinds, clock_runs, people, takes_back
from adjacency.round.recent import RecentlyEnded
from adjacency.round.state import Round
from adjacency.round.takeback import takeback

RULES = {
    # kind: (server_plays, clock_from_ask, illegal_forfeits, chooses_end, paced,
    #        always_present, needs_connection)
    Kind.PERSON: (False, True, False, True, False, False, False),
    Kind.CONNECTED: (False, True, True, False, True, False, True),
    Kind.HOUSE: (True, False, True, False, True, True, False),
    Kind.HOSTED: (True, False, True, False, True, True, False),
}
"""The rules the module docstring states, kind by kind, written out as a table."""


@pytest.mark.parametrize("kind", list(Kind))
def test_each_kind_has_the_rules_its_docstring_states(kind: Kind) -> None:
    assert (
        kind.server_plays,
        kind.clock_from_ask,
        kind.illegal_forfeits,
        kind.chooses_end,
        kind.paced,
        kind.always_present,
        kind.needs_connection,
    ) == RULES[kind]
    assert kind.is_person == (kind is Kind.PERSON)
    assert Kind(kind.value) is kind  # the value names it (servers may store it)


@given(kind=st.sampled_from(list(Kind)), computing=st.booleans())
def test_a_clock_runs_from_the_ask_or_while_the_server_computes(
    kind: Kind, computing: bool
) -> None:
    assert clock_runs(kind, computing) == (not kind.server_plays or computing)


KINDS = st.fixed_dictionaries({c: st.sampled_from(list(Kind)) for c in COLORS})


@st.composite
def rounds(draw: st.DrawFn) -> Round:
    """A round of 0 to 12 random legal moves from a 6x6 start."""
    state = Round.begin(Position.start(6, 6, 4, "x"))
    for _ in range(draw(st.integers(0, 12))):
        if state.is_over:
            break
        legal = sorted(state.position.legal_moves())
        if not legal:
            break
        square = legal[draw(st.integers(0, len(legal) - 1))]
        position = state.position.play(square)
        state = Round(
            (*state.positions, position),
            (*state.moves, Move(square, 0.0)),
        )
    return state


def naive_target(state: Round, kinds: Kinds, sides: tuple[Color, ...] | None) -> int | None:
    """The moves left after the last move of a person (of ``sides``), searched from the start."""
    found = None
    for i, position in enumerate(state.positions[: len(state.moves)]):
        if kinds[position.turn].is_person and (sides is None or position.turn in sides):
            found = i
    return found


@settings(max_examples=200, deadline=None)
@given(
    state=rounds(),
    kinds=KINDS,
    sides=st.one_of(st.none(), st.sampled_from([("x",), ("o",), ("x", "o")])),
)
def test_a_takeback_takes_back_the_last_persons_move_and_the_replies_after_it(
    state: Round, kinds: Kinds, sides: tuple[Color, ...] | None
) -> None:
    target = takes_back(state, kinds, sides)
    assert target == naive_target(state, kinds, sides)
    hypothesis.event("nothing to take back" if target is None else "taken back")
    if target is None:
        return
    after, _ = takeback(state, target, 0.0)
    assert kinds[after.turn].is_person  # a person is to move again, where they moved
    assert len(after.moves) == target
    assert people(kinds)  # only a person's move is ever taken back


def test_people_are_the_sides_a_person_plays_x_first() -> None:
    assert people({"x": Kind.PERSON, "o": Kind.PERSON}) == ["x", "o"]
    assert people({"x": Kind.HOUSE, "o": Kind.PERSON}) == ["o"]
    assert people({"x": Kind.HOSTED, "o": Kind.CONNECTED}) == []


@settings(max_examples=200, deadline=None)
@given(kept=st.integers(1, 6), ids=st.lists(st.integers(0, 12), max_size=40))
def test_the_record_of_ended_games_keeps_the_latest_ones(kept: int, ids: list[int]) -> None:
    recent = RecentlyEnded(kept)
    for game_id in ids:
        recent.add(game_id)
    latest: list[int] = []
    for game_id in reversed(ids):  # the naive oracle: the last `kept` distinct ids
        if game_id not in latest and len(latest) < kept:
            latest.append(game_id)
    assert len(recent) == len(latest) <= kept
    assert {i for i in range(13) if i in recent} == set(latest)
    assert "3" not in recent  # an id of another type is no game ended


def test_a_record_that_keeps_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        RecentlyEnded(0)
