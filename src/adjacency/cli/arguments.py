"""Argument types shared by the subcommands: bad option values fail in argparse.

Each type raises :class:`argparse.ArgumentTypeError`, so ``adjacency`` prints
its usage line and the reason and exits with status 2, before any work starts.
Numbers are read with the project's one parser (:mod:`adjacency.core.text`):
ASCII digits only, so ``--time nan``, ``--time inf`` or ``--depth ３`` never get
through ``float``/``int``'s generosity.
"""

from __future__ import annotations

import argparse
import math
import os

from ..core.errors import AdjacencyError
from ..core.text import is_ascii_decimal, parse_int, quote

MAX_SECONDS = 7 * 24 * 3600.0
"""Longest time limit an option accepts (a week); timers refuse much longer waits."""


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds above 0, at most :data:`MAX_SECONDS`."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds above 0 and at most {MAX_SECONDS:.0f}, got {quote(text)}"
        )
    return value


def seconds_or_zero(text: str) -> float:
    """A time limit where 0 means none (``--time 0`` with ``--depth``)."""
    if is_ascii_decimal(text) and float(text) == 0:
        return 0.0
    try:
        return seconds(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be 0 (none) or a number of seconds above 0 and at most {MAX_SECONDS:.0f}, "
            f"got {quote(text)}"
        ) from None


def positive_int(text: str) -> int:
    """A whole number from 1 (a depth, a node count, a number of games)."""
    try:
        return parse_int(text, "the value", minimum=1)
    except AdjacencyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole_number(text: str) -> int:
    """A whole number from 0 (a seed, a count of random plies, a run id)."""
    try:
        return parse_int(text, "the value", minimum=0)
    except AdjacencyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive_number(text: str) -> float:
    """A finite number above 0 written in ASCII (a penalty, an exponent, a scale)."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {quote(text)}")
    return value


def non_negative_number(text: str) -> float:
    """A finite number from 0 written in ASCII (a ridge penalty, a stability constant)."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a number of at least 0, got {quote(text)}")
    return value


def memory_megabytes() -> float:
    """This machine's physical memory in MB (``inf`` where it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    except (AttributeError, ValueError, OSError):
        return math.inf


def table_megabytes(text: str) -> float:
    """A table size in MB: above 0 and below this machine's physical memory."""
    value = float(text) if is_ascii_decimal(text) else math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a number of MB above 0, got {quote(text)}")
    available = memory_megabytes()
    if value >= available:
        raise argparse.ArgumentTypeError(
            f"{quote(text)} MB is more than this machine's memory ({available:.0f} MB)"
        )
    return value
