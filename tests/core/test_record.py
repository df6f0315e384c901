"""Game records: the Game object, the text format and JSON, including bad input."""

from __future__ import annotations

import json

import pytest

from adjacency import Game, IllegalMoveError, InvalidRecordError, Position, Termination
from adjacency.core.record import (
    game_from_dict,
    game_from_json,
    game_from_text,
    game_to_dict,
    game_to_json,
    game_to_text,
    games_from_text,
)

RECORD = """\
[Event "Club night"]
[Date "2026.11.21"]
[X "Alice"]
[O "greedy"]
[Rows "4"]
[Cols "4"]
[Rounds "2"]
[First "o"]
[Result "0-1"]
[Score "5-7"]
[Termination "normal"]

1. c2 {[%emt 0.250]} b3 2. a3 {[%emt 1.000]} d1 0-1
"""


def test_text_record_loads_and_replays() -> None:
    game = game_from_text(RECORD)
    assert (game.x_name, game.o_name, game.event) == ("Alice", "greedy", "Club night")
    assert game.first == "o" and game.rounds == 2
    assert [m.square for m in game.moves] == ["c2", "b3", "a3", "d1"]
    assert [m.seconds for m in game.moves] == [0.25, None, 1.0, None]
    assert game.position.score == (5, 7)
    assert game.result == "o" and game.termination == Termination.NORMAL
    assert game_to_text(game) == RECORD


def test_game_play_undo_and_result() -> None:
    game = Game.new(4, 4, rounds=1)
    game.play("c2", 0.5)
    assert not game.is_over
    game.play("b3")
    assert game.is_over and game.result == "o"
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play("a3")
    assert game.undo().square == "b3"
    assert not game.is_over and game.result is None
    assert game.position == Position.start(4, 4, 1).play("c2")


def test_failed_move_changes_nothing() -> None:
    game = Game.new()
    game.play("c3")
    before = game_to_text(game)
    with pytest.raises(IllegalMoveError):
        game.play("c3")
    assert game_to_text(game) == before and len(game.positions) == 2


def test_forfeit_round_trips_with_detail() -> None:
    game = Game.new(rounds=5)
    game.play("c3", 0.1)
    game.forfeit("o", Termination.ILLEGAL_MOVE, 'answered "z9"')
    assert game.result == "x"
    again = game_from_text(game_to_text(game))
    assert again.termination == Termination.ILLEGAL_MOVE
    assert again.termination_detail == 'answered "z9"'
    assert game_from_json(game_to_json(game)).termination_detail == 'answered "z9"'


def test_custom_start_is_recorded_as_fen() -> None:
    start = Position.from_fen("xxoo/4/4/oo2 o 5")
    game = Game(start, "a", "b")
    game.play("c1")
    text = game_to_text(game)
    assert '[FEN "xxoo/4/4/oo2 o 5"]' in text
    assert '[Rounds "3"]' in text
    assert game_from_text(text).positions == game.positions


def test_several_records_in_one_text() -> None:
    second = RECORD.replace("Alice", "Bob")
    games = games_from_text(RECORD + "\n" + second)
    assert [g.x_name for g in games] == ["Alice", "Bob"]
    with pytest.raises(InvalidRecordError, match="expected one game record, found 2"):
        game_from_text(RECORD + "\n" + second)


@pytest.mark.parametrize(
    "change,fragment",
    [
        (("1. c2", "1. c9"), "move 1 ('c9')"),
        (("b3 2.", "c2 2."), "move 2 ('c2')"),
        (("2. a3", "3. a3"), "move number '3.' out of place"),
        (('[Rows "4"]', '[Rows "9"]'), "bad settings"),
        (('[Rounds "2"]', '[Rounds "two"]'), "tag Rounds must be a whole number"),
        (('[Result "0-1"]', '[Result "1-0"]'), "differs from the result"),
        (("d1 0-1", "d1 1-0"), "differs from the result"),
        (('[X "Alice"]', '[X "Alice]'), "malformed tag"),
        (('[Termination "normal"]', '[Termination "boredom"]'), "termination 'boredom'"),
        (("d1 0-1", "d1 0-1 c1"), "after the result"),
    ],
)
def test_bad_text_records(change: tuple[str, str], fragment: str) -> None:
    with pytest.raises(InvalidRecordError) as info:
        game_from_text(RECORD.replace(*change))
    assert fragment in str(info.value)


def test_result_must_match_the_final_score() -> None:
    text = RECORD.replace('[Result "0-1"]', '[Result "1/2-1/2"]').replace("d1 0-1", "d1 1/2-1/2")
    with pytest.raises(InvalidRecordError, match="contradicts the final score"):
        game_from_text(text)


def test_unfinished_game_cannot_claim_a_normal_win() -> None:
    text = RECORD.replace(" d1 0-1", " 0-1")
    with pytest.raises(InvalidRecordError, match="not finished"):
        game_from_text(text.replace('[Termination "normal"]\n', ""))
    with pytest.raises(InvalidRecordError, match="does not fit"):
        game_from_text(text)


def test_json_records_and_bad_json() -> None:
    game = game_from_text(RECORD)
    data = game_to_dict(game)
    assert data["moves"][0] == {"square": "c2", "seconds": 0.25}
    assert game_from_dict(json.loads(json.dumps(data))).positions == game.positions
    with pytest.raises(InvalidRecordError, match="not valid JSON"):
        game_from_json("{nope")
    with pytest.raises(InvalidRecordError, match="must be an object"):
        game_from_json("[1, 2]")
    with pytest.raises(InvalidRecordError, match="missing 'start'"):
        game_from_dict({"moves": []})
    broken = dict(data, moves=[{"square": "c2"}, {"square": "c2"}])
    with pytest.raises(InvalidRecordError, match="move 2"):
        game_from_dict(broken)
    with pytest.raises(InvalidRecordError, match="move 1 is malformed"):
        game_from_dict(dict(data, moves=[{"square": 3}]))
    with pytest.raises(InvalidRecordError, match="unknown format"):
        game_from_dict(dict(data, format="other/9"))


def test_loading_a_record_does_not_trust_its_score_tag() -> None:
    # The Score tag is informational; the replayed moves decide the result.
    game = game_from_text(RECORD.replace('[Score "5-7"]', '[Score "9-3"]'))
    assert game.position.score == (5, 7)


def test_rounds_count_the_whole_game_from_the_standard_start() -> None:
    """An 8-round game after 2 opening plies says ``[Rounds "8"]``, not ``[Rounds "7"]``."""
    start = Position.start(8, 8, 8).play("c3").play("f6")
    assert start.plies_left == 14
    game = Game(start, "A", "B")
    assert game.rounds == 8
    assert '[Rounds "8"]' in game_to_text(game)
    assert game_to_dict(game)["rounds"] == 8
    reloaded = game_from_text(game_to_text(game))
    assert reloaded.rounds == 8 and reloaded.start == start  # plies left come from the FEN
    one_ply = Game(Position.start(8, 8, 8).play("c3"))
    assert one_ply.rounds == 8
    assert Game.new(4, 4, rounds=3).rounds == 3  # the standard start: unchanged
    edited = Position.from_fen("x7/8/8/8/8/8/8/7o x 9")  # fewer pieces than a start
    assert Game(edited).rounds == 5


def test_records_carry_the_rules_version_and_refuse_another() -> None:
    """A JSON record names the rules it was played under; a record (JSON or text) naming
    other rules is refused by name, one naming these or none loads."""
    from adjacency.core import RULES_VERSION

    game = game_from_text(RECORD)
    data = json.loads(game_to_json(game))
    assert data["rules"] == RULES_VERSION == "1"
    assert game_from_json(json.dumps(data)).moves == game.moves
    del data["rules"]
    assert game_from_json(json.dumps(data)).moves == game.moves
    data["rules"] = "2"
    with pytest.raises(InvalidRecordError, match="made under rules version '2'; this package"):
        game_from_json(json.dumps(data))
    tagged = RECORD.replace('[First "o"]\n', '[First "o"]\n[Rules "1"]\n')
    assert game_from_text(tagged).tags == {} and game_to_text(game_from_text(tagged)) == RECORD
    with pytest.raises(InvalidRecordError, match="rules version '0'"):
        game_from_text(tagged.replace('[Rules "1"]', '[Rules "0"]'))
