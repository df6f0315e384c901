"""`adjacency engine`'s first move over pipes: the served engine does its one-off work
(kernels, table memory, book) before it answers the handshake, so the first `go` is a
search like any later one: its table is written before `aepok` (the first search maps no
new memory), the warm-up leaves no
trace in any search, and the first `go movetime`'s own reported time stays within the
move's time (the wall-clock figures are the benchmark's: bench_first_go.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from adjacency.protocol.client import EngineProcess
from protocol_helpers import REPO

TIMEOUT = 60.0  # generous bound for a reply (never reached unless the test fails)


def until(engine: EngineProcess, word: str) -> list[str]:
    lines = []
    while True:
        line = engine.read_line(TIMEOUT)
        assert line is not None, f"no {word!r} before the end"
        lines.append(line)
        if line.startswith(word):
            return lines


def page_faults(pid: int) -> int:
    """The process's minor page faults so far (``/proc/PID/stat``, Linux): each is a page
    of memory the system mapped on its first touch."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[7])


def searched(lines: list[str]) -> list[str]:
    """The search's reports less their timing (nps, time): what a replay must repeat."""
    return [re.sub(r" (nps|time) \d+", "", line) for line in lines]


def test_the_first_go_is_a_search_like_any_later_one(engine: EngineProcess) -> None:
    engine.send("aep")
    until(engine, "aepok")
    engine.send("position startpos moves c3 f6")
    engine.send("isready")
    until(engine, "readyok")

    # the table was written before the handshake: the first search maps (almost) no new
    # memory. Without the warm-up it mapped its table's pages as it wrote them: 78-1,074
    # faults here (2 MB pages), 32,768 for a deep search where huge pages are off.
    linux = Path("/proc/self/stat").exists()
    assert engine.pid is not None
    before = page_faults(engine.pid) if linux else 0
    engine.send("go depth 7")
    first = searched(until(engine, "bestmove"))
    if linux:
        assert page_faults(engine.pid) - before < 50  # 14-15 measured: the search threads

    # the warm-up leaves no trace: the first search equals the same one after newgame
    engine.send("newgame")
    engine.send("position startpos moves c3 f6")
    engine.send("go depth 7")
    assert searched(until(engine, "bestmove")) == first

    # a fresh engine's first timed move: its own clock says it kept to the move's time
    # (the server measures from the go, the engine's reports from its search's start)
    engine.send("quit")
    fresh = EngineProcess([sys.executable, "-m", "adjacency", "engine"], cwd=str(REPO))
    fresh.start()
    try:
        fresh.send("aep")
        until(fresh, "aepok")
        fresh.send("isready")
        until(fresh, "readyok")
        fresh.send("position startpos moves c3 f6")
        fresh.send("go movetime 300")
        lines = until(fresh, "bestmove")
    finally:
        fresh.close()
    times = [int(m.group(1)) for line in lines if (m := re.search(r" time (\d+)", line))]
    assert times and max(times) <= 300 + 50, lines
