"""Text handling shared by every parser: whole numbers, quoting, bounded reading.

One implementation for each, so that every front end (FEN, square names, game
records, the engine protocol, bot specs, the command line) accepts the same
input and fails the same way:

- :func:`parse_int` accepts ASCII digits only (``str.isdigit`` also accepts
  ``"²"``, ``"３"`` and ``"٣"``, which ``int`` then rejects or silently reads as
  ASCII) and at most :data:`MAX_DIGITS` of them (Python refuses to convert
  strings of more than 4300 digits, and no quantity in the game needs more);
- :func:`parse_size` and :func:`parse_rounds` read a board size (``8x8``) and
  a list of rounds settings (``8,12,16,28``) with the same digits rule;
- :func:`quote` repeats at most :data:`QUOTE_CHARS` characters of an input in
  an error message, so a megabyte of bad input never comes back as a megabyte
  of message;
- :func:`read_text` reads a file or stream up to :data:`MAX_INPUT_BYTES` and
  decodes it as UTF-8, raising a specific :class:`AdjacencyError` subclass for
  a missing file, a directory, undecodable bytes or an oversized input.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import BinaryIO

from .errors import AdjacencyError, InputTooLargeError

ASCII_DIGITS = frozenset("0123456789")

MAX_DIGITS = 18
"""Digits a whole number may have: every count in the game (plies, depths, milliseconds,
nodes, table sizes) fits, and so does a signed 64-bit integer's range of values."""

QUOTE_CHARS = 80
"""Characters of an input that an error message repeats at most."""

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""Bytes a command reads at most from one file or stream (a game record is a few KB;
an arena run's records file of 10 000 games is about 5 MB)."""


def quote(text: object, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of ``text`` cut to about ``limit`` characters, saying how long it was.

    A string is shown as a Python string literal; anything else by its ``repr``.
    """
    if not isinstance(text, str):
        try:
            shown = repr(text)
        except ValueError:  # an int too long to convert, for one
            shown = f"<{type(text).__name__}>"
        return shown if len(shown) <= limit else f"{shown[:limit]}... ({len(shown)} characters)"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


SPREADSHEET_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")
"""First characters that make a spreadsheet read a CSV cell as a formula."""


def spreadsheet_text(value: object) -> object:
    """``value`` safe for a CSV cell that a spreadsheet opens: text starting with a
    formula character (``=HYPERLINK(...)``, ``+``, ``-``, ``@``, a tab or a line break)
    gets a leading apostrophe, so the spreadsheet shows it as text instead of running
    it (OWASP's advice for CSV injection). Numbers, and text that reads as a number
    (``-3``, ``-0.5``), are left as they are.

    >>> print(spreadsheet_text('=HYPERLINK("http://x","y")'))
    '=HYPERLINK("http://x","y")
    >>> spreadsheet_text("-3"), spreadsheet_text(-3), spreadsheet_text("ada")
    ('-3', -3, 'ada')
    """
    if not isinstance(value, str) or not value.startswith(SPREADSHEET_TRIGGERS):
        return value
    if is_ascii_decimal(value):
        return value
    return "'" + value


def is_ascii_number(text: str, *, signed: bool = False) -> bool:
    """True if ``text`` is 1 to :data:`MAX_DIGITS` ASCII digits (after one ``-`` if ``signed``)."""
    digits = text[1:] if signed and text.startswith("-") else text
    return 0 < len(digits) <= MAX_DIGITS and all(char in ASCII_DIGITS for char in digits)


_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?")
MAX_DECIMAL_CHARS = 40
"""Characters a decimal number may have (``float`` itself accepts any length)."""


def is_ascii_decimal(text: str) -> bool:
    """True if ``text`` is a plain decimal number in ASCII (``-1.5``, ``2``, ``1e-3``).

    ``float`` also accepts ``"nan"``, ``"inf"``, ``"1_0"``, spaces and other
    scripts' digits; none of those is a number a user means here.
    """
    return len(text) <= MAX_DECIMAL_CHARS and _DECIMAL.fullmatch(text) is not None


def parse_int(
    text: str,
    what: str,
    error: type[AdjacencyError] = AdjacencyError,
    *,
    signed: bool = False,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    """Parse a whole number written in ASCII digits; raise ``error`` quoting ``text``.

    ``what`` names the quantity in the message (``"plies left"``). ``signed``
    allows one leading ``-``; no ``+``, spaces, underscores or other digits are
    accepted. ``minimum``/``maximum`` bound the value (inclusive).
    """
    if not isinstance(text, str) or not is_ascii_number(text, signed=signed):
        digits = text.lstrip("-") if isinstance(text, str) else ""
        if len(digits) > MAX_DIGITS and all(char in ASCII_DIGITS for char in digits):
            raise error(
                f"{what} must be a whole number of at most {MAX_DIGITS} digits, got {quote(text)}"
            )
        raise error(f"{what} must be a whole number, got {quote(text)}")
    value = int(text)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "" if minimum is None else f"{minimum}"
        high = "" if maximum is None else f"{maximum}"
        span = (
            f"from {low} to {high}"
            if low and high
            else f"at least {low}"
            if low
            else f"at most {high}"
        )
        raise error(f"{what} must be {span}, got {quote(text)}")
    return value


def parse_size(text: str, error: type[AdjacencyError] = AdjacencyError) -> tuple[int, int]:
    """A board size ``ROWSxCOLS`` (``8x8``, ``6X7``) as ``(rows, cols)``; ASCII digits only.

    Only the syntax is checked: whether the board exists is
    :func:`adjacency.core.board.board`'s to say.
    """
    rows, sep, cols = text.lower().partition("x")
    if not sep or not is_ascii_number(rows) or not is_ascii_number(cols):
        raise error(f"board size {quote(text)}: expected ROWSxCOLS such as 8x8")
    return int(rows), int(cols)


def parse_rounds(text: str, error: type[AdjacencyError] = AdjacencyError) -> tuple[int, ...]:
    """Rounds settings ``8,12,16,28`` as a tuple; ASCII digits only, spaces around commas
    and empty items ignored. Whether a board has that many rounds is checked later
    (:class:`adjacency.arena.schedule.RunSettings`)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or not all(is_ascii_number(p) for p in parts):
        raise error(
            f"rounds {quote(text)}: expected whole numbers separated by commas, e.g. 8,12,16,28"
        )
    return tuple(int(p) for p in parts)


def read_text(
    source: str | os.PathLike[str] | BinaryIO,
    what: str = "input",
    error: type[AdjacencyError] = AdjacencyError,
    limit: int = MAX_INPUT_BYTES,
) -> str:
    """The UTF-8 text of a file path or binary stream, read up to ``limit`` bytes.

    Raises ``error`` for a missing file, a directory, an unreadable file or bytes
    that are not UTF-8, and :class:`InputTooLargeError` past ``limit`` (reading
    stops there, so ``/dev/zero`` costs ``limit`` bytes, not the machine).
    """
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        name = f"{what} {quote(str(path))}"
        try:
            with path.open("rb") as stream:
                data = stream.read(limit + 1)
        except FileNotFoundError:
            raise error(f"{name}: no such file") from None
        except IsADirectoryError:
            raise error(f"{name} is a directory, not a file") from None
        except PermissionError:
            raise error(f"{name}: permission denied") from None
        except OSError as exc:
            raise error(f"{name}: cannot read it: {exc.strerror or exc}") from None
    else:
        name = what
        data = source.read(limit + 1)
    if len(data) > limit:
        raise InputTooLargeError(f"{name} is larger than the limit of {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"{name} is not UTF-8 text (byte {exc.start} is {data[exc.start : exc.start + 1]!r})"
        ) from None
