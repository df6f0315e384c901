"""A measured figure in the guides says when it was measured.

The guides (``docs/*.md``, ``docs/tutorials/*.md``) state figures measured on some
machine at some commit; a reader weighing one needs its date. A paragraph (or list
item run: text between blank lines) that says it measured something (``measured``, a
``benchmarks/bench_*`` script, ``adjacency bench``, a load average, a quiet machine)
and states a figure with a unit of time, rate, memory or strength carries a date
(``YYYY-MM-DD``; the commit that documented it where the run's own was not kept).
Lab notes are dated by their names and headers and the decisions table by its date
column, so they are not read here. A figure that is a setting or a limit ("capped at
60 s of CPU") sits in no paragraph that says it measured, so it is not flagged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
GUIDES = sorted([*DOCS.glob("*.md"), *(DOCS / "tutorials").glob("*.md")])
UNDATED_BY_DESIGN = {"decisions.md"}
"""Guides whose figures are dated otherwise: the decisions table's date column."""

SAYS_MEASURED = re.compile(
    r"\bmeasur(ed|ing)\b|benchmarks/bench_|\badjacency bench\b|load average|"
    r"\bquiet machine\b|\bat a load\b|\bgames per matchup\b",
    re.IGNORECASE,
)
FIGURE = re.compile(
    r"""
    \d[\d,.]*\s?[kMG]?\s?(nodes/s|games/s|games\ a\ (second|minute)|moves/s|requests?/s)
    | \d[\d,.]*\s?(ms|µs|ns|s|seconds|minutes|hours)\ of\ (\w+\ )?(CPU|wall)
    | \d[\d,.]*\s?(ms|µs|ns)\b
    | \d[\d,.]*\s?(KiB|MiB|GiB|KB|MB|GB)\b
    | \d[\d,.]*\s?\w+\ (per|a)\ (CPU\ |wall\ )?second
    | [+\-−]\d+(\.\d+)?\s?±\s?\d+ | [+\-−]\d+\ Elo\b
    | \bp(50|95|99)\b | \bmedian\b
    | \d(\.\d+)?x\ (the|one|v\d|fewer|faster|slower|more|its|over)\b
    | \d[\d,.]*\s?[MG]\ nodes
    """,
    re.VERBOSE,
)
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs (split at blank lines), a table or a fenced block joined to
    the paragraph before it, which introduces it (a fence's blank lines kept inside)."""
    found: list[str] = []
    fenced = False
    for part in re.split(r"\n[ \t]*\n", text):
        body = part.strip()
        joins = fenced or body.startswith(("|", "```", "~~~"))
        if joins and found:
            found[-1] += "\n\n" + part
        else:
            found.append(part)
        fenced ^= body.count("```") % 2 == 1
    return found


def undated(text: str) -> list[str]:
    """The paragraphs of ``text`` that say they measured and state a figure but carry no
    date, each by its first line."""
    return [
        part.strip().splitlines()[0]
        for part in paragraphs(text)
        if SAYS_MEASURED.search(part) and FIGURE.search(part) and not DATE.search(part)
    ]


@pytest.mark.parametrize("path", GUIDES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_measured_figure_in_the_guides_is_dated(path: Path) -> None:
    if path.name in UNDATED_BY_DESIGN:
        return
    assert undated(path.read_text(encoding="utf-8")) == []


def test_the_check_flags_an_undated_measurement_and_only_that() -> None:
    measured = "Measured on a 2-core machine: 12.5 ms a move, p95 40 ms."
    assert undated(measured) == [measured]
    assert undated(measured + " (2026-11-27, documented in `0123abcd`)") == []
    # a limit or a setting, said of no measurement, is no figure to date
    assert undated("`javac` is capped at 60 s of CPU (120 s of wall time).") == []
    # a measurement without a figure (a method) is not flagged either
    assert undated("The split is measured by `python benchmarks/bench_split.py`.") == []
    two = "Measured: 3 ms a task.\n\nMeasured again: 4 ms a task (2026-11-20)."
    assert undated(two) == ["Measured: 3 ms a task."]
    # a table (or a fenced block) belongs to the paragraph that introduces it
    table = "Strength, at load average 10:\n\n| bot | Elo |\n|---|---|\n| a | +14 ± 64 |"
    assert undated(table) == ["Strength, at load average 10:"]
    fence = "Measured (2026-11-20):\n\n```\n$ bench\n\n9 ms a move\n```\n\nThen 5 ms a move."
    assert undated(fence) == []
