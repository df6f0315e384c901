"""The league's members and what establishes a person (:class:`MembersRepo`, on a
:class:`~.database.LeagueDb`): the tables ``members`` and ``proofs``.

The functions :func:`established_in` and :func:`add_proof` work on a connection inside
the caller's transaction or lock: the games' repository (:mod:`.game_rows`) counts a
game's proofs as it stores the game's end; the schema's upgrade (:mod:`.schema`) replays
them (:func:`.proofs.replay_proofs`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from ...core.text import quote
from ..rules import LeagueRules, Progress
from .names import NameIndex, check_not_reserved
from .records import (
    KINDS,
    MAX_CONCURRENCY,
    REMOVED,
    TOKEN_PREFIX,
    LeagueError,
    Member,
    NameTaken,
    check_name,
    new_token,
    token_hash,
)

if TYPE_CHECKING:  # the database's schema replays proofs with this module's functions
    from .database import LeagueDb

MEMBER_COLUMNS = "id, name, kind, spec, revoked, concurrency"
"""The columns of a :class:`~.records.Member`, in its fields' order."""


class MembersRepo:
    """The league's members: joining, names, tokens, revocation, removal, approval and
    establishment. Thread-safe (every use goes through the :class:`~.database.LeagueDb`)."""

    def __init__(self, db: LeagueDb) -> None:
        self.db = db
        self._names: NameIndex | None = None
        self._names_version = -1
        self.approvals = 0
        """Approvals made through this repository (:meth:`approve`): a cache of who is
        established keys on it, so an approval shows at once."""

    # ---------------------------------------------------------------- members

    def add_member(
        self,
        name: str,
        kind: str,
        spec: str | None = None,
        concurrency: int = 1,
        origin: str | None = None,
    ) -> tuple[Member, str | None]:
        """Add a member; return it and its token (``None`` for a house bot). The token is
        returned once and stored only as its hash. ``origin``: the key of the address a
        person joined from (:func:`~adjacency.serving.addresses.address_key`), what
        makes people of one address one voucher (:mod:`.rules`); ``None`` (added by the
        admin): their own.
        A name must have the allowed form and not be reserved (:class:`LeagueError`), and
        no member may have it or a look-alike of it (:class:`~.records.NameTaken`): the
        rule of :mod:`.names`."""
        check_name(name)
        check_not_reserved(name, LeagueError)
        if kind not in KINDS:
            raise LeagueError(f"member kind {quote(kind)} is not one of {', '.join(KINDS)}")
        if not 1 <= concurrency <= MAX_CONCURRENCY:
            raise LeagueError(f"concurrency must be 1 to {MAX_CONCURRENCY}, got {concurrency}")
        token = None if kind == "house" else new_token()
        with self.db.transaction() as db:
            index = self._name_index(db)
            alike = index.alike(name)
            if alike is not None and alike.lower() == name.lower():
                raise NameTaken(f"a member named {quote(alike)} exists already")
            if alike is not None:
                raise NameTaken(
                    f"name {quote(name)} is too much like the member {quote(alike)}'s "
                    "(letters and digits that look alike, or case): choose another"
                )
            cursor = db.execute(
                "INSERT INTO members (name, kind, spec, token_hash, concurrency, created, "
                "origin) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (name, kind, spec, None if token is None else token_hash(token), concurrency,
                 time.time(), origin),
            )  # fmt: skip
            member_id = int(cursor.lastrowid or 0)
        index.add(name)  # once committed: a failed insert must not keep the name taken
        return self.member(member_id), token

    def _name_index(self, db: sqlite3.Connection) -> NameIndex:
        """The look-alike index of every member's name (inside a transaction). Read once
        and kept up to date by this store's own writes; read again whenever another
        connection (an ``adjacency league`` command beside a running server) changed the
        file, which SQLite's ``data_version`` tells, so a join never reads every name."""
        version = int(db.execute("PRAGMA data_version").fetchone()[0])
        if self._names is None or version != self._names_version:
            self._names = NameIndex(str(row[0]) for row in db.execute("SELECT name FROM members"))
            self._names_version = version
        return self._names

    def _member_row(self, row: tuple[Any, ...]) -> Member:
        return Member(
            int(row[0]), str(row[1]), str(row[2]), row[3], bool(row[4]), int(row[5]),
            removed=row[4] == REMOVED,
        )  # fmt: skip

    def member(self, member_id: int) -> Member:
        """The member with this id, revoked or not; :class:`LeagueError` if there is none."""
        return self._member_where("id", member_id, f"no member with id {member_id}")

    def member_named(self, name: str) -> Member:
        """The member called ``name``, revoked or not; :class:`LeagueError` if there is none."""
        return self._member_where("name", name, f"no member named {quote(name)}")

    def _member_where(self, column: Literal["id", "name"], value: object, missing: str) -> Member:
        """The one member whose ``column`` (unique) is ``value``; else ``missing``."""
        return self._member_row(
            self.db.row(
                "SELECT id, name, kind, spec, revoked, concurrency FROM members "
                f"WHERE {column} = ?",
                (value,),
                missing,
            )
        )

    def members(self) -> list[Member]:
        """Every member, revoked ones too, in the order they were added."""
        rows = self.db.query(
            "SELECT id, name, kind, spec, revoked, concurrency FROM members ORDER BY id"
        )
        return [self._member_row(r) for r in rows]

    def member_count(self) -> int:
        """How many members the league has (revoked ones included)."""
        return int(self.db.query("SELECT COUNT(*) FROM members")[0][0])

    def members_stamp(self) -> tuple[int, int, int]:
        """What changes when a member is added, removed, revoked or restored: ``(count,
        largest id, revoked count)`` (a cache's key; one indexed count, no rows read)."""
        row = self.db.query("SELECT COUNT(*), COALESCE(MAX(id), 0), TOTAL(revoked) FROM members")
        return int(row[0][0]), int(row[0][1]), int(row[0][2])

    def names(self, ids: Iterable[int]) -> dict[int, str]:
        """The names of the members with these ids (those that exist), by id: a page
        names the players it shows without reading every member."""
        wanted = sorted(set(ids))
        found: dict[int, str] = {}
        for start in range(0, len(wanted), 500):  # SQLite's bound on a statement's variables
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self.db.query(
                f"SELECT id, name FROM members WHERE id IN ({marks})", tuple(chunk)
            )
            found.update({int(i): str(n) for i, n in rows})
        return found

    def listed_members(self, online: Iterable[int] = ()) -> list[Member]:
        """The members a leaderboard lists, in the order they were added: every bot and
        house bot (revoked ones too, removed ones and those kept out, :meth:`keep_out`,
        not), and the people who have finished a game or are in ``online`` (a person who
        joined and never played is not listed: 24,000 idle accounts must not make every
        poll megabytes)."""
        present = sorted(set(online))
        marks = ", ".join("?" * len(present)) or "NULL"
        rows = self.db.query(
            f"SELECT {MEMBER_COLUMNS} FROM members WHERE (kind != 'person' OR id IN ({marks}) "
            "OR id IN (SELECT member_id FROM results WHERE games > 0)) AND revoked != ? "
            "AND kept_out = 0 ORDER BY id",
            (*present, REMOVED),
        )
        return [self._member_row(r) for r in rows]

    def keep_out(self, name: str, kept: bool = True) -> Member:
        """Keep the bot or house bot ``name`` out of the ladder and the events (a template
        or sparring account), or with ``kept`` false bring it back: while kept out it is
        never paired on the ladder, taken into no event, its games are unrated and the
        standings do not list it. :class:`LeagueError` for a person, or for a member
        entered in an event that has not finished (withdraw it first)."""
        member = self.member_named(name)
        if member.kind == "person":
            raise LeagueError(f"{quote(member.name)} is a person: only a bot is kept out")
        with self.db.transaction() as db:
            if kept:
                busy = db.execute(
                    "SELECT e.name FROM events e JOIN event_members m ON m.event_id = e.id "
                    "WHERE m.member_id = ? AND m.withdrawn = 0 AND e.status != 'finished' "
                    "LIMIT 1",
                    (member.id,),
                ).fetchone()
                if busy is not None:
                    raise LeagueError(
                        f"{quote(member.name)} is in event {quote(str(busy[0]))}: "
                        "withdraw it from the event first"
                    )
            db.execute("UPDATE members SET kept_out = ? WHERE id = ?", (int(kept), member.id))
        return member

    def kept_out(self) -> set[int]:
        """The ids of the members kept out (:meth:`keep_out`), through their index."""
        return {int(r[0]) for r in self.db.query("SELECT id FROM members WHERE kept_out = 1")}

    def pairable(self, ids: Iterable[int]) -> dict[int, tuple[Member, str | None]]:
        """The house bots and the bots among ``ids`` (people are never paired), each with
        its token hash, by id: what a scheduler pass needs, read through the ``kind``
        index and the primary key, not by reading every member."""
        wanted = sorted(set(ids))
        found: dict[int, tuple[Member, str | None]] = {}
        chunks = [wanted[i : i + 500] for i in range(0, len(wanted), 500)] or [[]]
        for number, chunk in enumerate(chunks):
            marks = ", ".join("?" * len(chunk)) or "NULL"
            house = "kind = 'house' OR " if number == 0 else ""
            rows = self.db.query(
                "SELECT id, name, kind, spec, revoked, concurrency, token_hash FROM members "
                f"WHERE ({house}id IN ({marks})) AND kind != 'person'",
                tuple(chunk),
            )
            found.update({int(r[0]): (self._member_row(r), r[6]) for r in rows})
        return found

    def people_in(self, ids: Iterable[int]) -> dict[int, Member]:
        """The people among ``ids``, by id (read by primary key: an event's people, whom
        a scheduler pass pairs for their event games only)."""
        wanted = sorted(set(ids))
        found: dict[int, Member] = {}
        for i in range(0, len(wanted), 500):
            chunk = wanted[i : i + 500]
            rows = self.db.query(
                f"SELECT {MEMBER_COLUMNS} FROM members "
                f"WHERE id IN ({', '.join('?' * len(chunk))}) AND kind = 'person'",
                tuple(chunk),
            )
            found.update({int(r[0]): self._member_row(r) for r in rows})
        return found

    def authenticate(self, token: str) -> Member | None:
        """The member whose token this is, if it is not revoked; else ``None``."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        rows = self.db.query(
            "SELECT id, name, kind, spec, revoked, concurrency FROM members "
            "WHERE token_hash = ? AND revoked = 0",
            (token_hash(token),),
        )
        return self._member_row(rows[0]) if rows else None

    def revoke(self, name: str) -> Member:
        """Revoke a member's token (it can no longer connect); its games and ratings stay."""
        member = self.member_named(name)
        with self.db.transaction() as db:
            db.execute("UPDATE members SET revoked = 1 WHERE id = ?", (member.id,))
        return self.member(member.id)

    def remove(self, name: str) -> tuple[Member, bool]:
        """Remove a member (the admin's ``league remove``): its token stops working for
        good and a running server closes its connection (as for a revoked one). A member
        that never played (no game, pair, rating or event of its own) is deleted and its
        name is free again; one with games is kept as *removed* (:data:`REMOVED`): its
        games stay in the history under its name, the standings no longer list it, and
        its name stays taken. Returns the member as it was and whether it was deleted."""
        member = self.member_named(name)
        with self.db.transaction() as db:
            if self._never_played(db, member.id):
                if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'team_notes'").fetchone():
                    db.execute("DELETE FROM team_notes WHERE member_id = ?", (member.id,))
                db.execute("DELETE FROM members WHERE id = ?", (member.id,))
                self._names = None  # read the names again: this one is free
                return member, True
            db.execute(
                "UPDATE members SET revoked = ?, token_hash = NULL WHERE id = ?",
                (REMOVED, member.id),
            )
        return member, False

    @staticmethod
    def _never_played(db: sqlite3.Connection, member_id: int) -> bool:
        """Whether no stored row refers to the member (so deleting it loses nothing)."""
        uses = [
            "SELECT 1 FROM games WHERE x_id = ?1 OR o_id = ?1",
            "SELECT 1 FROM pairs WHERE a_id = ?1 OR b_id = ?1",
            "SELECT 1 FROM ratings WHERE member_id = ?1",
        ]
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'event_members'").fetchone():
            uses.append("SELECT 1 FROM event_members WHERE member_id = ?1")
        return not any(db.execute(f"{sql} LIMIT 1", (member_id,)).fetchone() for sql in uses)

    def expire_people(
        self, older_than: float, keep: set[int] | frozenset[int] = frozenset()
    ) -> list[str]:
        """Delete the people who joined before ``older_than`` (a ``time.time()``) and never
        played (:meth:`_never_played`; one who joined an event has a place to keep),
        except those in ``keep`` (present now); return their names. Join spam does not
        accumulate: such a person has nothing to keep, and their play page, opened again,
        asks them to join again (docs/league.md, ``--people-expire-days``)."""
        with self.db.transaction() as db:
            rows = db.execute(
                "SELECT id, name FROM members WHERE kind = 'person' AND created < ? "
                "AND NOT EXISTS (SELECT 1 FROM games WHERE x_id = members.id OR o_id = members.id) "
                "AND NOT EXISTS (SELECT 1 FROM pairs WHERE a_id = members.id OR b_id = members.id) "
                "AND NOT EXISTS (SELECT 1 FROM ratings WHERE member_id = members.id) "
                "AND NOT EXISTS (SELECT 1 FROM event_members WHERE member_id = members.id)",
                (older_than,),
            ).fetchall()
            gone = [(int(i), str(n)) for i, n in rows if int(i) not in keep]
            db.executemany("DELETE FROM members WHERE id = ?", [(i,) for i, _ in gone])
            if gone:
                self._names = None
        return [name for _, name in gone]

    def approve(self, name: str) -> Member:
        """Approve a person: their games are rated from now on (:mod:`.rules`); a bot or
        house bot is established already (:class:`LeagueError`)."""
        member = self.member_named(name)
        if member.kind != "person":
            raise LeagueError(f"{quote(name)} is a {member.kind}: only people need approval")
        with self.db.transaction() as db:
            db.execute("UPDATE members SET approved = 1 WHERE id = ?", (member.id,))
        self.approvals += 1
        return member

    def established(self, member_id: int, rules: LeagueRules) -> tuple[bool, Progress]:
        """Whether the member's games are rated under ``rules``, and the sentence that
        says so to a person (bots and house bots: always rated)."""
        with self.db.reading() as db:
            return established_in(db, member_id, rules)

    def proofs(self) -> dict[tuple[int, int], int]:
        """The ``proofs`` rows as stored: games counted toward establishment, by
        ``(person, opponent)`` (what :func:`.proofs.replay_proofs` recomputes)."""
        rows = self.db.query("SELECT member_id, opponent_id, games FROM proofs")
        return {(int(m), int(o)): int(n) for m, o, n in rows}

    def rotate(self, name: str) -> str:
        """Give a member a new token (the old one stops working); return the new token."""
        member = self.member_named(name)
        if member.kind == "house":
            raise LeagueError(f"{quote(name)} is a house bot: it has no token")
        if member.removed:
            raise LeagueError(f"{quote(member.name)} was removed from the league")
        token = new_token()
        with self.db.transaction() as db:
            db.execute(
                "UPDATE members SET token_hash = ?, revoked = 0 WHERE id = ?",
                (token_hash(token), member.id),
            )
        return token


VOUCHER = (
    "CASE WHEN v.approved THEN 'approved:' || v.id "
    "WHEN v.origin IS NULL THEN 'member:' || v.id ELSE 'origin:' || v.origin END"
)
"""SQL of the voucher that the member row ``v`` counts as (:mod:`.rules`): an approved
person their own; else one per address they joined from; a person added without one
(by the admin, or before addresses were kept) their own."""


VOUCHERS = (
    f"SELECT COUNT(*) FROM (SELECT DISTINCT {VOUCHER} FROM proofs p "
    "JOIN members v ON v.id = p.opponent_id WHERE p.member_id = ?1 "
    "AND (v.approved OR v.origin IS NULL OR ?2 IS NULL OR v.origin != ?3) LIMIT ?4)"
)
"""SQL of how many distinct vouchers proved the person ``?1`` of address key ``?2``
(``?3`` the same), counted up to ``?4`` (the rule's number: the query stops there):
their ``proofs`` rows by primary key, each with its person's row by primary key."""


def established_in(
    db: sqlite3.Connection, member_id: int, rules: LeagueRules
) -> tuple[bool, Progress]:
    """What :meth:`MembersRepo.established` answers, in the caller's transaction or
    lock. Reads the member's row and its ``proofs`` rows (one per person that proved
    them, by primary key) with those people's rows, whatever the number of games
    stored: the distinct vouchers among them (:data:`VOUCHERS`), leaving out people of
    the member's own address who are not approved, until the rule's number is found. A
    member that does not exist (deleted meanwhile) is not established."""
    row = db.execute(
        "SELECT kind, approved, origin FROM members WHERE id = ?", (member_id,)
    ).fetchone()
    if row is None:
        return False, rules.progress(False, 0)
    kind, approved, origin = row
    if kind != "person":
        return True, Progress("your games are rated", "rated")
    (vouchers,) = db.execute(
        VOUCHERS, (member_id, origin, origin, max(1, rules.established_games))
    ).fetchone()
    args = (bool(approved), int(vouchers))
    return rules.established(*args), rules.progress(*args)


def add_proof(db: sqlite3.Connection, member_id: int, opponent_id: int) -> None:
    """Count one finished game of ``member_id`` against ``opponent_id`` toward the
    member's establishment (``proofs``), in the caller's transaction: the games'
    repository calls it as a game ends, for each person whose opponent was established then
    (the rule of :mod:`.rules`)."""
    db.execute(
        "INSERT INTO proofs (member_id, opponent_id, games) VALUES (?, ?, 1) "
        "ON CONFLICT (member_id, opponent_id) DO UPDATE SET games = games + 1",
        (member_id, opponent_id),
    )


def is_person(db: sqlite3.Connection, member_id: int) -> bool:
    """Whether the member ``member_id`` is a person (inside the caller's transaction)."""
    row = db.execute("SELECT kind FROM members WHERE id = ?", (member_id,)).fetchone()
    return row is not None and row[0] == "person"
