"""Greedy and the local-search family: maximal gain, local maxima, the reply score."""

from __future__ import annotations

import random
import threading

from hypothesis import assume, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from adjacency import Position
from adjacency.bots import Limit, Search, Thinking, make_bot
from adjacency.bots.baseline import immediate_gain
from adjacency.bots.local import Landscape, climb
from adjacency.bots.objective import geometry_of, margin_after, margin_after_reply
from core_strategies import positions


def gains(position: Position) -> dict[str, int]:
    """Immediate gain of every move, counted with the core's own flips()."""
    return {move: 1 + len(position.flips(move)) for move in position.legal_moves()}


def reply_margin(position: Position, move: str) -> int:
    """Mover's margin after ``move`` and the opponent's most-converting reply (naive)."""
    after = position.play(move)
    if after.is_over:
        return -after.margin()
    return min(-after.margin() - 1 - 2 * len(after.flips(r)) for r in after.legal_moves())


@hsettings(max_examples=100, deadline=None)
@given(positions(), st.integers(0, 1000))
def test_greedy_and_steepest_ascent_pick_a_move_of_maximal_gain(
    position: Position, seed: int
) -> None:
    assume(not position.is_over)
    best = max(gains(position).values())
    for spec in ("greedy", "hill:radius=7", "hill:variant=restart,radius=7"):
        move = make_bot(spec, seed=seed).choose_move(position, Limit(time=None))
        assert gains(position)[move] == best, (spec, position.fen(), move)


@hsettings(max_examples=100, deadline=None)
@given(positions(), st.integers(0, 1000), st.sampled_from(["gain", "reply"]))
def test_every_climb_ends_on_a_local_maximum(position: Position, seed: int, score: str) -> None:
    assume(not position.is_over)
    rng = random.Random(seed)
    for radius in (1, 2):
        land = Landscape(position, score, radius, Search(Limit(time=None), threading.Event()))
        for variant in ("steepest", "stochastic"):
            start = rng.choice(land.candidates)
            top, steps = climb(land, start, rng, variant, 0)
            assert all(land.value(sq) <= land.value(top) for sq in land.neighbours(top))
            assert land.value(top) >= land.value(start)
            assert (steps == 0) == (top == start)


@hsettings(max_examples=60, deadline=None)
@given(positions())
def test_objective_helpers_agree_with_the_rules(position: Position) -> None:
    assume(not position.is_over)
    geometry = geometry_of(position)
    flips = [len(position.flips(move)) for move in position.legal_moves()]
    assert geometry.best_flips(position.empty, position.opponent) == max(flips)
    square, most = geometry.greedy_square(position.empty, position.opponent)
    assert most == max(flips)
    assert square == min(sq for sq in position.legal_squares() if len(position.flips(sq)) == most)
    for square in position.legal_squares():
        move = position.board.name(square)
        assert immediate_gain(position, square) == 1 + len(position.flips(move))
        assert margin_after(position, square) == -position.play(move).margin()
        assert margin_after_reply(position, square) == reply_margin(position, move)


def test_sideways_moves_cross_a_plateau_that_stops_steepest_ascent() -> None:
    # Row 1 is empty from c1 to h1 except an O piece on h2 above h1: every square
    # of the plateau c1..g1 gains 1, h1 gains 2 (it converts h2).
    position = Position.from_fen("8/8/8/8/8/8/7o/8 x 10")
    search = Search(Limit(time=None), threading.Event())
    land = Landscape(position, "gain", 1, search)
    c1 = position.board.square("c1")
    rng = random.Random(0)
    steep, _ = climb(land, c1, rng, "steepest", 0)
    assert steep == c1
    side, steps = climb(land, c1, rng, "sideways", 100)
    assert land.value(side) > land.value(c1) and steps >= 2
    assert position.board.name(side) in {"g2", "h1", "h3"}


def test_annealing_reports_its_schedule_and_is_seeded() -> None:
    position = Position.start(6, 6, 10).play("c3").play("d4")
    reports: list[Thinking] = []
    first = make_bot("anneal:t0=1.0,cooling=0.9", seed=9).choose_move(
        position, Limit(time=None), reports.append
    )
    again = make_bot("anneal:t0=1.0,cooling=0.9", seed=9).choose_move(position, Limit(time=None))
    assert first == again
    # T(k) = 1.0 * 0.9**k drops below tmin=0.01 after 44 steps.
    assert reports[-1].text.startswith("anneal: 44 step(s)")
