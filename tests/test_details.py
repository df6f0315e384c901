"""The servers' sentences about how a game ended, and their codes (adjacency.core.details):
each template reads back as itself, the position's own refusals are read, and every code
has a catalogue message with the template's params in every language: pages in
Bahasa Indonesia show no English detail the server made."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adjacency.core import IllegalMoveError, Position
from adjacency.core.details import TEMPLATES, detail_fields, detail_text, explain

SRC = Path(__file__).resolve().parents[1] / "src" / "adjacency"
CATALOGUES = SRC / "serving" / "static" / "i18n"


def fields(template: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", template)


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_template_reads_back_as_its_code_and_params(code: str) -> None:
    params = {name: f"value of {name}" for name in fields(TEMPLATES[code])}
    assert explain(detail_text(code, **params)) == (code, params)


def test_names_with_the_templates_words_still_read_back() -> None:
    text = detail_text("resigned", player="X (resigned player) resigned")
    assert explain(text) == ("resigned", {"player": "X (resigned player) resigned"})
    text = detail_text("clock-connected", player="Bot (connected)")
    assert explain(text) == ("clock-connected", {"player": "Bot (connected)"})


def test_the_positions_refusals_are_read_with_and_without_a_name() -> None:
    position = Position.start(4, 4, 4)
    taken = next(sq for sq in ("a1", "b1", "a2", "d4", "c4") if sq not in position.legal_moves())
    refusals = ((taken, "occupied"), ("z9", "malformed-square"), ("d7", "off-the-board"))
    for move, code in refusals:
        with pytest.raises(IllegalMoveError) as caught:
            position.play(move)
        found = explain(str(caught.value))
        assert found is not None and found[0] == code
        assert found[1]["move"] == repr(move)
        named = explain(f"bob answered: {caught.value}")
        assert named is not None and named == (f"{code}-by", {"player": "bob", **found[1]})


def test_other_words_have_no_code() -> None:
    assert explain("") is None
    assert explain("engine closed its output (exit status 3)") is None
    assert explain("x" * 5000) is None
    assert detail_fields("") == {"detail_code": None, "detail_params": {}}
    assert detail_fields("ada resigned") == {
        "detail_code": "resigned",
        "detail_params": {"player": "ada"},
    }


@pytest.mark.parametrize("lang", ["en", "id"])
def test_every_code_has_a_catalogue_message_with_its_params(lang: str) -> None:
    messages = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    for code, template in TEMPLATES.items():
        message = messages[f"detail.{code}"]
        assert set(fields(message)) == set(fields(template)), code
        if lang == "en":
            assert message == template  # English pages show the server's own sentence
