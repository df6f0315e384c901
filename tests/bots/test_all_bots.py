"""Every classic bot: legal moves on many positions, chosen (not the first legal one), its
options used, the time budget, seeds, finished games."""

from __future__ import annotations

import random
import threading
import types

import pytest

from adjacency import Position
from adjacency.bots import Bot, BotError, Limit, Search, entries, make_bot
from adjacency.bots import base as bot_base
from engine_positions import random_game_position

CLASSIC = ("random", "greedy", "minimax", "alphabeta", "hill", "anneal", "genetic", "gatree")
VARIANTS = (
    "hill:variant=sideways",
    "hill:variant=stochastic",
    "hill:neighbourhood=area,score=gain",
    "hill:variant=restart,neighbourhood=area",
    "anneal:neighbourhood=area,radius=7",
    "report-a:minimax",
    "report-a:localsearch",
    "report-a:genetic",
    "report-b:minimax",
    "report-b:localsearch",
    "report-b:genetic",
)
STOCHASTIC = ("random", "greedy", "hill:variant=stochastic", "anneal", "genetic", "gatree")


def test_every_classic_bot_is_registered() -> None:
    names = {item.name for item in entries()}
    assert set(CLASSIC) <= names


@pytest.mark.parametrize("spec", CLASSIC + VARIANTS)
def test_bot_returns_legal_moves_on_random_positions(spec: str) -> None:
    """Legal moves, and chosen ones: a bot that answered the first legal move would not
    differ from it on most positions; and every bot but ``random`` converts more than an
    average legal move does on more positions than it converts fewer, which a bot playing
    by a rule blind to the position (any fixed or random move) does not, nor one whose
    search prefers what is worse for it (a sign turned in its evaluation)."""
    rng = random.Random(sum(map(ord, spec)))
    bot = make_bot(spec, seed=5)
    chosen = better = worse = 0
    for _ in range(30):
        position = random_game_position(rng, lean_to_ends=True)
        move = bot.choose_move(position, Limit(time=None, nodes=2000))
        legal = position.legal_moves()
        assert move in legal, (spec, position.fen(), move)
        chosen += move != legal[0]
        average = sum(len(position.flips(m)) for m in legal) / len(legal)
        better += len(position.flips(move)) > average
        worse += len(position.flips(move)) < average
    assert chosen >= 15, (spec, chosen)
    assert spec == "random" or better > worse, (spec, better, worse)


OPTIONS_USED = [
    ("hill:variant=stochastic", "hill"),
    ("hill:neighbourhood=area,score=gain", "hill"),
    ("hill:variant=restart,neighbourhood=area", "hill"),
    ("anneal:neighbourhood=area,radius=7", "anneal:neighbourhood=area"),
    ("minimax:depth=1", "minimax:depth=3"),
    ("alphabeta:depth=1", "alphabeta:depth=4"),
    ("genetic:horizon=1", "genetic"),
    ("report-a:minimax", "report-b:minimax"),
    ("report-a:genetic", "report-b:genetic"),
]
"""Specs that differ in one option (or in the report whose parameters they take)."""


@pytest.mark.parametrize(("spec", "other"), OPTIONS_USED, ids=[a for a, _ in OPTIONS_USED])
def test_a_bots_options_change_its_play(spec: str, other: str) -> None:
    """An option a bot parsed but ignored would leave its moves those of the other spec."""
    rng = random.Random(7)
    positions = [random_game_position(rng) for _ in range(24)]
    limit = Limit(time=None, nodes=20_000)

    def moves(name: str) -> list[str]:
        bot = make_bot(name, seed=5)
        return [bot.choose_move(position, limit) for position in positions]

    assert moves(spec) != moves(other)


class FakeClock:
    """A monotonic clock that advances one millisecond per reading."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.deadline = float("inf")
        self.reads_after_deadline = 0

    def monotonic(self) -> float:
        self.now += 0.001
        if self.now >= self.deadline:
            self.reads_after_deadline += 1
        return self.now


UNBOUNDED = {
    "minimax": "minimax",
    "alphabeta": "alphabeta",
    "hill:area": "hill:variant=restart,restarts=10000,neighbourhood=area,score=gain",
    "hill:area,reply": "hill:variant=restart,restarts=10000,neighbourhood=area",
    "anneal": "anneal:cooling=0.9999,tmin=0.000001",
    "anneal:area": "anneal:cooling=0.9999,tmin=0.000001,neighbourhood=area,score=gain",
    "report-a:genetic": "report-a:genetic",
    "genetic": "genetic:generations=100000",
    "gatree": "gatree:generations=100000",
    "gatree:long lines": "gatree:generations=100000,population=100,depth=0",
}
"""Specs whose work outlasts any budget, so that the deadline is what stops them."""


@pytest.mark.parametrize("spec", UNBOUNDED.values(), ids=UNBOUNDED.keys())
def test_bot_answers_once_its_deadline_has_passed(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a fake clock, each bot must return soon after it first sees the deadline."""
    clock = FakeClock()
    monkeypatch.setattr(bot_base, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    bot: Bot = make_bot(spec, seed=1)
    search = Search(Limit(time=0.2), threading.Event(), started=clock.now, safety=bot.safety)
    assert search.deadline is not None
    clock.deadline = search.deadline
    position = Position.start()
    move = bot._choose(position, search)
    assert move in position.legal_moves()
    assert 1 <= clock.reads_after_deadline <= 3, clock.reads_after_deadline


@pytest.mark.parametrize("spec", (*STOCHASTIC, "alphabeta:depth=3"))
def test_bots_are_reproducible_with_a_seed(spec: str) -> None:
    rng = random.Random(3)
    positions = [random_game_position(rng, lean_to_ends=True) for _ in range(8)]
    limit = Limit(time=None, nodes=3000)

    def moves(seed: int) -> list[str]:
        bot = make_bot(spec, seed=seed)
        return [bot.choose_move(position, limit) for position in positions]

    assert moves(42) == moves(42)
    if spec in STOCHASTIC:  # and the seed is used: a bot that ignored it would repeat itself
        assert len({tuple(moves(seed)) for seed in range(1, 6)}) >= 3, spec


@pytest.mark.parametrize("spec", CLASSIC)
def test_a_finished_game_raises_bot_error(spec: str) -> None:
    finished = Position.start(4, 4, 1)
    finished = finished.play("c1").play("b4")
    assert finished.is_over
    with pytest.raises(BotError, match="game is over"):
        make_bot(spec).choose_move(finished, Limit(time=0.05))


@pytest.mark.parametrize("spec", CLASSIC)
def test_bots_work_on_the_smallest_and_largest_boards(spec: str) -> None:
    for rows, cols in ((4, 4), (4, 8), (8, 4), (8, 8)):
        position = Position.start(rows, cols, 1)
        bot = make_bot(spec, seed=0)
        first = bot.choose_move(position, Limit(time=0.05))
        last = bot.choose_move(position.play(first), Limit(time=0.05))
        assert position.play(first).play(last).is_over


@pytest.mark.parametrize(
    ("spec", "budget", "slack"),
    [
        ("minimax", 5_000, 1024 + 64),  # polled every 1024 nodes; a frontier adds <= 64
        ("alphabeta", 5_000, 1024 + 64),
        ("hill", 40, 1),  # evaluates successors one by one
        ("hill:variant=restart,restarts=10000,neighbourhood=area", 40, 24),  # a step: <= 24
        ("anneal:cooling=0.9999,tmin=0.000001", 40, 1),
        ("genetic:generations=100000", 2_000, 40 * 8),  # one generation simulates <= 320 plies
        ("gatree:generations=100000", 2_000, 2 * 60 * 4 + 1),  # one tree of 120 lines
        ("report-a:genetic", 2_000, 6),  # one chromosome simulates <= 6 plies
    ],
)
def test_node_budgets_are_honoured(spec: str, budget: int, slack: int) -> None:
    bot = make_bot(spec, seed=2)
    position = Position.start()
    move = bot.choose_move(position, Limit(time=None, nodes=budget))
    assert move in position.legal_moves()
    assert bot.report is not None and bot.report.nodes is not None
    assert bot.report.nodes <= budget + slack, bot.report.nodes
