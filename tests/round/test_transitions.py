"""The transitions of a game in play against the core's rules: random sequences of moves,
illegal moves and answers, flags, resignations, aborts and takebacks, applied to a
:class:`~adjacency.round.state.Round` and to the core's own :class:`~adjacency.core.game.Game`
(the oracle), agree move for move; the clocks follow their arithmetic; every transition
leaves its input as it was and says what happened."""

from __future__ import annotations

from dataclasses import dataclass, replace

import hypothesis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import IllegalMoveError, Position, other
from adjacency.core.details import Detail
from adjacency.core.errors import AdjacencyError, InvalidSquareError
from adjacency.core.game import Game, Termination
from adjacency.round.clock import Clocks
from adjacency.round.finish import NotAllowed, abandon, abort, forfeit, resign
from adjacency.round.moves import answer, flag, play, start_turn
from adjacency.round.rematch import rematch
from adjacency.round.state import Ended, Moved, Round, Step, TookBack, snapshot
from adjacency.round.takeback import takeback
from core_strategies import positions

LATE = Detail("late")
FLAG = Detail("flag")


def not_a_square(reply: object) -> Detail:
    return Detail(f"not a square: {reply!r}")


def refused(exc: AdjacencyError) -> Detail:
    return Detail(f"refused: {exc}")


@dataclass(frozen=True)
class Action:
    """One thing that happens to a game in play: ``kind`` with its draws."""

    kind: str
    pick: int
    seconds: float
    text: str


ACTIONS = st.builds(
    Action,
    st.sampled_from(
        ["play"] * 8
        + ["answer"] * 2
        + ["illegal", "junk", "flag", "resign", "abort"]
        + ["takeback"] * 2
    ),
    st.integers(0, 63),
    st.one_of(*[st.floats(0.0, 2.0)] * 6, st.floats(0.0, 60.0)),
    st.sampled_from(["z9", "a0", "", "c", "3c", "c3c", "a1b2c3d4e5", "occupied"]),
)


def square_for(state: Round, action: Action) -> str:
    position = state.position
    if action.kind in ("illegal", "junk"):
        if action.text != "occupied":
            return action.text
        return position.board.square_names(position.x | position.o)[0]
    legal = position.legal_moves()
    return legal[action.pick % len(legal)] if legal else "a1"


class Oracle:
    """The same game kept by the core's record and a plain sum of each side's time."""

    def __init__(self, start: Position, base: float, increment: float) -> None:
        self.game = Game(start)
        self.base, self.increment = base, increment

    def check(self, state: Round) -> None:
        game = self.game
        assert state.positions == tuple(game.positions)  # the core's rules, move by move
        assert state.moves == tuple(game.moves)
        assert (state.result, state.termination) == (game.result, game.termination)
        assert state.detail == game.detail


def apply(state: Round, action: Action, now: float) -> tuple[Step, str]:
    """Apply ``action`` at ``now``; the step and what the action was (for the oracle)."""
    color = state.turn
    if action.kind == "play" and not state.is_over:
        return play(state, square_for(state, action), now, action.seconds, LATE), "play"
    if action.kind in ("answer", "junk"):
        reply: object = square_for(state, action)
        if action.kind == "junk" and action.pick % 3 == 0:
            reply = [action.pick]  # not text at all
        step = answer(state, reply, now, action.seconds, LATE, not_a_square, refused)
        return step, "answer"
    if action.kind == "illegal" or (action.kind == "play" and state.is_over):
        with pytest.raises((IllegalMoveError, InvalidSquareError)):
            play(state, square_for(state, action), now, action.seconds, LATE)
        return (state, ()), "refused"
    if action.kind == "flag":
        return flag(state, now, FLAG), "flag"
    if action.kind == "resign":
        return resign(state, color, Detail("resigned"), now), "resign"
    if action.kind == "abort":
        side = color if action.pick % 2 else other(color)
        return abort(state, side, Detail("aborted"), now), "abort"
    return takeback(state, action.pick % max(1, len(state.moves)), now), "takeback"


STARTS = st.one_of(
    positions(), st.builds(Position.start, st.just(6), st.just(6), st.integers(3, 8))
)
"""Any position of the core's strategies, or a standard start with many moves to go."""


@settings(max_examples=150, deadline=None)
@given(
    start=STARTS,
    base=st.floats(5.0, 100.0),
    increment=st.sampled_from([0.0, 1.5]),
    actions=st.lists(ACTIONS, min_size=4, max_size=40),
)
def test_transitions_agree_with_the_cores_rules_and_leave_their_input_alone(
    start: Position, base: float, increment: float, actions: list[Action]
) -> None:
    now = 100.0
    state = start_turn(Round.begin(start, Clocks.full(base, increment)), now)
    oracle = Oracle(start, base, increment)
    oracle.check(state)
    for action in actions:
        before = state
        if action.kind in ("play", "answer", "junk", "flag"):
            now += action.seconds  # the mover thought (or the flag timer waited)
        try:
            copy = replace(state)
            (state, happened), _ = apply(state, action, now)
            assert copy == before  # the input is never changed
        except NotAllowed:
            assert state == before  # refused: nothing changed
            continue
        _follow(oracle, before, state, happened)
        oracle.check(state)
        assert_clocks_consistent(before, state, now)
        if not state.is_over:
            state = start_turn(state, now)  # the server asks the next side
    hypothesis.event(f"{len(state.moves)} moves, {state.termination.value}")


def _follow(oracle: Oracle, before: Round, state: Round, happened: tuple[object, ...]) -> None:
    """Replay on the oracle what the transition says happened, checking that it says so
    exactly when the round changed that way."""
    game = oracle.game
    moved = [h for h in happened if isinstance(h, Moved)]
    ended = [h for h in happened if isinstance(h, Ended)]
    took = [h for h in happened if isinstance(h, TookBack)]
    if took:
        assert not moved and not ended and not state.is_over
        assert before.termination not in (Termination.TIME_FORFEIT, Termination.RESIGNATION)
        for _ in range(took[0].plies):
            game.undo()
        return
    assert len(moved) == len(state.moves) - len(before.moves)
    for move in moved:
        assert move.color == before.turn
        game.play(move.square, move.seconds)
    assert len(ended) == (1 if state.is_over and not before.is_over else 0)
    for end in ended:
        if end.termination == Termination.NORMAL:
            assert game.is_over and game.result == end.result  # the rules ended it
        elif end.termination == Termination.ABANDONED:
            game.abandon(end.detail)
        else:  # every forfeit drawn here is the side to move's
            game.forfeit(before.turn, end.termination, end.detail)
    if not happened:
        assert state == before


def assert_clocks_consistent(before: Round, state: Round, now: float) -> None:
    """The clocks never show less than 0; a side whose clock did not run kept its time;
    a loss on time leaves the loser's clock at 0."""
    assert state.clocks is not None and before.clocks is not None
    shown = snapshot(state, now).clock
    assert shown is not None and min(shown.values()) >= 0
    running = before.clocks.running
    for color in ("x", "o"):
        if color != running:
            assert state.clocks.remaining(color) == before.clocks.remaining(color)  # type: ignore[arg-type]
    if state.termination == Termination.TIME_FORFEIT and not before.is_over:
        assert state.result is not None
        assert state.clocks.remaining(other(state.result)) == 0.0  # type: ignore[arg-type]


@given(base=st.floats(1.0, 60.0), increment=st.floats(0.0, 5.0), spent=st.floats(0.0, 120.0))
def test_a_move_is_in_time_exactly_when_its_clock_has_time_left(
    base: float, increment: float, spent: float
) -> None:
    start = Position.start(6, 6, 4)
    state = start_turn(Round.begin(start, Clocks.full(base, increment)), 0.0)
    square = start.legal_moves()[0]
    after, happened = play(state, square, spent, spent, LATE)
    assert after.clocks is not None
    if spent <= base:
        assert [type(h) for h in happened] == [Moved]
        assert after.clocks.x == pytest.approx(base - spent + increment)
        assert after.moves[-1].square == square and after.position == start.play(square)
    else:
        assert happened == (Ended("o", Termination.TIME_FORFEIT, LATE),)
        assert after.moves == () and after.clocks.x == 0.0
    _, said = flag(state, spent, FLAG)
    assert (said == ()) == (spent < base)  # the timer: at 0 or below, the flag falls


def test_a_game_without_clock_never_flags_and_a_person_move_refused_changes_nothing() -> None:
    state = Round.begin(Position.start(6, 6, 4))
    assert flag(state, 1e9, FLAG) == (state, ())
    occupied = state.position.board.square_names(state.position.x)[0]
    with pytest.raises(IllegalMoveError):
        play(state, occupied, 0.0, 0.0, LATE)
    after, _ = answer(state, occupied, 0.0, 0.0, LATE, not_a_square, refused)
    assert after.termination == Termination.ILLEGAL_MOVE and after.result == "o"
    assert after.detail.text.startswith("refused: ") and after.moves == ()
    after, _ = answer(state, None, 0.0, 0.0, LATE, not_a_square, refused)
    assert after.detail == Detail("not a square: None")


def test_abort_only_before_the_sides_first_move_and_final_ends_take_nothing_back() -> None:
    state = start_turn(Round.begin(Position.start(6, 6, 4), Clocks.full(30.0, 0.0)), 0.0)
    square = state.position.legal_moves()[0]
    moved, _ = play(state, square, 1.0, 1.0, LATE)
    with pytest.raises(NotAllowed):
        abort(moved, "x", Detail("aborted"), 2.0)
    aborted, happened = abort(moved, "o", Detail("aborted"), 2.0)
    assert aborted.result is None and happened == (
        Ended(None, Termination.ABANDONED, Detail("aborted")),
    )
    resigned, _ = resign(start_turn(moved, 1.0), "o", Detail("resigned"), 3.0)
    assert resigned.clocks is not None and resigned.clocks.o == pytest.approx(28.0)
    with pytest.raises(NotAllowed):
        takeback(resigned, 0, 4.0)
    with pytest.raises(NotAllowed):
        forfeit(resigned, "x", Termination.DISCONNECTION, Detail("crash"), 4.0)
    back, happened = takeback(aborted, 0, 4.0)
    assert back.moves == () and not back.is_over and happened == (TookBack(1),)
    with pytest.raises(NotAllowed):
        abandon(resigned, Detail("stop"), 5.0)


@given(
    start=st.builds(
        Position.start,
        st.integers(6, 8),
        st.integers(6, 8),
        st.integers(1, 6),
        st.sampled_from("xo"),
    ),
    picks=st.lists(st.integers(0, 63), max_size=12),
)
def test_a_rematch_starts_over_and_a_round_writes_into_its_record(
    start: Position, picks: list[int]
) -> None:
    state = Round.begin(start, Clocks.full(10.0, 1.0))
    record = Game(start, "Ada", "Bob")
    for pick in picks:
        if state.is_over:
            break
        legal = state.position.legal_moves()
        state, _ = play(state, legal[pick % len(legal)], 0.0, 0.5, LATE)
        record.play(state.moves[-1].square, 0.5)
    if not state.is_over:
        with pytest.raises(NotAllowed):
            rematch(state)
        state, _ = resign(state, state.turn, Detail("resigned"), 0.0)
    again = rematch(state)  # the same settings, from their standard start
    assert again.start == start and again.moves == () and again.clocks == Clocks.full(10.0, 1.0)
    written = Game(start, "Ada", "Bob")
    state.write(written)
    assert Round.of(written, state.clocks) == state  # the record holds the round exactly
    assert written.moves == record.moves
    shown = snapshot(state, 0.0)
    assert shown.moves == tuple(m.square for m in state.moves)
    assert (shown.result, shown.termination, shown.detail) == (
        state.result,
        state.termination,
        state.detail,
    )


def test_a_rematch_of_a_game_begun_after_opening_plies_starts_from_the_standard_start() -> None:
    standard = Position.start(6, 6, 4)
    opened = standard.play(standard.legal_moves()[0]).play("d2")
    state, _ = resign(Round.begin(opened), opened.turn, Detail("resigned"), 0.0)
    again = rematch(state)
    assert again.start == standard and again.clocks is None and not again.is_over
