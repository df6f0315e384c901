"""The bot catalogue loads the engine's compiler only for the bots that run compiled code.

Every command that names a bot, and every worker of a league's house bots, imports the
whole catalogue to find it. Listing the bots (the engine's options included, read from
its settings) and playing a plain bot load no numba, half a second of CPU a process
(``/usr/bin/time -f %U+%S adjacency match random greedy --games 2 --rounds 2``: 2.0-2.4 s
before, 1.1 s after, quiet); building the ``engine`` or ``mcts`` bot loads it then."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys
from adjacency.bots import make_bot
from adjacency.bots.lookup import entries
from adjacency.core import Position

listed = {entry.name for entry in entries()}
assert {"engine", "mcts", "greedy"} <= listed, listed
bot = make_bot("greedy", seed=1)
bot.choose_move(Position.start(6, 6, 2))
bot.close()
print("numba" in sys.modules, end=" ")
make_bot(sys.argv[1], seed=1).close()
print("numba" in sys.modules)
"""
"""Lists the bots, plays a greedy move, then builds the bot named on its command line;
prints whether numba was loaded after each step."""


@pytest.mark.parametrize("compiled", ["engine:time=0.01", "mcts:simulations=10"])
def test_listing_the_bots_and_playing_a_plain_one_loads_no_compiler(compiled: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, compiled], capture_output=True, text=True, timeout=50
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"], done.stdout
