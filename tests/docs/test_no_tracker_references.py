"""The repository states rules, never tracker numbers: its reader has no tracker.

A reference to a tracker (the word issue or item followed by a number, or a number after
``#`` in parentheses) in the code, the tests or the docs points at text the reader cannot
open; each must say the rule it stood for instead, and a test's name must say the
behaviour it checks. This test reads every tracked
text file of ``src``, ``tests``, ``docs``, ``benchmarks``, ``examples`` and ``tools``
(the README too) and names each line that still holds one.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("src", "tests", "docs", "benchmarks", "examples", "tools", "README.md")
TEXT = {".py", ".md", ".js", ".html", ".css", ".json", ".java", ".txt", ".toml", ".yml"}
BREAK = r"[ \t]*(?:\n[ \t]*(?:(?:#|//|/?\*+|>|;|--)[ \t]*)?)?"
"""Spaces, or a line break with the next line's indent and comment leader (``#``, ``//``,
``*``, ``>``, ``;``, ``--``): what may stand between the word and its number when a
paragraph was wrapped between them."""
REFERENCE = re.compile(rf"\b(?:[Ii]ssues?|[Ii]tems?)(?=\s){BREAK}#?[0-9]+\b|\(#{BREAK}[0-9]+\)")
"""The word issue or item (either case, plural too) and a number, or ``(#`` and a number,
on one line or wrapped across two."""


def tracked() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", *FOLDERS],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [REPO / name for name in listed.split("\0") if Path(name).suffix in TEXT]


def test_no_file_refers_to_a_tracker_number() -> None:
    found = []
    for path in tracked():
        if not path.exists():  # deleted in the working tree, not yet in the index
            continue
        text = path.read_text(errors="replace")
        for match in REFERENCE.finditer(text):  # the whole text: a wrapped one is found too
            number = text.count("\n", 0, match.start()) + 1
            shown = " ".join(match.group(0).split())
            found.append(f"{path.relative_to(REPO)}:{number}: {shown}")
    assert not found, "tracker references (say the rule instead):\n" + "\n".join(found)


def test_no_test_file_is_named_after_a_tracker_number() -> None:
    named = [p.name for p in tracked() if re.search(r"issue[_-]?[0-9]+", p.name, re.I)]
    assert not named


def test_the_pattern_finds_what_it_must_and_only_that() -> None:
    number = "37"  # written apart, so this file holds no reference itself
    for word in ("issue ", "Issue ", "issues ", "item ", "Items ", "issue #"):
        assert REFERENCE.search(word + number + ", B5"), word
    assert REFERENCE.search("fixed (#" + number + ")")
    wrapped = (
        "a second, issue\n        " + number + " B5)",  # a docstring's wrapped paragraph
        "# see item\n# " + number + " of the list",  # a comment's
        "the Issues\n" + number,
        "// issue\n  // #" + number,
        " * item\n * " + number,
        "fixed (#\n" + number + ")",
    )
    for text in wrapped:
        assert REFERENCE.search(text), text
    for text in ("an issue with 3 moves", "item_count = 4", "the items: 4 of them", "#3 seed"):
        assert not REFERENCE.search(text), text
    for text in ("an issue\n\n3 moves later", "items\nx = 4", "the item\n    3x3 board"):
        assert not REFERENCE.search(text), text
