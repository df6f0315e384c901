"""How a game (or a league challenge) ended, in words: the catalogues' ``detail.<code>``
messages filled with a :class:`~adjacency.core.details.Detail`'s params.

The servers store a detail's code and params (:mod:`adjacency.core.details`) beside the
English text of the moment; the sentences themselves are the pages' catalogues
(``static/i18n/<lang>.json``), the same messages the pages' script fills
(``detailText`` in ``static/js/i18n.js``). Rewording a message rewords every game's
detail on the pages and in the APIs' ``detail``; no stored code changes.

Contract: :func:`ended` makes the detail of a code (its English text rendered here);
:func:`render` fills a code's message in a language (:func:`message`, any message of
the catalogues); :func:`english` is the English text
an API serves for a detail (rendered from its code, or its own text when it has none:
an engine's words, a game stored before the codes that no sentence read back);
:func:`public` is a detail as a public page may tell it (no program's own output).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from ..core.details import NAMED, PUBLIC, Detail, DetailCode
from ..core.errors import IllegalMoveError, InvalidSquareError
from ..core.game import Game
from .assets import SHARED

CATALOGUES = SHARED / "i18n"
"""The pages' message catalogues, one JSON file per language."""

LANGUAGES = ("en", "id")
"""The languages with a catalogue (``en`` first: the servers' own)."""

_FIELD = re.compile(r"\{(\w+)\}")


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The messages of ``lang`` (one of :data:`LANGUAGES`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r}; there are {', '.join(LANGUAGES)}")
    messages: dict[str, Any] = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
    return messages


def message(key: str, params: Mapping[str, str], lang: str = "en") -> str:
    """The catalogue's message ``key`` in ``lang`` with ``{name}`` filled from ``params``
    as the pages' ``t`` fills it: a name without a param stays as written; a message of
    plural forms takes the form of ``params["count"]`` (English's ``one`` for 1, else
    ``other``; a language of one form, Indonesian, has ``other`` only). ``KeyError`` for
    a key the catalogue lacks."""
    text: Any = catalogue(lang)[key]
    if isinstance(text, dict):
        one = lang == "en" and params.get("count") == "1"
        text = text.get("one" if one else "other", text["other"])
    return _FIELD.sub(lambda m: params.get(m.group(1), m.group(0)), str(text))


def render(code: DetailCode | str, params: Mapping[str, str], lang: str = "en") -> str:
    """``code``'s message in ``lang`` with ``{name}`` filled from ``params`` (as the
    pages' ``t`` fills it: a name without a param stays as written)."""
    return message(f"detail.{DetailCode(code).value}", params, lang)


def ended(code: DetailCode | str, **params: object) -> Detail:
    """The detail of a server's own end: ``code`` with ``params`` (as text) and its
    English sentence. Raises ``ValueError`` for an unknown code or wrong params."""
    known = DetailCode(code)
    texts = {name: str(value) for name, value in params.items()}
    return Detail(render(known, texts), known, texts)


def refused(exc: IllegalMoveError | InvalidSquareError, player: str | None = None) -> Detail:
    """The detail of a move refused by the position (``exc``), answered by ``player``
    when named: ``occupied``, ``off-the-board``... (``-by`` with a name), with the
    refusal's own params; a refusal without a code (the game is over) keeps its words."""
    text = str(exc) if player is None else f"{player} answered: {exc}"
    if exc.code is None:
        return Detail(text)
    code = DetailCode(exc.code)
    if player is None:
        return Detail(text, code, exc.params)
    return Detail(text, NAMED[code], {"player": player, **exc.params})


def english(detail: Detail) -> str:
    """The English text an API serves for ``detail``: its code's message, or its own
    text without a code."""
    return detail.text if detail.code is None else render(detail.code, detail.params)


def detail_fields(detail: Detail) -> dict[str, Any]:
    """The API's fields of ``detail`` beside its text: ``detail_code`` (``None``: words
    of no code) and ``detail_params`` (what the code's message fills in)."""
    return detail.fields()


def public(detail: Detail) -> Detail:
    """``detail`` as anyone may read it: an end whose ``error`` is a program's own output
    (a bot's stderr, its files' paths: :data:`~adjacency.core.details.PUBLIC`) becomes
    its public code, the same end without that output ("team-red's bot failed"); any
    other detail is itself. Pages, listings, records and downloads anyone reads are
    made of this; the team itself and the teacher read the whole detail."""
    if detail.code not in PUBLIC:
        return detail
    code = PUBLIC[detail.code]
    params = {name: value for name, value in detail.params.items() if name != "error"}
    return Detail(render(code, params), code, params)


def private(detail: Detail) -> bool:
    """Whether ``detail`` carries a program's own output (:func:`public` changes it)."""
    return detail.code in PUBLIC


def public_record(game: Game) -> Game:
    """``game`` (a record read for a download anyone may make) with its end told as
    :func:`public` tells it: its ``TerminationDetail``, ``DetailCode`` and
    ``DetailParams`` without a program's own output. Changes ``game`` in place and
    returns it."""
    if game.detail_code in PUBLIC:
        detail = public(Detail(game.termination_detail, game.detail_code, game.detail_params))
        game.termination_detail, game.detail_code = detail.text, detail.code
        game.detail_params = dict(detail.params)
    return game
