"""A controller that is interrupted (Ctrl-C) or raises leaves no engine process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from protocol_helpers import REPO, assert_group_gone, fake_spec, group_members

CONTROLLER = """
import signal, sys
# As in a terminal: a test runner started from a script without job control (a
# background job, nohup) passes SIGINT on ignored, and Python keeps it ignored.
signal.signal(signal.SIGINT, signal.default_int_handler)
from adjacency.bots import Limit, make_bot
from adjacency.bots.referee import play_game
from adjacency.core import Position

bot = make_bot(sys.argv[1])
print(bot.engine.pid, flush=True)
if sys.argv[2] == "raise":
    def fail(game, thinking):
        raise RuntimeError("the controller failed")
    play_game(bot, make_bot("greedy"), Position.start(), Limit(time=5), on_move=fail)
elif sys.argv[2] == "with-raise":
    with bot:
        bot.choose_move(Position.start(), Limit(time=5))
        raise RuntimeError("the controller failed")
else:
    print("thinking", flush=True)
    bot.choose_move(Position.start(), Limit(time=None))
"""


def run_controller(mode: str, how: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CONTROLLER, fake_spec(mode), how],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )


def test_ctrl_c_while_the_engine_thinks_kills_the_engine_group() -> None:
    controller = run_controller("spawn-child,ignores-stop", "interrupt")
    assert controller.stdout is not None
    pid = int(controller.stdout.readline())
    assert controller.stdout.readline() == "thinking\n"
    assert len(group_members(pid)) == 2  # the engine and its child are running
    os.kill(controller.pid, signal.SIGINT)
    _, stderr = controller.communicate(timeout=30)
    assert controller.returncode != 0
    assert "KeyboardInterrupt" in stderr
    assert_group_gone(pid)


@pytest.mark.parametrize("how", ["raise", "with-raise"])
def test_a_controller_that_raises_leaves_no_engine(how: str) -> None:
    controller = run_controller("spawn-child", how)
    assert controller.stdout is not None
    pid = int(controller.stdout.readline())
    _, stderr = controller.communicate(timeout=30)
    assert controller.returncode == 1
    assert "RuntimeError: the controller failed" in stderr
    assert_group_gone(pid)
