"""The teacher's log kept in the league file (the ``log_lines`` table of :mod:`.schema`),
so that it lasts across restarts: :class:`LogRepo` stores and reads it, :class:`KeptLog`
is the log handler that queues each line for it.

The server's log lines (those standard error gets at its ``--log-level``: connections,
refusals, games, each step of an event, builds) are written in batches, at most every
:data:`FLUSH_SECONDS` and before every read, never by the logging call itself (a write
may wait for the file's lock; a line logged while writing must not write again). The
table is bounded by size, not by count: beyond :data:`MAX_BYTES` of text the oldest
lines are dropped until :data:`KEEP_BYTES` remain. A line's ``kind`` is its logger's last
name (``events``, ``builder``, ``scheduler``...), what the teacher filters by beside its
level, a text and a team (a line naming the team as a whole word). A line logged by
:func:`~adjacency.serving.logs.say` keeps its code and params too, so the teacher's page
tells it in the reader's language.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Sequence

from ...core.errors import AdjacencyError, AdjacencyRuntimeError
from ...serving.logs import KEPT_LINES, LEVELS, RecentLines, told
from ...serving.logs import LogLine as LogLine
from .database import LeagueDb

MAX_BYTES = 4 * 1024 * 1024
"""The most text the log keeps (its lines' messages and loggers); beyond it the oldest
lines go."""
KEEP_BYTES = 3 * 1024 * 1024
"""What remains after the oldest lines went (so the drop is not done at every write)."""
LINE_BYTES = 32
"""What a line counts beside its text (its time, level and row)."""
FLUSH_SECONDS = 1.0
"""The longest a logged line waits to be written to the file."""

_SIZE = "length(message) + length(logger) + ?"


def kind_of(logger: str) -> str:
    """A logger's kind: its last dotted name (``adjacency.league.events`` -> ``events``)."""
    return logger.rsplit(".", 1)[-1]


def names(team: str, message: str) -> bool:
    """Whether ``message`` names ``team`` as a whole word (any case; a name's own
    separators, ``-`` and ``.``, end a word: ``red-blue`` names ``red``)."""
    pattern = rf"(?<![A-Za-z0-9_]){re.escape(team)}(?![A-Za-z0-9_])"
    return re.search(pattern, message, re.IGNORECASE) is not None


class LogRepo:
    """The ``log_lines`` table: lines added in batches, dropped by size, read filtered."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def add(self, lines: Sequence[LogLine]) -> None:
        """Store ``lines`` (in order), then drop the oldest while the log is over
        :data:`MAX_BYTES`."""
        if not lines:
            return
        with self.db.transaction() as db:
            rows = [
                (x.time, x.level, x.severity, x.logger, x.message, x.code,
                 None if x.code is None else json.dumps(dict(x.params)))
                for x in lines
            ]  # fmt: skip
            db.executemany(
                "INSERT INTO log_lines (at, level, severity, logger, message, code, params) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            (size,) = db.execute(
                f"SELECT COALESCE(SUM({_SIZE}), 0) FROM log_lines", (LINE_BYTES,)
            ).fetchone()
            if size > MAX_BYTES:
                cut = db.execute(
                    f"SELECT id FROM (SELECT id, SUM({_SIZE}) OVER (ORDER BY id DESC) AS kept"
                    " FROM log_lines) WHERE kept > ? ORDER BY id DESC LIMIT 1",
                    (LINE_BYTES, KEEP_BYTES),
                ).fetchone()
                if cut is not None:
                    db.execute("DELETE FROM log_lines WHERE id <= ?", (cut[0],))

    def size(self) -> int:
        """The text the log holds now, as :data:`MAX_BYTES` counts it."""
        rows = self.db.query(f"SELECT COALESCE(SUM({_SIZE}), 0) FROM log_lines", (LINE_BYTES,))
        return int(rows[0][0])

    def lines(
        self, level: str = "debug", text: str = "", team: str = "", kind: str = "",
        most: int = 500, lang: str = "en",
    ) -> list[LogLine]:  # fmt: skip
        """The newest ``most`` lines at ``level`` (one of
        :data:`~adjacency.serving.logs.LEVELS`) or above whose logger or message holds
        ``text`` (any case; or the line as told in ``lang``,
        :func:`~adjacency.serving.logs.told`, holds it), that name ``team``
        (:func:`names`) and are of ``kind`` (:func:`kind_of`); oldest first, each
        numbered by its row."""
        if level not in LEVELS:
            raise ValueError(f"log level {level!r}: expected one of {', '.join(LEVELS)}")
        least = {"debug": 10, "info": 20, "warning": 30, "error": 40}[level]
        clauses: list[str] = ["severity >= ?"]
        args: list[object] = [least]
        if text and lang == "en":
            clauses.append("(instr(lower(message), ?) > 0 OR instr(lower(logger), ?) > 0)")
            args += [text.casefold(), text.casefold()]
        if team:
            clauses.append("instr(lower(message), ?) > 0")
            args.append(team.casefold())
        if kind:
            clauses.append("(logger = ? OR logger LIKE ?)")
            args += [kind, f"%.{kind}"]
        found: list[LogLine] = []
        offset, batch = 0, max(most, 100)
        while len(found) < most:  # a team's name inside a longer word is read, then left
            rows = self.db.query(
                "SELECT id, at, level, severity, logger, message, code, params "
                "FROM log_lines WHERE "
                + " AND ".join(clauses) + " ORDER BY id DESC LIMIT ? OFFSET ?",
                (*args, batch, offset),
            )  # fmt: skip
            for row in rows:
                line = LogLine(int(row[0]), float(row[1]), str(row[2]), int(row[3]),
                               str(row[4]), str(row[5]), row[6],
                               {} if row[7] is None else json.loads(row[7]))  # fmt: skip
                if (not team or names(team, line.message)) and self._holds(line, text, lang):
                    found.append(line)
            if len(rows) < batch:
                break
            offset += batch
        return found[:most][::-1]

    @staticmethod
    def _holds(line: LogLine, text: str, lang: str) -> bool:
        """Whether ``line`` holds ``text`` as :meth:`lines` reads it in ``lang`` (English:
        the query did)."""
        if not text or lang == "en":
            return True
        wanted = text.casefold()
        return any(wanted in said.casefold() for said in (line.message, line.logger,
                                                          told(line, lang)))  # fmt: skip

    def kinds(self) -> list[str]:
        """The kinds of the lines kept (:func:`kind_of`), sorted."""
        rows = self.db.query("SELECT DISTINCT logger FROM log_lines")
        return sorted({kind_of(str(row[0])) for row in rows})


class KeptLog(RecentLines):
    """The log handler of a served league: every line it takes is queued for the
    league file (:meth:`flush` writes the queue: a thread of its own does so every
    :data:`FLUSH_SECONDS` between :meth:`start` and :meth:`stop`)."""

    def __init__(self, repo: LogRepo) -> None:
        super().__init__()
        self.repo = repo
        self._queue: list[LogLine] = []
        self._queue_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing = False

    def took(self, line: LogLine) -> None:
        with self._queue_lock:
            self._queue.append(line)

    def flush(self) -> None:
        """Write the queued lines now. A failed write (a full disk, a locked file) keeps
        them queued for the next flush, the newest :data:`~adjacency.serving.logs.KEPT_LINES`
        at most, and is said once on standard error until a write works again (never
        logged: a line logged here would queue itself again); the flushing thread goes
        on."""
        with self._write_lock:
            with self._queue_lock:
                lines, self._queue = self._queue, []
            try:
                self.repo.add(lines)
            except (AdjacencyError, AdjacencyRuntimeError, OSError) as exc:
                with self._queue_lock:
                    self._queue = [*lines, *self._queue][-KEPT_LINES:]
                if not self._failing:
                    print(f"the teacher's log could not be written: {exc}", file=sys.stderr)
                self._failing = True
            else:
                self._failing = False

    def start(self) -> None:
        """Write the queue every :data:`FLUSH_SECONDS` until :meth:`stop`."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="league-log", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(FLUSH_SECONDS):
            self.flush()

    def stop(self) -> None:
        """Stop the writing thread and write what is queued."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.flush()
