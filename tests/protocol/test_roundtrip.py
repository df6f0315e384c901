"""Bots served by `adjacency engine` via the cmd: client move as if called directly."""

from __future__ import annotations

import shlex
import sys

import pytest

from adjacency.bots import Limit, entries, make_bot
from adjacency.bots.external import ExternalBot
from adjacency.bots.referee import play_game
from adjacency.core import Position
from adjacency.core.game import Termination
from protocol_helpers import REPO

LIMIT = Limit(time=10.0)  # never binding: the bots below stop by depth or at once


def served(spec: str) -> str:
    return "cmd:" + shlex.join([sys.executable, "-m", "adjacency", "engine", "--bot", spec])


def registered(name: str) -> bool:
    return any(item.name == name for item in entries())


@pytest.mark.parametrize(
    ("spec", "start"),
    [
        ("greedy:seed=7", Position.start()),
        ("greedy:seed=11", Position.start(5, 6, 6, first="o")),
        ("alphabeta:depth=3,seed=2", Position.start(6, 6, 8)),
    ],
)
def test_served_bot_plays_the_same_moves_as_the_bot_itself(spec: str, start: Position) -> None:
    if not registered(spec.split(":")[0]):
        pytest.skip(f"{spec.split(':')[0]} is not registered")
    with make_bot(served(spec)) as remote, make_bot("random:seed=3") as opponent:
        assert isinstance(remote, ExternalBot)
        assert remote.name == f"adjacency {spec}"
        through_protocol = play_game(remote, opponent, start, LIMIT)
    with make_bot(spec) as local, make_bot("random:seed=3") as opponent:
        direct = play_game(local, opponent, start, LIMIT)
    assert through_protocol.termination == Termination.NORMAL, through_protocol.termination_detail
    assert [m.square for m in through_protocol.moves] == [m.square for m in direct.moves]
    assert through_protocol.result == direct.result


def test_thinking_is_relayed_in_pieces() -> None:
    with make_bot(served("greedy:seed=1")) as remote:
        move = remote.choose_move(Position.start(), Limit(time=5.0))
        report = remote.report
    assert move in Position.start().legal_moves()
    assert report is not None
    assert report.depth == 1 and report.score == 2.0 and report.nodes == 56


def test_an_external_engine_can_be_served_again_as_a_proxy() -> None:
    minimal = shlex.join([sys.executable, "-I", "-S", "examples/engines/minimal_engine.py"])
    start = Position.start(5, 5, 6)
    with make_bot(served(f"cmd:[dir={REPO}] {minimal}")) as proxy, make_bot("random:seed=1") as a:
        through_two = play_game(proxy, a, start, LIMIT)
    with make_bot(f"cmd:[dir={REPO}] {minimal}") as direct, make_bot("random:seed=1") as b:
        through_one = play_game(direct, b, start, LIMIT)
    assert through_two.termination == Termination.NORMAL, through_two.termination_detail
    assert [m.square for m in through_two.moves] == [m.square for m in through_one.moves]
