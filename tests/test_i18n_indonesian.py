"""The Indonesian catalogue says everything in Indonesian: every key of the English
catalogue has an Indonesian value that is not empty, and a value equal to the English one
is a word Indonesian shares with English (a true cognate or a name), listed below with
why, or has no words at all ("{x} – {o}"); any other is an English message left
untranslated. Touch screens are not told to
click: the pages' instructions use neutral words. The reader is addressed in one
register, lichess's Indonesian one: *Anda*, never *kamu* or its suffix *-mu*."""

from __future__ import annotations

import re

from test_i18n_catalogues import catalogue, texts

COGNATES = {
    "play.lab": "Lab: the page's name, as Indonesian labs are called",
    "new.mode": "Mode: the same word in Indonesian",
    "new.bot": "Bot: the same word in Indonesian",
    "lab.bot": "Bot",
    "bars.bot-spec": "Bot · {spec}: the word and a spec string",
    "league.kind.bot": "bot",
    "teacher.kind.bot": "bot",
    "level.Master": "Master: the title as Indonesian chess uses it",
    "level.Grandmaster": "Grandmaster: the title as Indonesian chess uses it",
    "league.col.rating": "rating: Indonesian chess's word for a rating",
    "people.rating": "rating {rating}",
    "watch.rating": "rating {rating}",
    "league.col.status": "status: the same word in Indonesian",
    "team.col.status": "status: the same word in Indonesian",
    "event.col.median": "median B.: median is the same word; B. Buchholz's initial",
    "lab.technique.minimax": "minimax: the algorithm's name",
    "teacher.team.token": "Token: the same word in Indonesian",
    "teacher.create.format": "Format: the same word in Indonesian",
    "card.mark.blunder": "blunder: the chess word Indonesian players use, as the review's",
}
"""Keys whose Indonesian value may equal the English one, each with why."""


def words(text: str) -> bool:
    """Whether a message has words of a language (not only placeholders and signs)."""
    return bool(re.search(r"[^\W\d_]", re.sub(r"\{\w+\}", "", text)))


def test_every_key_has_an_indonesian_value_and_only_cognates_equal_the_english() -> None:
    english, indonesian = catalogue("en"), catalogue("id")
    missing = sorted(set(english) - set(indonesian))
    empty = sorted(k for k, v in indonesian.items() if not all(t.strip() for t in texts(v)))
    same = sorted(
        k
        for k in english
        if k in indonesian and english[k] == indonesian[k] and any(map(words, texts(english[k])))
    )
    assert missing == [] and empty == []
    assert [k for k in same if k not in COGNATES] == []  # English left untranslated
    assert [k for k in COGNATES if k not in same] == []  # a stale entry of the list


def test_no_indonesian_message_tells_a_touch_screen_to_click() -> None:
    """ "klik" alone is a mouse's word; a message may say it beside "ketuk" (tap)."""
    clicks = {
        key: text
        for key, value in catalogue("id").items()
        for text in texts(value)
        if re.search(r"\bklik\b", text, re.IGNORECASE) and "ketuk" not in text
    }
    assert clicks == {}


NOT_SUFFIXED = {"temu", "bertemu", "ditemu", "ilmu", "tamu", "jamu", "ramu", "semu", "jemu"}
"""Indonesian words that end in "mu" of their own (no suffix *-mu*)."""


def familiar(text: str) -> list[str]:
    """The familiar "you" of ``text``: *kamu*, *engkau*, and the suffix *-mu* on a word
    ("rekormu", "percobaanmu")."""
    found = re.findall(r"\b(?:kamu|engkau|\w+mu)\b", text, re.IGNORECASE)
    return [w for w in found if w.lower() not in NOT_SUFFIXED]


def test_one_register_addresses_the_reader() -> None:
    """Lichess's Indonesian addresses its reader as *Anda* (its Storm: "Anda dapat
    melewati satu gerakan"); so does every message here."""
    found = {
        key: text
        for key, value in catalogue("id").items()
        for text in texts(value)
        if familiar(text)
    }
    assert found == {}
    assert familiar("rekormu · Kamu · bertemu") == ["rekormu", "Kamu"]
