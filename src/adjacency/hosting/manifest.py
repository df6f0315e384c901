"""The manifest a team may add to its project, ``adjacency-bot.json``: :func:`read`.

It chooses what the league builds and plays, where the project alone cannot say (several
bots, several entry files, an entry file in a folder of its own):

- a Java course project's bot: ``{"class": "pkg.Bot", "args": ["2"]}`` (``"language":
  "java"`` may be given; without ``language``, ``class`` means Java);
- a program speaking the engine protocol: ``{"language": "python", "main": "engine.py",
  "args": ["alphabeta"]}``, its language's word (:data:`~.languages.LANGUAGES`, whose
  entry says it is named by ``main``); ``main`` is a path from the manifest's own folder.

Every other key, a language the league does not build, or a value of the wrong type is a
:class:`ManifestError` naming the file and the key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import PurePosixPath

from ..core.errors import AdjacencyError
from .languages import LANGUAGES as TABLE

LANGUAGES = {name: language.entries for name, language in TABLE.items()}
"""The languages the league builds (:data:`~.languages.LANGUAGES`), with the suffixes of
their entry files (a header is none)."""

KEYS = ("language", "class", "main", "args")


class ManifestError(AdjacencyError):
    """A manifest the league cannot follow; the message names the file and the key."""


@dataclass(frozen=True)
class Manifest:
    """What a manifest chose: the ``language``, the Java ``bot`` class or the program's
    ``main`` (its path in the project, from the project's root), and ``args``."""

    where: str
    language: str
    bot: str | None
    main: str | None
    args: list[str]


def read(where: str, data: bytes) -> Manifest:
    """The manifest at ``where`` (its path in the project) with the bytes ``data``."""
    example = (
        '{"class": "pkg.Bot", "args": ["2"]} or '
        '{"language": "python", "main": "engine.py", "args": ["alphabeta"]}'
    )
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"{where}: not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise ManifestError(f"{where}: expected an object such as {example}")
    unknown = sorted(set(value) - set(KEYS))
    if unknown:
        raise ManifestError(f"{where}: unknown keys {unknown} (only {', '.join(KEYS)})")
    for key in ("language", "class", "main"):
        if key in value and not (isinstance(value[key], str) and value[key].strip()):
            raise ManifestError(f"{where}: '{key}' must be a non-empty string")
    language = value.get("language", "java" if "class" in value or "main" not in value else "")
    if not language:
        language = next(
            (name for name, ends in LANGUAGES.items() if str(value["main"]).endswith(ends)), ""
        )
        if not language:
            raise ManifestError(
                f"{where}: say the 'language' of {value['main']!r}: " + ", ".join(sorted(LANGUAGES))
            )
    if language not in LANGUAGES:
        raise ManifestError(
            f"{where}: 'language' {language!r} is not built here: " + ", ".join(sorted(LANGUAGES))
        )
    args = value.get("args", [])
    if not isinstance(args, list) or not all(
        isinstance(a, (str, int, float)) and not isinstance(a, bool) for a in args
    ):
        raise ManifestError(f"{where}: 'args' must be a list of strings or numbers")
    if TABLE[language].names == "class":
        if "main" in value or "class" not in value:
            raise ManifestError(f"{where}: a Java bot is named by 'class' (not 'main'): {example}")
        return Manifest(where, language, value["class"], None, [str(a) for a in args])
    if "class" in value or "main" not in value:
        raise ManifestError(
            f"{where}: a {language} program is named by 'main', its entry file: {example}"
        )
    main = PurePosixPath(value["main"])
    if main.is_absolute() or ".." in main.parts or "\\" in value["main"]:
        raise ManifestError(f"{where}: 'main' must be a path inside the project")
    if not value["main"].endswith(LANGUAGES[language]):
        raise ManifestError(
            f"{where}: 'main' {value['main']!r} is not a {language} file "
            f"({', '.join(LANGUAGES[language])})"
        )
    full = (PurePosixPath(where).parent / main).as_posix()
    return Manifest(where, language, None, full, [str(a) for a in args])
