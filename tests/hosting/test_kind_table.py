"""Every language of the table (:data:`adjacency.hosting.languages.LANGUAGES`) and every
kind (:data:`adjacency.hosting.kinds.KINDS`) has every field it needs: a language added
without a run or build command, a kind, its limits, its start allowance, its kit or the
intake's suffixes fails here, and an entry that leaves a field out fails when its table is
imported, not later as another language's command line or JavaFX's allowance."""

from __future__ import annotations

import os
import sys
from dataclasses import MISSING, fields
from pathlib import Path
from types import ModuleType

import pytest

from adjacency.hosting import languages
from adjacency.hosting.intake import SOURCE_SUFFIXES
from adjacency.hosting.kinds import KINDS, WINDOWS, ProgramKind
from adjacency.hosting.languages import LANGUAGES, PROGRAMS, Checked, Language, language_of
from adjacency.hosting.manifest import LANGUAGES as MANIFEST_LANGUAGES
from adjacency.hosting.manifest import ManifestError, read
from adjacency.hosting.move_clock import start_allowance

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", list(LANGUAGES))
def test_a_language_has_every_field(name: str) -> None:
    language = LANGUAGES[name]
    assert language.word == name and language.words and language.tool
    assert language.suffixes and all(end.startswith(".") for end in language.suffixes)
    assert set(language.headers) < set(language.suffixes)  # some file is its entry
    assert set(language.suffixes) <= set(SOURCE_SUFFIXES)  # the intake reads its sources
    assert MANIFEST_LANGUAGES[name] == language.entries
    assert language.names in ("class", "main")
    assert language.start > 0 and language.limits.wall_seconds > 0
    assert (REPO / "examples" / "engines" / language.kit).exists()
    kind = KINDS[name]  # every language is a kind the league builds and plays
    assert kind.name == name and kind.build is not None and not kind.window
    assert (kind.limits, kind.start) == (language.limits, language.start)
    assert start_allowance(name) == language.start  # the move clock reads the entry
    if language.names == "class":
        return
    assert language.build is not None and language.run is not None
    assert language.local is not None
    if isinstance(language.build, Checked):
        built = language.build.command(["a" + language.suffixes[0]])
    else:
        built = language.build.command(["a" + language.suffixes[0]], "/out/engine")
        assert "/out/engine" in built  # told where to write the program it plays
    ran = language.run("/box/main", ["x"])
    assert os.path.isabs(built[0]) and os.path.isabs(ran[0])
    assert ran[-1] == "x" and language.local("main", ["x"])[-1] == "x"


def test_an_entry_missing_a_field_fails_when_its_table_is_imported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = Path(languages.__file__).read_text(encoding="utf-8")
    entry = '        start=1.0,\n        kit="python/engine.py",\n'
    assert source.count(entry) == 1  # the Python entry, as written
    name = "adjacency.hosting.languages_without_a_start"
    module = ModuleType(name)
    module.__dict__["__package__"] = "adjacency.hosting"
    monkeypatch.setitem(sys.modules, name, module)
    code = compile(source.replace(entry, '        kit="python/engine.py",\n'), name, "exec")
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'start'"):
        exec(code, module.__dict__)
    with pytest.raises(TypeError, match="start"):
        ProgramKind("kind", None, KINDS["python"].command, KINDS["python"].limits)  # type: ignore[call-arg]


def test_every_field_of_a_language_is_required() -> None:
    optional = [f.name for f in fields(Language) if f.default is not MISSING]
    assert not optional and all(f.default_factory is MISSING for f in fields(Language))


@pytest.mark.parametrize("name", list(LANGUAGES))
def test_a_header_is_no_entry_file_and_the_intake_reads_it_once(name: str) -> None:
    language = LANGUAGES[name]
    for end in language.entries:
        assert language_of("engine" + end) is (language if name in PROGRAMS else None)
    for end in language.headers:
        assert language_of("engine" + end) is None
        assert SOURCE_SUFFIXES.count(end) == 1


def test_every_kind_is_a_language_or_played_through_its_window() -> None:
    assert set(KINDS) == set(LANGUAGES) | set(WINDOWS)
    assert WINDOWS and all(KINDS[name].build is None for name in WINDOWS)
    for name, kind in KINDS.items():
        assert kind.name == name
        argv = kind.command("engine", ["--argument"])
        assert "--argument" in " ".join(argv) and argv[0].startswith("/")


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_programs_manifest_names_its_main_file_by_its_suffix(name: str) -> None:
    suffix = LANGUAGES[name].entries[0]
    chosen = read("bot/adjacency-bot.json", f'{{"main": "engine{suffix}"}}'.encode())
    assert (chosen.language, chosen.main) == (name, f"bot/engine{suffix}")
    with pytest.raises(ManifestError, match="is not a"):
        read("adjacency-bot.json", f'{{"language": "{name}", "main": "engine.txt"}}'.encode())
