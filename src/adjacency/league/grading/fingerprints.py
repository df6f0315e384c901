"""Fingerprints of source code by winnowing (Schleimer, Wilkerson and Aiken, "Winnowing:
local algorithms for document fingerprinting", SIGMOD 2003), the method of MOSS.

A file is read as a stream of tokens by Pygments' lexer for its name (:func:`tokens`,
in time linear in its text: :mod:`.lexing`):
comments and white space are dropped, every name becomes ``N``, every string ``S`` (however
many parts its lexer makes of it) and every number ``0``; keywords, operators and
punctuation stay as they are. So renaming a variable, a method or a class, reformatting,
or rewriting a comment changes no token.
Every run of :data:`K` tokens (a k-gram) is hashed; :func:`winnow` keeps, of each window
of :data:`W` consecutive hashes, the smallest (the rightmost of equals, as the paper's
robust winnowing), once per position. The paper's guarantee: two files sharing a run of
at least ``K + W - 1`` tokens (:data:`GUARANTEE`) share at least one fingerprint, and a
shared run shorter than ``K`` tokens (:data:`K`, the noise threshold) is never one.

Fingerprints are sets, so moving whole methods or classes around the files keeps all
fingerprints but those spanning the seams. Each fingerprint remembers where it lies
(file, first and last character) so that shared passages can be shown
(:mod:`.similarity`).

Why not ``copydetect`` (MIT, the same method): its release requires matplotlib and tqdm
at run time and works on files on disk, writing its own HTML report, while the league
holds the projects in its file and shows the passages on its own page; the method itself
is this module's few functions.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

from .lexing import UNREAD, lexed

K = 15
"""Tokens in a hashed run (the noise threshold: shorter common runs are never reported);
a Java statement is some 5 to 10 tokens."""
W = 6
"""Hashes in a winnowing window."""
GUARANTEE = K + W - 1
"""A common run of at least this many tokens always yields a common fingerprint."""


@dataclass(frozen=True)
class Token:
    """One token as compared (``text``, normalised) and where it lies in its file
    (``start`` to ``end``, character offsets)."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Print:
    """One fingerprint: its ``hash`` and the characters of its file it covers."""

    hash: int
    start: int
    end: int


def tokens(path: str, text: str) -> list[Token]:
    """The tokens of ``text`` (the file ``path``) as compared: see the module. A file is
    lexed in time linear in its text (:func:`~.lexing.lexed`): what its lexer did not
    read within its budget is one plain token, left out."""
    out: list[Token] = []
    for start, kind, value in lexed(path, text):
        if kind is UNREAD:
            break
        if kind in Comment or (kind in Text and not value.strip()):
            continue
        if kind in Name:
            word = "N"
        elif kind in String:
            word = "S"
        elif kind in Number:
            word = "0"
        elif kind in Keyword or kind in Operator or kind in Punctuation:
            word = value
        else:
            word = value.strip()
        if word == "S" and out and out[-1].text == "S" and out[-1].end == start:
            out[-1] = Token("S", out[-1].start, start + len(value))  # one literal, lexed in parts
        elif word:
            out.append(Token(word, start, start + len(value)))
    return out


def _hash(run: list[Token]) -> int:
    joined = "\x1f".join(token.text for token in run).encode()
    return int.from_bytes(hashlib.blake2b(joined, digest_size=8).digest(), "big")


def winnow(stream: list[Token], k: int = K, w: int = W) -> list[Print]:
    """The fingerprints of a token stream: in each window of ``w`` consecutive k-gram
    hashes the smallest (the rightmost of equal ones), each position once. A stream
    shorter than ``k`` tokens has none; one with fewer than ``w`` k-grams keeps its
    smallest."""
    if k < 1 or w < 1:
        raise ValueError(f"winnowing needs k >= 1 and w >= 1, not k={k}, w={w}")
    grams = [_hash(stream[i : i + k]) for i in range(len(stream) - k + 1)]
    if not grams:
        return []
    chosen: list[int] = []
    for first in range(max(1, len(grams) - w + 1)):
        window = grams[first : first + w]
        low = min(window)
        at = first + max(i for i, h in enumerate(window) if h == low)
        if not chosen or chosen[-1] != at:
            chosen.append(at)
    return [Print(grams[i], stream[i].start, stream[i + k - 1].end) for i in chosen]


def fingerprints(path: str, text: str) -> list[Print]:
    """A file's fingerprints (:func:`tokens`, then :func:`winnow`)."""
    return winnow(tokens(path, text))


ProjectPrints = dict[str, list[Print]]
"""A project's fingerprints, file by file (path to its prints, in the file's order)."""


def project_prints(files: Mapping[str, str]) -> ProjectPrints:
    """Every file's fingerprints (:func:`fingerprints`), paths in order; a file with
    none (shorter than :data:`K` tokens) is left out."""
    out: ProjectPrints = {}
    for path in sorted(files):
        found = fingerprints(path, files[path])
        if found:
            out[path] = found
    return out


def pack(prints: ProjectPrints) -> bytes:
    """``prints`` as stored (compressed JSON: each path's ``[hash, start, end]`` rows),
    read back by :func:`unpack`."""
    rows = {path: [[p.hash, p.start, p.end] for p in found] for path, found in prints.items()}
    return zlib.compress(json.dumps(rows, separators=(",", ":")).encode(), 6)


def unpack(data: bytes) -> ProjectPrints:
    """The prints :func:`pack` stored; :class:`ValueError` for bytes it did not write."""
    try:
        rows = json.loads(zlib.decompress(data))
        return {
            str(path): [Print(int(h), int(s), int(e)) for h, s, e in found]
            for path, found in rows.items()
        }
    except (zlib.error, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"stored fingerprints cannot be read: {exc}") from None
