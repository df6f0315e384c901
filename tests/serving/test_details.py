"""How a game ended, as a stored code and as rendered text (adjacency.core.details,
adjacency.serving.details, adjacency.serving.legacy_details): every code has a message
with its params in every language; a message is filled as Python's ``str.format`` would
fill it (an independent filler); a code and its params survive a record's text and JSON;
the position's refusals carry their code; the texts stored before the codes read back by
the frozen sentences, and other words have no code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjacency.core import IllegalMoveError, InvalidRecordError, Position
from adjacency.core.details import PARAMS, Detail, DetailCode
from adjacency.core.game import Game, Termination
from adjacency.core.record import game_from_json, game_from_text, game_to_json, game_to_text
from adjacency.serving.details import LANGUAGES, catalogue, ended, english, refused, render
from adjacency.serving.legacy_details import SENTENCES, explain

CORE = Path(__file__).resolve().parents[2] / "src" / "adjacency" / "core"


def fields(template: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", template)


# ------------------------------------------------------------------ codes and messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_has_a_message_with_its_params(lang: str) -> None:
    messages = catalogue(lang)
    for code in DetailCode:
        message = messages[f"detail.{code.value}"]
        assert set(fields(message)) == set(PARAMS[code]), code
    assert set(PARAMS) == set(DetailCode)


def test_the_core_keeps_codes_and_no_sentence() -> None:
    source = (CORE / "details.py").read_text(encoding="utf-8")
    for code in DetailCode:
        for lang in LANGUAGES:
            sentence = re.sub(r"\{\w+\}", "", catalogue(lang)[f"detail.{code.value}"]).strip()
            if len(sentence) > 12:  # a message's fixed words, never written in the core
                assert sentence not in source, (code, lang)


# Params are any text but braces' names clash-free: a value may hold "{player}" itself.
PARAM_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=30)


@st.composite
def details(draw: st.DrawFn) -> tuple[DetailCode, dict[str, str]]:
    code = draw(st.sampled_from(list(DetailCode)))
    return code, {name: draw(PARAM_TEXT) for name in PARAMS[code]}


@given(details(), st.sampled_from(LANGUAGES))
def test_a_message_is_filled_as_str_format_fills_it(
    drawn: tuple[DetailCode, dict[str, str]], lang: str
) -> None:
    code, params = drawn
    message = catalogue(lang)[f"detail.{code.value}"]
    assert render(code, params, lang) == message.format(**params)
    made = ended(code, **params)
    assert (made.code, dict(made.params)) == (code, params)
    assert english(made) == made.text == render(code, params, "en")


@given(details(), st.booleans())
def test_a_code_and_its_params_survive_the_records(
    drawn: tuple[DetailCode, dict[str, str]], abandoned: bool
) -> None:
    code, params = drawn
    game = Game.new(4, 4, 2)
    detail = ended(code, **params)
    if abandoned:
        game.abandon(detail)
    else:
        game.forfeit("x", Termination.TIME_FORFEIT, detail)
    for back in (game_from_text(game_to_text(game)), game_from_json(game_to_json(game))):
        assert (back.detail_code, back.detail_params) == (code, params)
        assert back.termination == game.termination and back.result == game.result


def test_a_record_with_a_bad_code_is_refused_saying_why() -> None:
    game = Game.new(4, 4, 2)
    game.forfeit("x", Termination.RESIGNATION, ended("resigned", player="ada"))
    text = game_to_text(game)
    for old, new, why in (
        ('[DetailCode "resigned"]', '[DetailCode "gave-up"]', "is not one of"),
        ('[DetailParams "{\\"player\\": \\"ada\\"}"]', '[DetailParams "[1]"]', "takes the text"),
        ('[DetailParams "{\\"player\\": \\"ada\\"}"]', '[DetailParams "{"]', "not a JSON object"),
    ):
        assert old in text
        with pytest.raises(InvalidRecordError, match=why):
            game_from_text(text.replace(old, new))
    data = json.loads(game_to_json(game))
    with pytest.raises(InvalidRecordError, match="takes the text params player"):
        game_from_json(json.dumps({**data, "detail_params": {"who": "ada"}}))
    without = {k: v for k, v in data.items() if k not in ("detail_code", "detail_params")}
    before = game_from_json(json.dumps(without))  # a record from before the codes
    assert (before.termination_detail, before.detail_code) == ("ada resigned", None)


def test_a_detail_refuses_params_that_are_not_its_codes() -> None:
    with pytest.raises(ValueError, match="takes the text params player"):
        Detail("x", DetailCode.RESIGNED, {"name": "ada"})
    with pytest.raises(ValueError, match="without a detail code"):
        Detail("x", None, {"player": "ada"})
    with pytest.raises(ValueError):
        ended("gave-up", player="ada")


def test_the_positions_refusals_carry_their_codes_with_and_without_a_name() -> None:
    position = Position.start(4, 4, 4)
    taken = next(sq for sq in ("a1", "b1", "a2", "d4", "c4") if sq not in position.legal_moves())
    fen = repr(position.fen())
    expected = {
        taken: ("occupied", {"move": repr(taken), "fen": fen, "square": taken}),
        "z9": ("malformed-square", {"move": "'z9'", "fen": fen, "square": "'z9'", "rows": "4"}),
        "d7": ("off-the-board", {"move": "'d7'", "fen": fen, "size": "4x4", "last_file": "d"}),
    }
    for move, (code, some) in expected.items():
        with pytest.raises(IllegalMoveError) as caught:
            position.play(move)
        alone, named = refused(caught.value), refused(caught.value, "bob")
        assert alone.code == code and some.items() <= alone.params.items()
        assert named.code == f"{code}-by" and named.params == {"player": "bob", **alone.params}
        assert named.text == f"bob answered: {caught.value}"
        for detail in (alone, named):  # read back by the sentences of before: the same
            assert explain(detail.text) == detail
    with pytest.raises(IllegalMoveError) as caught:
        Position.start(4, 4, 4).play(99)  # an index off the board: its reason in words
    off = refused(caught.value)
    assert off.code == "off-board" and "(0 to 15)" in off.params["reason"]


# ----------------------------------------------------- the texts stored before the codes


@pytest.mark.parametrize("code", sorted(SENTENCES))
def test_every_sentence_of_before_reads_back_as_its_code_and_params(code: str) -> None:
    params = {name: f"value of {name}" for name in fields(SENTENCES[code])}
    text = SENTENCES[code].format(**params)
    assert explain(text) == Detail(text, DetailCode(code), params)
    assert set(params) == set(PARAMS[DetailCode(code)])


def test_names_with_the_sentences_words_still_read_back() -> None:
    text = "X (resigned player) resigned resigned"
    assert explain(text) == Detail(text, DetailCode.RESIGNED, {"player": text[:-9]})
    text = "Bot (connected) did not move within its clock (connected)"
    assert explain(text).params == {"player": "Bot (connected)"}


def test_other_words_have_no_code() -> None:
    for text in ("", "engine closed its output (exit status 3)", "x" * 5000):
        assert explain(text) == Detail(text)
        assert Detail(text).fields() == {"detail_code": None, "detail_params": {}}
    assert explain("ada resigned").fields() == {
        "detail_code": "resigned",
        "detail_params": {"player": "ada"},
    }
