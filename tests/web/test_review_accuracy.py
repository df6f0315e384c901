"""The review's accuracy means something: uniformly random play scores low and its
blunders are found, the engine's play scores high. Whole games on a 6x6 board of 6 rounds
(12 plies), played from fixed seeds and reviewed by the web app's review (its depth and
solver budget made smaller, as its contract allows), so the solver judges most moves and
the search the rest."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from adjacency.bots import Limit, make_bot
from adjacency.core import Position
from adjacency.lab.review import Stopper, move_accuracy, review

ENGINE = "engine:depth=6"


def reviewed(seed: int, x: str, o: str) -> dict[str, Any]:
    """The review's summary and marks of one 6x6 game of 6 rounds between ``x`` and ``o``
    ("random": a uniformly random legal move from ``seed``, else a bot spec)."""
    rng = random.Random(seed)
    kinds = {"x": x, "o": o}
    bots = {color: make_bot(spec) for color, spec in kinds.items() if spec != "random"}
    positions, moves = [Position.start(6, 6, 6)], []
    while not positions[-1].is_over:
        position = positions[-1]
        if kinds[position.turn] == "random":
            move = rng.choice(position.legal_moves())
        else:
            move = bots[position.turn].choose_move(position, Limit(time=None))
        moves.append(move)
        positions.append(position.play(move))
    events: list[tuple[str, dict[str, Any]]] = []
    review(positions, moves, lambda e, d: events.append((e, d)), Stopper(), 3, 2_000_000)
    summary = next(data for event, data in events if event == "summary")
    marks = [data["mark"] for event, data in events if event == "move"]
    return {"summary": summary, "marks": marks}


def test_random_play_scores_low_and_its_blunders_are_found() -> None:
    games = [reviewed(seed, "random", "random") for seed in (0, 1, 2)]
    accuracies = [game["summary"][color]["accuracy"] for game in games for color in "xo"]
    assert max(accuracies) < 60, accuracies
    assert sum(accuracies) / len(accuracies) < 40, accuracies
    blunders = [game["marks"].count("blunder") for game in games]
    assert all(blunders), blunders  # every random game holds a move that changed its result


def test_the_engine_scores_high_and_above_random_play() -> None:
    engines = reviewed(0, ENGINE, ENGINE)["summary"]
    assert min(engines["x"]["accuracy"], engines["o"]["accuracy"]) >= 90, engines
    against = reviewed(1, "random", ENGINE)["summary"]
    assert against["o"]["accuracy"] >= 90, against
    assert against["x"]["accuracy"] < 60, against
    assert against["o"]["blunders"] == 0


@pytest.mark.parametrize("loss", [0.0, 0.0625, 1.0, 2.0, 4.0, 8.0])
def test_a_moves_accuracy_falls_by_e_a_square(loss: float) -> None:
    assert move_accuracy(loss) == pytest.approx(100 * math.exp(-loss))
    assert move_accuracy(loss + 1) == pytest.approx(move_accuracy(loss) / math.e)
