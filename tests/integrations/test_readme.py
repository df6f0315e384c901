"""The README's Python API section and the code of docs/integrations.md are doctests."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def pycon_blocks(path: Path, start: str = "", end: str = "") -> str:
    """The ```pycon blocks of a Markdown file (between headings ``start`` and ``end``)."""
    text = path.read_text()
    if start:
        text = text[text.index(start) : text.index(end) if end else None]
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks, f"no pycon block in {path.name}"
    return "\n".join(blocks)


def run_doctest(source: str, name: str) -> None:
    test = doctest.DocTestParser().get_doctest(source, {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
    assert result.attempted > 5


def test_the_readme_python_api_example_is_true() -> None:
    run_doctest(pycon_blocks(REPO / "README.md", "## Python API", "## Bots"), "README.md")


def test_the_integrations_guide_examples_are_true() -> None:
    run_doctest(pycon_blocks(REPO / "docs" / "integrations.md"), "docs/integrations.md")


def test_every_markdown_page_passes_python_m_doctest() -> None:
    """``python -m doctest README.md`` (and each docs page) passes as a reader would run it:
    the whole file, no option flags, so a closing fence must not touch an expected output."""
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        result = doctest.testfile(str(path), module_relative=False, verbose=False, report=False)
        assert result.failed == 0, (
            f"python -m doctest {path.relative_to(REPO)}: {result.failed} failed"
        )
