"""The server's log: where a served front end's log lines go and how much of them.

Without this, nothing gives the package's loggers a handler: Python's last-resort
handler writes WARNING lines and up, and the INFO lines a teacher needs (who connected,
what was refused, which games started and ended, each step of an event) are lost.
:func:`configure_logging` gives the ``adjacency`` logger one handler on standard error,
one line per record with its time and level, at the level asked for; uvicorn's own
loggers keep WARNING and up unless DEBUG is asked for (their INFO lines repeat the
server's startup and each request).

:class:`RecentLines` keeps the last :data:`KEPT_LINES` records in memory, for a page to
show (the league's teacher's page): the same records as standard error, at the same
level, one line each (a traceback shortened to its exception's type and message).

A traceback is written once a minute per kind (:class:`OncePerMinute`: the logger, the
exception's type and the message): a client that makes the server fail the same way in a
loop (reconnect churn, say) costs one traceback and a count, not megabytes of log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TextIO

from .details import catalogue, render
from .details import message as catalogue_message

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
        """The ``sys.stderr`` of now (setting it changes nothing)."""
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        pass


WINDOW = 60.0
"""Seconds in which a traceback of one kind is written once (:class:`OncePerMinute`)."""

KINDS_KEPT = 1024
"""Kinds of traceback :class:`OncePerMinute` remembers (the oldest forgotten first)."""


class OncePerMinute(logging.Filter):
    """Let a record with a traceback through once per :data:`WINDOW` seconds per kind
    (logger, exception type, message template); drop the repeats, and say how many were
    dropped on the next one let through. Records without a traceback always pass.
    Thread-safe; remembers at most :data:`KINDS_KEPT` kinds."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info or record.exc_info[0] is None:
            return True
        key = (record.name, record.exc_info[0].__name__, str(record.msg))
        with self._lock:
            last = self._seen.get(key)
            if last is not None and record.created - last[0] < WINDOW:
                self._seen[key] = (last[0], last[1] + 1)
                return False
            dropped = 0 if last is None else last[1]
            self._seen.pop(key, None)
            self._seen[key] = (record.created, 0)
            while len(self._seen) > KINDS_KEPT:
                del self._seen[next(iter(self._seen))]
        if dropped:
            record.msg = f"{record.msg} (and {dropped} more like it since the last one shown)"
        return True


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
    handler.addFilter(OncePerMinute())
    logger.addHandler(handler)
    uvicorn_errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, OncePerMinute) for f in uvicorn_errors.filters):
        uvicorn_errors.addFilter(OncePerMinute())  # a protocol failure's traceback, per kind
    logger.setLevel(level.upper())
    return level if level in ("debug", "error") else "warning"


KEPT_LINES = 500
"""The records :class:`RecentLines` keeps (the oldest forgotten first)."""

MAX_MESSAGE = 2000
"""Characters of a record's message :class:`RecentLines` keeps (the rest is cut)."""


@dataclass(frozen=True)
class LogLine:
    """One record as :class:`RecentLines` keeps it."""

    number: int
    """Its place among every record the handler took (1 for the first)."""
    time: float
    """When it was logged (Unix seconds)."""
    level: str
    """``DEBUG``, ``INFO``, ``WARNING``, ``ERROR`` or ``CRITICAL``."""
    severity: int
    """The level as a number (``logging.INFO``...)."""
    logger: str
    message: str
    code: str | None = None
    """The catalogue's message the line says (``log.<code>``, :func:`say`); ``None``
    for a line of no code (its words are ``message``'s only)."""
    params: Mapping[str, str] = field(default_factory=dict)
    """What the code's message fills in."""


CODE = "log_code"
"""The record attribute :func:`say` names a line's code by."""
PARAMS = "log_params"
"""The record attribute :func:`say` gives a line's params by."""


def say(logger: logging.Logger, level: int, code: str, **params: object) -> None:
    """Log the catalogues' message ``log.<code>`` filled with ``params`` (as text): the
    line's words are its English message, and the code and params go with the record,
    so that a page tells the line in its reader's language (the teacher's log). A
    param named ``termination`` (a game's, as its value says it), ``detail_code`` and
    ``detail_params`` (a game's end, its params as JSON) are told in the reader's
    language too. ``KeyError`` for a code of no message (a test catches it)."""
    texts = {name: str(value) for name, value in params.items()}
    logger.log(
        level, "%s", catalogue_message(f"log.{code}", texts), extra={CODE: code, PARAMS: texts}
    )


def told(line: LogLine, lang: str) -> str:
    """``line`` in ``lang`` (one of :data:`~.details.LANGUAGES`): a coded line's message
    filled with its params, a game's ``termination`` and end (``detail_code``,
    ``detail_params``) told in ``lang`` too; its English words for English, for a line
    of no code (a program's error, a line logged before codes were kept) and for a code
    ``lang``'s catalogue lacks."""
    key = f"log.{line.code}"
    messages = catalogue(lang)
    if line.code is None or lang == "en" or key not in messages:
        return line.message
    params = dict(line.params)
    termination = f"termination.{params.get('termination', '').replace(' ', '-')}"
    if termination in messages:
        params["termination"] = str(messages[termination])
    code = params.get("detail_code")
    if code is not None and f"detail.{code}" in messages:
        # a code or params of another version: its English words stay
        with contextlib.suppress(ValueError):
            params["detail"] = render(code, json.loads(params.get("detail_params", "{}")), lang)
    return catalogue_message(key, params, lang)


class RecentLines(logging.Handler):
    """The last :data:`KEPT_LINES` records, in memory, for a page to show
    (:meth:`lines`). A record with a traceback is kept as its message followed by the
    exception's type and words (the traceback itself goes to standard error only).
    Thread-safe; what it keeps is bounded whatever is logged."""

    def __init__(self, kept: int = KEPT_LINES) -> None:
        super().__init__()
        self._kept: deque[LogLine] = deque(maxlen=kept)
        self._taken = 0
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info and record.exc_info[0] is not None:
                message += f" ({record.exc_info[0].__name__}: {record.exc_info[1]})"
        except Exception:  # a bad format string: logging's own report, not a crash
            self.handleError(record)
            return
        with self._guard:
            self._taken += 1
            line = LogLine(
                self._taken,
                record.created,
                record.levelname,
                record.levelno,
                record.name,
                message[:MAX_MESSAGE],
                getattr(record, CODE, None),
                getattr(record, PARAMS, {}),
            )
            self._kept.append(line)
            self.took(line)

    def took(self, line: LogLine) -> None:
        """Called with each line as it is kept, under the handler's lock: a subclass
        that keeps the lines elsewhere too queues it here (nothing slow: no logging,
        no I/O)."""

    def lines(self, level: str = "debug", text: str = "") -> list[LogLine]:
        """The lines kept, oldest first: those at ``level`` (one of :data:`LEVELS`) or
        above whose logger or message holds ``text`` (any case)."""
        if level not in LEVELS:
            raise ValueError(f"log level {level!r}: expected one of {', '.join(LEVELS)}")
        least = logging.getLevelName(level.upper())
        needle = text.casefold()
        with self._guard:
            kept = list(self._kept)
        return [
            line
            for line in kept
            if line.severity >= least
            and (
                not needle or needle in line.message.casefold() or needle in line.logger.casefold()
            )
        ]


def keep_recent(handler: RecentLines) -> None:
    """Give the package's logger ``handler`` (its level stays the logger's own:
    :func:`configure_logging`'s)."""
    logging.getLogger(PACKAGE_LOGGER).addHandler(handler)


def forget_recent(handler: RecentLines) -> None:
    """Take ``handler`` off the package's logger again."""
    logging.getLogger(PACKAGE_LOGGER).removeHandler(handler)
