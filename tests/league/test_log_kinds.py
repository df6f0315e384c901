"""The teacher's log names each kind of line in the page's language: every logger of the
league server's code (its last dotted name, :func:`adjacency.league.store.log_rows.kind_of`)
has its words in both catalogues, so no filter option is left in English (or code)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from adjacency.league.store.log_rows import kind_of

SRC = Path(__file__).resolve().parents[2] / "src" / "adjacency"
CATALOGUES = SRC / "serving" / "static" / "i18n"
NAMED = re.compile(r'logging\.getLogger\("([A-Za-z0-9_.]+)"\)')


def loggers() -> set[str]:
    """The kinds the league server logs under: each module of these rooms that makes a
    logger, by the name it gives (``__name__``: its module's)."""
    found = set()
    for room in ("league", "hosting", "serving", "workers"):
        for path in (SRC / room).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "logging.getLogger(__name__)" in text:
                found.add(path.stem)
            found |= {kind_of(name) for name in NAMED.findall(text)}
    return found


def test_every_kind_of_log_line_has_its_words_in_both_languages() -> None:
    kinds = loggers()
    assert {"teacher", "league", "scheduler"} <= kinds
    for language in ("en", "id"):
        words = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
        missing = sorted(k for k in kinds if f"teacher.log.kind.{k}" not in words)
        assert missing == [], (language, missing)
    indonesian = json.loads((CATALOGUES / "id.json").read_text(encoding="utf-8"))
    assert indonesian["teacher.log.kind.teacher"] == "guru"
