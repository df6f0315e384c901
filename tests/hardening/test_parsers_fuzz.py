"""Fuzzing every text parser: only the documented ``ValueError`` subclasses escape.

Each parser gets arbitrary text and mutated valid input (fuzz_strategies). The
contract (docs/errors.md): success, or an :class:`AdjacencyError` subclass
whose message quotes at most a bounded part of the input. Anything else (a
bare ``ValueError`` from ``int``, a ``TypeError``, a ``RecursionError``) is a
crash of the caller.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjacency import Game, Position
from adjacency.bots.external import parse_command_spec
from adjacency.bots.lookup import option_values, parse_spec
from adjacency.core.board import board
from adjacency.core.errors import AdjacencyError, InvalidRecordError
from adjacency.core.record import (
    game_from_dict,
    game_from_json,
    game_to_json,
    game_to_text,
    games_from_text,
)
from adjacency.core.text import MAX_DIGITS, parse_int
from adjacency.protocol.wire import parse_command, parse_engine_line
from fuzz_strategies import hostile

MESSAGE_LIMIT = 1200
"""Characters an error message may have, whatever the input's length (quote() cuts)."""

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def accepted_or_documented(parse: Callable[[str], object], text: str) -> None:
    try:
        parse(text)
    except AdjacencyError as exc:
        assert len(str(exc)) <= MESSAGE_LIMIT, f"message of {len(str(exc))} characters"


def sample_game() -> Game:
    game = Game.new(rows=4, cols=4, rounds=3, x_name="Ann", o_name="Bob")
    for seconds, square in zip((1.5, None, 0.25, 2.0), ("c2", "b3", "c1", "a3"), strict=True):
        game.play(square, seconds)
    return game


FENS = [
    Position.start().fen(),
    "6oo/6oo/8/8/8/8/xx6/xx6 x 56",
    "2oo/2oo/xx2/xx2 o 7",
    "3xxxxo/xoooxoxo/oxoox3/ox4xx/ox1oooxx/ooxoxxxx/oooox1xo/xoxoo2o x 14",
]
SQUARES = ["a1", "c3", "h8", "e5", "A1", " b2 "]
RECORDS = [game_to_text(sample_game())]
JSON_RECORDS = [game_to_json(sample_game(), indent=None)]
SPECS = [
    "greedy",
    "random:seed=3",
    "alphabeta:depth=4",
    "minimax:depth=2,seed=1",
    "cmd:[timeout=2;grace=0.5] ./engine --threads 2",
]
COMMANDS = [
    "position startpos moves c3 f6",
    "position startpos rows 6 cols 5 rounds 4 first o moves a3",
    "position fen 6oo/6oo/8/8/8/8/xx6/xx6 x 56 moves c3",
    "go movetime 100 depth 3 nodes 1000 xtime 5000 otime 5000",
    "go infinite",
    "setoption name depth value 3",
    "isready",
]
ENGINE_LINES = [
    "info depth 3 score -12 nodes 100 nps 2000 time 50 pv c3 d4",
    "option name depth type spin default 4 min 1 max 20",
    "option name style type combo default a var a var b",
    "bestmove c3",
    "id name fake engine",
    "info string hello",
]


@FUZZ
@given(hostile(FENS))
def test_position_text(text: str) -> None:
    accepted_or_documented(Position.from_fen, text)


@FUZZ
@given(hostile(SQUARES))
def test_square_names(text: str) -> None:
    accepted_or_documented(board(8, 8).square, text)


@FUZZ
@given(hostile(RECORDS))
def test_text_records(text: str) -> None:
    accepted_or_documented(games_from_text, text)


@FUZZ
@given(hostile(JSON_RECORDS))
def test_json_records(text: str) -> None:
    accepted_or_documented(game_from_json, text)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=10)
    | st.sampled_from(["x", "o", "draw", "normal", "c3", FENS[2]]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children)
    ),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(list(json.loads(JSON_RECORDS[0]))), JSON_VALUES))
def test_json_record_fields_of_any_type(changes: dict[str, object]) -> None:
    data = {**json.loads(JSON_RECORDS[0]), **changes}
    try:
        game = game_from_dict(data)
    except AdjacencyError:
        return
    # Whatever was accepted exports as strict JSON (no NaN or Infinity) and reloads.
    text = game_to_json(game)
    json.loads(text, parse_constant=lambda name: pytest.fail(f"exported {name}"))
    assert game_to_json(game_from_json(text)) == text


@FUZZ
@given(hostile(SPECS))
def test_bot_specs(text: str) -> None:
    def parse(spec: str) -> object:
        if spec.strip().lower().startswith("cmd:"):
            return parse_command_spec(spec.strip()[4:])
        return option_values(parse_spec(spec))

    accepted_or_documented(parse, text)


@FUZZ
@given(hostile(COMMANDS))
def test_protocol_commands(text: str) -> None:
    accepted_or_documented(parse_command, text)


@FUZZ
@given(hostile(ENGINE_LINES))
def test_engine_lines_never_raise(text: str) -> None:
    parse_engine_line(text)  # lenient by contract: a garbled line is skipped, never an error


@FUZZ
@given(st.text(max_size=30))
def test_whole_numbers_are_ascii_digits_only(text: str) -> None:
    ascii_number = text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS
    try:
        value = parse_int(text, "n")
    except AdjacencyError:
        assert not ascii_number
    else:
        assert ascii_number and value == int(text)


# ------------------------------------------------------------------ defect 1, one by one


@pytest.mark.parametrize("name", ["c３", "a٣", "c03", "b²", "a" + "1" * 5000, "c0"])
def test_square_names_take_ascii_ranks_without_leading_zeros(name: str) -> None:
    with pytest.raises(AdjacencyError, match="malformed square"):
        board(8, 8).square(name)


@pytest.mark.parametrize(
    "text",
    [
        "٦oo/٦oo/8/8/8/8/xx6/xx6 x 56",  # Arabic-Indic six
        "6oo/6oo/8/8/8/8/xx6/xx6 x ٥٦",
        "6oo/6oo/8/8/8/8/xx6/xx6 x ²",
        "6oo/6oo/8/8/8/8/xx6/xx6 x " + "5" * 5000,
        "6oo/6oo/8/8/8/8/xx6/xx6 x 0x10",
    ],
)
def test_position_text_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(AdjacencyError) as caught:
        Position.from_fen(text)
    assert len(str(caught.value)) < 400


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"x": None}, "'x' must be a string, got None"),
        ({"o": 7}, "'o' must be a string, got 7"),
        ({"tags": {"Round": 3}}, "'tags' must be an object of strings to strings"),
        ({"result": [1]}, "result [1] is not one of"),
        ({"termination": {"a": 1}}, "termination {'a': 1} must be a string"),
        ({"moves": [{"square": "c2", "seconds": math.nan}]}, "move 1 is malformed"),
        ({"moves": [{"square": "c2", "seconds": math.inf}]}, "move 1 is malformed"),
        ({"moves": [{"square": "c2", "seconds": -1}]}, "move 1 is malformed"),
        ({"moves": [{"square": "c2", "seconds": True}]}, "move 1 is malformed"),
    ],
)
def test_json_records_reject_wrong_types_and_non_finite_times(
    changes: dict[str, object], message: str
) -> None:
    data = {**json.loads(JSON_RECORDS[0]), **changes}
    with pytest.raises(InvalidRecordError, match="JSON record") as caught:
        game_from_dict(data)
    assert message in str(caught.value)


def test_text_record_with_an_infinite_time_is_rejected() -> None:
    text = RECORDS[0].replace("[%emt 1.500]", "[%emt " + "9" * 400 + "]")
    with pytest.raises(InvalidRecordError, match=r"move time .* is too large"):
        games_from_text(text)


def test_a_game_refuses_a_non_finite_move_time() -> None:
    game = Game.new(rows=4, cols=4, rounds=3)
    for seconds in (math.nan, math.inf, -0.5):
        with pytest.raises(InvalidRecordError, match="finite number of seconds"):
            game.play("c2", seconds)
    assert game.moves == []  # nothing changed


def test_error_messages_quote_at_most_80_characters_of_the_input() -> None:
    line = "position fen " + "x" * 1_000_000
    with pytest.raises(AdjacencyError) as caught:
        parse_command(line)
    assert len(str(caught.value)) < 400
    assert "(1000013 characters)" in str(caught.value)
