"""Hypothesis strategies for hostile text: random lines and valid inputs with mutations.

A parser is fed (1) arbitrary text, (2) valid examples with a slice replaced by
something nasty: other scripts' digits (``²``, ``３``, ``٣``), numbers of
thousands of digits, control characters, quotes, huge runs.
"""

from __future__ import annotations

from hypothesis import strategies as st

NASTY_PIECES = (
    "²", "３", "٣", "߃", "𝟗", "½", "Ⅻ", "-1", "+1", "1_0", "0x10", "1e9", "nan", "inf",
    "9" * 5000, "1" * 19, "0" * 40, " ", "\t", "\x00", "\x0b", "\u2028", "\r", '"', "\\",
    "{", "}", "[", "]", "/", ":", "=", ",", "@", ".", "..", "é", "\udcff", "moves", "fen",
    "startpos", "x", "o", "a1", "z99", "c03", "c３", "a٣",
)  # fmt: skip
"""Pieces that broke, or could break, the number and token parsers."""

nasty = st.one_of(st.sampled_from(NASTY_PIECES), st.text(max_size=8))


@st.composite
def mutated(draw: st.DrawFn, valid: list[str]) -> str:
    """One of ``valid`` with up to three slices replaced or inserted."""
    text = draw(st.sampled_from(valid))
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 6)))
        text = text[:start] + draw(nasty) + text[end:]
    return text


def hostile(valid: list[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, or a mutation of a valid example."""
    return st.one_of(st.text(max_size=200), mutated(valid), mutated(valid))
