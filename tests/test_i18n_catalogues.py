"""The pages' message catalogues (src/adjacency/serving/static/i18n/*.json).

Every key is in every language with the same parameters; plural messages have the
forms their language needs; every key the pages' markup and scripts name exists; every
specific error code the servers raise has a message.
"""

from __future__ import annotations

import json
import re
from contextlib import suppress
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "adjacency"
CATALOGUES = SRC / "serving" / "static" / "i18n"
STATIC = [SRC / "web" / "static", SRC / "league" / "static", SRC / "serving" / "static"]
PLURAL_FORMS = {"en": {"one", "other"}, "id": {"other"}}
"""The Intl.PluralRules categories of each language (Indonesian has no plural forms)."""


def catalogue(lang: str) -> dict[str, object]:
    """The catalogue of ``lang`` as loaded by the pages."""
    data = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def texts(value: object) -> list[str]:
    """The message's text, or each form of a plural message."""
    return list(value.values()) if isinstance(value, dict) else [value]  # type: ignore[list-item]


def params(value: object) -> set[str]:
    """The ``{name}`` placeholders of a message (all forms together)."""
    return {name for text in texts(value) for name in re.findall(r"\{(\w+)\}", text)}


def rendered_pages() -> list[str]:
    """Every page of both servers as it is sent (rendered from its template)."""
    from adjacency.league.routers.pages import PAGES as LEAGUE
    from adjacency.serving.frame import SHARED_PAGES
    from adjacency.web.routers.pages import PAGES as WEB

    return [pages.html(name) for pages in (WEB, LEAGUE, SHARED_PAGES) for name in pages.names()]


def used_keys() -> set[str]:
    """The keys the pages and the static files name: data-i18n attributes and t("...")
    calls."""
    found: set[str] = set()
    sources = [
        path.read_text(encoding="utf-8")
        for folder in STATIC
        for path in folder.rglob("*")
        if path.suffix in (".html", ".js")
    ]
    for source in [*rendered_pages(), *sources]:
        lines = source.splitlines()
        text = "\n".join(line for line in lines if not line.lstrip().startswith("//"))
        found.update(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', text))
        found.update(re.findall(r'\bt\(\s*"([^"]+)"', text))
        found.update(re.findall(r"\bt\(\s*`([^`$]+)`", text))
        # t(a ? "ns.k1" : "ns.k2"): the keys chosen between.
        found.update(re.findall(r'\bt\([^()]*?\?\s*"([\w-]+\.[\w.-]+)"\s*:', text))
    return found


def test_every_catalogue_has_the_same_keys_and_parameters() -> None:
    english = catalogue("en")
    assert len(english) > 200
    for lang in PLURAL_FORMS:
        other = catalogue(lang)
        assert set(other) == set(english), f"{lang}: {set(other) ^ set(english)}"
        for key, value in english.items():
            assert params(other[key]) == params(value), f"{lang} {key}: parameters differ"
            forms = other[key]
            if isinstance(forms, dict):
                assert set(forms) == PLURAL_FORMS[lang], f"{lang} {key}: plural forms"
            for text in texts(other[key]):
                assert isinstance(text, str) and text.strip(), f"{lang} {key}: empty"


def test_every_key_the_pages_use_exists() -> None:
    english = catalogue("en")
    used = used_keys()
    assert len(used) > 100
    missing = sorted(key for key in used if key not in english)
    assert not missing, missing


@pytest.mark.parametrize("lang", sorted(PLURAL_FORMS))
def test_every_specific_error_code_has_a_message(lang: str) -> None:
    messages = catalogue(lang)
    codes: set[str] = set()
    for path in SRC.rglob("*.py"):
        codes.update(re.findall(r'\bcode="(\w+)"', path.read_text(encoding="utf-8")))
    assert "game_not_found" in codes
    missing = sorted(code for code in codes if f"error.{code}" not in messages)
    assert not missing, missing


@pytest.mark.parametrize("lang", sorted(PLURAL_FORMS))
def test_every_offered_bot_has_its_summary_and_options_in_the_catalogue(lang: str) -> None:
    """The play page's bot picker shows the registry's words: each bot the
    server offers has ``bot.<name>.summary`` and ``bot.<name>.option.<option>``, English
    as the registry says it (so a changed summary fails here until translated again)."""
    from adjacency.bots import BotError
    from adjacency.bots.lookup import entry
    from adjacency.bots.registry import plugins
    from adjacency.web.routers.games import bots

    for plugin in plugins():  # a plug-in is offered once loaded: load every installed one,
        with suppress(BotError):  # so what is checked does not depend on the tests before
            entry(plugin.name)  # (BotError: its extra is missing, the page cannot offer it)
    messages = catalogue(lang)
    offered = bots()
    assert len(offered) >= 10
    for bot in offered:
        words = {f"bot.{bot.name}.summary": bot.summary}
        words.update({f"bot.{bot.name}.option.{o.name}": o.help for o in bot.options})
        for key, english in words.items():
            assert key in messages, key
            if lang == "en":
                assert messages[key] == english, key
            else:
                assert messages[key] != english, f"{lang} {key}: not translated"


@pytest.mark.parametrize("lang", sorted(PLURAL_FORMS))
def test_every_field_error_code_has_a_message(lang: str) -> None:
    """A 422's ``errors`` are shown field by field from the catalogue."""
    from adjacency.serving.middleware import FIELD_CODE_NAMES

    messages = catalogue(lang)
    assert "error.malformed" in messages and params(messages["error.malformed"]) == {"problems"}
    missing = sorted(code for code in FIELD_CODE_NAMES if f"field.{code}" not in messages)
    assert not missing, missing


@pytest.mark.parametrize("lang", sorted(PLURAL_FORMS))
def test_each_key_is_written_once(lang: str) -> None:
    """A key written twice keeps its last message only: two raise sites of one code then
    read the other's words (the JSON parser raises nothing)."""
    keys = json.loads(
        (CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"),
        object_pairs_hook=lambda pairs: [key for key, _ in pairs],
    )
    twice = sorted({key for key in keys if keys.count(key) > 1})
    assert twice == []


@pytest.mark.parametrize("lang", sorted(PLURAL_FORMS))
def test_no_message_is_written_in_markdown(lang: str) -> None:
    """Page text, not Markdown: code in backticks or **bold** would show as it is (an
    exponent's ``**`` is no mark)."""
    marked = [
        key
        for key, value in catalogue(lang).items()
        for text in texts(value)
        if "`" in text or re.search(r"\*\*[^*\s][^*]*\*\*", text)
    ]
    assert marked == []
