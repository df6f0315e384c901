"""The engine client and the cmd: bot against scripted engines: no process, no waiting.

Each test scripts the lines the controller must send and the engine's answers
on a :class:`MockTransport`, drives the client (or an :class:`ExternalBot`
built on one) through it and checks both the outcome and that the whole
script was consumed. Spawning a process fails the test.
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Iterator

import pytest

from adjacency.bots import Limit
from adjacency.bots.base import Bot, BotError, BotFailure, Search, Thinking
from adjacency.bots.external import CommandSpec, ExternalBot
from adjacency.bots.referee import play_game
from adjacency.core import Position
from adjacency.core.game import Termination
from adjacency.protocol.client import EngineClient
from adjacency.protocol.errors import EngineDisconnected, EngineError, EngineTimeout
from adjacency.protocol.mock import MockScriptError, MockTransport
from adjacency.protocol.wire import Go, OptionSpec

SMALL = Position.start(4, 4, 4)  # 8 plies; x to move, a1 b1 a2 b2 are x's
POSITION = f"position fen {SMALL.fen()}"


@pytest.fixture(autouse=True)
def no_processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail any test that starts a process."""

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a mock transport test started a process: {args!r}")

    monkeypatch.setattr(subprocess, "Popen", forbidden)
    yield


def handshake(mock: MockTransport) -> MockTransport:
    """Script the handshake and the first isready of a minimal engine."""
    return mock.expect("aep", ["id name Mock", "id author tests", "aepok"]).expect(
        "isready", ["readyok"]
    )


def bot_on(mock: MockTransport, settings: str = "timeout=0.2;grace=0.05") -> ExternalBot:
    """A cmd: bot whose engine is ``mock``."""
    return ExternalBot(f"[{settings}] mock-engine --flag", connect=lambda _: mock)


def move_request(mock: MockTransport, go: str | re.Pattern[str], *answers: str) -> MockTransport:
    """Script one move request on SMALL: position, isready, go and the answers."""
    return mock.expect(POSITION).expect("isready", ["readyok"]).expect(go, list(answers))


class FirstSquare(Bot):
    """An in-process opponent: plays the first empty square."""

    def _choose(self, position: Position, search: Search) -> str:
        return position.legal_moves()[0]


# ------------------------------------------------------------------ the client


def test_full_handshake_with_options() -> None:
    mock = MockTransport()
    mock.stderr("mock engine starting")
    mock.expect(
        "aep",
        [
            "id name Mock Engine 1.0",
            "id author Ada",
            "option name Hash type spin default 16 min 1 max 1024",
            "option name Style type combo default solid var solid var wild",
            "option name Book File type string default <empty>",
            "option name Ponder type check default false",
            "some garbage the controller ignores",
            "aepok",
        ],
    )
    mock.expect("setoption name Hash value 64")
    mock.expect("setoption name Book File value my book.bin")
    mock.expect("isready", ["readyok"])
    with EngineClient(mock) as client:
        client.start()
        identity = client.handshake(1.0)
        client.set_option("Hash", "64")
        client.set_option("Book File", "my book.bin")
        client.sync(1.0)
        mock.expect("quit").exit(0)
    mock.assert_done()
    assert identity.name == "Mock Engine 1.0"
    assert identity.author == "Ada"
    assert identity.options == {
        "Hash": OptionSpec("Hash", "spin", "16", 1, 1024),
        "Style": OptionSpec("Style", "combo", "solid", choices=("solid", "wild")),
        "Book File": OptionSpec("Book File", "string", ""),
        "Ponder": OptionSpec("Ponder", "check", "false"),
    }
    assert client.identity is identity
    assert mock.returncode == 0  # it exited on quit, so it was not killed
    assert mock.sent[-1] == "quit"
    assert mock.transcript[:2] == ["> aep", "< id name Mock Engine 1.0"]


def test_a_move_with_info_lines() -> None:
    mock = handshake(MockTransport())
    mock.expect("newgame").expect("position fen 6oo/6oo/8/8/8/8/xx6/xx6 x 56 moves c3 f6")
    mock.expect("isready", ["readyok"])
    mock.expect("go depth 2", ["info depth 1 score 300 pv f7", "", "info depth 2 score -50"])
    mock.say("bestmove f7")
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    client.sync(1.0)
    client.new_game()
    client.position(Position.start(), ["c3", "f6"])
    client.sync(1.0)
    client.go(Go(depth=2))
    messages = [client.read_message(1.0) for _ in range(3)]
    assert [type(m).__name__ for m in messages] == ["Info", "Info", "BestMove"]
    assert messages[1] is not None and getattr(messages[1], "score", None) == -50
    assert getattr(messages[2], "move", None) == "f7"
    assert client.read_message(0.01) is None  # nothing more: a timeout, not an error
    client.kill()
    mock.assert_done()


def test_sync_discards_what_the_engine_said_late() -> None:
    mock = handshake(MockTransport())
    mock.say("bestmove a1", "info string still talking")  # after a stop, say
    mock.expect("isready", ["info depth 9", "readyok", "bestmove c1"])
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    client.sync(1.0)
    client.sync(1.0)
    assert client.read_line(0.0) == "bestmove c1"  # what came after readyok is kept
    mock.assert_done()


def test_handshake_timeout_names_the_engine_and_quotes_stderr() -> None:
    mock = MockTransport(command="./slow-engine --book x")
    mock.stderr("loading a huge book")
    mock.expect("aep", ["id name Slow"])  # and never aepok
    client = EngineClient(mock)
    client.start()
    with pytest.raises(EngineTimeout) as caught:
        client.handshake(0.05)  # the script never answers: only the timeout ends the wait
    text = str(caught.value)
    assert text.startswith("engine './slow-engine --book x' sent no 'aepok' within 0.05s")
    assert "last lines of its stderr:\n  loading a huge book" in text
    mock.assert_done()


def test_isready_timeout() -> None:
    mock = handshake(MockTransport())
    mock.expect("isready", ["readyok"], delay=5.0)  # far too late
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    client.sync(1.0)
    with pytest.raises(EngineTimeout, match=r"sent no 'readyok' within 0.05s of 'isready'") as e:
        client.sync(0.05)
    assert "(it wrote nothing to stderr)" in str(e.value)
    assert client.alive  # a timeout is not a disconnection
    client.kill()
    assert not client.alive
    mock.assert_done()


def test_a_delayed_answer_arrives_after_its_delay() -> None:
    mock = MockTransport().expect("isready", ["readyok"], delay=0.1)
    client = EngineClient(mock)
    client.start()
    client.send("isready")
    assert client.read_line(0.02) is None
    assert client.read_line(1.0) == "readyok"
    mock.assert_done()


def test_crash_during_the_handshake() -> None:
    mock = MockTransport(pid=4242)
    mock.expect("aep", ["id name Fragile"]).stderr("fatal: no opening book").exit(3)
    client = EngineClient(mock)
    client.start()
    with pytest.raises(EngineDisconnected) as caught:
        client.handshake(1.0)
    assert "exited with status 3 during the handshake (before 'aepok')" in str(caught.value)
    assert "fatal: no opening book" in str(caught.value)
    assert not client.alive and client.returncode == 3
    with pytest.raises(EngineDisconnected, match=r"could not send 'isready'"):
        client.send("isready")
    client.close()  # nothing to quit: it sends nothing, so the script is still done
    mock.assert_done()


def test_crash_at_go() -> None:
    mock = handshake(MockTransport())
    mock.expect("go infinite", ["info depth 1"]).stderr("segmentation fault").exit(-11)
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    client.sync(1.0)
    client.go(Go(infinite=True))
    assert client.read_line(1.0) == "info depth 1"  # what it wrote before dying is read
    with pytest.raises(EngineDisconnected, match=r"was killed by SIGSEGV") as caught:
        client.read_line(1.0)
    assert "segmentation fault" in str(caught.value)
    with pytest.raises(EngineDisconnected):
        client.read_message(None)  # the end of output stays the end
    mock.assert_done()


def test_kill_ends_a_silent_engine() -> None:
    mock = handshake(MockTransport()).expect("go infinite")
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    client.sync(1.0)
    client.go(Go(infinite=True))
    assert client.read_message(0.02) is None
    client.kill()
    assert client.describe_exit() == "was killed by SIGKILL"
    with pytest.raises(EngineDisconnected, match=r"mock-engine' was killed by SIGKILL"):
        client.read_line(1.0)
    client.close()  # after a kill, close sends nothing
    mock.assert_done()


def test_an_unexpected_line_fails_now_and_at_assert_done() -> None:
    mock = handshake(MockTransport()).expect("go depth 3", ["bestmove c1"])
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    client.sync(1.0)
    with pytest.raises(MockScriptError, match=r"expected 'go depth 3' after 'isready', got 'go'"):
        client.go(Go())
    with pytest.raises(MockScriptError, match=r"expected 'go depth 3' after 'isready', got 'go'"):
        mock.assert_done()  # even if the controller had swallowed the error
    client.go(Go(depth=3))  # the script has not moved on
    assert client.read_line(1.0) == "bestmove c1"


def test_a_line_after_the_end_of_the_script_is_unexpected() -> None:
    mock = handshake(MockTransport())
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    client.sync(1.0)
    mock.assert_done()
    with pytest.raises(MockScriptError, match=r"got 'quit' after the end of the script"):
        client.close()


def test_assert_done_lists_what_was_never_sent() -> None:
    mock = handshake(MockTransport()).expect(re.compile(r"go movetime \d+"), ["bestmove c1"])
    client = EngineClient(mock)
    client.start()
    client.handshake(1.0)
    with pytest.raises(MockScriptError) as caught:
        mock.assert_done()
    assert "stopped after 1 expected lines; still expected: 'isready', /go movetime \\d+/" in str(
        caught.value
    )


def test_a_pattern_must_match_the_whole_line() -> None:
    mock = MockTransport().expect(re.compile(r"go movetime \d+"), ["bestmove c1"])
    client = EngineClient(mock)
    client.start()
    with pytest.raises(MockScriptError):
        client.send("go movetime 100 depth 3")
    client.send("go movetime 100")
    assert client.read_line(1.0) == "bestmove c1"
    with pytest.raises(MockScriptError, match=r"got 'go movetime 100 depth 3'"):
        mock.assert_done()


def test_waiting_forever_for_nothing_is_a_script_error() -> None:
    mock = MockTransport(idle_limit=0.05).expect("isready")
    client = EngineClient(mock)
    client.start()
    with pytest.raises(MockScriptError, match=r"waited 0.05s without a timeout"):
        client.sync(None)


def test_a_mock_starts_once_and_can_fail_to_start() -> None:
    mock = MockTransport()
    with pytest.raises(EngineError, match=r"'mock-engine' is not running"):
        EngineClient(mock).send("aep")
    client = EngineClient(mock)
    client.start()
    with pytest.raises(EngineError, match=r"was already started"):
        client.start()
    broken = EngineClient(MockTransport("./engine", start_error="No such file or directory"))
    with pytest.raises(EngineError, match=r"cannot start engine './engine': No such file"):
        broken.start()


# ------------------------------------------------------------------ the cmd: bot


def test_the_bot_plays_a_scripted_move_and_publishes_its_thinking() -> None:
    mock = MockTransport()
    mock.expect(
        "aep",
        ["id name Mock", "option name Hash type spin default 16 min 1 max 1024", "aepok"],
    )
    mock.expect("setoption name Hash value 64").expect("isready", ["readyok"])
    specs: list[CommandSpec] = []

    def connect(spec: CommandSpec) -> MockTransport:
        specs.append(spec)
        return mock

    bot = ExternalBot("[opt.Hash=64;timeout=0.5] mock-engine --flag", connect=connect)
    assert specs == [bot.command] and specs[0].argv == ("mock-engine", "--flag")
    assert bot.name == "Mock"
    move_request(mock, "go depth 3", "info depth 3 score 150 nodes 99 pv C1 d4", "bestmove C1")
    seen: list[Thinking] = []
    assert bot.choose_move(SMALL, Limit(time=None, depth=3), seen.append) == "c1"
    assert seen == [Thinking(depth=3, score=1.5, nodes=99, pv=("C1", "d4"))]
    assert bot.report == seen[0]
    mock.expect("quit")
    bot.close()
    mock.assert_done()


def test_the_bot_sends_the_time_left_as_movetime() -> None:
    mock = handshake(MockTransport())
    bot = bot_on(mock)
    move_request(mock, re.compile(r"go movetime \d+"), "bestmove d1")
    assert bot.choose_move(SMALL, Limit(time=0.5)) == "d1"
    movetime = int(mock.sent[-1].split()[-1])
    assert 0 < movetime <= 500 - 1000 * bot.safety
    mock.assert_done()


@pytest.mark.parametrize(
    ("answer", "quotes"),
    [
        ("bestmove a1", ["answered 'bestmove a1'", "occupied by x"]),
        ("bestmove a5", ["answered 'bestmove a5'", "off the 4x4 board"]),
        ("bestmove hello", ["answered 'bestmove hello'", "malformed square"]),
        ("bestmove", ["answered 'bestmove'", "no square given"]),
    ],
)
def test_illegal_and_malformed_answers_lose(answer: str, quotes: list[str]) -> None:
    mock = handshake(MockTransport(command="./engine"))
    bot = bot_on(mock)
    move_request(mock, "go depth 1", "info string thinking hard", answer)
    with pytest.raises(BotFailure) as caught:
        bot.choose_move(SMALL, Limit(time=None, depth=1))
    assert caught.value.termination == Termination.ILLEGAL_MOVE
    assert caught.value.detail.startswith("engine './engine' answered")
    for quote in quotes:
        assert quote in caught.value.detail
    mock.assert_done()


def test_garbage_before_bestmove_is_ignored() -> None:
    mock = handshake(MockTransport())
    bot = bot_on(mock)
    move_request(
        mock, "go depth 1", "", "   ", "joho", "info depth x score y", "info  bestmove c1 "
    )
    mock.say("  joho   bestmove  C1 ")  # unknown leading tokens are skipped
    assert bot.choose_move(SMALL, Limit(time=None, depth=1)) == "c1"
    mock.assert_done()


def test_crash_at_go_is_a_disconnection_and_the_engine_is_killed() -> None:
    mock = handshake(MockTransport(pid=77))
    bot = bot_on(mock)
    move_request(mock, "go depth 1").stderr("segmentation fault (pretend)").exit(1)
    with pytest.raises(BotFailure) as caught:
        bot.choose_move(SMALL, Limit(time=None, depth=1))
    assert caught.value.termination == Termination.DISCONNECTION
    assert "while choosing a move, engine 'mock-engine' exited with status 1" in str(caught.value)
    assert "segmentation fault (pretend)" in caught.value.detail
    assert mock.closed
    bot.close()  # it is dead: no quit is sent
    mock.assert_done()


class StoppedReading(MockTransport):
    """A scripted engine whose input pipe is full from the first ``position`` on, as
    :class:`~adjacency.protocol.transport.SubprocessTransport` reports it."""

    def send_line(self, text: str) -> None:
        if text.startswith("position"):
            raise TimeoutError("no room in its input pipe for 10s: it stopped reading its input")
        super().send_line(text)


def test_an_engine_that_stopped_reading_loses_on_time_and_is_killed() -> None:
    mock = handshake(StoppedReading(pid=99))
    bot = bot_on(mock)
    with pytest.raises(BotFailure) as caught:
        bot.choose_move(SMALL, Limit(time=1.0))
    assert caught.value.termination == Termination.TIME_FORFEIT
    assert "stopped reading its input" in str(caught.value)
    assert mock.closed
    bot.close()
    mock.assert_done()


def test_an_engine_that_ignores_stop_is_killed_and_loses_on_time() -> None:
    mock = handshake(MockTransport(pid=31337))
    bot = bot_on(mock, "grace=0.05")
    move_request(mock, re.compile(r"go movetime \d+"), "info depth 1").expect("stop")
    with pytest.raises(BotFailure) as caught:
        bot.choose_move(SMALL, Limit(time=0.1))  # the script never answers: the kill ends it
    assert caught.value.termination == Termination.TIME_FORFEIT
    detail = caught.value.detail
    assert "sent no bestmove within its 0.1s budget + 0.05s margin and 0.05s after 'stop'" in detail
    assert "its process group 31337 was killed" in detail
    assert mock.closed and mock.returncode == -9
    mock.assert_done()


def test_an_answer_that_comes_only_after_stop_loses_on_time() -> None:
    mock = handshake(MockTransport())
    bot = bot_on(mock)
    move_request(mock, re.compile(r"go movetime \d+")).expect("stop", ["bestmove c1"])
    with pytest.raises(BotFailure, match=r"answered only after 'stop'") as caught:
        bot.choose_move(SMALL, Limit(time=0.05))
    assert caught.value.termination == Termination.TIME_FORFEIT
    mock.assert_done()


def test_stop_mid_search_returns_the_engines_answer() -> None:
    mock = handshake(MockTransport())
    bot = bot_on(mock)
    move_request(mock, "go infinite", "info depth 1 score 100 pv d4", "info depth 2 pv c1")
    mock.expect("stop", ["info depth 3 score 200 pv c1", "bestmove c1"])
    timer = threading.Timer(0.05, bot.stop)
    timer.start()
    seen: list[Thinking] = []
    assert bot.choose_move(SMALL, Limit(time=None), seen.append) == "c1"
    timer.join()
    assert [t.depth for t in seen] == [1, 2, 3]
    assert mock.sent[-1] == "stop"
    mock.assert_done()


def test_no_readyok_before_the_move_is_a_time_forfeit() -> None:
    mock = handshake(MockTransport(pid=5))
    bot = bot_on(mock)
    mock.expect(POSITION).expect("isready").stderr("busy")
    with pytest.raises(BotFailure) as caught:
        bot.choose_move(SMALL, Limit(time=0.05))
    assert caught.value.termination == Termination.TIME_FORFEIT
    assert "sent no 'readyok' before its move's deadline; its process group 5 was killed" in str(
        caught.value
    )
    assert "busy" in caught.value.detail
    assert mock.closed
    mock.assert_done()


def test_startup_failures_become_bot_errors() -> None:
    never = MockTransport().expect("aep", ["id name Never"]).stderr("waiting for nothing")
    with pytest.raises(BotError, match=r"sent no 'aepok' within 0.05s") as caught:
        bot_on(never, "timeout=0.05")
    assert "waiting for nothing" in str(caught.value)
    assert never.closed
    never.assert_done()
    with pytest.raises(BotError, match=r"cannot start engine 'gone': not found"):
        bot_on(MockTransport("gone", start_error="not found"))
    undeclared = MockTransport().expect("aep", ["id name Plain", "aepok"])  # then killed
    with pytest.raises(BotError, match=r"has no option 'Threads' \(it declares: none\)"):
        bot_on(undeclared, "opt.Threads=2")
    undeclared.assert_done()


def test_a_crash_between_moves_loses_and_the_next_game_restarts_the_engine() -> None:
    first = handshake(MockTransport())
    move_request(first, "go depth 1", "bestmove c1").stderr("exiting early").exit(4)
    second = handshake(MockTransport())
    engines = iter([first, second])
    bot = ExternalBot("[timeout=0.5] mock-engine", connect=lambda _: next(engines))
    assert bot.choose_move(SMALL, Limit(time=None, depth=1)) == "c1"
    after = SMALL.play("c1").play("d1")
    with pytest.raises(BotFailure) as caught:
        bot.choose_move(after, Limit(time=None, depth=1))
    assert caught.value.termination == Termination.DISCONNECTION
    assert "exited with status 4 between moves" in caught.value.detail
    assert "exiting early" in caught.value.detail
    first.assert_done()
    bot.new_game()
    second.expect("newgame")
    move_request(second, "go depth 1", "bestmove D1")
    assert bot.choose_move(SMALL, Limit(time=None, depth=1)) == "d1"
    second.expect("quit")
    bot.close()
    second.assert_done()


def test_a_refereed_game_records_an_illegal_answer() -> None:
    mock = handshake(MockTransport())
    mock.expect("newgame")
    move_request(mock, "go depth 1", "bestmove b2")
    mock.expect("quit")
    with bot_on(mock) as bot, FirstSquare() as other:
        game = play_game(bot, other, SMALL, Limit(time=None, depth=1))
    assert game.termination == Termination.ILLEGAL_MOVE
    assert game.result == "o"
    assert game.moves == []
    assert "engine 'mock-engine' answered 'bestmove b2'" in game.termination_detail
    mock.assert_done()


def test_a_refereed_one_round_game() -> None:
    start = Position.start(4, 4, 1)
    mock = handshake(MockTransport())
    mock.expect("newgame").expect(f"position fen {start.fen()}").expect("isready", ["readyok"])
    mock.expect("go depth 1", ["bestmove c1"]).expect("quit")
    with bot_on(mock) as bot, FirstSquare() as other:
        game = play_game(bot, other, start, Limit(time=None, depth=1))
    assert game.termination == Termination.NORMAL
    assert [m.square for m in game.moves][:1] == ["c1"] and len(game.moves) == 2
    mock.assert_done()
