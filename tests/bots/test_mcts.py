"""The mcts bot and its compiled kernels, against the core rules and the exact solver."""

from __future__ import annotations

import random
import threading
import types

import numpy as np
import pytest
from hypothesis import given, settings

from adjacency import Position
from adjacency.bots import BotError, Limit, Search, make_bot
from adjacency.bots import base as bot_base
from adjacency.bots.mcts import MctsBot
from adjacency.engine import Engine
from adjacency.engine.kernels import mcts as kp
from adjacency.engine.kernels.bits import write_geometry
from adjacency.engine.kernels.layout import NBR
from core_strategies import positions
from engine_positions import random_game_position
from naive_rules import NaiveGame

SPECS = (
    "mcts",
    "mcts:playout=random",
    "mcts:policy=puct",
    "mcts:policy=puct,leaf=eval",
    "mcts:expand=0,c=1.4",
)


def geometry_words(position: Position) -> np.ndarray:
    words = np.zeros(NBR + 64, dtype=np.uint64)
    write_geometry(position.board, words)
    return words


@settings(max_examples=60, deadline=None)
@given(positions())
def test_best_squares_are_the_greedy_moves_of_the_naive_rules(position: Position) -> None:
    if position.is_over:
        return
    naive = NaiveGame(position.rows, position.cols, 1, position.turn)
    naive.grid = [
        [
            position.piece_at(f"{'abcdefgh'[c]}{position.rows - r}") or "."
            for c in range(position.cols)
        ]
        for r in range(position.rows)
    ]
    gains = {name: len(naive.would_flip(name)) for name in naive.empties()}
    best = max(gains.values())
    expected = sorted(position.board.square(n) for n, g in gains.items() if g == best)
    mask = kp.best_squares(
        np.uint64(position.opponent), np.uint64(position.empty), geometry_words(position)
    )
    got = [i for i in range(position.board.size) if int(mask) >> i & 1]
    assert got == expected


@settings(max_examples=40, deadline=None)
@given(positions())
def test_greedy_playouts_without_randomness_match_a_greedy_game_of_the_core(
    position: Position,
) -> None:
    """With epsilon 0 and a single best square each ply, the playout is determined."""
    words = geometry_words(position)
    state = kp.seed_state(1)
    margin = kp.playout(
        np.uint64(position.mover),
        np.uint64(position.opponent),
        position.plies_left,
        words,
        state,
        True,
        0.0,
    )
    # Replay with the core: a greedy move at every ply (ties make the game one of several,
    # so the margin is checked against the range those choices allow only when unique).
    mover = position.turn
    current = position
    unique = True
    while not current.is_over:
        gains = {sq: len(current.flips(sq)) for sq in current.legal_squares()}
        best = max(gains.values())
        choices = [sq for sq, g in gains.items() if g == best]
        unique = unique and len(choices) == 1
        current = current.play(choices[0])
    if unique:
        assert margin == current.margin(mover)
    assert abs(margin) <= position.board.size
    assert (margin - current.margin(mover)) % 2 == 0  # same number of pieces on the board


def test_random_playouts_end_with_every_square_count_possible() -> None:
    position = Position.start(4, 4, 4)
    words = geometry_words(position)
    state = kp.seed_state(7)
    margins = {
        kp.playout(np.uint64(position.x), np.uint64(position.o), 8, words, state, False, 1.0)
        for _ in range(400)
    }
    assert len(margins) > 3  # random, not a fixed line
    assert all(m % 2 == 0 and abs(m) <= 16 for m in margins)  # 16 pieces, all placed


@pytest.mark.parametrize("spec", SPECS)
def test_mcts_plays_legal_moves_on_random_positions(spec: str) -> None:
    rng = random.Random(sum(map(ord, spec)))
    bot = make_bot(spec + ("," if ":" in spec else ":") + "tree=4", seed=3)
    for _ in range(25):
        position = random_game_position(rng)
        move = bot.choose_move(position, Limit(time=0.02))
        assert move in position.legal_moves(), (spec, position.fen(), move)


@pytest.mark.parametrize("spec", SPECS)
def test_mcts_is_reproducible_and_counts_simulations_exactly(spec: str) -> None:
    rng = random.Random(11)
    chosen = [random_game_position(rng) for _ in range(5)]
    limit = Limit(time=None, nodes=1500)

    def moves() -> list[str]:
        bot = make_bot(spec, seed=42)
        found = []
        for position in chosen:
            found.append(bot.choose_move(position, limit))
            assert bot.report is not None and bot.report.nodes == 1500
        return found

    assert moves() == moves()


def test_the_tree_adds_up() -> None:
    """Root visits are the simulations; its children's visits add up to them."""
    bot = make_bot("mcts:policy=puct", seed=1)
    assert isinstance(bot, MctsBot)
    position = Position.start(6, 6, 8)
    bot.choose_move(position, Limit(time=None, nodes=3000))
    start, count = int(bot.first[0]), int(bot.count[0])
    assert count == len(position.legal_moves())
    assert bot.visits[0] == 3000
    assert bot.visits[start : start + count].sum() == 3000
    assert sorted(int(m) for m in bot.move[start : start + count]) == position.legal_squares()
    assert bot.prior[start : start + count].sum() == pytest.approx(1.0)
    wins = bot.wins[start : start + count]
    assert np.all(wins >= 0) and np.all(wins <= bot.visits[start : start + count])


def test_a_full_tree_keeps_searching_from_its_leaves() -> None:
    bot = make_bot("mcts:tree=1", seed=1)
    assert isinstance(bot, MctsBot)
    move = bot.choose_move(Position.start(), Limit(time=None, nodes=200_000))
    assert move in Position.start().legal_moves()
    assert int(bot.T[kp.USED]) <= bot.first.shape[0]
    assert bot.visits[0] == 200_000


def solved_positions() -> list[tuple[Position, set[str]]]:
    """Short endgames where some but not all moves win, with the winning moves (exact solver)."""
    rng = random.Random(5)
    engine = Engine(tt_mb=1)
    found: list[tuple[Position, set[str]]] = []
    while len(found) < 6:
        position = Position.start(5, 5, rng.randint(3, 6), rng.choice("xo"))  # type: ignore[arg-type]
        for _ in range(position.plies_left - rng.choice((2, 3, 4))):
            position = position.play(rng.choice(position.legal_squares()))
        winning = {
            move
            for move in position.legal_moves()
            if engine.solve(position.play(move), wld=True).value < 0
        }
        if winning and len(winning) < len(position.legal_moves()) // 2:
            found.append((position, winning))
    return found


@pytest.mark.parametrize("spec", ["mcts", "mcts:playout=random", "mcts:policy=puct"])
def test_mcts_finds_the_winning_moves_of_short_endgames(spec: str) -> None:
    bot = make_bot(spec, seed=9)
    for position, winning in solved_positions():
        assert bot.choose_move(position, Limit(time=None, nodes=20_000)) in winning, position.fen()


def test_mcts_answers_once_its_deadline_has_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    reads_after: list[float] = []
    deadline = [float("inf")]

    def monotonic() -> float:
        now[0] += 0.001
        if now[0] >= deadline[0]:
            reads_after.append(now[0])
        return now[0]

    monkeypatch.setattr(bot_base, "time", types.SimpleNamespace(monotonic=monotonic))
    bot = make_bot("mcts", seed=1)
    search = Search(Limit(time=0.2), threading.Event(), started=now[0], safety=bot.safety)
    assert search.deadline is not None
    deadline[0] = search.deadline
    position = Position.start()
    assert bot._choose(position, search) in position.legal_moves()
    # The bot's real-time timer may stop it before the fake clock reaches the deadline;
    # either way it reads the clock at most a few times past the deadline.
    assert len(reads_after) <= 3
    assert search.report is not None and search.report.nodes


def test_a_stop_request_ends_the_search() -> None:
    bot = make_bot("mcts", seed=1)
    timer = threading.Timer(0.1, bot.stop)
    timer.start()
    move = bot.choose_move(Position.start(), Limit(time=None, nodes=10**9))
    timer.join()
    assert move in Position.start().legal_moves()
    assert bot.report is not None and bot.report.nodes is not None
    assert bot.report.nodes < 10**9


def test_finished_games_and_bad_options_are_rejected() -> None:
    finished = Position.start(4, 4, 1).play("c1").play("b4")
    with pytest.raises(BotError, match="game is over"):
        make_bot("mcts").choose_move(finished, Limit(time=0.05))
    with pytest.raises(BotError, match=r"policy='ucb'.*not one of uct, puct"):
        make_bot("mcts:policy=ucb")
    with pytest.raises(BotError, match=r"tree='0'.*out of range"):
        make_bot("mcts:tree=0")
