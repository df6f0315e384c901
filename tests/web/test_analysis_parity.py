"""The live analysis's value does not flip with the search's depth: it searches and
reports only the depths whose horizon falls on an even ply of the game.

Differential: the same engine's scores at every depth (the analysis's old way) swing two
to three squares up and down from one depth to the next, and, at one depth, from one
position of a game to the next; the reported scores do neither. The games are played by
the engine itself (mostly its best move), so their true value changes little from ply to
ply and a swing is the horizon's parity, not a bad move.
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.lab.review import Stopper, review_depth
from adjacency.web.analysis import analyse, new_engine, shown_depths, top_lines


def turns(values: list[float]) -> int:
    """How many times the sequence turns (a rise then a fall, or a fall then a rise)."""
    steps = [b - a for a, b in pairwise(values)]
    return sum(1 for a, b in pairwise(steps) if a * b < 0)


def mean_step(values: list[float]) -> float:
    steps = [abs(b - a) for a, b in pairwise(values)]
    return sum(steps) / len(steps)


@given(st.integers(1, 64), st.integers(1, 64))
def test_every_shown_depth_has_its_horizon_on_an_even_ply(plies_left: int, least: int) -> None:
    depths = shown_depths(plies_left, least)
    assert all((plies_left - depth) % 2 == 0 for depth in depths)
    assert depths == list(range(least + (plies_left - least) % 2, plies_left + 1, 2))
    if least <= plies_left:
        assert depths[-1] == plies_left  # the end of the game is always searched
        assert depths[0] in (least, least + 1)


@given(st.integers(0, 60), st.integers(1, 9))
def test_the_review_and_the_analysis_share_the_horizon(ply: int, least: int) -> None:
    """The review searches the position ``ply`` plies into a game to ``review_depth``; with
    the game's plies even in number, that depth is one the analysis shows there."""
    plies_left = 64 - ply
    depth = review_depth(ply, least)
    if depth <= plies_left:
        assert depth in shown_depths(plies_left)


def engine_game(seed: int, rounds: int) -> list[Position]:
    """An 8x8 game of ``rounds`` rounds, 80% of its moves the engine's depth-3 best."""
    rng = random.Random(seed)
    engine = new_engine(threads=1)
    position = Position.start(8, 8, rounds=rounds)
    positions = [position]
    while not position.is_over:
        engine.clear()
        if rng.random() < 0.8:
            move = engine.search(position, depth=3).move
        else:
            move = rng.choice(position.legal_moves())
        position = position.play(move)
        positions.append(position)
    return positions


def best_score(engine: Any, position: Position, depth: int) -> float:
    engine.clear()
    shown = top_lines(engine, position, depth)
    assert shown is not None
    return float(shown["lines"][0]["score"])


def test_over_a_game_the_value_does_not_saw_up_and_down() -> None:
    engine = new_engine(threads=1)
    for seed in (1, 3):
        positions = engine_game(seed, rounds=20)[4:30]
        raw = [best_score(engine, p, 4) for p in positions]
        shown = [
            best_score(engine, p, next(d for d in shown_depths(p.plies_left) if d >= 4))
            for p in positions
        ]
        # The old way: at one depth, the value turns at nearly every ply (the horizon
        # alternates between X and O to move), by two squares or more on average.
        assert turns(raw) >= 0.8 * (len(raw) - 2), raw
        assert mean_step(raw) >= 1.5, raw
        # Reported: at most half as many turns, and steps less than half as large.
        assert turns(shown) <= 0.5 * turns(raw), (raw, shown)
        assert mean_step(shown) <= 0.5 * mean_step(raw), (raw, shown)


def test_the_reported_lines_of_a_position_do_not_flip_from_depth_to_depth() -> None:
    """Through :func:`analyse` itself: every reported depth ends on an even ply, and the
    best line's score does not alternate as it does over every depth."""
    position = engine_game(3, rounds=20)[10]
    reported: list[tuple[int, float]] = []
    stopper = Stopper()

    def emit(event: str, data: dict[str, Any]) -> None:
        if event == "lines":
            reported.append((data["depth"], data["lines"][0]["score"]))
            if data["depth"] >= 7:
                stopper.stop()

    analyse(position, emit, stopper)
    depths = [depth for depth, _ in reported]
    assert depths == shown_depths(position.plies_left)[: len(depths)] and depths[-1] >= 7
    engine = new_engine(threads=1)
    every = [best_score(engine, position, depth) for depth in range(2, 8)]
    assert turns(every) == len(every) - 2, every  # the old way flipped at every depth
    scores = [score for _, score in reported]
    assert max(scores) - min(scores) < 0.5 * (max(every) - min(every)), (reported, every)
