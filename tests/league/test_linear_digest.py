"""A version's digest (its files highlighted for the code view, its fingerprints) costs
CPU time linear in its text.

The attack: a Java file of ``a<a<a...`` kept beside an accepted Python bot; Pygments'
Java lexer rescanned the whole run at each letter (16 KiB: 2.6 s of CPU, 48 KiB: about
20 s, 1 MiB: hours). Now 1 MiB of it is digested in under 2 s of CPU (measured with
``time.thread_time``, the CPU of the thread that makes it, not the wall clock), shown whole, and
ordinary Java is read token for token as Pygments reads it; so are the texts on which
the C, C++ and JavaScript lexers rescanned, and their ordinary code.
"""

from __future__ import annotations

import html
import json
import re
import time
import zlib
from pathlib import Path

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_for_filename
from pygments.lexers.jvm import JavaLexer

from adjacency.hosting.java_build import kit_sources
from adjacency.league.grading import lexing
from adjacency.league.grading.fingerprints import fingerprints, tokens, unpack
from adjacency.league.grading.lexing import LINEAR, UNREAD, LinearJavaLexer, lexed, lexer_for
from adjacency.league.grading.version_code import highlighted
from adjacency.league.grading.version_digest import make
from code_projects import CLIMBER, GREEDY, MINIMAX, SKELETON
from hosted_helpers import files_zip
from load_helpers import no_collection

ENGINE = "import sys\nfor line in sys.stdin:\n    print('aepok', flush=True)\n"

MIB = 1 << 20


def _text(lines: list[str]) -> str:
    """The text the highlighted ``lines`` show (their tags dropped, unescaped)."""
    return "\n".join(html.unescape(re.sub(r"<[^>]*>", "", line)) for line in lines)


def _ordinary_java() -> dict[str, str]:
    """Ordinary Java: the kit's sources and the course bots of the similarity tests."""
    kit = {path.name: path.read_text(encoding="utf-8") for path in kit_sources().rglob("*.java")}
    bots = {"Climber.java": CLIMBER, "Greedy.java": GREEDY, "Minimax.java": MINIMAX}
    return {**kit, **bots, "Skeleton.java": SKELETON}


def test_a_mib_of_generic_brackets_is_digested_in_under_two_seconds_of_cpu() -> None:
    attack = "<a" * (MIB // 2)
    data = files_zip({"engine.py": ENGINE, "src/A.java": attack})
    with no_collection():  # the collector's cost is the worker's, not the digest's
        start = time.thread_time()  # this thread's: the digest is made in it, and the
        prints, code = make(data)  # worker's other threads (another test's server) are not
        spent = time.thread_time() - start
    assert spent < 2.0, f"{spent:.2f} s of CPU"
    assert "src/A.java" in unpack(prints)  # fingerprinted as far as it was read
    files = json.loads(zlib.decompress(code).decode().partition("\n")[2])
    assert [f["path"] for f in files] == ["engine.py", "src/A.java"]
    lines = highlighted("src/A.java", attack)
    assert _text(lines) == attack  # the file is shown whole: its head coloured, its rest plain
    assert lines[0].startswith('<span class="o">&lt;</span><span class="n">a</span>')


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("A.java", "a "),
        ("A.java", "/*a"),
        ("a.cpp", "//"),
        ("a.h", "//"),
        ("a.js", "a."),
        ("a.js", "/*a"),
    ],
)
def test_every_hosted_languages_lexer_reads_a_mib_that_rescanned_in_linear_time(
    name: str, unit: str
) -> None:
    """Texts on which Pygments' own rules rescanned (each cost minutes at 1 MiB)."""
    text = unit * (MIB // len(unit))
    with no_collection():
        start = time.thread_time()
        found = lexed(name, text)
        highlighted(name, text)
        spent = time.thread_time() - start
    assert spent < 2.0, f"{name} {unit!r}: {spent:.2f} s of CPU"
    assert "".join(value for _, _, value in found) == text


def test_a_lexer_past_its_budget_shows_the_rest_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any lexer that rescans on some text is held to its budget of CPU time: the rest of
    the file is one plain token (shown uncoloured, never fingerprinted)."""
    monkeypatch.setattr(lexing, "BASE_SECONDS", 0.0)
    monkeypatch.setattr(lexing, "SECONDS_PER_MIB", 0.0)
    text = "def f(x):\n    return x + 1\n" * 200
    found = lexed("a.py", text)
    assert found[-1][1] is UNREAD
    assert len(found) <= lexing.CHECK_EVERY + 1
    assert "".join(value for _, _, value in found) == text
    assert tokens("a.py", text) == [] or tokens("a.py", text)[-1].end <= found[-1][0]


def test_ordinary_java_is_read_as_pygments_reads_it() -> None:
    for name, text in _ordinary_java().items():
        ours = list(LinearJavaLexer(stripnl=False, ensurenl=False).get_tokens_unprocessed(text))
        theirs = list(JavaLexer(stripnl=False, ensurenl=False).get_tokens_unprocessed(text))
        assert ours == theirs, name
        lines = text.splitlines()
        plain = highlight(
            "\n".join(lines) + "\n",
            JavaLexer(stripnl=False, ensurenl=False),
            HtmlFormatter(nowrap=True),
        ).split("\n")[: len(lines)]
        with no_collection():
            shown = highlighted(name, text)
            read = lexed(name, text)
        assert shown == plain, name
        assert all(kind is not UNREAD for _, kind, _ in read), name


def test_ordinary_c_cpp_and_javascript_are_read_as_pygments_reads_them() -> None:
    """The starter kits' C, C++ and JavaScript and the league's own pages' modules."""
    root = Path(__file__).resolve().parents[2]
    found = [
        path
        for folder in (root / "examples" / "engines", root / "src" / "adjacency")
        for suffix in ("*.c", "*.cpp", "*.h", "*.js")
        for path in folder.rglob(suffix)
    ]
    assert len(found) > 10
    for path in found:
        text = path.read_text(encoding="utf-8")
        theirs = get_lexer_for_filename(path.name, stripnl=False, ensurenl=False)
        ours = lexer_for(path.name)
        assert type(ours) is LINEAR[type(theirs)], path
        assert list(ours.get_tokens_unprocessed(text)) == list(
            theirs.get_tokens_unprocessed(text)
        ), path


def test_a_long_file_is_coloured_up_to_the_token_cap_and_fingerprinted_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The cap, not the CPU budget, is what stops here: a worker held off its core (or
    # sharing it with a sibling hyperthread) may spend the 0.85 s budget before 65,536
    # tokens, and the budget has its own tests above.
    monkeypatch.setattr(lexing, "BASE_SECONDS", 600.0)
    body = "int x = 1;\n" * (lexing.MOST_TOKENS // 4)  # 5 tokens a line, past the cap
    found = lexed("A.java", body)
    assert len(found) == lexing.MOST_TOKENS + 1
    assert found[-1][1] is UNREAD
    assert "".join(value for _, _, value in found) == body
    read = tokens("A.java", body)
    assert read and read[-1].end <= found[-1][0]
    assert fingerprints("A.java", body)
