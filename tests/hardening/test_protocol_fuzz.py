"""Protocol fuzzing through real processes.

- Into ``adjacency engine``: random and mutated command lines; the engine must
  not crash, must write nothing but protocol messages on stdout, and must still
  answer ``isready`` after each batch. One process serves every example.
- From an engine into the ``cmd:`` client: random and mutated lines before each
  ``bestmove``; the controller must not crash and must still get its move.
"""

from __future__ import annotations

import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjacency.bots import Bot, Limit, make_bot
from adjacency.core import Position
from adjacency.core.errors import AdjacencyError
from adjacency.protocol.wire import (
    BestMove,
    IsReady,
    Quit,
    ReadyOk,
    parse_command,
    parse_engine_line,
)
from fuzz_strategies import hostile
from protocol_helpers import FAKE_ENGINE

ANSWER_TIMEOUT = 60.0
"""Seconds to wait for ``readyok`` (generous: CI machines are slow and shared)."""

COMMANDS = [
    "aep",
    "isready",
    "newgame",
    "stop",
    "position startpos moves c3 f6",
    "position startpos rows 6 cols 5 rounds 4 first o moves a3",
    "position fen 6oo/6oo/8/8/8/8/xx6/xx6 x 56 moves c3",
    "position fen 2oo/2oo/xx2/xx2 o 7",
    "go movetime 20 depth 3 nodes 1000",
    "go xtime 100 otime 100",
    "go depth 2",
    "setoption name seed value 3",
    "setoption name Hash value 16",
]
ENGINE_LINES = [
    "info depth 3 score -12 nodes 100 nps 2000 time 50 pv c3 d4",
    "info depth ² score ３ nodes ٣",
    "option name depth type spin default 4 min 1 max 20",
    "id name fake engine",
    "info string hello",
    "readyok",
    "aepok",
]


class Engine:
    """``adjacency engine`` with a reader thread queueing its stdout lines."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "adjacency", "engine", "--bot", "random", "--seed", "1"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw)

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def until_ready(self) -> list[str]:
        """Send ``isready``; return every line up to its ``readyok``, each checked."""
        self.send(b"isready\n")
        seen: list[str] = []
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while time.monotonic() < deadline:
            try:
                raw = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.process.poll() is None, f"engine exited: {self.stderr()}"
                continue
            line = raw.decode("utf-8").rstrip("\n")
            message = parse_engine_line(line)
            assert message is not None, f"not a protocol message on stdout: {line!r}"
            seen.append(line)
            if isinstance(message, ReadyOk):
                return seen
        pytest.fail(f"no readyok within {ANSWER_TIMEOUT} s; stderr: {self.stderr()}")

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(running)"
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")[-2000:]

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    served = Engine()
    served.send(b"aep\n")
    served.until_ready()
    yield served
    served.close()


def encode(line: str) -> bytes:
    """UTF-8, with lone surrogates sent as the invalid bytes they stand for."""
    return line.encode("utf-8", errors="surrogatepass")


@pytest.mark.slow
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(hostile(COMMANDS), min_size=1, max_size=8))
def test_engine_survives_hostile_lines(engine: Engine, lines: list[str]) -> None:
    # The engine's lines, as it splits them. 'quit' would end the session and an extra
    # 'isready' would answer before the check's: those two are not fuzzed here.
    batch = [part for line in lines for part in re.split(r"\r\n|\r|\n", line)]
    engine.send(b"".join(encode(part) + b"\n" for part in batch if fuzzable(part)) + b"stop\n")
    engine.until_ready()


def fuzzable(line: str) -> bool:
    try:
        return not isinstance(parse_command(line), (IsReady, Quit))
    except AdjacencyError:
        return True


def test_engine_answers_after_the_lines_that_crashed_it(engine: Engine) -> None:
    hostile_lines = [
        "position startpos rows ²",
        "go depth ²",
        "position fen 6oo/6oo/8/8/8/8/xx6/xx6 x " + "5" * 5000,
        "go movetime " + "9" * 18,  # a timer thread used to die of OverflowError
        "go movetime -5",
    ]
    engine.send(b"".join(encode(line) + b"\n" for line in hostile_lines) + b"stop\n")
    seen = engine.until_ready()
    errors = " | ".join(line for line in seen if line.startswith("info string error"))
    for expected in (
        "rows must be a whole number, got '²'",
        "depth must be a whole number, got '²'",
        "plies left must be a whole number of at most 18 digits",
        "movetime must be at least 0, got '-5'",
    ):
        assert expected in errors, seen
    assert all(len(line) < 600 for line in seen)  # each input quoted in at most 80 characters


def test_engine_skips_an_overlong_line_and_goes_on(engine: Engine) -> None:
    engine.send(b"go depth 1 " + b"x" * 1_000_000 + b"\n")
    seen = engine.until_ready()
    assert any("ignored a line of 1000012 characters" in line for line in seen), seen
    assert all(len(line) < 600 for line in seen)  # each input quoted in at most 80 characters


# ------------------------------------------------------------------ engine -> client


@pytest.fixture(scope="module")
def garbage_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("garbage") / "lines.txt"


@pytest.fixture(scope="module")
def client(garbage_file: Path) -> Iterator[Bot]:
    garbage_file.write_bytes(b"")
    command = shlex.join([sys.executable, str(FAKE_ENGINE), "garbage", str(garbage_file)])
    with make_bot(f"cmd:[timeout=30] {command}") as bot:
        yield bot


@pytest.mark.slow
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(hostile(ENGINE_LINES), max_size=10))
def test_client_survives_hostile_engine_output(
    client: Bot, garbage_file: Path, lines: list[str]
) -> None:
    # A second bestmove would be a (correctly judged) protocol violation, not noise.
    noise = [line for line in lines if not isinstance(parse_engine_line(line), BestMove)]
    noise = [part for line in noise for part in line.splitlines() if part.strip()]
    noise = [part for part in noise if not isinstance(parse_engine_line(part), BestMove)]
    garbage_file.write_bytes(b"".join(encode(line) + b"\n" for line in noise))
    position = Position.start()
    move = client.choose_move(position, Limit(time=5.0))
    assert move in position.legal_moves()


def test_client_reads_info_with_non_ascii_digits(client: Bot, garbage_file: Path) -> None:
    garbage_file.write_bytes("info depth ² score ３ nodes ٣ pv c3\n".encode())
    move = client.choose_move(Position.start(), Limit(time=5.0))
    assert move in Position.start().legal_moves()
    report = client.report
    assert report is not None and report.pv == ("c3",)  # the info line was read, not skipped


@pytest.mark.slow
def test_a_huge_movetime_is_cut_not_an_overflow_in_a_timer_thread() -> None:
    engine = subprocess.Popen(
        [sys.executable, "-m", "adjacency", "engine", "--bot", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert engine.stdin is not None and engine.stdout is not None
    try:
        engine.stdin.write("position startpos\ngo movetime " + "9" * 18 + "\n")
        engine.stdin.flush()
        assert engine.stdout.readline().startswith("info depth")  # searching, timer running
        out, err = engine.communicate("stop\nquit\n", timeout=ANSWER_TIMEOUT)
    finally:
        engine.kill()
    assert "bestmove" in out
    assert "OverflowError" not in err and "Traceback" not in err, err


@pytest.mark.slow
def test_a_stop_sent_with_its_go_ends_an_infinite_search() -> None:
    # Both lines arrive together, so 'stop' is read before the search has started.
    result = subprocess.run(
        [sys.executable, "-m", "adjacency", "engine", "--bot", "engine"],
        input="position startpos\ngo infinite\nstop\nisready\n",
        capture_output=True,
        text=True,
        timeout=ANSWER_TIMEOUT,  # before the fix the search ran to the end of the game
    )
    assert "bestmove" in result.stdout and "Traceback" not in result.stderr
