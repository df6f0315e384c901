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
REFERENCE = re.compile(r"\b(?:[Ii]ssues?|[Ii]tems?)\s+#?[0-9]+\b|\(#[0-9]+\)")
"""The word issue or item (either case, plural too) and a number, or ``(#`` and a number."""


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
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if REFERENCE.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}")
    assert not found, "tracker references (say the rule instead):\n" + "\n".join(found)


def test_no_test_file_is_named_after_a_tracker_number() -> None:
    named = [p.name for p in tracked() if re.search(r"issue[_-]?[0-9]+", p.name, re.I)]
    assert not named


def test_the_pattern_finds_what_it_must_and_only_that() -> None:
    number = "37"  # written apart, so this file holds no reference itself
    for word in ("issue ", "Issue ", "issues ", "item ", "Items ", "issue #"):
        assert REFERENCE.search(word + number + ", B5"), word
    assert REFERENCE.search("fixed (#" + number + ")")
    for text in ("an issue with 3 moves", "item_count = 4", "the items: 4 of them", "#3 seed"):
        assert not REFERENCE.search(text), text
