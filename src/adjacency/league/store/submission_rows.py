"""A team's submitted code: every upload kept, content-hashed and numbered
(:class:`SubmissionsRepo`, the ``submissions`` table of :mod:`.schema`).

A team (a member of kind ``bot``) submits source, not a running client: its project
packed as :func:`adjacency.hosting.packing.pack` packs it (the kept files alone, at most
:data:`~adjacency.hosting.packing.MAX_PACKED` bytes) is kept in the league file, so a
backup holds every version and a game can always name the code that
played it. Each upload gets the team's next version number; an upload byte for byte
equal to one the team already has (the same SHA-256) is that version again, not a new
one.

A version's life: ``received`` (stored, waiting for the server to build it), ``building``
(a builder took it: built and checked in the sandbox), then ``accepted`` (it plays) or
``refused`` (its ``detail`` says why: the compiler's output, the position it failed).
The detail is the team's and the teacher's to read, never a public page's: it can quote
the team's file paths. A server that stops mid-build leaves ``building`` rows, which the
next start hands back to the builder (:meth:`SubmissionsRepo.requeue`).

Deadlines: an event may close uploads at a time of its own (``events.deadline``); a team
entered in an event whose deadline has passed and that has not finished may not upload
(:meth:`SubmissionsRepo.closing_event`), and the event plays each team's last version
accepted before its deadline (:meth:`SubmissionsRepo.playing`).

Games: the server plays a team that has an accepted version itself (a hosted bot), and
every game records the version (``submissions.id``) each side played
(:meth:`SubmissionsRepo.set_versions`), so each version's games and points can be listed
(:meth:`SubmissionsRepo.results`).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...hosting.packing import MAX_PACKED
from .records import LeagueError

if TYPE_CHECKING:  # a type only: the schema's upgrade steps import this package's modules
    from .database import LeagueDb


STATUSES = ("received", "building", "accepted", "refused")

REPLACED = "replaced by version {version}, uploaded before it was built"
"""The detail of a waiting version a newer upload of its team replaced (refused, never
built)."""
"""A version's states, in the order it passes them (:mod:`this module <.submission_rows>`)."""

CHUNK = 500
"""Game ids asked for in one query (SQLite's limit on a statement's parameters is far above)."""

MAX_FILENAME = 200
"""The longest file name kept with an upload (longer ones are cut): what the team
called its zip, shown back to it."""


@dataclass(frozen=True)
class Submission:
    """One stored version of a team's code (the zip's bytes are read apart:
    :meth:`SubmissionsRepo.data`)."""

    id: int
    member_id: int
    version: int
    """The team's own count: 1 for its first upload."""
    sha256: str
    size: int
    filename: str
    status: str
    detail: str
    """Why it was refused, or what the build said; for the team and the teacher only."""
    created: float
    decided: float | None


COLUMNS = "id, member_id, version, sha256, size, filename, status, detail, created, decided"


def _submission(row: tuple[object, ...]) -> Submission:
    return Submission(*row)  # type: ignore[arg-type]


class SubmissionsRepo:
    """The ``submissions`` table: add, read, claim and decide versions."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db

    def add(
        self,
        member_id: int,
        data: bytes,
        filename: str,
        now: float | None = None,
        left_out: str = "",
    ) -> tuple[Submission, bool]:
        """Keep ``data`` as the member's next version: ``(submission, True)``; or, when
        the member has these bytes already, ``(that version, False)`` and nothing is
        written. Raises :class:`~.records.LeagueError` for an empty or oversized upload
        or a member who is not a bot (nothing is written). ``left_out``: what the upload
        held besides (:mod:`adjacency.league.grading.left_out`), kept with a new version."""
        if not data:
            raise LeagueError("the upload is empty: send the zip of your project")
        if len(data) > MAX_PACKED:
            raise LeagueError(
                f"the packed project is {len(data):,} bytes: at most {MAX_PACKED:,} are kept"
            )
        digest = hashlib.sha256(data).hexdigest()
        name = (filename or "upload.zip")[:MAX_FILENAME]
        with self.db.transaction() as db:
            kind = db.execute("SELECT kind FROM members WHERE id = ?", (member_id,)).fetchone()
            if kind is None or kind[0] != "bot":
                raise LeagueError("only a team's bot submits code (not a person or a house bot)")
            same = db.execute(
                f"SELECT {COLUMNS} FROM submissions WHERE member_id = ? AND sha256 = ?",
                (member_id, digest),
            ).fetchone()
            if same is not None:
                return _submission(same), False
            (last,) = db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM submissions WHERE member_id = ?",
                (member_id,),
            ).fetchone()
            stamp = time.time() if now is None else now
            cursor = db.execute(
                "INSERT INTO submissions (member_id, version, sha256, size, filename, data,"
                " status, detail, created, left_out)"
                " VALUES (?, ?, ?, ?, ?, ?, 'received', '', ?, ?)",
                (member_id, last + 1, digest, len(data), name, data, stamp, left_out),
            )
            submission_id = cursor.lastrowid
            # One queued build per team: a version still waiting is replaced by this one.
            db.execute(
                "UPDATE submissions SET status = 'refused', detail = ?, decided = ?"
                " WHERE member_id = ? AND status = 'received' AND version < ?",
                (REPLACED.format(version=last + 1), stamp, member_id, last + 1),
            )
        return self.get(int(submission_id or 0)), True

    def get(self, submission_id: int) -> Submission:
        """One version by its id; :class:`~.records.LeagueError` if there is none."""
        return _submission(
            self.db.row(
                f"SELECT {COLUMNS} FROM submissions WHERE id = ?",
                (submission_id,),
                f"no submission {submission_id}",
            )
        )

    def data(self, submission_id: int) -> bytes:
        """The zip of a version, byte for byte as it was uploaded."""
        (data,) = self.db.row(
            "SELECT data FROM submissions WHERE id = ?",
            (submission_id,),
            f"no submission {submission_id}",
        )
        return bytes(data)

    def left_out(self, submission_id: int) -> str:
        """What a version's upload held besides its kept files, as noted (``""``: none)."""
        rows = self.db.query("SELECT left_out FROM submissions WHERE id = ?", (submission_id,))
        return str(rows[0][0]) if rows else ""

    def versions(self, member_id: int) -> list[Submission]:
        """Every version of a member, newest first."""
        rows = self.db.query(
            f"SELECT {COLUMNS} FROM submissions WHERE member_id = ? ORDER BY version DESC",
            (member_id,),
        )
        return [_submission(row) for row in rows]

    def version(self, member_id: int, version: int) -> Submission | None:
        """A member's ``version`` (its number), or ``None``."""
        rows = self.db.query(
            f"SELECT {COLUMNS} FROM submissions WHERE member_id = ? AND version = ?",
            (member_id, version),
        )
        return _submission(rows[0]) if rows else None

    def claim(self) -> Submission | None:
        """The oldest ``received`` version of a team none of whose versions is
        ``building``, marked ``building`` in the same transaction (so two builders never
        take the same one, nor two versions of one team), or ``None``. With one waiting
        version per team (:meth:`add` replaces an older one), the oldest first serves
        the teams in turn: a team that uploads again goes behind those already waiting."""
        with self.db.transaction() as db:
            row = db.execute(
                f"SELECT {COLUMNS} FROM submissions WHERE status = 'received' AND member_id"
                " NOT IN (SELECT member_id FROM submissions WHERE status = 'building')"
                " ORDER BY id LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE submissions SET status = 'building' WHERE id = ?", (row[0],))
        return self.get(int(row[0]))

    def release(self, submission_id: int) -> None:
        """Hand a ``building`` version back to the builder unjudged (``received``): its
        check could not be judged on this machine now."""
        with self.db.transaction() as db:
            db.execute(
                "UPDATE submissions SET status = 'received' WHERE id = ? AND status = 'building'",
                (submission_id,),
            )

    def decide(
        self, submission_id: int, accepted: bool, detail: str, now: float | None = None
    ) -> Submission:
        """A built version's verdict: ``accepted`` or ``refused`` with its ``detail``."""
        status = "accepted" if accepted else "refused"
        stamp = time.time() if now is None else now
        with self.db.transaction() as db:
            changed = db.execute(
                "UPDATE submissions SET status = ?, detail = ?, decided = ? WHERE id = ?",
                (status, detail, stamp, submission_id),
            ).rowcount
        if not changed:
            raise LeagueError(f"no submission {submission_id}")
        return self.get(submission_id)

    def build_again(self, member_id: int, version: int) -> Submission:
        """Hand a member's refused ``version`` back to the builder (``received``, its old
        account cleared): a refusal that came from the server's load, or a build the team
        wants tried again. :class:`~.records.LeagueError` for a version that is not
        refused (one being built or accepted stays as it is)."""
        with self.db.transaction() as db:
            row = db.execute(
                "SELECT id, status FROM submissions WHERE member_id = ? AND version = ?",
                (member_id, version),
            ).fetchone()
            if row is None:
                raise LeagueError(f"no version {version}")
            if row[1] != "refused":
                raise LeagueError(
                    f"version {version} is {row[1]}: only a refused one is built again"
                )
            db.execute(
                "UPDATE submissions SET status = 'received', detail = '', decided = NULL"
                " WHERE id = ?",
                (row[0],),
            )
        return self.get(int(row[0]))

    def games_of(self, member_id: int, submission_id: int, limit: int = 200) -> list[int]:
        """The ids of the games ``member_id`` played with the version ``submission_id``,
        newest first, at most ``limit`` (through the players' indexes)."""
        rows = self.db.query(
            "SELECT id FROM (SELECT id FROM games WHERE x_id = ? AND x_version = ?"
            " UNION ALL SELECT id FROM games WHERE o_id = ? AND o_version = ?)"
            " ORDER BY id DESC LIMIT ?",
            (member_id, submission_id, member_id, submission_id, int(limit)),
        )
        return [int(r[0]) for r in rows]

    def requeue(self) -> int:
        """Hand the versions a stopped server was building back to the builder; how many."""
        with self.db.transaction() as db:
            return int(
                db.execute(
                    "UPDATE submissions SET status = 'received' WHERE status = 'building'"
                ).rowcount
            )

    def playing(self, member_id: int, deadline: float | None = None) -> Submission | None:
        """The version a member plays: its latest accepted one, or with ``deadline`` (an
        event's) its latest accepted one uploaded before it; ``None`` if it has none."""
        rows = self.db.query(
            f"SELECT {COLUMNS} FROM submissions WHERE member_id = ? AND status = 'accepted'"
            " AND (? IS NULL OR created < ?) ORDER BY version DESC LIMIT 1",
            (member_id, deadline, deadline),
        )
        return _submission(rows[0]) if rows else None

    def closing_event(self, member_id: int, now: float | None = None) -> tuple[str, float] | None:
        """An event that closes the member's uploads now: one it is entered in (not
        withdrawn), not finished, whose deadline has passed; its name and deadline, or
        ``None`` when the member may upload."""
        stamp = time.time() if now is None else now
        rows = self.db.query(
            "SELECT e.name, e.deadline FROM events e JOIN event_members m ON m.event_id = e.id"
            " WHERE m.member_id = ? AND m.withdrawn = 0 AND e.status != 'finished'"
            " AND e.deadline IS NOT NULL AND e.deadline <= ? ORDER BY e.deadline LIMIT 1",
            (member_id, stamp),
        )
        return (str(rows[0][0]), float(rows[0][1])) if rows else None

    def deadlines(self) -> dict[str, float]:
        """Every event's upload deadline that is set, by the event's name."""
        rows = self.db.query("SELECT name, deadline FROM events WHERE deadline IS NOT NULL")
        return {str(name): float(deadline) for name, deadline in rows}

    def set_deadline(self, event_name: str, deadline: float | None) -> None:
        """Set (or with ``None`` clear) an event's upload deadline."""
        with self.db.transaction() as db:
            changed = db.execute(
                "UPDATE events SET deadline = ? WHERE name = ?", (deadline, event_name)
            ).rowcount
        if not changed:
            raise LeagueError(f"no event named {event_name!r}")

    def latest_accepted(self) -> dict[int, Submission]:
        """Each member's latest accepted version (what it plays on the ladder), by member
        id, in one query through the status index."""
        rows = self.db.query(
            f"SELECT {COLUMNS} FROM submissions s WHERE status = 'accepted' AND version = "
            "(SELECT MAX(version) FROM submissions WHERE member_id = s.member_id"
            " AND status = 'accepted')"
        )
        return {found.member_id: found for found in map(_submission, rows)}

    def being_built(self) -> set[int]:
        """The members with a version waiting to be built or being built."""
        rows = self.db.query(
            "SELECT DISTINCT member_id FROM submissions WHERE status IN ('received', 'building')"
        )
        return {int(row[0]) for row in rows}

    def deadline(self, event_id: int) -> float | None:
        """An event's upload deadline, ``None`` when it has none (or no such event)."""
        rows = self.db.query("SELECT deadline FROM events WHERE id = ?", (event_id,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    def set_versions(self, game_id: int, x_version: int | None, o_version: int | None) -> None:
        """Record the version (``submissions.id``) each side of ``game_id`` plays, ``None``
        for a side that is no hosted bot."""
        with self.db.transaction() as db:
            db.execute(
                "UPDATE games SET x_version = ?, o_version = ? WHERE id = ?",
                (x_version, o_version, game_id),
            )

    def played(self, game_id: int) -> tuple[int | None, int | None]:
        """The versions (``submissions.id``) that played ``game_id``'s two sides."""
        x, o = self.db.row(
            "SELECT x_version, o_version FROM games WHERE id = ?", (game_id,), f"no game {game_id}"
        )
        return (None if x is None else int(x), None if o is None else int(o))

    def results(self, member_id: int) -> dict[int, tuple[int, float]]:
        """Each version's finished games and points (1 a win, 1/2 a draw), by
        ``submissions.id``; a version that played no finished game is absent. Read
        through the members' game indexes, not the whole table."""
        rows = self.db.query(
            "SELECT v, COUNT(*), SUM(p) FROM ("
            " SELECT x_version AS v, CASE result WHEN 'x' THEN 1.0 WHEN 'draw' THEN 0.5"
            " ELSE 0.0 END AS p FROM games"
            " WHERE x_id = ? AND status = 'finished' AND x_version IS NOT NULL"
            " UNION ALL SELECT o_version, CASE result WHEN 'o' THEN 1.0 WHEN 'draw' THEN 0.5"
            " ELSE 0.0 END FROM games"
            " WHERE o_id = ? AND status = 'finished' AND o_version IS NOT NULL"
            ") GROUP BY v",
            (member_id, member_id),
        )
        return {int(r[0]): (int(r[1]), float(r[2])) for r in rows}

    def game_versions(
        self, game_ids: list[int]
    ) -> dict[int, tuple[int, int | None, int, int | None]]:
        """For each of ``game_ids``: ``(x member, its version number, o member, its
        version number)``, the team's own numbers (1 for its first upload), ``None`` for
        a side that played no stored version (a connected client, a house bot, a
        person). Games not found are absent."""
        found: dict[int, tuple[int, int | None, int, int | None]] = {}
        for first in range(0, len(game_ids), CHUNK):
            chunk = game_ids[first : first + CHUNK]
            rows = self.db.query(
                "SELECT g.id, g.x_id, sx.version, g.o_id, so.version FROM games g"
                " LEFT JOIN submissions sx ON sx.id = g.x_version"
                " LEFT JOIN submissions so ON so.id = g.o_version"
                f" WHERE g.id IN ({','.join('?' * len(chunk))})",
                tuple(chunk),
            )
            for game_id, x_id, x_version, o_id, o_version in rows:
                found[int(game_id)] = (
                    int(x_id), None if x_version is None else int(x_version),
                    int(o_id), None if o_version is None else int(o_version),
                )  # fmt: skip
        return found
