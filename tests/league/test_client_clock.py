"""The server's clock decides, not ``adjacency connect``: the client asks its bot for
a move with the server's suggested ``budget`` as the time to use and the bot's own
clock as the only deadline (:class:`~adjacency.client.connect.LeagueClient`'s handling
of ``your_turn``, a real ``cmd:`` engine over pipes, the messages written here with
the clocks the test chooses; no assert on how long anything took):

* an engine that overruns its suggested budget, with most of its clock left, has its
  move sent, not a time loss reported for it; it was told the budget, not its clock;
* an engine that never answers is still stopped, and reported as a time loss, once its
  own clock has run out.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path
from typing import Any

from adjacency.client.connect import LeagueClient
from adjacency.core import Position

OVERRUN = Path(__file__).resolve().parent / "overrunning_engine.py"
START = Position.start(6, 6, 4)


def your_turn(budget: float, clock: float) -> dict[str, Any]:
    """A ``your_turn`` for X at the start: ``budget`` suggested, ``clock`` left on each
    side's clock."""
    return {
        "type": "your_turn",
        "game": 7,
        "fen": START.fen(),
        "ply": 0,
        "clock": {"x": clock, "o": clock},
        "increment": 0.0,
        "budget": budget,
    }


def answer_of(extra: str, budget: float, clock: float, go_log: Path) -> dict[str, Any] | None:
    """What the client answers a ``your_turn`` with when its bot is the overrunning
    engine, thinking ``extra`` seconds past the ``movetime`` it is told."""
    command = shlex.join([sys.executable, str(OVERRUN), extra, str(go_log)])
    lines: list[str] = []
    player = LeagueClient("http://127.0.0.1:1", "adjl_" + "T" * 22, f"cmd:{command}",
                          announce=lines.append)  # fmt: skip
    try:
        return player.handle(your_turn(budget, clock))
    finally:
        player.close()


def test_a_bot_past_its_suggested_budget_with_its_clock_left_has_its_move_sent(
    tmp_path: Path,
) -> None:
    go_log = tmp_path / "go.txt"
    answer = answer_of("0.5", budget=0.2, clock=30.0, go_log=go_log)
    assert answer is not None and answer["type"] == "move", answer
    assert answer["move"] in START.legal_moves()
    told = re.fullmatch(r"go movetime (\d+)\n", go_log.read_text())
    assert told is not None and 0 < int(told.group(1)) <= 200  # the budget, not the clock


def test_a_bot_that_never_answers_is_stopped_when_its_own_clock_runs_out(
    tmp_path: Path,
) -> None:
    answer = answer_of("inf", budget=0.05, clock=0.5, go_log=tmp_path / "go.txt")
    assert answer is not None and answer["type"] == "failed", answer
    assert answer["termination"] == "time forfeit" and answer["game"] == 7
    assert "sent no bestmove within its clock's " in answer["detail"], answer
