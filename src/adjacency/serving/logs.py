"""The server's log: where a served front end's log lines go and how much of them.

Without this, nothing gives the package's loggers a handler: Python's last-resort
handler writes WARNING lines and up, and the INFO lines a teacher needs (who connected,
what was refused, which games started and ended, each step of an event) are lost.
:func:`configure_logging` gives the ``adjacency`` logger one handler on standard error,
one line per record with its time and level, at the level asked for; uvicorn's own
loggers keep WARNING and up unless DEBUG is asked for (their INFO lines repeat the
server's startup and each request).
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error")
"""The levels ``--log-level`` takes, most lines first."""

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"

PACKAGE_LOGGER = "adjacency"


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler that writes to whatever ``sys.stderr`` is when a record comes
    (a test's captured stream, replaced between tests, is never written after it)."""

    @property  # type: ignore[override]
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


def configure_logging(level: str) -> str:
    """Send the package's log records at ``level`` (one of :data:`LEVELS`) and above to
    standard error, replacing the handler an earlier call gave; return the level
    uvicorn should log at (``warning``, or ``level`` when that is ``debug`` or
    ``error``). Records still propagate to the root logger's handlers, if any."""
    if level not in LEVELS:
        raise ValueError(f"log level {level!r}: expected one of {', '.join(LEVELS)}")
    logger = logging.getLogger(PACKAGE_LOGGER)
    for old in list(logger.handlers):
        if isinstance(old, StderrHandler):
            logger.removeHandler(old)
    handler = StderrHandler()
    handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    return level if level in ("debug", "error") else "warning"
