"""`adjacency engine`: a scripted conversation over pipes, and the server's search thread."""

from __future__ import annotations

import io
import queue
import re
import threading

import pytest

from adjacency import protocol_server as server_module
from adjacency.bots import Limit, make_bot
from adjacency.bots.base import Bot, Search, Thinking
from adjacency.core import Color, Position
from adjacency.protocol.client import EngineProcess
from adjacency.protocol.wire import Go
from adjacency.protocol_server import EngineServer, limit_from_go

TIMEOUT = 20.0  # generous bound for a reply (never reached unless the test fails)


ENGINE_ARGS = ("--bot", "greedy:seed=5")
"""The options of this module's ``engine`` (tests/protocol/conftest.py)."""


def expect(engine: EngineProcess, line: str) -> None:
    assert engine.read_line(TIMEOUT) == line


def replies_until_bestmove(engine: EngineProcess) -> list[str]:
    lines = []
    while True:
        line = engine.read_line(TIMEOUT)
        assert line is not None
        lines.append(line)
        if line.startswith("bestmove"):
            return lines


def test_scripted_conversation(engine: EngineProcess) -> None:
    direct = make_bot("greedy:seed=5")
    engine.send("aep")
    expect(engine, "id name adjacency greedy:seed=5")
    expect(engine, "id author the adjacency project")
    expect(engine, "option name seed type spin default -1 min -1 max 2147483647")
    expect(engine, "aepok")
    engine.send("isready")
    expect(engine, "readyok")
    engine.send("newgame")
    engine.send("position startpos moves c3 f6")
    engine.send("go movetime 500")
    after = Position.start().play("c3").play("f6")
    wanted = direct.choose_move(after, Limit(time=0.5))
    replies = replies_until_bestmove(engine)
    assert direct.report is not None and direct.report.score == 3.0
    assert len(replies) == 2
    assert re.fullmatch(r"info depth 1 score 300 nodes 54 nps \d+ time \d+", replies[0])
    assert replies[1] == f"bestmove {wanted}"
    # Infinite search: no bestmove until stop; isready is answered meanwhile.
    engine.send("position startpos rows 5 cols 6 rounds 3 first o moves a5")
    engine.send("go infinite")
    assert engine.read_line(TIMEOUT).startswith("info depth 1 ")  # type: ignore[union-attr]
    engine.send("isready")
    expect(engine, "readyok")
    assert engine.read_line(0.3) is None  # still searching: nothing more yet
    engine.send("stop")
    six = Position.start(5, 6, 3, "o").play("a5")
    wanted = direct.choose_move(six, Limit(time=None))
    expect(engine, f"bestmove {wanted}")
    # Malformed and untimely commands are reported and change nothing.
    engine.send("position startpos moves a1")
    expect(
        engine,
        "info string error: 'position startpos moves a1': illegal move 'a1': a1 is occupied "
        "by x in '6oo/6oo/8/8/8/8/xx6/xx6 x 56'; moves must go on an empty square",
    )
    engine.send("go movetime soon")
    expect(
        engine, "info string error: 'go movetime soon': movetime must be a whole number, got 'soon'"
    )
    engine.send("hello there")
    line = engine.read_line(TIMEOUT)
    assert line is not None
    assert line.startswith("info string error: unknown command in 'hello there'")
    engine.send("setoption name depth value 3")
    expect(engine, "info string error: greedy has no option 'depth'; options: seed")
    engine.send("setoption name seed value many")
    expect(
        engine,
        "info string error: bot 'greedy': option seed='many' must be int in [-1, inf]",
    )
    engine.send("")
    engine.send("\t  ")
    engine.send("joho isready")  # unknown leading tokens are skipped, as in UCI
    expect(engine, "readyok")
    engine.send("position fen 2oo/2oo/xx2/xx2 x 1")
    engine.send("go depth 1")
    replies = replies_until_bestmove(engine)
    assert replies[-1] == f"bestmove {direct.choose_move(Position.from_fen('2oo/2oo/xx2/xx2 x 1'))}"
    engine.send("position fen 2oo/2oo/xx2/xx2 x 0")
    engine.send("go")
    expect(engine, "info string error: the game is over in '2oo/2oo/xx2/xx2 x 0'; no move to make")
    expect(engine, "bestmove (none)")
    engine.send("quit")
    assert engine.transport.wait(TIMEOUT) == 0


class PatientBot(Bot):
    """Thinks until told to stop, publishing a report every few milliseconds."""

    def _choose(self, position: Position, search: Search) -> str:
        depth = 0
        while not search.should_stop():
            depth += 1
            search.publish(Thinking(depth=depth, score=-1.5, nodes=depth, pv=("c3", "d4")))
            self._stop.wait(0.01)
        return position.legal_moves()[-1]


class LineSink(io.StringIO):
    """An output stream handing each written line to a queue."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: queue.Queue[str] = queue.Queue()

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.lines.put(line)
        return len(text)


def test_isready_and_stop_are_served_while_a_search_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "make_bot", lambda spec, seed=None: PatientBot())
    sink = LineSink()
    server = EngineServer("greedy", sink)
    assert server.handle("position startpos rows 4 cols 4")
    assert server.handle("go movetime 600000")
    first = sink.lines.get(timeout=TIMEOUT)
    assert first.startswith("info depth 1 score -150 nodes 1 ")
    assert first.endswith(" pv c3 d4")
    assert server.searching
    assert server.handle("isready")
    while (line := sink.lines.get(timeout=TIMEOUT)) != "readyok":
        assert line.startswith("info depth ")
    assert server.searching
    assert server.handle("go movetime 10")
    while (line := sink.lines.get(timeout=TIMEOUT)).startswith("info depth "):
        pass
    assert line == "info string error: go ignored while searching; send 'stop' first"
    assert server.handle("stop")
    while (line := sink.lines.get(timeout=TIMEOUT)).startswith("info depth "):
        pass
    assert line == f"bestmove {Position.start(4, 4, 4).legal_moves()[-1]}"
    assert not server.handle("quit")
    server.finish()


def test_quit_during_a_search_ends_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "make_bot", lambda spec, seed=None: PatientBot())
    sink = LineSink()
    lines = ["position startpos\n", "go infinite\n", "quit\n", "isready\n"]
    done = threading.Event()

    def run() -> None:
        EngineServer("greedy", sink).run(lines)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(TIMEOUT)
    seen = []
    while not sink.lines.empty():
        seen.append(sink.lines.get())
    assert "readyok" not in seen  # nothing after quit is read
    assert seen[-1] == f"bestmove {Position.start().legal_moves()[-1]}"


@pytest.mark.parametrize(
    ("go", "turn", "expected"),
    [
        (Go(movetime=250), "x", Limit(time=0.25)),
        (Go(movetime=0), "x", Limit(time=0.001)),
        (Go(xtime=28_000, otime=1_000), "x", Limit(time=1.0)),  # 28 moves left
        (Go(xtime=28_000, otime=1_000), "o", Limit(time=1 / 28)),
        (Go(depth=3), "x", Limit(time=None, depth=3)),
        (Go(nodes=500, movetime=100), "x", Limit(time=0.1, nodes=500)),
        (Go(infinite=True, depth=2), "x", Limit(time=None, depth=2)),
        (Go(), "x", Limit()),
    ],
)
def test_limit_from_go(go: Go, turn: Color, expected: Limit) -> None:
    position = Position.start(first=turn)
    assert limit_from_go(go, position) == expected


def test_last_move_may_use_most_of_the_clock() -> None:
    position = Position.from_fen("2oo/2oo/xx2/xx2 x 1")
    assert limit_from_go(Go(xtime=1000, otime=1000), position) == Limit(time=0.8)
