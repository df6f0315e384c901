"""A file's tokens for the code view's colours and for the fingerprints, in time linear in
its text: :func:`lexed`.

Both read a file through Pygments' lexer for its name (:func:`lexer_for`). Pygments'
lexers are regular expressions tried at each position, and some try patterns that scan
far past the token they end up matching: Java's rule for a method's declaration scans a
whole run of ``a<a<a...`` (or of words and spaces) at every one of its letters, so a
file of such text costs time quadratic in its length (2.6 s of CPU for 16 KiB, about
2.5 hours for 1 MiB). Two things keep a digest linear:

- The languages the league hosts are read by Pygments' own rules, each pattern found to
  rescan changed so that it cannot (:data:`LINEAR`: Java's, :data:`JAVA_RULES`; C's and
  C++'s, :data:`C_RULES`; JavaScript's, :data:`JAVASCRIPT_RULES`). Ordinary code is read
  token for token as Pygments reads it.
- Every file is lexed up to its first :data:`MOST_TOKENS` tokens, within a budget of CPU
  time, :func:`budget` (:data:`BASE_SECONDS` plus :data:`SECONDS_PER_MIB` per MiB):
  past either, the rest of the file is one plain token, :data:`UNREAD` (shown
  uncoloured, and without fingerprints). The token cap is what a long file meets, the
  same on every machine; the budget only bounds a lexer of another language that
  rescans on some text.

A digest's files are lexed within one more budget, the whole digest's
(:func:`cpu_budget`, which :mod:`.digest_worker` sets): once it is spent, every file
left is one plain token, never lexed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from pygments.lexer import Lexer, RegexLexer
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.lexers.c_cpp import CLexer, CppLexer
from pygments.lexers.javascript import JavascriptLexer
from pygments.lexers.jvm import JavaLexer
from pygments.token import Text, _TokenType
from pygments.util import ClassNotFound

MIB = 1 << 20

MOST_TOKENS = 1 << 16
"""The most tokens of one file lexed: some 200 KiB of ordinary Java (a course project's
largest files have a fifth of it); a text of one-character tokens, the densest, reaches
it at 64 KiB."""

BASE_SECONDS = 0.5
"""CPU seconds any file may take to lex, besides :data:`SECONDS_PER_MIB`."""

SECONDS_PER_MIB = 2.0
"""CPU seconds a file may take to lex per MiB of its text: ordinary code lexes at 0.5 to
2 MiB a second on the development machine (loaded or not), and :data:`MOST_TOKENS`
stops it first, so only a text that makes a lexer rescan reaches this."""

CHECK_EVERY = 16
"""Tokens lexed between two looks at the CPU clock (a look costs about a microsecond;
a token of ordinary code some three)."""

DECLARATION_WORDS = 16
"""The most words (modifiers, type parameters, the return type) Java's method rule reads
before a method's name: a declaration has some 2 to 8."""

UNREAD = Text.Unread
"""The type of the one plain token that ends a file its lexer did not read whole."""

Lexed = list[tuple[int, _TokenType, str]]
"""Tokens as Pygments' ``get_tokens_unprocessed`` gives them: offset, type, text."""


JAVA_RULES = {
    r"(//.*?)(\n)": r"(//[^\n]*)(\n?)",
    r"/\*.*?\*/": r"/\*(?:.*?\*/|.*)",
    r"^(\s*)(default)(:)": r"^([^\S\n]*)(default)(:)",
    r"^(\s*)((?:[^\W\d]|\$)[\w$]*)(:)": r"^([^\S\n]*)((?:[^\W\d]|\$)[\w$]*)(:)",
    r"(^\s*)((?:(?:public|private|protected|static|strictfp)(?:\s+))*)(record)\b": (
        r"(^[^\S\n]*)((?:(?:public|private|protected|static|strictfp)(?:\s+)){0,8})"
        r"(record)\b"
    ),
    r"((?:(?:[^\W\d]|\$)[\w.\[\]$<>?]*\s+)+?)((?:[^\W\d]|\$)[\w$]*)(\s*)(\()": (
        r"(?<![\w.\[\]$<>?])((?:(?:[^\W\d]|\$)[\w.\[\]$<>?]*\s+)"
        rf"{{1,{DECLARATION_WORDS}}}?)((?:[^\W\d]|\$)[\w$]*)(\s*)(\()"
    ),
}
"""Java's rules that rescanned, each with its linear form: a line comment, or an
unterminated block comment, ends at its line's or the text's end; a line's leading
blanks stop at its end; the method rule starts only where a word starts and reads at
most :data:`DECLARATION_WORDS` words."""

C_RULES = {
    r"//(?:.|(?<=\\)\n)*\n": r"//(?:.|(?<=\\)\n)*(?:\n|\Z)",
    r"//.*?\n": r"//[^\n]*(?:\n|\Z)",
}
"""C's and C++'s rules that rescanned: a line comment ends at its line's or the text's
end."""

JAVASCRIPT_RULES = {
    r"/\*.*?\*/": r"/\*(?:.*?\*/|.*)",
    r"([a-zA-Z_?.$][\w?.$]*)(?=\(\) \{)": r"(?<![\w?.$])([a-zA-Z_?.$][\w?.$]*)(?=\(\) \{)",
}
"""JavaScript's rules that rescanned: an unterminated block comment ends at the text's
end; a method's name starts only where a name starts."""


def _linear(base: type[RegexLexer], replaced: dict[str, str]) -> type[RegexLexer]:
    """``base`` with the rules ``replaced`` (Pygments' pattern to its linear form) in every
    state that holds one; an :class:`AssertionError` naming a pattern Pygments no longer
    has (its lexer changed: look again at what rescans)."""
    states: dict[str, list[object]] = {}
    found: set[str] = set()
    for name, rules in base.get_tokendefs().items():
        changed = list(rules)
        for i, rule in enumerate(changed):
            if isinstance(rule, tuple) and isinstance(rule[0], str) and rule[0] in replaced:
                found.add(rule[0])
                changed[i] = (replaced[rule[0]], *rule[1:])
        if changed != list(rules):
            states[name] = changed
    missing = set(replaced) - found
    assert not missing, f"Pygments' {base.name} lexer changed: no rule {sorted(missing)}"
    maker: Any = type(base)  # Pygments' RegexLexerMeta, which compiles the rules
    made: type[RegexLexer] = maker(f"Linear{base.__name__}", (base,), {"tokens": states})
    return made


LinearJavaLexer = _linear(JavaLexer, JAVA_RULES)
"""Pygments' Java lexer with no rule that rescans (see the module)."""

LINEAR: dict[type[Lexer], type[RegexLexer]] = {
    JavaLexer: LinearJavaLexer,
    CLexer: _linear(CLexer, C_RULES),
    CppLexer: _linear(CppLexer, C_RULES),
    JavascriptLexer: _linear(JavascriptLexer, JAVASCRIPT_RULES),
}
"""Pygments' lexers of the languages the league hosts, each with its rules that rescanned
made linear."""


def lexer_for(path: str) -> Lexer:
    """The lexer for a file's name (Pygments', made linear where :data:`LINEAR` has it;
    plain text for a name it does not know), with the text's own lines kept: nothing
    stripped, so offsets and line numbers are the file's."""
    try:
        found = get_lexer_for_filename(path, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)
    linear = LINEAR.get(type(found))
    return found if linear is None else linear(stripnl=False, ensurenl=False)


def budget(characters: int) -> float:
    """The CPU seconds a file of ``characters`` may take to lex (see the module)."""
    return BASE_SECONDS + SECONDS_PER_MIB * characters / MIB


_SPENT_BY: ContextVar[float] = ContextVar("spent_by", default=math.inf)
"""The thread CPU time (``time.thread_time``) past which nothing more is lexed: the
whole digest's budget (:func:`cpu_budget`); none outside one."""


@contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Lex within ``seconds`` of this thread's CPU time in all, beside each file's own
    :func:`budget`: once they are spent, :func:`lexed` gives each file's rest, or a
    whole file, as one plain token (a digest past its budget shows the rest plain)."""
    mark = _SPENT_BY.set(time.thread_time() + seconds)
    try:
        yield
    finally:
        _SPENT_BY.reset(mark)


def lexed(path: str, text: str) -> Lexed:
    """The tokens of ``text`` (the file ``path``), covering it whole and in order: its
    lexer's, up to :data:`MOST_TOKENS` tokens and its :func:`budget` of CPU time (and
    within a :func:`cpu_budget` in force), then the rest as one plain token
    (:data:`UNREAD`). The budget counts this thread's CPU time only
    (``time.thread_time``): a server's other threads never shorten it."""
    out: Lexed = []
    end = 0
    now = time.thread_time()
    limit = min(now + budget(len(text)), _SPENT_BY.get())
    if now >= limit:  # the digest's budget is spent: nothing more is lexed
        return [(0, UNREAD, text)] if text else []
    tokens: Iterator[tuple[int, _TokenType, str]] = lexer_for(path).get_tokens_unprocessed(text)
    for count, (start, kind, value) in enumerate(tokens, 1):
        if start != end:  # a lexer that skips text: the rest is plain
            break
        out.append((start, kind, value))
        end = start + len(value)
        if count >= MOST_TOKENS or (count % CHECK_EVERY == 0 and time.thread_time() > limit):
            break
    if end < len(text):
        out.append((end, UNREAD, text[end:]))
    return out
