"""The ``mcts`` bot with an outside evaluator: it is used, it plays sensibly with the
engine's values, its batches keep their size, and bad answers are refused clearly."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from adjacency import Position
from adjacency.bots import BotError, Limit, make_bot
from adjacency.bots.mcts import MctsBot
from adjacency.bots.mcts_batched import BatchedSearch, Leaves, uniform_evaluator
from adjacency.bots.referee import play_game
from adjacency.engine import Engine

UNLIMITED = Limit(time=None)


class Spy:
    """Wraps an evaluator and records the size of every batch it is given."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.sizes: list[int] = []

    def __call__(self, leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        self.sizes.append(len(leaves))
        assert leaves.planes.shape == (len(leaves), leaves.board.rows, leaves.board.cols, 4)
        assert (leaves.mask.sum(axis=1) > 0).all()  # only unfinished positions are asked
        return self.inner(leaves)  # type: ignore[operator,no-any-return]


def test_uniform_priors_and_engine_values_beat_random_play() -> None:
    wins = 0
    for game in range(6):
        searcher = MctsBot(random.Random(game), evaluator=uniform_evaluator(), simulations=150)
        opponent = make_bot("random", seed=game)
        x, o = (searcher, opponent) if game % 2 == 0 else (opponent, searcher)
        record = play_game(x, o, Position.start(6, 6, rounds=5), UNLIMITED)
        ours = "x" if game % 2 == 0 else "o"
        wins += record.result == ours
    assert wins >= 5


def test_uniform_priors_and_engine_values_find_the_solvers_move_in_an_endgame() -> None:
    engine = Engine(tt_mb=4)
    rng = random.Random(3)
    for _ in range(4):
        position = Position.start(5, 5, rounds=6)
        while position.plies_left > 6:
            position = position.play(rng.choice(position.legal_squares()))
        best = engine.solve(position).value
        bot = MctsBot(random.Random(1), evaluator=uniform_evaluator(), simulations=3000)
        after = position.play(bot.choose_move(position, UNLIMITED))
        assert -engine.solve(after).value == best, position.fen()


def test_a_misleading_evaluator_changes_the_move() -> None:
    position = Position.start()  # 8x8: h1 converts nothing and no search starts there

    def misleading(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        priors = np.full((len(leaves), leaves.board.size), 1e-6)
        priors[:, position.board.square("h1")] = 1.0
        return priors, np.zeros(len(leaves))

    honest = MctsBot(random.Random(1), evaluator=uniform_evaluator(), simulations=300)
    fooled = MctsBot(random.Random(1), evaluator=misleading, simulations=300)
    assert honest.choose_move(position, UNLIMITED) != "h1"
    assert fooled.choose_move(position, UNLIMITED) == "h1"
    assert (
        make_bot("mcts:policy=puct,simulations=300", seed=1).choose_move(position, UNLIMITED)
        != "h1"
    )


def test_batches_keep_their_size_and_virtual_loss_fills_them() -> None:
    position = Position.start(8, 8, rounds=20)
    sizes = {}
    for loss in (1.0, 0.0):
        spy = Spy(uniform_evaluator())
        bot = MctsBot(random.Random(2), evaluator=spy, batch=8, virtual_loss=loss, simulations=400)
        bot.choose_move(position, UNLIMITED)
        assert bot.simulations_done == 400 == sum(spy.sizes)  # no game ends within reach
        assert max(spy.sizes) <= 8
        sizes[loss] = spy.sizes
    assert sizes[1.0][0] == 1  # the root alone first
    assert np.mean(sizes[1.0]) > 7.5
    # without virtual loss the descents of a batch meet on one leaf: batches of one
    assert np.mean(sizes[0.0]) < 2.0
    single = Spy(uniform_evaluator())
    MctsBot(random.Random(2), evaluator=single, batch=1, simulations=50).choose_move(
        position, UNLIMITED
    )
    assert single.sizes == [1] * 50


def test_a_bad_answer_is_refused_with_what_was_expected() -> None:
    position = Position.start(5, 5, 4)

    def wrong_shape(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        return np.ones((len(leaves), 3)), np.zeros(len(leaves))

    def not_finite(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        return np.ones((len(leaves), 25)), np.full(len(leaves), np.nan)

    search = BatchedSearch(wrong_shape)
    with pytest.raises(BotError, match=r"priors of shape \(1, 3\) for 1 positions of 25"):
        search.run(position.board, position.mover, position.opponent, 8, 8, 10)
    with pytest.raises(BotError, match="NaN or infinite"):
        BatchedSearch(not_finite).run(position.board, position.mover, position.opponent, 8, 8, 10)

    def run(evaluator: Any) -> None:
        BatchedSearch(evaluator).run(position.board, position.mover, position.opponent, 8, 8, 10)

    def answer(prior: float, value: float, at: int = -1) -> Any:
        def evaluate(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
            priors = np.ones((len(leaves), 25))
            priors[:, at] = prior
            if prior == 0.0:
                priors[:] = 0.0
            return priors, np.full(len(leaves), value)

        return evaluate

    with pytest.raises(BotError, match=r"value 1.5 for position 0; .* in \[-1, 1\]"):
        run(answer(1.0, 1.5))
    with pytest.raises(BotError, match=r"value -2.0 for position 0"):
        run(answer(1.0, -2.0))
    with pytest.raises(BotError, match=r"negative prior \(-0.5\) for square 24 of position 0"):
        run(answer(-0.5, 0.0))
    with pytest.raises(BotError, match="0 on every legal square of position 0"):
        run(answer(0.0, 0.0))
    run(answer(1.0, 1.0))  # the ends of the ranges are accepted
    run(answer(1.0, -1.0))
    with pytest.raises(BotError, match="batch must be a whole number from 1 to 4096"):
        BatchedSearch(not_finite, batch=0)
    with pytest.raises(BotError, match="must be callable"):
        BatchedSearch("net")  # type: ignore[arg-type]
