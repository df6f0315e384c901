"""Every tutorial of the documentation site runs as written.

A tutorial (``docs/tutorials/*.md``) is read top to bottom: its ```pycon blocks are a
Python session, checked as a doctest, and its ```sh blocks are shell commands, run with
``bash -euo pipefail``; blocks of any other language (```console: commands for a real
cluster) are shown, not run. Each tutorial runs in a fresh temporary folder that holds
a link to the repository's ``examples/`` (the tutorials say to run them in a checkout),
with the package's virtual environment first on ``PATH``, as its reader would.

Each run of consecutive pycon blocks is one doctest in a new Python process, so a bot a
tutorial registers or a Ray runtime it starts never leaks into the test process. A
command that fails, or a session whose output differs, fails the test with the output.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sandbox_helpers import reachable_folder

REPO = Path(__file__).resolve().parents[2]
TUTORIALS = REPO / "docs" / "tutorials"
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.S | re.M)
"""A top-level fenced block and its language (indented blocks, inside admonitions, are not
matched: they are shown source, such as the included C file)."""

RUNNER = """
import doctest, sys
source = open(sys.argv[1]).read()
test = doctest.DocTestParser().get_doctest(source, {"__name__": "__main__"}, sys.argv[2],
                                           sys.argv[2], 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
runner.run(test)
result = runner.summarize(verbose=False)
print(f"attempted {result.attempted} failed {result.failed}")
sys.exit(1 if result.failed else 0)
"""
"""Runs a doctest source file in a fresh interpreter (argv: the file, the name to report)."""


@dataclass(frozen=True)
class Step:
    """What a tutorial runs: a Python session (pycon) or shell commands (sh)."""

    kind: str
    text: str
    line: int


def steps(markdown: str) -> list[Step]:
    """The runnable blocks of a tutorial, in order; consecutive pycon blocks joined."""
    found: list[Step] = []
    for match in FENCE.finditer(markdown):
        kind, text = match.group(1), match.group(2)
        if kind not in ("pycon", "sh"):
            continue
        line = markdown[: match.start()].count("\n") + 1
        if kind == "pycon" and found and found[-1].kind == "pycon":
            found[-1] = Step("pycon", found[-1].text + "\n" + text, found[-1].line)
        else:
            found.append(Step(kind, text, line))
    return found


def environment() -> dict[str, str]:
    """The reader's shell: this interpreter's environment first, the sources importable."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(
        part for part in (str(REPO / "src"), env.get("PYTHONPATH", "")) if part
    )
    env["COLUMNS"] = "100"
    env.pop("RAY_ADDRESS", None)  # the Ray tutorial starts a private runtime, whatever the shell
    return env


def run_tutorial(path: Path, folder: Path) -> list[str]:
    """Run every step of the tutorial at ``path`` in ``folder``; return what each printed."""
    (folder / "examples").symlink_to(REPO / "examples")
    env = environment()
    outputs = []
    for number, step in enumerate(steps(path.read_text())):
        where = f"{path.name}, block at line {step.line}"
        if step.kind == "pycon":
            source = folder / f".session-{number}.txt"
            source.write_text(step.text)
            command = [sys.executable, "-c", RUNNER, str(source), where]
        else:
            command = ["bash", "-euo", "pipefail", "-c", step.text]
        done = subprocess.run(
            command, cwd=folder, env=env, capture_output=True, text=True, timeout=240
        )
        output = done.stdout + done.stderr
        assert done.returncode == 0, f"{where} failed ({done.returncode}):\n{output[-6000:]}"
        assert "Traceback" not in done.stderr, f"{where} printed a traceback:\n{output[-6000:]}"
        outputs.append(output)
    return outputs


NEEDS = {
    "submit-course-project.md": ("jvm", "sandbox", "javafx"),
}
"""The tutorials whose commands need more than Python (tests/needs.py's markers): the
league's builds and hosted bots need a JDK and the sandbox, a program played through its
window OpenJFX and Xvfb too."""


def tutorial_names() -> list[str]:
    return sorted(path.name for path in TUTORIALS.glob("*.md") if path.name != "index.md")


def tutorials() -> list[Any]:
    """:func:`tutorial_names` as parameters, each marked with what it needs."""
    return [
        pytest.param(name, marks=[getattr(pytest.mark, need) for need in NEEDS.get(name, ())])
        for name in tutorial_names()
    ]


def test_the_block_reader_keeps_order_and_skips_shown_blocks() -> None:
    markdown = (
        "# T\n\n```pycon\n>>> 1\n1\n\n```\n\ntext\n\n```pycon\n>>> 2\n2\n\n```\n\n"
        "```console\n$ ray start --head\n```\n\n```sh\necho hi\n```\n\n"
        "??? example\n\n    ```sh\n    not run\n    ```\n\n```pycon\n>>> 3\n3\n```\n"
    )
    found = steps(markdown)
    assert [step.kind for step in found] == ["pycon", "sh", "pycon"]
    assert ">>> 1" in found[0].text and ">>> 2" in found[0].text
    assert found[1].text == "echo hi\n"
    assert found[0].line == 3


def test_a_failing_step_fails_with_its_output(tmp_path: Path) -> None:
    """The runner is not a test that cannot fail: a wrong expected output is reported."""
    tutorial = tmp_path / "wrong.md"
    tutorial.write_text("```pycon\n>>> 1 + 1\n3\n\n```\n")
    folder = tmp_path / "run"
    folder.mkdir()
    with pytest.raises(AssertionError, match="attempted 1 failed 1"):
        run_tutorial(tutorial, folder)
    broken = tmp_path / "broken.md"
    broken.write_text("```sh\nfalse\n```\n")
    again = tmp_path / "again"
    again.mkdir()
    with pytest.raises(AssertionError, match="failed"):
        run_tutorial(broken, again)


def test_every_tutorial_is_listed() -> None:
    assert tutorial_names() == [
        "alphazero.md",
        "c-engine.md",
        "course-bot.md",
        "league.md",
        "play-and-analyse.md",
        "python-bot.md",
        "ray-tournament.md",
        "reinforcement-learning.md",
        "see-the-search.md",
        "submit-course-project.md",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("name", tutorials())
def test_the_tutorial_runs_as_written(name: str, tmp_path: Path) -> None:
    path = TUTORIALS / name
    if "gcc " in path.read_text() and shutil.which("gcc") is None:
        if os.environ.get("CI"):
            pytest.fail(f"gcc is not installed: CI must be able to build the C example of {name}")
        pytest.skip(f"gcc is not installed: {name} builds the C example")
    assert steps(path.read_text()), f"{name} has no pycon or sh block to run"
    if "sandbox" in NEEDS.get(name, ()):  # its league's builds: a folder others may enter
        with reachable_folder("adjacency-tutorial-") as folder:
            outputs = run_tutorial(path, folder)
    else:
        outputs = run_tutorial(path, tmp_path)
    assert all(output.strip() for output in outputs)
