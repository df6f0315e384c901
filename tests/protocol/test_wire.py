"""Parsing and formatting protocol lines."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjacency.core import Position
from adjacency.core.text import quote
from adjacency.protocol.wire import (
    Aep,
    AepOk,
    BestMove,
    Go,
    Id,
    Info,
    IsReady,
    NewGame,
    OptionSpec,
    ProtocolError,
    Quit,
    ReadyOk,
    SetOption,
    SetPosition,
    Stop,
    format_command,
    format_message,
    parse_command,
    parse_engine_line,
)


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("aep", Aep()),
        ("isready\r\n", IsReady()),
        ("  newgame  ", NewGame()),
        ("stop", Stop()),
        ("quit", Quit()),
        ("joho debug isready", IsReady()),
        ("setoption name Hash value 64", SetOption("Hash", "64")),
        ("setoption name Book File value my book.bin", SetOption("Book File", "my book.bin")),
        ("setoption name Clear", SetOption("Clear", "")),
        ("go movetime 250 depth 4", Go(movetime=250, depth=4)),
        ("go xtime 1000 otime 2000 nodes 5 frobnicate", Go(nodes=5, xtime=1000, otime=2000)),
        ("go infinite", Go(infinite=True)),
        ("go", Go()),
    ],
)
def test_parse_commands(line: str, command: object) -> None:
    assert parse_command(line) == command


def test_blank_lines_are_nothing() -> None:
    assert parse_command("") is None
    assert parse_command(" \t\r\n") is None


def test_position_startpos_with_settings_and_moves() -> None:
    command = parse_command("position startpos rows 5 cols 6 rounds 4 first o moves F1 a5")
    assert isinstance(command, SetPosition)
    assert command.start == Position.start(5, 6, 4, "o")
    assert command.moves == ("f1", "a5")
    assert command.position == Position.start(5, 6, 4, "o").play("f1").play("a5")


def test_position_startpos_defaults_to_the_full_game() -> None:
    command = parse_command("position startpos")
    assert isinstance(command, SetPosition) and command.start == Position.start()
    command = parse_command("position startpos rows 4 cols 4")
    assert isinstance(command, SetPosition) and command.start.plies_left == 8


def test_position_fen() -> None:
    command = parse_command("position fen 2oo/2oo/xx2/xx2 o 7 moves a3")
    assert isinstance(command, SetPosition)
    assert command.position.fen() == "2oo/o1oo/ox2/xx2 x 6"  # a3 converts a2


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("hello world", "unknown command in 'hello world'; expected one of aep, isready"),
        ("position", "expected 'position startpos"),
        ("position fen 8/8 x", "'position fen' takes 3 fields"),
        ("position fen 2oo/2oo/xx2/xx2 z 7", "side to move must be 'x' or 'o', got 'z'"),
        ("position startpos moves a1", "a1 is occupied by x"),
        ("position startpos moves z9", "malformed square 'z9'"),
        ("position startpos rows 9", "rows must be from 4 to 8, got 9"),
        ("position startpos rows four", "rows must be a whole number, got 'four'"),
        ("position startpos first y", "first must be 'x' or 'o', got 'y'"),
        ("position startpos rounds 29", "rounds must be a whole number from 1 to 28"),
        ("go movetime", "movetime must be a whole number, got ''"),
        ("go depth -1", "depth must be at least 0, got '-1'"),
        ("go movetime -5", "movetime must be at least 0, got '-5'"),
        ("go depth ²", "depth must be a whole number, got '²'"),
        ("go depth ３", "depth must be a whole number, got '３'"),
        ("position startpos rows ²", "rows must be a whole number, got '²'"),
        ("go nodes " + "9" * 5000, "nodes must be a whole number of at most 18 digits"),
        ("setoption value 3", "expected 'setoption name <id> [value <v>]'"),
    ],
)
def test_malformed_commands_are_explained(line: str, message: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command(line)
    assert message in str(caught.value)
    assert quote(line) in str(caught.value)  # at most 80 characters of the line


@pytest.mark.parametrize(
    "command",
    [
        Aep(),
        IsReady(),
        NewGame(),
        Stop(),
        Quit(),
        SetOption("Book File", "a b"),
        Go(movetime=100, depth=2, nodes=3, xtime=4, otime=5, infinite=True),
        SetPosition(Position.start(5, 6, 3), ("a3", "f3")),
    ],
)
def test_commands_round_trip(command: object) -> None:
    assert parse_command(format_command(command)) == command  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("aepok", AepOk()),
        ("readyok\r", ReadyOk()),
        ("id name My Engine 1.0", Id("name", "My Engine 1.0")),
        ("id author A. N. Author", Id("author", "A. N. Author")),
        (
            "option name Hash type spin default 16 min 1 max 1024",
            OptionSpec("Hash", "spin", "16", 1, 1024),
        ),
        (
            "option name Style type combo default Solid var Solid var Wild Card",
            OptionSpec("Style", "combo", "Solid", choices=("Solid", "Wild Card")),
        ),
        ("option name Book type string default <empty>", OptionSpec("Book", "string", "")),
        ("option name Clear Hash type button", OptionSpec("Clear Hash", "button")),
        ("option name Broken type wheel", None),
        ("bestmove c3", BestMove("c3")),
        ("bestmove", BestMove(None)),
        ("   bestmove   C3  extra ", BestMove("C3")),
        ("info depth 3 score -125 nodes 99 nps 1000 time 99 pv c3 d4 string hi there", None),
        ("info depth x score 1.5 nodes 7 pv", Info(nodes=7)),
        ("info string depth 3 is a lie", Info(string="depth 3 is a lie")),
        ("what is this", None),
        ("", None),
    ],
)
def test_parse_engine_lines(line: str, message: object) -> None:
    if message is None and line.startswith("info depth 3"):
        message = Info(3, -125, 99, 1000, 99, ("c3", "d4"), "hi there")
    assert parse_engine_line(line) == message


@settings(max_examples=200, deadline=None)
@given(
    depth=st.none() | st.integers(0, 99),
    score=st.none() | st.integers(-6400, 6400),
    nodes=st.none() | st.integers(0, 10**12),
    pv=st.lists(st.sampled_from(["a1", "h8", "c3"]), max_size=5),
    string=st.text(alphabet="abc xyz", max_size=20).map(lambda s: " ".join(s.split())),
)
def test_info_round_trips(
    depth: int | None, score: int | None, nodes: int | None, pv: list[str], string: str
) -> None:
    info = Info(depth=depth, score=score, nodes=nodes, pv=tuple(pv), string=string)
    assert parse_engine_line(format_message(info)) == info


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_never_crashes_the_parsers(text: str) -> None:
    parse_engine_line(text)
    with contextlib.suppress(ProtocolError):
        parse_command(text)


@pytest.mark.parametrize(
    "message",
    [
        AepOk(),
        ReadyOk(),
        Id("name", "X 1"),
        OptionSpec("Hash", "spin", "16", 1, 64),
        OptionSpec("Mode", "combo", "a", choices=("a", "b c")),
        OptionSpec("Path", "string", ""),
        OptionSpec("Ponder", "check", "false"),
        BestMove("h8"),
    ],
)
def test_messages_round_trip(message: object) -> None:
    assert parse_engine_line(format_message(message)) == message  # type: ignore[arg-type]


def test_bestmove_none_is_written_for_no_move() -> None:
    assert format_message(BestMove(None)) == "bestmove (none)"
