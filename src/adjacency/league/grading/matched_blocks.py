"""Matched blocks: the stretches two files have token for token (names, strings and
numbers as :func:`~.fingerprints.tokens` reads them), none of it the skeleton, found from
the fingerprints they share and tiled greedily, longest first, as JPlag's minimum match.
A file pair of the similarity report (:mod:`.similarity`) holding one is listed whatever
its shares, so a function copied into a larger file is found.

The cost: each file read once (:meth:`Read.of`), and from each shared fingerprint one
stretch extended token by token, from at most :data:`MOST_PLACES` places in the other
file.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from .fingerprints import K, Print, Token, tokens

BLOCK_TOKENS = 80
"""The fewest tokens of a matched block that lists its file pair whatever the shares
(set from measurement: see docs/league.md, "Similarity across teams")."""
BLOCK_LINES = 10
"""... and the fewest lines it spans on each side."""
MOST_BLOCKS = 12
"""The most matched blocks shown for a file pair."""
MOST_PLACES = 16
"""The most places in the other file a shared fingerprint is followed from (code
repeated more often than this is extended from its first places only)."""
MOST_LINES = 200
"""The most lines shown of one side of a passage."""


@dataclass(frozen=True)
class Block:
    """A matched block: a stretch two files have token for token, none of it the
    skeleton: its lines (1-based, inclusive) and text on each side, and its tokens."""

    tokens: int
    a_first: int
    a_last: int
    a_text: str
    b_first: int
    b_last: int
    b_text: str

    @property
    def lines(self) -> int:
        """The fewer lines of its two sides."""
        return min(self.a_last - self.a_first, self.b_last - self.b_first) + 1


def shown_lines(text: str, first: int, last: int) -> str:
    """The lines ``first`` to ``last`` (1-based, inclusive) of ``text``, at most
    :data:`MOST_LINES` of them: one side of a passage or a block as it is shown."""
    lines = text.splitlines()[first - 1 : last]
    return "\n".join(lines[:MOST_LINES])


@dataclass(frozen=True)
class Read:
    """A file as its blocks are found in it: its text, its tokens, each token's index
    by its first character, and where its lines start."""

    text: str
    stream: list[Token]
    at: dict[int, int]
    starts: list[int]

    @classmethod
    def of(cls, path: str, text: str) -> Read:
        """``text`` (the file ``path``) read: :func:`~.fingerprints.tokens`, once."""
        stream = tokens(path, text)
        starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
        return cls(text, stream, {t.start: i for i, t in enumerate(stream)}, starts)

    def line(self, offset: int) -> int:
        """The line (1-based) of the character at ``offset``."""
        return bisect.bisect_right(self.starts, offset)


def _masked(read: Read, prints: list[Print], skeleton: set[int]) -> bytearray:
    """Which of the file's tokens a skeleton fingerprint covers (its :data:`K` tokens)."""
    mask = bytearray(len(read.stream))
    for mark in prints:
        i = read.at.get(mark.start)
        if mark.hash in skeleton and i is not None:
            mask[i : i + K] = b"\x01" * len(mask[i : i + K])
    return mask


Run = tuple[int, int, int]
"""A stretch both files have: its first and end token on side A, and the shift that
takes side A's token indices to side B's."""


def _runs(a: Read, a_prints: list[Print], b: Read, places: dict[int, list[int]]) -> list[Run]:
    """From each of side A's prints that side B has (``places``: each hash's token
    indices on side B), the longest stretch around it both have token for token, each
    stretch once."""
    one = [t.text for t in a.stream]
    two = [t.text for t in b.stream]
    runs: dict[int, list[tuple[int, int]]] = {}
    out = []
    for mark in a_prints:
        i = a.at.get(mark.start, -1)
        for j in places.get(mark.hash, [])[:MOST_PLACES] if i >= 0 else []:
            shift = j - i
            if any(s <= i < e for s, e in runs.get(shift, [])) or one[i : i + K] != two[j : j + K]:
                continue  # extended already, or two runs of one hash
            s, e = i, i + K
            while s > 0 and s + shift > 0 and one[s - 1] == two[s + shift - 1]:
                s -= 1
            while e < len(one) and e + shift < len(two) and one[e] == two[e + shift]:
                e += 1
            runs.setdefault(shift, []).append((s, e))
            out.append((s, e, shift))
    return out


def _unmasked(run: Run, a_mask: bytearray, b_mask: bytearray, least: int) -> list[Run]:
    """The parts of ``run`` no skeleton print covers on either side, of ``least``
    tokens or more."""
    s, e, shift = run
    out = []
    x = s
    while x < e:
        while x < e and (a_mask[x] or b_mask[x + shift]):
            x += 1
        y = x
        while y < e and not (a_mask[y] or b_mask[y + shift]):
            y += 1
        if y - x >= least:
            out.append((x, y, shift))
        x = y
    return out


def _overlaps(one: Run, two: Run) -> bool:
    """Whether two stretches share a token on side A or on side B."""
    x, y, d = one
    s, e, f = two
    return (x < e and s < y) or (x + d < e + f and s + f < y + d)


def blocks(
    a: Read, a_prints: list[Print], b: Read, b_prints: list[Print],
    skeleton: set[int], block_tokens: int = BLOCK_TOKENS, block_lines: int = BLOCK_LINES,
) -> list[Block]:  # fmt: skip
    """The matched blocks of two files, longest first (at most :data:`MOST_BLOCKS`):
    from each fingerprint they share (the skeleton's left out), the longest stretch
    around it that both have token for token, cut where a skeleton fingerprint covers
    either side; the stretches of at least ``block_tokens`` tokens and ``block_lines``
    lines on each side, taken longest first, none overlapping one taken on either side
    (greedy tiling, as JPlag's)."""
    a_mask, b_mask = _masked(a, a_prints, skeleton), _masked(b, b_prints, skeleton)
    places: dict[int, list[int]] = {}
    for mark in b_prints:
        j = b.at.get(mark.start)
        if j is not None and mark.hash not in skeleton:
            places.setdefault(mark.hash, []).append(j)
    found = [
        part
        for run in _runs(a, a_prints, b, places)
        for part in _unmasked(run, a_mask, b_mask, block_tokens)
    ]
    taken: list[Run] = []
    out = []
    for x, y, shift in sorted(found, key=lambda f: (f[0] - f[1], f[0])):
        if any(_overlaps((x, y, shift), other) for other in taken):
            continue
        a1, a2 = a.line(a.stream[x].start), a.line(a.stream[y - 1].end - 1)
        b1, b2 = b.line(b.stream[x + shift].start), b.line(b.stream[y + shift - 1].end - 1)
        if min(a2 - a1, b2 - b1) + 1 < block_lines:
            continue
        taken.append((x, y, shift))
        out.append(
            Block(y - x, a1, a2, shown_lines(a.text, a1, a2), b1, b2, shown_lines(b.text, b1, b2))
        )
        if len(out) == MOST_BLOCKS:
            break
    return out
