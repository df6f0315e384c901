"""Which kind a project is (:func:`adjacency.hosting.scripts.choose`), taken in from a
folder as a team has it: the manifest decides when it says, else the files; a manifest
that is wrong is refused naming its key; installed packages are left out unread."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import pytest

from adjacency.core.errors import AdjacencyError
from adjacency.hosting.intake import take_in
from adjacency.hosting.languages import LANGUAGES, PROGRAMS, in_words
from adjacency.hosting.scripts import ENTRIES, Program, choose

REPO = Path(__file__).resolve().parents[2]
ENGINE = "import sys\nfor line in sys.stdin:\n    print('aepok')\n"
JAVA_BOT = "public class Bot { public int[] move() { return new int[] {0, 0}; } }\n"


def project(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


@pytest.mark.parametrize("name", PROGRAMS)
def test_each_languages_kit_is_found_by_its_entry_file(name: str) -> None:
    kit = PurePosixPath(LANGUAGES[name].kit)
    chosen = choose(take_in(REPO / "examples" / "engines" / kit.parent))
    assert chosen == Program(name, kit.name, [])


def test_a_java_project_stays_java_and_installed_packages_are_left_out(tmp_path: Path) -> None:
    files = {
        "src/Bot.java": JAVA_BOT,
        "tools/plot.py": "print('a chart')\n",  # no protocol: not a bot
        "web/node_modules/lodash/index.js": "console.log('aepok')",
        ".venv/lib/site-packages/x.py": "print('aepok')",
        "tools/__pycache__/plot.cpython-311.py": "print('aepok')",
    }
    intake = take_in(project(tmp_path, files))
    assert choose(intake) is None
    assert sorted(intake.sources) == ["src/Bot.java", "tools/plot.py"]
    assert "tools/__pycache__/plot.cpython-311.py" in intake.left_out
    assert sorted(intake.installed) == [
        ".venv/lib/site-packages/x.py",
        "web/node_modules/lodash/index.js",
    ]


def test_a_manifest_chooses_among_entry_files_from_its_own_folder(tmp_path: Path) -> None:
    files = {"bot/a.py": ENGINE, "bot/b.mjs": "console.log('aepok')\n"}
    with pytest.raises(AdjacencyError) as undecided:
        choose(take_in(project(tmp_path, files)))
    assert "more than one bot" in str(undecided.value)
    assert "bot/a.py: speaks the engine protocol" in str(undecided.value)
    assert "bot/b.mjs: speaks the engine protocol" in str(undecided.value)
    manifest = {"language": "javascript", "main": "b.mjs", "args": ["x", 2]}
    project(tmp_path, {"bot/adjacency-bot.json": json.dumps(manifest)})
    assert choose(take_in(tmp_path)) == Program("javascript", "bot/b.mjs", ["x", "2"])


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        (
            {"language": "ruby"},
            "'language' 'ruby' is not built here: " + ", ".join(sorted(LANGUAGES)),
        ),
        ({"language": "python"}, "a python program is named by 'main', its entry file"),
        ({"language": "python", "main": "a.js"}, "'main' 'a.js' is not a python file (.py)"),
        ({"language": "python", "main": "../a.py"}, "'main' must be a path inside the project"),
        ({"language": "python", "main": "b.py"}, "'main' 'b.py' is not in the project"),
        ({"language": "java", "main": "a.py"}, "a Java bot is named by 'class' (not 'main')"),
        ({"main": "a.py", "arguments": []}, "unknown keys ['arguments']"),
        ({"main": "a.py", "args": "x"}, "'args' must be a list of strings or numbers"),
        ({"main": "a.rb"}, "say the 'language' of 'a.rb'"),
    ],
)
def test_a_wrong_manifest_is_refused_naming_its_key(
    tmp_path: Path, manifest: dict[str, object], message: str
) -> None:
    project(tmp_path, {"a.py": ENGINE, "adjacency-bot.json": json.dumps(manifest)})
    with pytest.raises(AdjacencyError) as refused:
        choose(take_in(tmp_path))
    assert str(refused.value).startswith("adjacency-bot.json: "), refused.value
    assert message in str(refused.value)


def test_python_files_without_the_protocol_are_listed_with_the_manifest_to_write(
    tmp_path: Path,
) -> None:
    project(tmp_path, {"bot.py": "def move(board):\n    return 'a1'\n"})
    with pytest.raises(AdjacencyError) as refused:
        choose(take_in(tmp_path))
    text = str(refused.value)
    assert text.startswith(f"no {in_words(ENTRIES)} file speaks the engine protocol")
    assert "\n  bot.py\n" in text and '"main": "bot.py"' in text
