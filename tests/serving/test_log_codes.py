"""The server's coded log lines (:func:`adjacency.serving.logs.say`): every code the
source says has its message in every catalogue, a line's English words are its English
message, and :func:`~adjacency.serving.logs.told` tells it in Indonesian, a game's
termination, end and plies too, keeping the English words of a line of no code."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest

from adjacency.core.details import DetailCode
from adjacency.serving.details import LANGUAGES, catalogue, render
from adjacency.serving.logs import LogLine, RecentLines, say, told

SRC = Path(__file__).resolve().parents[2] / "src" / "adjacency"
SAID = re.compile(r'say\(\s*\w+,\s*logging\.[A-Z]+,\s*"([a-z-]+)"')


def said_codes() -> set[str]:
    """The codes the source says by a literal (the codes made by a name's parts are
    said by the league's own tests, through its server)."""
    return {code for path in SRC.rglob("*.py") for code in SAID.findall(path.read_text())}


def test_every_code_the_source_says_has_a_message_in_every_language() -> None:
    codes = said_codes()
    assert {"bot-connected", "event-round-paired", "teacher-withdrew", "event-finished"} <= codes
    for lang in LANGUAGES:
        messages = catalogue(lang)
        assert [c for c in sorted(codes) if f"log.{c}" not in messages] == [], lang


def logged(code: str, **params: object) -> LogLine:
    """The line a handler keeps of ``say(code, **params)``."""
    kept = RecentLines()
    logger = logging.getLogger("adjacency.test-log-codes")
    logger.addHandler(kept)
    logger.setLevel(logging.INFO)
    try:
        say(logger, logging.INFO, code, **params)
    finally:
        logger.removeHandler(kept)
    (line,) = kept.lines()
    return line


def test_a_coded_line_keeps_its_english_words_its_code_and_its_params() -> None:
    line = logged("teacher-withdrew", team="gold", event="friday")
    assert line.message == "the teacher withdrew gold from event friday"
    assert (line.code, dict(line.params)) == (
        "teacher-withdrew",
        {"team": "gold", "event": "friday"},
    )
    assert told(line, "en") == line.message
    assert told(line, "id") == "guru menarik gold dari acara friday"


def test_a_games_end_is_told_with_its_termination_detail_and_plies_in_indonesian() -> None:
    params = {"player": "ghost"}
    line = logged(
        "game-won-why", game=7, x="red", o="ghost", x_score=4, o_score=4, count=1,
        termination="time forfeit", winner="red", side="x",
        detail=render(DetailCode.ABSENT, params), detail_code="absent",
        detail_params=json.dumps(params),
    )  # fmt: skip
    assert line.message == (
        "game 7 ended: red (x) won (time forfeit: ghost was not connected when the game was "
        "to start: a forfeit), red 4-4 ghost after 1 ply"
    )  # one ply, not "1 plies"
    said = told(line, "id")
    ours = catalogue("id")
    assert said == (
        f"permainan 7 selesai: red (x) menang ({ours['termination.time-forfeit']}: "
        f"{render(DetailCode.ABSENT, params, 'id')}), red 4-4 ghost setelah 1 langkah"
    )
    assert "forfeit" not in said and "ply" not in said


def test_a_line_of_no_code_or_an_unknown_one_keeps_its_english_words() -> None:
    plain = LogLine(1, 0.0, "ERROR", 40, "adjacency.league", "builder: version 3 failed")
    assert told(plain, "id") == "builder: version 3 failed"
    other = LogLine(2, 0.0, "INFO", 20, "adjacency.league", "said later", "no-such-code", {})
    assert told(other, "id") == "said later"
    broken = logged(
        "game-aborted-why", game=1, x="a", o="b", x_score=2, o_score=2, count=0,
        termination="abandoned", detail="words", detail_code="absent", detail_params="{",
    )  # fmt: skip
    assert "words" in told(broken, "id")  # params it cannot read: the English detail stays


def test_a_code_of_no_message_is_refused() -> None:
    with pytest.raises(KeyError):
        say(logging.getLogger("adjacency.test-log-codes"), logging.INFO, "no-such-code")
