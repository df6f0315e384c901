"""Every language of the table (:data:`adjacency.hosting.languages.LANGUAGES`) and every
kind (:data:`adjacency.hosting.kinds.KINDS`) has every field it needs: a language added
without a run or check command, a kind, a build or the intake's suffixes fails here, not
later as another language's command line."""

from __future__ import annotations

import os

import pytest

from adjacency.hosting.intake import SOURCE_SUFFIXES
from adjacency.hosting.kinds import KINDS, WINDOWS
from adjacency.hosting.languages import LANGUAGES, PROGRAMS
from adjacency.hosting.manifest import LANGUAGES as MANIFEST_LANGUAGES
from adjacency.hosting.manifest import ManifestError, read


@pytest.mark.parametrize("name", list(LANGUAGES))
def test_a_language_has_every_field(name: str) -> None:
    language = LANGUAGES[name]
    assert language.word == name and language.words and language.tool
    assert language.suffixes and all(end.startswith(".") for end in language.suffixes)
    assert set(language.suffixes) <= set(SOURCE_SUFFIXES)  # the intake reads its sources
    assert MANIFEST_LANGUAGES[name] == language.suffixes
    assert language.names in ("class", "main")
    kind = KINDS[name]  # every language is a kind the league builds and plays
    assert kind.name == name and kind.build is not None and not kind.window
    if language.names == "class":
        return
    assert language.check is not None and language.run is not None
    assert language.local is not None
    checked = language.check(["a" + language.suffixes[0]])
    ran = language.run("/box/main", ["x"])
    assert os.path.isabs(checked[0]) and os.path.isabs(ran[0])
    assert ran[-1] == "x" and language.local("main", ["x"])[-1] == "x"


def test_every_kind_is_a_language_or_played_through_its_window() -> None:
    assert set(KINDS) == set(LANGUAGES) | set(WINDOWS)
    assert WINDOWS and all(KINDS[name].build is None for name in WINDOWS)
    for name, kind in KINDS.items():
        assert kind.name == name
        argv = kind.command("engine", ["--argument"])
        assert "--argument" in " ".join(argv) and argv[0].startswith("/")


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_programs_manifest_names_its_main_file_by_its_suffix(name: str) -> None:
    suffix = LANGUAGES[name].suffixes[0]
    chosen = read("bot/adjacency-bot.json", f'{{"main": "engine{suffix}"}}'.encode())
    assert (chosen.language, chosen.main) == (name, f"bot/engine{suffix}")
    with pytest.raises(ManifestError, match="is not a"):
        read("adjacency-bot.json", f'{{"language": "{name}", "main": "engine.txt"}}'.encode())
